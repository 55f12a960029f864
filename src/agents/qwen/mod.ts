/**
 * Qwen Code (`@qwen-code/qwen-code`): everything verdict knows about it, behind the AgentKit
 * interface (src/agents/agent.ts). Verified with 0.24.4 (tests/clients/qwen_code/ drives it).
 *
 * - Folder: $QWEN_HOME, else ~/.qwen (settings, memory). Sessions are runtime output, under
 *   $QWEN_RUNTIME_DIR when that is set, else the folder. (A runtime folder set in settings.json,
 *   `advanced.runtimeOutputDir`, is not followed: point QWEN_RUNTIME_DIR at it.)
 * - Sessions: `<runtime>/projects/<encoded cwd>/chats/<session>.jsonl` (chat.ts); subagent
 *   transcripts (`<encoded cwd>/subagents/…`) and the `.runtime.json` side files are skipped.
 * - Memory: `<runtime>/projects/<encoded cwd>/memory/*.md` (Qwen's managed auto-memory) read as
 *   documents; writes of QWEN.md, AGENTS.md… and save_memory calls become notes (chat.ts).
 * - Wiring: UserPromptSubmit, PreCompact and SessionStart(compact) hooks (hooks.ts) and
 *   mcpServers.verdict (mcp.ts), both in `<folder>/settings.json` (settings.ts); the hook
 *   entries speak Qwen's dialect (hook_dialect.ts).
 * - Compaction: the judge reads Qwen's chat re-framed (judge_lines.ts).
 * - Doctor: the hooks, and whether the settings let Qwen run them (doctor.ts).
 */
import { joinPath } from "../../config/paths.ts";
import type { AgentEnv, AgentKit } from "../agent.ts";
import { depthBelow, folderFromEnv, projectMemoryFiles } from "../folders.ts";
import { createQwenParser } from "./chat.ts";
import { qwenHooksCheck, SETTINGS_ROLE } from "./doctor.ts";
import { asClaudeTranscript } from "./judge_lines.ts";
import { installQwenSettings, qwenMcpState, uninstallQwenSettings } from "./settings.ts";

/** $QWEN_HOME (relative to the cwd, "~/" expanded), else ~/.qwen. */
export function qwenFolder(at: AgentEnv): string {
  return folderFromEnv(at, "QWEN_HOME", joinPath(at.home, ".qwen"));
}

/** Where Qwen writes sessions: $QWEN_RUNTIME_DIR, else the folder. */
export function qwenRuntimeFolder(at: AgentEnv): string {
  return folderFromEnv(at, "QWEN_RUNTIME_DIR", qwenFolder(at));
}

/** The chats folder of a project: `<projects>/<encoded cwd>/chats`. */
const CHATS_DEPTH = 2;

export const kit: AgentKit = {
  folder: qwenFolder,
  folderVariable: "QWEN_HOME",
  presence: (at) => [qwenFolder(at), qwenRuntimeFolder(at)],
  sessions: [
    {
      kind: "qwen",
      layout: "dir",
      roots: (at) => [joinPath(qwenRuntimeFolder(at), "projects")],
      accept: (path, name, root) =>
        name.endsWith(".jsonl") && depthBelow(path, root) === CHATS_DEPTH + 1 &&
        path.slice(0, path.lastIndexOf("/")).endsWith("/chats"),
      // Into <project> and <project>/chats only (not subagents/, memory/, file history).
      skipDir: (path, root) => {
        const depth = depthBelow(path, root);
        return depth > CHATS_DEPTH || (depth === CHATS_DEPTH && !path.endsWith("/chats"));
      },
      open: (opts, carry) => createQwenParser(opts, carry as Parameters<typeof createQwenParser>[1]),
    },
  ],
  memory: { under: "qwen", find: projectMemoryFiles },
  repeats: null,
  liveSession: (entry) => ({
    session: typeof entry.sessionId === "string" ? entry.sessionId : null,
    project: typeof entry.cwd === "string" ? entry.cwd : null,
  }),
  hostFiles: [
    {
      role: SETTINGS_ROLE,
      label: "Qwen Code hooks and MCP server",
      path: (at) => joinPath(qwenFolder(at), "settings.json"),
      install: installQwenSettings,
      uninstall: uninstallQwenSettings,
      mcpState: qwenMcpState,
    },
  ],
  judgeTranscript: asClaudeTranscript,
  doctor: async (ctx) => [await qwenHooksCheck(ctx)],
};
