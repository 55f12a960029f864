/**
 * Gemini CLI's user settings file (`<folder>/settings.json`) holds both things install wires:
 * the hooks (hooks.ts) and the MCP server (mcp.ts). One host file, two edits applied in turn,
 * so a dry run shows one diff and one backup is taken.
 */
import type { EditResult } from "../../install/errors.ts";
import { installMcpServer, mcpServerState, uninstallMcpServer } from "../../install/mcp_servers.ts";
import { installGeminiHooks, uninstallGeminiHooks } from "./hooks.ts";
import { GEMINI_MCP } from "./mcp.ts";

function both(first: EditResult, second: (text: string) => EditResult, original: string): EditResult {
  const next = second(first.text);
  const changes = [...first.changes, ...next.changes];
  return {
    text: changes.length === 0 ? original : next.text,
    changes,
    notes: [...first.notes, ...next.notes],
  };
}

export function installGeminiSettings(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  const hooks = installGeminiHooks(text, path, bin, env);
  return both(hooks, (t) => installMcpServer(GEMINI_MCP, t, path, bin, env), text);
}

export function uninstallGeminiSettings(text: string, path: string): EditResult {
  return both(uninstallGeminiHooks(text, path), (t) => uninstallMcpServer(GEMINI_MCP, t, path), text);
}

export function geminiMcpState(text: string, path: string): "ours" | "other" | null {
  return mcpServerState(GEMINI_MCP, text, path);
}
