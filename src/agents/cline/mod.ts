/**
 * The Cline CLI (`cline`): everything verdict knows about it, behind the AgentKit interface
 * (src/agents/agent.ts). Verified with 3.0.65, run offline against a Chat Completions model on
 * loopback (docs/cline.md).
 *
 * - Folder: $CLINE_DIR, else ~/.cline; its data folder $CLINE_DATA_DIR, else `<folder>/data`.
 * - Sessions: `<data>/sessions/<id>/<id>.messages.json` ($CLINE_SESSION_DATA_DIR moves them), one
 *   JSON document per session rewritten whole (session.ts), with the meta file `<id>.json`
 *   beside it (headless or not, the working directory) as the parser's context.
 * - Memory: `editor` writes of .clinerules, .clinerules/*.md, AGENTS.md… seen in a session become
 *   notes (session.ts); the rule files themselves are not read as documents.
 * - Wiring: a plugin `<folder>/plugins/verdict.js` for the hint (plugin.ts), and
 *   mcpServers.verdict in `<data>/settings/cline_mcp_settings.json` (mcp.ts). No compaction
 *   verdict: Cline runs no hook before a compaction (its hook table maps PreCompact to nothing,
 *   and a plugin's hooks are around runs, model calls and tools only).
 * - Doctor: the plugin, and whether Cline's log says its last run could not load plugins (doctor.ts).
 */
import { basename, dirname, joinPath } from "../../config/paths.ts";
import type { AgentEnv, AgentKit, SideFileReader } from "../agent.ts";
import { depthBelow, folderFromEnv } from "../folders.ts";
import { LOG_ROLE, PLUGIN_ROLE, pluginCheck } from "./doctor.ts";
import { clineMcpState, installClineMcp, uninstallClineMcp } from "./mcp.ts";
import { installPlugin, uninstallPlugin } from "./plugin.ts";
import { type ClineSessionFacts, createClineParser, NO_FACTS, sessionFacts } from "./session.ts";

/** $CLINE_DIR (relative to the cwd, "~/" expanded), else ~/.cline. */
export function clineFolder(at: AgentEnv): string {
  return folderFromEnv(at, "CLINE_DIR", joinPath(at.home, ".cline"));
}

/** $CLINE_DATA_DIR, else `<folder>/data`. */
export function clineData(at: AgentEnv): string {
  return folderFromEnv(at, "CLINE_DATA_DIR", joinPath(clineFolder(at), "data"));
}

/** $CLINE_SESSION_DATA_DIR, else `<data>/sessions`. */
export function clineSessions(at: AgentEnv): string {
  return folderFromEnv(at, "CLINE_SESSION_DATA_DIR", joinPath(clineData(at), "sessions"));
}

/** $CLINE_MCP_SETTINGS_PATH, else `<data>/settings/cline_mcp_settings.json`. */
export function clineMcpSettings(at: AgentEnv): string {
  return folderFromEnv(
    at,
    "CLINE_MCP_SETTINGS_PATH",
    joinPath(clineData(at), "settings", "cline_mcp_settings.json"),
  );
}

const MESSAGES_SUFFIX = ".messages.json";

/** The facts of a session folder `<sessions>/<id>`, from its meta file `<id>.json`. */
export async function loadSessionFacts(folder: string, read: SideFileReader): Promise<ClineSessionFacts> {
  const text = await read(`${folder}/${basename(folder)}.json`);
  if (text === null) return NO_FACTS;
  try {
    return sessionFacts(JSON.parse(text));
  } catch {
    return NO_FACTS;
  }
}

export const kit: AgentKit = {
  folder: clineFolder,
  folderVariable: "CLINE_DIR",
  presence: (at) => [clineFolder(at), clineData(at)],
  sessions: [
    {
      kind: "cline",
      layout: "dir",
      roots: (at) => [clineSessions(at)],
      // `<id>/<id>.messages.json` only (not the meta file, nor hook or transcript logs).
      accept: (path, name, root) =>
        depthBelow(path, root) === 2 && name === `${basename(dirname(path))}${MESSAGES_SUFFIX}`,
      skipDir: (path, root) => depthBelow(path, root) > 1,
      open: (opts, carry) => createClineParser(opts, carry as Parameters<typeof createClineParser>[1]),
      context: { key: (path) => dirname(path), load: loadSessionFacts },
    },
  ],
  memory: null,
  repeats: null,
  // A messages document is one JSON value, not lines: a live transcript line names nothing.
  liveSession: (entry) => ({
    session: typeof entry.sessionId === "string" ? entry.sessionId : null,
    project: null,
  }),
  hostFiles: [
    {
      role: PLUGIN_ROLE,
      label: "Cline CLI plugin",
      path: (at) => joinPath(clineFolder(at), "plugins", "verdict.js"),
      install: installPlugin,
      uninstall: uninstallPlugin,
    },
    {
      role: "cline-mcp",
      label: "Cline CLI MCP server",
      path: clineMcpSettings,
      install: installClineMcp,
      uninstall: uninstallClineMcp,
      mcpState: clineMcpState,
    },
  ],
  doctorFiles: [{ role: LOG_ROLE, path: (at) => joinPath(clineData(at), "logs", "cline.log") }],
  judgeTranscript: null,
  doctor: async (ctx) => [await pluginCheck(ctx)],
};
