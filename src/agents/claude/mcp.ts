/**
 * verdict's user-scope MCP server in Claude Code's own config file (~/.claude.json, which also
 * holds much other state): `mcpServers.verdict`, a stdio server running `<bin> mcp`. The edits
 * are the shared ones (src/hostfile/mcp_servers.ts, which says what counts as verdict's entry).
 */
import type { McpState } from "../../hostfile/mcp_servers.ts";
import type { EditResult, MayPrune } from "../../hostfile/errors.ts";
import {
  installMcpServer,
  isVerdictMcpEntry,
  type McpServersSpec,
  mcpServerState,
  uninstallMcpServer,
} from "../../hostfile/mcp_servers.ts";

export { MCP_NAME } from "../../hostfile/mcp_servers.ts";

export function mcpEntry(bin: string, env: Readonly<Record<string, string>>) {
  return { type: "stdio", command: bin, args: ["mcp"], env: { ...env } };
}

export const CLAUDE_MCP: McpServersSpec = {
  entry: mcpEntry,
  personalKeys: [],
  foreignHint: "remove or rename that entry (claude mcp remove verdict --scope user)",
};

/** Is `value` a verdict stdio MCP server entry (ours to update or remove)? */
export function isOurMcpEntry(value: unknown): boolean {
  return isVerdictMcpEntry(value, CLAUDE_MCP.personalKeys);
}

/** Adds (or brings up to date) mcpServers.verdict. `text` is "" for a missing file. */
export function installClaudeMcp(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return installMcpServer(CLAUDE_MCP, text, path, bin, env);
}

/** Removes mcpServers.verdict when it is verdict's own (and mcpServers when it is left empty). */
export function uninstallClaudeMcp(text: string, path: string, mayPrune?: MayPrune): EditResult {
  return uninstallMcpServer(CLAUDE_MCP, text, path, mayPrune);
}

/** The registered verdict server in a Claude config text: "ours", "other", or null when absent. */
export function claudeMcpState(text: string, path: string): McpState {
  return mcpServerState(CLAUDE_MCP, text, path);
}
