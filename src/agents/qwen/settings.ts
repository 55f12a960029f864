/**
 * Qwen Code's user settings file (`<folder>/settings.json`) holds both things install wires: the
 * hooks (hooks.ts) and the MCP server (mcp.ts). One host file, two edits applied in turn, so a
 * dry run shows one diff and one backup is taken.
 */
import type { McpState } from "../../hostfile/mcp_servers.ts";
import { chainEdits, type EditResult, type MayPrune } from "../../hostfile/errors.ts";
import { installMcpServer, mcpServerState, uninstallMcpServer } from "../../hostfile/mcp_servers.ts";
import { installQwenHooks, uninstallQwenHooks } from "./hooks.ts";
import { QWEN_MCP } from "./mcp.ts";

export function installQwenSettings(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return chainEdits(
    text,
    () => installQwenHooks(text, path, bin, env),
    (t) => installMcpServer(QWEN_MCP, t, path, bin, env),
  );
}

export function uninstallQwenSettings(text: string, path: string, mayPrune?: MayPrune): EditResult {
  return chainEdits(
    text,
    () => uninstallQwenHooks(text, path, mayPrune),
    (t) => uninstallMcpServer(QWEN_MCP, t, path, mayPrune),
  );
}

export function qwenMcpState(text: string, path: string): McpState {
  return mcpServerState(QWEN_MCP, text, path);
}
