/**
 * verdict's user-scope MCP server in Claude Code's own config file (~/.claude.json, which also
 * holds much other state): `mcpServers.verdict`, a stdio server running `<bin> mcp`. Pure text
 * edits that touch only that entry (json_edit.ts keeps every other byte).
 *
 * An existing `mcpServers.verdict` is verdict's own when it is a stdio server whose program is
 * named verdict and whose only argument is "mcp" (what install writes, and what
 * `claude mcp add verdict -- verdict mcp` writes); anything else under that name is refused.
 */
import { basename } from "../../config/paths.ts";
import {
  insertMember,
  type JsonObjectNode,
  member,
  nodeValue,
  removeMember,
  replaceNode,
} from "../../install/json_edit.ts";
import { type EditResult, HostFileError } from "../../install/errors.ts";
import { objectMember, rootObject } from "../../install/host_json.ts";
import { isDeepStrictEqual } from "node:util";

export const MCP_NAME = "verdict";

export function mcpEntry(bin: string, env: Readonly<Record<string, string>>) {
  return { type: "stdio", command: bin, args: ["mcp"], env: { ...env } };
}

/** Is `value` a verdict stdio MCP server entry (ours to update or remove)? */
export function isOurMcpEntry(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v);
  if (keys.some((k) => !["type", "command", "args", "env"].includes(k))) return false;
  if (v.type !== undefined && v.type !== "stdio") return false;
  if (typeof v.command !== "string") return false;
  const name = basename(v.command.replaceAll("\\", "/")).replace(/\.exe$/i, "");
  return name === "verdict" && isDeepStrictEqual(v.args, ["mcp"]);
}

function serversObject(root: JsonObjectNode, path: string): JsonObjectNode | null {
  return objectMember(root, "mcpServers", path, '{"<name>": {...}}');
}

/** Adds (or brings up to date) mcpServers.verdict. `text` is "" for a missing file. */
export function installClaudeMcp(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  const base = text.trim() === "" ? "{}\n" : text;
  const root = rootObject(base, path);
  const entry = mcpEntry(bin, env);
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
  if (!isOurMcpEntry(current)) {
    throw new HostFileError(
      `refusing to replace mcpServers.verdict in "${path}": it was not written by "verdict install"`,
      "remove or rename that entry (claude mcp remove verdict --scope user), or skip Claude Code with --codex",
    );
  }
  if (isDeepStrictEqual(current, entry)) return { text, changes: [], notes: [] };
  return {
    text: replaceNode(base, existing.value, entry),
    changes: ["mcpServers.verdict updated"],
    notes: [],
  };
}

/** Removes mcpServers.verdict when it is verdict's own (and mcpServers when it is left empty). */
export function uninstallClaudeMcp(text: string, path: string): EditResult {
  if (text.trim() === "") return { text, changes: [], notes: [] };
  const root = rootObject(text, path);
  const servers = serversObject(root, path);
  const existing = servers ? member(servers, MCP_NAME) : undefined;
  if (!servers || !existing) return { text, changes: [], notes: [] };
  if (!isOurMcpEntry(nodeValue(existing.value))) {
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

/** The registered verdict server in a Claude config text: "ours", "other", or null when absent. */
export function claudeMcpState(text: string, path: string): "ours" | "other" | null {
  if (text.trim() === "") return null;
  const servers = serversObject(rootObject(text, path), path);
  const existing = servers ? member(servers, MCP_NAME) : undefined;
  if (!existing) return null;
  return isOurMcpEntry(nodeValue(existing.value)) ? "ours" : "other";
}
