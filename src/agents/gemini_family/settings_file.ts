/**
 * What Gemini CLI and Qwen Code (a fork of Gemini CLI that kept its settings layout) share: one
 * user settings file, `<folder>/settings.json`, holds both things install wires, the hooks
 * (`hooks`, the shared edits of src/hostfile/hook_json.ts) and the MCP server (`mcpServers`,
 * src/hostfile/mcp_servers.ts), and an `mcp` block that can keep the server from starting. One
 * host file, two edits applied in turn, so a dry run shows one diff and one backup is taken.
 * Each agent's folder gives its hooks and its server entry; the shape of the file is here.
 */
import { chainEdits, type EditResult, type MayPrune } from "../../hostfile/errors.ts";
import {
  type HookSpec,
  type HookStatus,
  installJsonHooks,
  jsonHookStatus,
  uninstallJsonHooks,
} from "../../hostfile/hook_json.ts";
import {
  installMcpServer,
  MCP_NAME,
  type McpServersSpec,
  mcpServerState,
  type McpState,
  uninstallMcpServer,
} from "../../hostfile/mcp_servers.ts";
import { isObject } from "../json.ts";

/** What one agent of the family wires into its settings file. */
export interface SettingsFileSpec {
  readonly hooks: readonly HookSpec[];
  readonly mcp: McpServersSpec;
}

/** The edits and readings of one agent's settings file (pure: text in, text out). */
export interface SettingsFile {
  install(text: string, path: string, bin: string, env: Readonly<Record<string, string>>): EditResult;
  /** A container the edits leave empty goes only when `mayPrune` says install created it. */
  uninstall(text: string, path: string, mayPrune?: MayPrune): EditResult;
  mcpState(text: string, path: string): McpState;
  hookStatus(text: string, path: string): HookStatus[];
}

export function settingsFile(spec: SettingsFileSpec): SettingsFile {
  return {
    install: (text, path, bin, env) =>
      chainEdits(
        text,
        () => installJsonHooks(spec.hooks, text, path, bin, env),
        (t) => installMcpServer(spec.mcp, t, path, bin, env),
      ),
    uninstall: (text, path, mayPrune) =>
      chainEdits(
        text,
        () => uninstallJsonHooks(spec.hooks, text, path, mayPrune),
        (t) => uninstallMcpServer(spec.mcp, t, path, mayPrune),
      ),
    mcpState: (text, path) => mcpServerState(spec.mcp, text, path),
    hookStatus: (text, path) => jsonHookStatus(spec.hooks, text, path),
  };
}

/** Why the settings keep verdict's MCP server from starting, or null. */
export function mcpBlocked(settings: unknown): string | null {
  const mcp = isObject(settings) && isObject(settings.mcp) ? settings.mcp : {};
  if (Array.isArray(mcp.allowed) && !mcp.allowed.includes(MCP_NAME)) {
    return `mcp.allowed does not list "${MCP_NAME}": its MCP server will not start`;
  }
  if (Array.isArray(mcp.excluded) && mcp.excluded.includes(MCP_NAME)) {
    return `mcp.excluded lists "${MCP_NAME}": its MCP server will not start`;
  }
  return null;
}
