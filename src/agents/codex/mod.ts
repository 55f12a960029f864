/**
 * Codex (`@openai/codex`): everything verdict knows about it, behind the AgentKit interface
 * (src/agents/agent.ts).
 *
 * - Folder: $CODEX_HOME, else ~/.codex.
 * - Sessions: rollouts under `<folder>/sessions/YYYY/MM/DD/` and `<folder>/archived_sessions/`,
 *   read by rollout.ts (which tells the file generations apart from their first lines; a new
 *   generation is a new branch there, a wholly new file format a second reader here).
 * - Wiring: a delimited `[mcp_servers.verdict]` block in `<folder>/config.toml` (mcp.ts). A
 *   further file install edits (such as `<folder>/hooks.json`) is one more entry in `hostFiles`,
 *   with its edits in a module of its own beside mcp.ts.
 * - Doctor: nothing of its own beyond the shared MCP check.
 */
import { joinPath, resolvePath } from "../../config/paths.ts";
import type { AgentEnv, AgentKit } from "../agent.ts";
import { codexMcpState, installCodex, uninstallCodex } from "./mcp.ts";
import { createCodexParser } from "./rollout.ts";

/** $CODEX_HOME (relative to the cwd, "~/" expanded), else ~/.codex. */
export function codexFolder(at: AgentEnv): string {
  const dir = at.env.CODEX_HOME;
  return dir ? resolvePath(dir, at.cwd, at.home) : joinPath(at.home, ".codex");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
      role: "codex-config",
      label: "Codex MCP server",
      path: (at) => joinPath(codexFolder(at), "config.toml"),
      install: installCodex,
      uninstall: uninstallCodex,
      mcpState: codexMcpState,
    },
  ],
  judgeTranscript: null,
  doctor: () => Promise.resolve([]),
};
