/**
 * Claude Code's own doctor check: are verdict's three hooks registered in settings.json, and do
 * they run this verdict? (Its MCP registration is checked with every agent's, in doctor.ts.)
 */
import {
  type Check,
  check,
  hookList,
  hooksRunElsewhere,
  missingHooks,
  parseFailure,
} from "../../hostfile/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { hookStatus } from "./hooks.ts";

const FIX = "run verdict install --claude";

/** The role of the settings file holding the hooks (see mod.ts). */
export const SETTINGS_ROLE = "claude-settings";

export async function hooksCheck(ctx: DoctorContext): Promise<Check> {
  if (!ctx.agent.present) return check("hooks", "skip", "Claude Code not found; no hooks to check");
  const settings = ctx.agent.files.find((f) => f.role === SETTINGS_ROLE)!.path;
  let statuses;
  try {
    statuses = hookStatus((await ctx.read(settings)) ?? "", settings);
  } catch (err) {
    return parseFailure("hooks", settings, err);
  }
  const problem = missingHooks(statuses, settings, FIX) ?? hooksRunElsewhere(statuses, ctx.bin, FIX);
  return problem ?? check("hooks", "ok", `${hookList(statuses)} in ${settings}`);
}
