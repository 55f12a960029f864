/**
 * verdict's stdio MCP server as an `mcpServers.verdict` entry of a JSON config file (Claude
 * Code's ~/.claude.json, Gemini CLI's and Qwen Code's settings.json). Pure text edits that touch
 * only that entry (json_edit.ts keeps every other byte). What the entry holds and what a refusal
 * tells the person to do are the agent's (an McpServersSpec in src/agents/<id>/mcp.ts).
 *
 * An existing `mcpServers.verdict` is verdict's own when it is a stdio server whose program is
 * named verdict and whose only argument is "mcp" (what install writes, and what the agents'
 * own `mcp add verdict … verdict mcp` writes), with no keys but the entry's own and the ones the
 * agent lets a person add (kept on update); anything else under that name is refused.
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
import { type EditResult, HostFileError } from "./errors.ts";
import { objectMember, rootObject } from "./host_json.ts";
import { isDeepStrictEqual } from "node:util";

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
}

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

function serversObject(root: JsonObjectNode, path: string): JsonObjectNode | null {
  return objectMember(root, "mcpServers", path, '{"<name>": {...}}');
}

/** Adds (or brings up to date) mcpServers.verdict. `text` is "" for a missing file. */
export function installMcpServer(
  spec: McpServersSpec,
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  const base = text.trim() === "" ? "{}\n" : text;
  const root = rootObject(base, path);
  const entry = spec.entry(bin, env);
  const servers = serversObject(root, path);
  if (!servers) {
    return {
      text: insertMember(base, root, "mcpServers", { [MCP_NAME]: entry }),
      changes: ["mcpServers.verdict added"],
      notes: [],
    };
  }
  const existing = member(servers, MCP_NAME);
  if (!existing) {
    return {
      text: insertMember(base, servers, MCP_NAME, entry),
      changes: ["mcpServers.verdict added"],
      notes: [],
    };
  }
  const current = nodeValue(existing.value);
  if (!isVerdictMcpEntry(current, spec.personalKeys, spec.types)) {
    throw new HostFileError(
      `refusing to replace mcpServers.verdict in "${path}": it was not written by "verdict install"`,
      spec.foreignHint,
    );
  }
  const kept = Object.fromEntries(
    Object.entries(current as Record<string, unknown>).filter(([k]) => spec.personalKeys.includes(k)),
  );
  const wanted = { ...entry, ...kept };
  if (isDeepStrictEqual(current, wanted)) return { text, changes: [], notes: [] };
  return {
    text: replaceNode(base, existing.value, wanted),
    changes: ["mcpServers.verdict updated"],
    notes: [],
  };
}

/** Removes mcpServers.verdict when it is verdict's own (and mcpServers when it is left empty). */
export function uninstallMcpServer(spec: McpServersSpec, text: string, path: string): EditResult {
  if (text.trim() === "") return { text, changes: [], notes: [] };
  const root = rootObject(text, path);
  const servers = serversObject(root, path);
  const existing = servers ? member(servers, MCP_NAME) : undefined;
  if (!servers || !existing) return { text, changes: [], notes: [] };
  if (!isVerdictMcpEntry(nodeValue(existing.value), spec.personalKeys, spec.types)) {
    return {
      text,
      changes: [],
      notes: ["mcpServers.verdict was not written by verdict install; left as is"],
    };
  }
  const out = servers.members.length === 1
    ? removeMember(text, root, "mcpServers")
    : removeMember(text, servers, MCP_NAME);
  return { text: out, changes: ["mcpServers.verdict removed"], notes: [] };
}

/** The registered verdict server in a config text: "ours", "other", or null when absent. */
export function mcpServerState(spec: McpServersSpec, text: string, path: string): "ours" | "other" | null {
  if (text.trim() === "") return null;
  const servers = serversObject(rootObject(text, path), path);
  const existing = servers ? member(servers, MCP_NAME) : undefined;
  if (!existing) return null;
  return isVerdictMcpEntry(nodeValue(existing.value), spec.personalKeys, spec.types) ? "ours" : "other";
}
