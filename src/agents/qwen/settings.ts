/**
 * Qwen Code's user settings file (`<folder>/settings.json`) holds both things install wires: the
 * hooks (hooks.ts) and the MCP server (mcp.ts). One host file, two edits applied in turn, so a
 * dry run shows one diff and one backup is taken.
 */
import type { EditResult } from "../../install/errors.ts";
import { installMcpServer, mcpServerState, uninstallMcpServer } from "../../install/mcp_servers.ts";
import { installQwenHooks, uninstallQwenHooks } from "./hooks.ts";
import { QWEN_MCP } from "./mcp.ts";

function both(first: EditResult, second: (text: string) => EditResult, original: string): EditResult {
  const next = second(first.text);
  const changes = [...first.changes, ...next.changes];
  return {
    text: changes.length === 0 ? original : next.text,
    changes,
    notes: [...first.notes, ...next.notes],
  };
}

export function installQwenSettings(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return both(
    installQwenHooks(text, path, bin, env),
    (t) => installMcpServer(QWEN_MCP, t, path, bin, env),
    text,
  );
}

export function uninstallQwenSettings(text: string, path: string): EditResult {
  return both(uninstallQwenHooks(text, path), (t) => uninstallMcpServer(QWEN_MCP, t, path), text);
}

export function qwenMcpState(text: string, path: string): "ours" | "other" | null {
  return mcpServerState(QWEN_MCP, text, path);
}
