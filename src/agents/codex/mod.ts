/**
 * Codex (`@openai/codex`): everything verdict knows about it, behind the AgentKit interface
 * (src/agents/agent.ts).
 *
 * - Folder: $CODEX_HOME, else ~/.codex.
 * - Sessions: rollouts under `<folder>/sessions/YYYY/MM/DD/` and `<folder>/archived_sessions/`,
 *   read by rollout.ts (which tells the file generations apart from their first lines; a new
 *   generation is a new branch there, a wholly new file format a second reader here).
 * - Wiring: the UserPromptSubmit, PreCompact and SessionStart(compact) hooks in
 *   `<folder>/hooks.json` (hooks.ts), planned first, then a delimited block in
 *   `<folder>/config.toml` (mcp.ts) holding the MCP server and the trust Codex requires before
 *   it runs those hooks (trust.ts). The hook entries speak Codex's dialect (hook_dialect.ts).
 * - Compaction: the judge reads the rollout re-framed (judge_lines.ts).
 * - Doctor: the hooks, and whether Codex will run them (doctor.ts).
 */
import { joinPath } from "../../config/paths.ts";
import type { AgentEnv, AgentKit } from "../agent.ts";
import { folderFromEnv } from "../folders.ts";
import { isObject } from "../json.ts";
import { codexHooksCheck, CONFIG_ROLE } from "./doctor.ts";
import { installCodexHooks, uninstallCodexHooks } from "./hooks.ts";
import { asClaudeTranscript } from "./judge_lines.ts";
import { codexMcpState, HOOKS_ROLE, installCodex, uninstallCodex } from "./mcp.ts";
import { createCodexParser } from "./rollout.ts";

/** $CODEX_HOME (relative to the cwd, "~/" expanded), else ~/.codex. */
export function codexFolder(at: AgentEnv): string {
  return folderFromEnv(at, "CODEX_HOME", joinPath(at.home, ".codex"));
}

export const kit: AgentKit = {
  folder: codexFolder,
  folderVariable: "CODEX_HOME",
  presence: (at) => [codexFolder(at)],
  sessions: [
    {
      kind: "codex",
      layout: "dir",
      roots: (at) => [joinPath(codexFolder(at), "sessions"), joinPath(codexFolder(at), "archived_sessions")],
      open: (opts, carry) => createCodexParser(opts, carry as Parameters<typeof createCodexParser>[1]),
    },
  ],
  memory: null,
  repeats: null,
  liveSession: (entry) => {
    const meta = entry.type === "session_meta" && isObject(entry.payload) ? entry.payload : {};
    return {
      session: typeof meta.id === "string" ? meta.id : null,
      project: typeof meta.cwd === "string" ? meta.cwd : null,
    };
  },
  hostFiles: [
    {
      role: HOOKS_ROLE,
      label: "Codex hooks",
      path: (at) => joinPath(codexFolder(at), "hooks.json"),
      // Codex names the file by CODEX_HOME made canonical when that is set, else by $HOME/.codex
      // as written; its hook trust keys hold that path.
      agentPath: (at, realFolder) =>
        at.env.CODEX_HOME ? joinPath(realFolder, "hooks.json") : joinPath(codexFolder(at), "hooks.json"),
      install: installCodexHooks,
      uninstall: uninstallCodexHooks,
    },
    {
      role: CONFIG_ROLE,
      label: "Codex MCP server and hook trust",
      path: (at) => joinPath(codexFolder(at), "config.toml"),
      install: installCodex,
      uninstall: uninstallCodex,
      mcpState: codexMcpState,
    },
  ],
  judgeTranscript: asClaudeTranscript,
  doctor: async (ctx) => [await codexHooksCheck(ctx)],
};
