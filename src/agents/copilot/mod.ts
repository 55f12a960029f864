/**
 * GitHub Copilot CLI (`@github/copilot`): everything verdict knows about it, behind the AgentKit
 * interface (src/agents/agent.ts). Verified with 1.0.102, run offline with its own BYOK mode
 * (tests/clients/copilot/).
 *
 * - Folder: $COPILOT_HOME, else ~/.copilot.
 * - Sessions: `<folder>/session-state/<session>/events.jsonl` (events.ts); the other files
 *   there (workspace.yaml, checkpoints with compaction summaries, session.db) are not read, nor
 *   `command-history-state.json` (every line typed in the terminal UI, `/exit` and `!` lines
 *   included, with no session or time) or the SQLite `session-store.db` index.
 * - Memory: writes of AGENTS.md, `.github/copilot-instructions.md`… seen in a session become
 *   notes (events.ts); Copilot keeps no memory files of its own.
 * - Wiring: the userPromptSubmitted hook in `<folder>/settings.json` (hooks.ts) and
 *   mcpServers.verdict in `<folder>/mcp-config.json` (mcp.ts); the hook speaks Copilot's dialect
 *   (hook_dialect.ts). No compaction hook: hooks.ts says why.
 * - Doctor: the hook, whether Copilot will run it, and its folder trust (doctor.ts).
 */
import { joinPath } from "../../config/paths.ts";
import type { AgentEnv, AgentKit } from "../agent.ts";
import { depthBelow, folderFromEnv } from "../folders.ts";
import { isObject } from "../json.ts";
import { copilotHooksCheck, SETTINGS_ROLE, TRUST_ROLE } from "./doctor.ts";
import { createCopilotParser } from "./events.ts";
import { installCopilotHooks, uninstallCopilotHooks } from "./hooks.ts";
import { copilotMcpState, installCopilotMcp, uninstallCopilotMcp } from "./settings.ts";

/** $COPILOT_HOME (relative to the cwd, "~/" expanded), else ~/.copilot. */
export function copilotFolder(at: AgentEnv): string {
  return folderFromEnv(at, "COPILOT_HOME", joinPath(at.home, ".copilot"));
}

export const kit: AgentKit = {
  folder: copilotFolder,
  folderVariable: "COPILOT_HOME",
  presence: (at) => [copilotFolder(at)],
  sessions: [
    {
      kind: "copilot",
      layout: "dir",
      roots: (at) => [joinPath(copilotFolder(at), "session-state")],
      // <root>/<session>/events.jsonl only (not checkpoints/, files/, research/ or snapshots).
      accept: (path, name, root) => name === "events.jsonl" && depthBelow(path, root) === 2,
      skipDir: (path, root) => depthBelow(path, root) >= 2,
      open: (opts, carry) => createCopilotParser(opts, carry as Parameters<typeof createCopilotParser>[1]),
    },
  ],
  memory: null,
  repeats: null,
  liveSession: (entry) => {
    const data = entry.type === "session.start" && isObject(entry.data) ? entry.data : {};
    const context = isObject(data.context) ? data.context : {};
    return {
      session: typeof data.sessionId === "string" ? data.sessionId : null,
      project: typeof context.cwd === "string" ? context.cwd : null,
    };
  },
  hostFiles: [
    {
      role: SETTINGS_ROLE,
      label: "Copilot CLI hook",
      path: (at) => joinPath(copilotFolder(at), "settings.json"),
      install: installCopilotHooks,
      uninstall: uninstallCopilotHooks,
    },
    {
      role: "copilot-mcp",
      label: "Copilot CLI MCP server",
      path: (at) => joinPath(copilotFolder(at), "mcp-config.json"),
      install: installCopilotMcp,
      uninstall: uninstallCopilotMcp,
      mcpState: copilotMcpState,
    },
  ],
  doctorFiles: [{ role: TRUST_ROLE, path: (at) => joinPath(copilotFolder(at), "config.json") }],
  judgeTranscript: null,
  doctor: async (ctx) => [await copilotHooksCheck(ctx)],
};
