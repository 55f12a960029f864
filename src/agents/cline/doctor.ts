/**
 * The Cline CLI's own doctor check: is verdict's plugin in the plugins folder, is it verdict's,
 * does it run this verdict? Cline loads every plugin file in `<cline dir>/plugins/` at each
 * session's start (no trust prompt), in a Node.js sandbox process: the import must finish within
 * 4 s (CLINE_PLUGIN_IMPORT_TIMEOUT_MS) and each hook within 3 s, else Cline goes on without it
 * (its log says "plugin-sandbox call timed out"). A plugin written while Cline runs takes effect
 * at its next session. Cline has no moment before a compaction a plugin can reach, so the check
 * says the compaction verdict is not wired.
 *
 * Cline logs a plugin it could not load (`"msg":"plugin loading failed; continuing without plugins
 * (…)"` in `<data>/logs/cline.log`, after the run's `"msg":"CLI run started"`) and nothing when
 * the plugins load. When the newest of those two lines is a failure, Cline's last run went without
 * the hint, and the check says why (a timed-out import: raise CLINE_PLUGIN_IMPORT_TIMEOUT_MS, which
 * Cline's hub daemon reads when it starts).
 */
import { type Check, check, reason } from "../../hostfile/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { IMPORT_TIMEOUT_VARIABLE, isOurPlugin, pluginProgram } from "./plugin.ts";

/** The role of the plugin file, and of Cline's log (doctor reads it, install never edits it). */
export const PLUGIN_ROLE = "cline-plugin";
export const LOG_ROLE = "cline-log";

const RUN_STARTED = '"msg":"CLI run started"';
const PLUGINS_FAILED = '"msg":"plugin loading failed';

/** The last run's plugin failure in Cline's log text (its time and message), or null. */
export function lastRunPluginFailure(log: string): { time: string; msg: string } | null {
  const lines = log.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.includes(RUN_STARTED)) return null;
    if (!line.includes(PLUGINS_FAILED)) continue;
    try {
      const o = JSON.parse(line) as Record<string, unknown>;
      return { time: String(o.time ?? "?"), msg: String(o.msg ?? "") };
    } catch {
      return { time: "?", msg: "plugin loading failed" };
    }
  }
  return null;
}

const FIX = "run verdict install --cline";

export async function pluginCheck(ctx: DoctorContext): Promise<Check> {
  if (!ctx.agent.present) return check("plugin", "skip", "Cline CLI not found; no plugin to check");
  const path = ctx.agent.files.find((f) => f.role === PLUGIN_ROLE)!.path;
  let text: string | null;
  try {
    text = await ctx.read(path);
  } catch (err) {
    return check("plugin", "fail", `Cannot read "${path}": ${reason(err)}`, `make ${path} readable`);
  }
  if (text === null) return check("plugin", "fail", `no verdict plugin at ${path}`, FIX);
  if (!isOurPlugin(text)) {
    return check(
      "plugin",
      "warn",
      `${path} was not written by verdict install; Cline runs it, but it is not verdict's`,
      `move it away, then ${FIX}`,
    );
  }
  const program = pluginProgram(text);
  if (program !== ctx.bin) {
    return check(
      "plugin",
      "warn",
      `the plugin runs ${program ?? "an unknown program"}, but this verdict is ${ctx.bin}`,
      `${FIX} to point it here`,
    );
  }
  const logPath = ctx.agent.files.find((f) => f.role === LOG_ROLE)?.path ?? null;
  let failure: { time: string; msg: string } | null = null;
  try {
    const log = logPath === null ? null : await ctx.read(logPath);
    failure = log === null ? null : lastRunPluginFailure(log);
  } catch {
    // An unreadable log says nothing about the plugin.
  }
  if (failure !== null) {
    return check(
      "plugin",
      "warn",
      `Cline's last run (${failure.time}) went without plugins, so without the hint: its log says "${failure.msg}"`,
      failure.msg.includes("timed out")
        ? `end Cline's hub daemon (cline hub stop), then start cline with ${IMPORT_TIMEOUT_VARIABLE}=15000 set`
        : `see ${logPath}`,
    );
  }
  return check(
    "plugin",
    "ok",
    `plugin (the hint before each prompt) in ${path}; Cline loads it at each session's start if its ` +
      `import finishes within 4 s (raise ${IMPORT_TIMEOUT_VARIABLE} on a slow machine); no compaction ` +
      "verdict: Cline has no moment before a compaction that a plugin or hook can reach",
  );
}
