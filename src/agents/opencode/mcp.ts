/**
 * verdict's MCP server in OpenCode's global config (`~/.config/opencode/opencode.json`, JSON with
 * comments allowed): `mcp.verdict`, a local server running `<bin> mcp`. The edits are the shared
 * ones (src/hostfile/mcp_servers.ts); what differs is OpenCode's: the map is `mcp`, an entry's
 * command is one list (program and arguments) with `environment` beside it, and a new file
 * names OpenCode's schema. OpenCode lists its tool as `verdict_recall` (`<server>_<tool>`).
 *
 * An existing `mcp.verdict` is verdict's own when it is a local server whose command runs a
 * program named verdict with the one argument "mcp" (what install writes, and what
 * `opencode mcp add` writes for `verdict mcp`); anything else under that name is refused.
 */
import { basename } from "../../config/paths.ts";
import type { EditResult, MayPrune } from "../../hostfile/errors.ts";
import {
  installMcpServer,
  type McpServersSpec,
  mcpServerState,
  uninstallMcpServer,
} from "../../hostfile/mcp_servers.ts";
import type { McpState } from "../../hostfile/mcp_servers.ts";
import { isObject } from "../json.ts";

function mcpEntry(bin: string, env: Readonly<Record<string, string>>) {
  return {
    type: "local",
    command: [bin, "mcp"],
    ...(Object.keys(env).length > 0 ? { environment: { ...env } } : {}),
    enabled: true,
  };
}

/** Keys a person may add to verdict's entry: allowed, and kept on update. */
const PERSONAL_KEYS: readonly string[] = ["timeout"];

/** The keys of an entry install writes. */
const ENTRY_KEYS: readonly string[] = ["type", "command", "environment", "enabled"];

/** Is `value` a verdict local MCP server entry (ours to update or remove)? */
export function isOurMcpEntry(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (Object.keys(value).some((k) => !ENTRY_KEYS.includes(k) && !PERSONAL_KEYS.includes(k))) return false;
  if (value.type !== "local" || !Array.isArray(value.command) || value.command.length !== 2) return false;
  const [program, arg] = value.command as unknown[];
  if (typeof program !== "string" || arg !== "mcp") return false;
  return basename(program.replaceAll("\\", "/")).replace(/\.exe$/i, "") === "verdict";
}

export const OPENCODE_MCP: McpServersSpec = {
  entry: mcpEntry,
  personalKeys: PERSONAL_KEYS,
  foreignHint: "remove or rename that entry",
  member: "mcp",
  memberShape: '{"<name>": {"type": "local", "command": [...]}}',
  isOurs: isOurMcpEntry,
  newFile: '{\n  "$schema": "https://opencode.ai/config.json"\n}\n',
};

/** Adds (or brings up to date) mcp.verdict. `text` is "" for a missing file. */
export function installOpenCodeMcp(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return installMcpServer(OPENCODE_MCP, text, path, bin, env);
}

/** Removes mcp.verdict when it is verdict's own (and `mcp` when it is left empty). */
export function uninstallOpenCodeMcp(text: string, path: string, mayPrune?: MayPrune): EditResult {
  return uninstallMcpServer(OPENCODE_MCP, text, path, mayPrune);
}

export function openCodeMcpState(text: string, path: string): McpState {
  return mcpServerState(OPENCODE_MCP, text, path);
}
