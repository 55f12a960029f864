/**
 * OpenCode's own doctor check: is verdict's hint plugin in the plugin folder, is it verdict's,
 * and does it run this verdict? (Its MCP registration is checked with every agent's.) OpenCode
 * has no trust prompt for plugins: it loads every file in that folder when it starts, so a
 * plugin written while OpenCode runs takes effect at its next start.
 */
import { type Check, check, reason } from "../../hostfile/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { isOurPlugin, pluginProgram } from "./plugin.ts";

/** The role of the plugin file (see mod.ts). */
export const PLUGIN_ROLE = "plugin";

export async function pluginCheck(ctx: DoctorContext): Promise<Check> {
  if (!ctx.agent.present) return check("plugin", "skip", "OpenCode not found; no plugin to check");
  const path = ctx.agent.files.find((f) => f.role === PLUGIN_ROLE)!.path;
  let text: string | null;
  try {
    text = await ctx.read(path);
  } catch (err) {
    return check("plugin", "fail", `Cannot read "${path}": ${reason(err)}`, `make ${path} readable`);
  }
  if (text === null) {
    return check("plugin", "fail", `no hint plugin at ${path}`, "run verdict install --opencode");
  }
  if (!isOurPlugin(text)) {
    return check(
      "plugin",
      "warn",
      `${path} was not written by verdict install; OpenCode runs it, but it is not verdict's hint`,
      "move it away, then run verdict install --opencode",
    );
  }
  const program = pluginProgram(text);
  if (program !== ctx.bin) {
    return check(
      "plugin",
      "warn",
      `the hint plugin runs ${program ?? "an unknown program"}, but this verdict is ${ctx.bin}`,
      "run verdict install --opencode to point it here",
    );
  }
  return check("plugin", "ok", `hint plugin (chat.message) in ${path}; OpenCode loads it at start`);
}
