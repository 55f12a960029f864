/**
 * Claude Code (`@anthropic-ai/claude-code`): everything verdict knows about it, behind the
 * AgentKit interface (src/agents/agent.ts).
 *
 * - Folder: $CLAUDE_CONFIG_DIR, else ~/.claude.
 * - Sessions: transcripts `<folder>/projects/<project>/<session>.jsonl` (transcript.ts; subagent
 *   files are skipped) and the prompt history `<folder>/history.jsonl` (history.ts), whose
 *   prompts repeat the transcripts' and are dropped when a transcript has them. The typed-prompt
 *   rule both share is prompt.ts.
 * - Memory: `<folder>/projects/<project>/memory/*.md`, read as documents; writes of CLAUDE.md,
 *   AGENTS.md, MEMORY.md… seen in a transcript become notes (transcript.ts).
 * - Wiring: three hooks in `<folder>/settings.json` (hooks.ts) and the user-scope MCP server in
 *   ~/.claude.json, or `<folder>/.claude.json` when CLAUDE_CONFIG_DIR is set (mcp.ts).
 * - Doctor: the hooks (doctor.ts).
 */
import { joinPath } from "../../config/paths.ts";
import type { AgentEnv, AgentKit } from "../agent.ts";
import { depthBelow, folderFromEnv, projectMemoryFiles } from "../folders.ts";
import { hooksCheck, SETTINGS_ROLE } from "./doctor.ts";
import { createHistoryParser, HISTORY_REPEATS } from "./history.ts";
import { installHooks, uninstallHooks } from "./hooks.ts";
import { claudeMcpState, installClaudeMcp, uninstallClaudeMcp } from "./mcp.ts";
import { createClaudeParser } from "./transcript.ts";

/** $CLAUDE_CONFIG_DIR (relative to the cwd, "~/" expanded), else ~/.claude. */
export function claudeFolder(at: AgentEnv): string {
  return folderFromEnv(at, "CLAUDE_CONFIG_DIR", joinPath(at.home, ".claude"));
}

/** The user config holding user-scope MCP servers: inside the folder only when the variable moves it. */
export function claudeConfigFile(at: AgentEnv): string {
  return at.env.CLAUDE_CONFIG_DIR
    ? joinPath(claudeFolder(at), ".claude.json")
    : joinPath(at.home, ".claude.json");
}

export const kit: AgentKit = {
  folder: claudeFolder,
  folderVariable: "CLAUDE_CONFIG_DIR",
  presence: (at) => [claudeFolder(at), claudeConfigFile(at)],
  sessions: [
    {
      kind: "claude",
      layout: "dir",
      roots: (at) => [joinPath(claudeFolder(at), "projects")],
      // Main transcripts only: <root>/<project>/<session>.jsonl. Subagent files live deeper
      // (<session>/subagents/agent-*.jsonl) or are named agent-*.jsonl.
      accept: (path, name, root) =>
        name.endsWith(".jsonl") && !name.startsWith("agent-") && depthBelow(path, root) === 2,
      skipDir: (path, root) => depthBelow(path, root) >= 2,
      open: (opts, carry) => createClaudeParser(opts, carry as Parameters<typeof createClaudeParser>[1]),
    },
    {
      kind: "history",
      layout: "file",
      roots: (at) => [joinPath(claudeFolder(at), "history.jsonl")],
      open: (opts, carry) => createHistoryParser(opts, carry as Parameters<typeof createHistoryParser>[1]),
    },
  ],
  memory: { under: "claude", find: projectMemoryFiles },
  repeats: HISTORY_REPEATS,
  liveSession: (entry) => ({
    session: typeof entry.sessionId === "string" ? entry.sessionId : null,
    project: typeof entry.cwd === "string" ? entry.cwd : null,
  }),
  hostFiles: [
    {
      role: SETTINGS_ROLE,
      label: "Claude Code hooks",
      path: (at) => joinPath(claudeFolder(at), "settings.json"),
      install: installHooks,
      uninstall: uninstallHooks,
    },
    {
      role: "claude-config",
      label: "Claude Code MCP server",
      path: claudeConfigFile,
      install: installClaudeMcp,
      uninstall: uninstallClaudeMcp,
      mcpState: claudeMcpState,
    },
  ],
  judgeTranscript: null,
  doctor: async (ctx) => [await hooksCheck(ctx)],
};
