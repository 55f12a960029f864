/**
 * Gemini CLI (`@google/gemini-cli`): everything verdict knows about it, behind the AgentKit
 * interface (src/agents/agent.ts). Verified with 0.61.0 (tests/clients/gemini/ drives it).
 *
 * - Folder: $GEMINI_CLI_HOME/.gemini (the variable replaces the home directory), else ~/.gemini.
 * - Sessions: `<folder>/tmp/<project id>/chats/session-*.jsonl` (chat.ts); subagent chats one
 *   folder deeper are skipped. Each project folder's `.project_root` and `logs.json` (project.ts)
 *   are the parser's context: the project path, and the lines typed in the terminal UI (which
 *   tell typed sessions from `gemini -p` ones).
 * - Memory: writes of GEMINI.md, AGENTS.md… and save_memory calls seen in a chat become notes
 *   (chat.ts); the memory files themselves are not read as documents.
 * - Wiring: the BeforeAgent hook (hooks.ts) and mcpServers.verdict (mcp.ts), both in
 *   `<folder>/settings.json` (settings.ts).
 * - Doctor: the hook, and whether the settings let Gemini CLI run it (doctor.ts).
 */
import { joinPath } from "../../config/paths.ts";
import type { AgentEnv, AgentKit } from "../agent.ts";
import { depthBelow, folderFromEnv } from "../folders.ts";
import { createGeminiParser } from "./chat.ts";
import { geminiHooksCheck, SETTINGS_ROLE } from "./doctor.ts";
import { loadTypedLines, projectFolderOf } from "./project.ts";
import { geminiMcpState, installGeminiSettings, uninstallGeminiSettings } from "./settings.ts";

/** $GEMINI_CLI_HOME/.gemini (relative to the cwd, "~/" expanded), else ~/.gemini. */
export function geminiFolder(at: AgentEnv): string {
  return joinPath(folderFromEnv(at, "GEMINI_CLI_HOME", at.home), ".gemini");
}

/** The chats folder of a project: `<root>/<project id>/chats`. */
const CHATS_DEPTH = 2;

export const kit: AgentKit = {
  folder: geminiFolder,
  folderVariable: "GEMINI_CLI_HOME",
  presence: (at) => [geminiFolder(at)],
  sessions: [
    {
      kind: "gemini",
      layout: "dir",
      roots: (at) => [joinPath(geminiFolder(at), "tmp")],
      accept: (path, name, root) =>
        name.startsWith("session-") && name.endsWith(".jsonl") && depthBelow(path, root) === CHATS_DEPTH + 1,
      // Into <id> and <id>/chats only (not logs/, plans, tool output, subagent chats).
      skipDir: (path, root) => {
        const depth = depthBelow(path, root);
        return depth > CHATS_DEPTH || (depth === CHATS_DEPTH && !path.endsWith("/chats"));
      },
      open: (opts, carry) => createGeminiParser(opts, carry as Parameters<typeof createGeminiParser>[1]),
      context: { key: (path) => projectFolderOf(path), load: loadTypedLines },
    },
  ],
  memory: null,
  repeats: null,
  liveSession: (entry) => ({
    session: typeof entry.sessionId === "string" ? entry.sessionId : null,
    project: null,
  }),
  hostFiles: [
    {
      role: SETTINGS_ROLE,
      label: "Gemini CLI hooks and MCP server",
      path: (at) => joinPath(geminiFolder(at), "settings.json"),
      install: installGeminiSettings,
      uninstall: uninstallGeminiSettings,
      mcpState: geminiMcpState,
    },
  ],
  judgeTranscript: null,
  doctor: async (ctx) => [await geminiHooksCheck(ctx)],
};
