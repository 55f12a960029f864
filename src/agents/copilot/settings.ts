/**
 * Copilot CLI's two files install edits: the hook in `<folder>/settings.json` (hooks.ts) and
 * the MCP server in `<folder>/mcp-config.json` (mcp.ts, the shared JSON edits).
 */
import type { McpState } from "../../hostfile/mcp_servers.ts";
import type { EditResult, MayPrune } from "../../hostfile/errors.ts";
import { removedWhenEmpty } from "../../hostfile/host_json.ts";
import { installMcpServer, mcpServerState, uninstallMcpServer } from "../../hostfile/mcp_servers.ts";
import { COPILOT_MCP } from "./mcp.ts";

export function installCopilotMcp(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return installMcpServer(COPILOT_MCP, text, path, bin, env);
}

/**
 * Removes mcpServers.verdict; an mcp-config.json left with nothing in it is deleted (Copilot reads
 * a missing file the same way, and install may have created it).
 */
export function uninstallCopilotMcp(text: string, path: string, mayPrune?: MayPrune): EditResult {
  return removedWhenEmpty(uninstallMcpServer(COPILOT_MCP, text, path, mayPrune));
}

export function copilotMcpState(text: string, path: string): McpState {
  return mcpServerState(COPILOT_MCP, text, path);
}
