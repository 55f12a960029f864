/**
 * verdict's MCP server as the `verdict` entry of a JSON config file's server map:
 * `mcpServers.verdict` (Claude Code's ~/.claude.json, Gemini CLI's and Qwen Code's settings.json,
 * Copilot CLI's mcp-config.json) or OpenCode's `mcp.verdict`. Pure text edits that touch only
 * that entry (json_edit.ts keeps every other byte). What the entry holds, which map holds it and
 * what a refusal tells the person to do are the agent's (an McpServersSpec in
 * src/agents/<id>/mcp.ts).
 *
 * An existing `mcpServers.verdict` is verdict's own when it is a stdio server whose program is
 * named verdict and whose only argument is "mcp" (what install writes, and what the agents'
 * own `mcp add verdict … verdict mcp` writes), with no keys but the entry's own and the ones the
 * agent lets a person add (kept on update); anything else under that name is refused. An agent
 * whose entries have another shape says what makes one verdict's (McpServersSpec.isOurs).
 */
import { basename } from "../config/paths.ts";
import {
  insertMember,
  type JsonObjectNode,
  member,
  nodeValue,
  removeMember,
  replaceNode,
} from "./json_edit.ts";
import { ALWAYS_PRUNE, type EditResult, HostFileError, type MayPrune } from "./errors.ts";
import { objectMember, rootObject } from "./host_json.ts";
import { isDeepStrictEqual } from "node:util";

/** "ours": written by install (or the agent's own `mcp add`); "other": someone else's; null: none. */
export type McpState = "ours" | "other" | null;

export const MCP_NAME = "verdict";

export interface McpServersSpec {
  /** The entry install writes. */
  entry(bin: string, env: Readonly<Record<string, string>>): Record<string, unknown>;
  /** Keys a person may add to verdict's entry (Gemini CLI's `trust`): allowed, and kept on update. */
  readonly personalKeys: readonly string[];
  /** The hint of the refusal to replace someone else's entry. */
  readonly foreignHint: string;
  /** `type` values an entry of verdict's may carry (default: "stdio"; Copilot CLI also writes "local"). */
  readonly types?: readonly string[];
  /** The top-level member holding the servers (default "mcpServers"; OpenCode's is "mcp"). */
  readonly member?: string;
  /** What that member holds, for the refusal when it is not an object (default '{"<name>": {...}}'). */
  readonly memberShape?: string;
  /**
   * Is an existing entry verdict's own? Default: isVerdictMcpEntry with the spec's personalKeys
   * and types; an agent whose entries have another shape brings its own test.
   */
  readonly isOurs?: (value: unknown) => boolean;
  /** The text a file install creates starts from (default "{}\n"). */
  readonly newFile?: string;
}

const DEFAULT_MEMBER = "mcpServers";

/** Keys a stdio entry of verdict's may hold (`type` only as one of the spec's types). */
const ENTRY_KEYS = ["type", "command", "args", "env"];

/** Is `value` a verdict stdio MCP server entry (ours to update or remove)? */
export function isVerdictMcpEntry(
  value: unknown,
  personalKeys: readonly string[] = [],
  types: readonly string[] = ["stdio"],
): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).some((k) => !ENTRY_KEYS.includes(k) && !personalKeys.includes(k))) return false;
  if (v.type !== undefined && !types.includes(String(v.type))) return false;
  if (typeof v.command !== "string") return false;
  const name = basename(v.command.replaceAll("\\", "/")).replace(/\.exe$/i, "");
  return name === "verdict" && isDeepStrictEqual(v.args, ["mcp"]);
}

function serversObject(spec: McpServersSpec, root: JsonObjectNode, path: string): JsonObjectNode | null {
  return objectMember(root, memberOf(spec), path, spec.memberShape ?? '{"<name>": {...}}');
}

function memberOf(spec: McpServersSpec): string {
  return spec.member ?? DEFAULT_MEMBER;
}

function isOurs(spec: McpServersSpec, value: unknown): boolean {
  return spec.isOurs ? spec.isOurs(value) : isVerdictMcpEntry(value, spec.personalKeys, spec.types);
}

/** Adds (or brings up to date) verdict's entry. `text` is "" for a missing file. */
export function installMcpServer(
  spec: McpServersSpec,
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  const name = `${memberOf(spec)}.${MCP_NAME}`;
  const base = text.trim() === "" ? spec.newFile ?? "{}\n" : text;
  const root = rootObject(base, path);
  const entry = spec.entry(bin, env);
  const servers = serversObject(spec, root, path);
  if (!servers) {
    return {
      text: insertMember(base, root, memberOf(spec), { [MCP_NAME]: entry }),
      changes: [`${name} added`],
      notes: [],
      created: [memberOf(spec)],
    };
  }
  const existing = member(servers, MCP_NAME);
  if (!existing) {
    return { text: insertMember(base, servers, MCP_NAME, entry), changes: [`${name} added`], notes: [] };
  }
  const current = nodeValue(existing.value);
  if (!isOurs(spec, current)) {
    throw new HostFileError(
      `refusing to replace ${name} in "${path}": it was not written by "verdict install"`,
      spec.foreignHint,
    );
  }
  const kept = Object.fromEntries(
    Object.entries(current as Record<string, unknown>).filter(([k]) => spec.personalKeys.includes(k)),
  );
  const wanted = { ...entry, ...kept };
  if (isDeepStrictEqual(current, wanted)) return { text, changes: [], notes: [] };
  return { text: replaceNode(base, existing.value, wanted), changes: [`${name} updated`], notes: [] };
}

/**
 * Removes verdict's entry when it is verdict's own (and the server map when it is left empty and
 * install created it).
 */
export function uninstallMcpServer(
  spec: McpServersSpec,
  text: string,
  path: string,
  mayPrune: MayPrune = ALWAYS_PRUNE,
): EditResult {
  if (text.trim() === "") return { text, changes: [], notes: [] };
  const name = `${memberOf(spec)}.${MCP_NAME}`;
  const root = rootObject(text, path);
  const servers = serversObject(spec, root, path);
  const existing = servers ? member(servers, MCP_NAME) : undefined;
  if (!servers || !existing) return { text, changes: [], notes: [] };
  if (!isOurs(spec, nodeValue(existing.value))) {
    return { text, changes: [], notes: [`${name} was not written by verdict install; left as is`] };
  }
  const out = servers.members.length === 1 && mayPrune(memberOf(spec))
    ? removeMember(text, root, memberOf(spec))
    : removeMember(text, servers, MCP_NAME);
  return { text: out, changes: [`${name} removed`], notes: [] };
}

/** The registered verdict server in a config text: "ours", "other", or null when absent. */
export function mcpServerState(spec: McpServersSpec, text: string, path: string): McpState {
  if (text.trim() === "") return null;
  const servers = serversObject(spec, rootObject(text, path), path);
  const existing = servers ? member(servers, MCP_NAME) : undefined;
  if (!existing) return null;
  return isOurs(spec, nodeValue(existing.value)) ? "ours" : "other";
}
