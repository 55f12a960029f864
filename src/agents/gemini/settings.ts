/**
 * Gemini CLI's user settings file (`<folder>/settings.json`) holds both things install wires:
 * the hooks (hooks.ts) and the MCP server (mcp.ts). One host file, two edits applied in turn,
 * so a dry run shows one diff and one backup is taken.
 */
import type { McpState } from "../../hostfile/mcp_servers.ts";
import { chainEdits, type EditResult, type MayPrune } from "../../hostfile/errors.ts";
import { installMcpServer, mcpServerState, uninstallMcpServer } from "../../hostfile/mcp_servers.ts";
import { installGeminiHooks, uninstallGeminiHooks } from "./hooks.ts";
import { GEMINI_MCP } from "./mcp.ts";

export function installGeminiSettings(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return chainEdits(
    text,
    () => installGeminiHooks(text, path, bin, env),
    (t) => installMcpServer(GEMINI_MCP, t, path, bin, env),
  );
}

export function uninstallGeminiSettings(text: string, path: string, mayPrune?: MayPrune): EditResult {
  return chainEdits(
    text,
    () => uninstallGeminiHooks(text, path, mayPrune),
    (t) => uninstallMcpServer(GEMINI_MCP, t, path, mayPrune),
  );
}

export function geminiMcpState(text: string, path: string): McpState {
  return mcpServerState(GEMINI_MCP, text, path);
}
