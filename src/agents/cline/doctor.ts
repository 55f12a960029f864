/**
 * The Cline CLI's own doctor check: is verdict's plugin in the plugins folder, is it verdict's,
 * does it run this verdict? Cline loads every plugin file in `<cline dir>/plugins/` at each
 * session's start (no trust prompt), in a Node.js sandbox process: the import must finish within
 * 4 s (CLINE_PLUGIN_IMPORT_TIMEOUT_MS) and each hook within 3 s, else Cline goes on without it
 * (its log says "plugin-sandbox call timed out"). A plugin written while Cline runs takes effect
 * at its next session. Cline has no moment before a compaction a plugin can reach, so the check
 * says the compaction verdict is not wired.
 */
import { type Check, check, reason } from "../../install/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { IMPORT_TIMEOUT_VARIABLE, isOurPlugin, pluginProgram } from "./plugin.ts";

/** The role of the plugin file. */
export const PLUGIN_ROLE = "cline-plugin";

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
  return check(
    "plugin",
    "ok",
    `plugin (the hint before each prompt) in ${path}; Cline loads it at each session's start if its ` +
      `import finishes within 4 s (raise ${IMPORT_TIMEOUT_VARIABLE} on a slow machine); no compaction ` +
      "verdict: Cline has no moment before a compaction that a plugin or hook can reach",
  );
}
