/**
 * verdict's MCP server in OpenCode's global config (`~/.config/opencode/opencode.json`, JSON with
 * comments allowed): `mcp.verdict`, a local server running `<bin> mcp`. Pure text edits that
 * touch only that entry (json_edit.ts keeps every other byte, comments included). OpenCode lists
 * its tool as `verdict_recall` (`<server>_<tool>`).
 *
 * An existing `mcp.verdict` is verdict's own when it is a local server whose command runs a
 * program named verdict with the one argument "mcp" (what install writes, and what
 * `opencode mcp add` writes for `verdict mcp`); anything else under that name is refused.
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
import type { McpState } from "../agent.ts";
import { isDeepStrictEqual } from "node:util";

export const MCP_NAME = "verdict";

export function mcpEntry(bin: string, env: Readonly<Record<string, string>>) {
  return {
    type: "local",
    command: [bin, "mcp"],
    ...(Object.keys(env).length > 0 ? { environment: { ...env } } : {}),
    enabled: true,
  };
}

/** Is `value` a verdict local MCP server entry (ours to update or remove)? */
export function isOurMcpEntry(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).some((k) => !["type", "command", "environment", "enabled", "timeout"].includes(k))) {
    return false;
  }
  if (v.type !== "local" || !Array.isArray(v.command) || v.command.length !== 2) return false;
  const [program, arg] = v.command as unknown[];
  if (typeof program !== "string" || arg !== "mcp") return false;
  return basename(program.replaceAll("\\", "/")).replace(/\.exe$/i, "") === "verdict";
}

function mcpObject(root: JsonObjectNode, path: string): JsonObjectNode | null {
  return objectMember(root, "mcp", path, '{"<name>": {"type": "local", "command": [...]}}');
}

/** Adds (or brings up to date) mcp.verdict. `text` is "" for a missing file. */
export function installOpenCodeMcp(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  const base = text.trim() === "" ? '{\n  "$schema": "https://opencode.ai/config.json"\n}\n' : text;
  const root = rootObject(base, path);
  const entry = mcpEntry(bin, env);
  const servers = mcpObject(root, path);
  if (!servers) {
    return {
      text: insertMember(base, root, "mcp", { [MCP_NAME]: entry }),
      changes: ["mcp.verdict added"],
      notes: [],
    };
  }
  const existing = member(servers, MCP_NAME);
  if (!existing) {
    return { text: insertMember(base, servers, MCP_NAME, entry), changes: ["mcp.verdict added"], notes: [] };
  }
  const current = nodeValue(existing.value);
  if (!isOurMcpEntry(current)) {
    throw new HostFileError(
      `refusing to replace mcp.verdict in "${path}": it was not written by "verdict install"`,
      "remove or rename that entry",
    );
  }
  if (isDeepStrictEqual(current, entry)) return { text, changes: [], notes: [] };
  return { text: replaceNode(base, existing.value, entry), changes: ["mcp.verdict updated"], notes: [] };
}

/** Removes mcp.verdict when it is verdict's own (and `mcp` when it is left empty). */
export function uninstallOpenCodeMcp(text: string, path: string): EditResult {
  if (text.trim() === "") return { text, changes: [], notes: [] };
  const root = rootObject(text, path);
  const servers = mcpObject(root, path);
  const existing = servers ? member(servers, MCP_NAME) : undefined;
  if (!servers || !existing) return { text, changes: [], notes: [] };
  if (!isOurMcpEntry(nodeValue(existing.value))) {
    return { text, changes: [], notes: ["mcp.verdict was not written by verdict install; left as is"] };
  }
  const out = servers.members.length === 1
    ? removeMember(text, root, "mcp")
    : removeMember(text, servers, MCP_NAME);
  return { text: out, changes: ["mcp.verdict removed"], notes: [] };
}

export function openCodeMcpState(text: string, path: string): McpState {
  if (text.trim() === "") return null;
  const servers = mcpObject(rootObject(text, path), path);
  const existing = servers ? member(servers, MCP_NAME) : undefined;
  if (!existing) return null;
  return isOurMcpEntry(nodeValue(existing.value)) ? "ours" : "other";
}
