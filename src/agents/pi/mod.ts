/**
 * pi (`@mariozechner/pi-coding-agent`): everything verdict knows about it, behind the AgentKit
 * interface (src/agents/agent.ts). Verified with 0.73.1, run offline against a Chat Completions
 * model on loopback (docs/pi.md).
 *
 * - Folder: $PI_CODING_AGENT_DIR, else ~/.pi/agent.
 * - Sessions: `<folder>/sessions/--<cwd>--/<time>_<id>.jsonl` ($PI_CODING_AGENT_SESSION_DIR moves
 *   them), one tree of entries per file (session.ts).
 * - Memory: writes of AGENTS.md, CLAUDE.md and `.pi/SYSTEM.md`… seen in a session become notes
 *   (session.ts); pi keeps no memory files of its own.
 * - Wiring: one TypeScript extension, `<folder>/extensions/verdict.ts` (extension.ts): the hint,
 *   the compaction verdict and its handoff, each by running the `verdict` command. No MCP server:
 *   pi has no MCP support, by design (its README: "No MCP").
 * - Doctor: the extension, and whether settings.json turns it off (doctor.ts).
 */
import { joinPath } from "../../config/paths.ts";
import type { AgentEnv, AgentKit } from "../agent.ts";
import { folderFromEnv } from "../folders.ts";
import { EXTENSION_ROLE, extensionCheck, SETTINGS_ROLE } from "./doctor.ts";
import { installExtension, uninstallExtension } from "./extension.ts";
import { asClaudeTranscript } from "./judge_lines.ts";
import { createPiParser } from "./session.ts";

/** $PI_CODING_AGENT_DIR (relative to the cwd, "~/" expanded), else ~/.pi/agent. */
export function piFolder(at: AgentEnv): string {
  return folderFromEnv(at, "PI_CODING_AGENT_DIR", joinPath(at.home, ".pi", "agent"));
}

/** $PI_CODING_AGENT_SESSION_DIR, else `<folder>/sessions`. */
export function piSessions(at: AgentEnv): string {
  return folderFromEnv(at, "PI_CODING_AGENT_SESSION_DIR", joinPath(piFolder(at), "sessions"));
}

export const kit: AgentKit = {
  folder: piFolder,
  folderVariable: "PI_CODING_AGENT_DIR",
  presence: (at) => [piFolder(at)],
  sessions: [
    {
      kind: "pi",
      layout: "dir",
      roots: (at) => [piSessions(at)],
      open: (opts, carry) => createPiParser(opts, carry as Parameters<typeof createPiParser>[1]),
    },
  ],
  memory: null,
  repeats: null,
  liveSession: (entry) => ({
    session: entry.type === "session" && typeof entry.id === "string" ? entry.id : null,
    project: entry.type === "session" && typeof entry.cwd === "string" ? entry.cwd : null,
  }),
  hostFiles: [
    {
      role: EXTENSION_ROLE,
      label: "pi extension",
      path: (at) => joinPath(piFolder(at), "extensions", "verdict.ts"),
      install: installExtension,
      uninstall: uninstallExtension,
    },
  ],
  doctorFiles: [{ role: SETTINGS_ROLE, path: (at) => joinPath(piFolder(at), "settings.json") }],
  judgeTranscript: asClaudeTranscript,
  doctor: async (ctx) => [await extensionCheck(ctx)],
};
