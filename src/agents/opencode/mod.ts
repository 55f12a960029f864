/**
 * OpenCode (`opencode-ai`): everything verdict knows about it, behind the AgentKit interface
 * (src/agents/agent.ts). Checked against OpenCode 1.18.33 (tests/clients/opencode/).
 *
 * - Folders: config in $XDG_CONFIG_HOME/opencode (else ~/.config/opencode), data in
 *   $XDG_DATA_HOME/opencode (else ~/.local/share/opencode).
 * - Sessions: one SQLite database, `<data>/opencode.db`, with its write-ahead log beside it; a
 *   store reader (store.ts) reads it without writing or locking anything; the typed-prompt and
 *   memory-write rules are prompt.ts.
 * - Wiring: a plugin file `<config>/plugin/verdict.js` whose `chat.message` hook adds the hint
 *   (plugin.ts), and `mcp.verdict` in `<config>/opencode.json` (mcp.ts).
 * - Doctor: the plugin (doctor.ts).
 */
import { joinPath } from "../../config/paths.ts";
import type { AgentEnv, AgentKit } from "../agent.ts";
import { PLUGIN_ROLE, pluginCheck } from "./doctor.ts";
import { installOpenCodeMcp, openCodeMcpState, uninstallOpenCodeMcp } from "./mcp.ts";
import { installPlugin, uninstallPlugin } from "./plugin.ts";
import { readOpenCodeStore, walPath } from "./store.ts";

/**
 * An XDG base directory: unlike the other agents' variables (src/agents/folders.ts), only an
 * absolute value counts (the XDG base directory spec has a relative one ignored).
 */
function xdg(at: AgentEnv, name: string, fallback: string): string {
  const v = at.env[name];
  return v && v.startsWith("/") ? v : joinPath(at.home, fallback);
}

/** $XDG_CONFIG_HOME/opencode, else ~/.config/opencode. */
export function openCodeConfigDir(at: AgentEnv): string {
  return joinPath(xdg(at, "XDG_CONFIG_HOME", ".config"), "opencode");
}

/** $XDG_DATA_HOME/opencode, else ~/.local/share/opencode. */
export function openCodeDataDir(at: AgentEnv): string {
  return joinPath(xdg(at, "XDG_DATA_HOME", ".local/share"), "opencode");
}

export const kit: AgentKit = {
  folder: openCodeConfigDir,
  folderVariable: "XDG_CONFIG_HOME",
  presence: (at) => [openCodeConfigDir(at), openCodeDataDir(at)],
  sessions: [
    {
      kind: "opencode",
      layout: "store",
      roots: (at) => [joinPath(openCodeDataDir(at), "opencode.db")],
      companions: (store) => [walPath(store)],
      read: readOpenCodeStore,
    },
  ],
  memory: null,
  repeats: null,
  // OpenCode writes no transcript file a live session could be read from.
  liveSession: () => ({ session: null, project: null }),
  hostFiles: [
    {
      role: PLUGIN_ROLE,
      label: "OpenCode hint plugin",
      path: (at) => joinPath(openCodeConfigDir(at), "plugin", "verdict.js"),
      install: installPlugin,
      uninstall: uninstallPlugin,
    },
    {
      role: "opencode-config",
      label: "OpenCode MCP server",
      path: (at) => joinPath(openCodeConfigDir(at), "opencode.json"),
      install: installOpenCodeMcp,
      uninstall: uninstallOpenCodeMcp,
      mcpState: openCodeMcpState,
    },
  ],
  judgeTranscript: null,
  doctor: async (ctx) => [await pluginCheck(ctx)],
};
