/**
 * Claude Code's own doctor check: are verdict's three hooks registered in settings.json, and do
 * they run this verdict? (Its MCP registration is checked with every agent's, in doctor.ts.)
 */
import { type Check, check, parseFailure } from "../../install/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { hookLabel, hookStatus } from "./hooks.ts";

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
  const missing = statuses.filter((s) => s.state === "missing");
  if (missing.length > 0) {
    return check(
      "hooks",
      "fail",
      `not registered in ${settings}: ${missing.map((s) => hookLabel(s.spec)).join(", ")}`,
      "run verdict install --claude",
    );
  }
  const elsewhere = statuses.filter((s) => s.program !== null && s.program !== ctx.bin);
  if (elsewhere.length > 0) {
    return check(
      "hooks",
      "warn",
      `the hooks run ${elsewhere[0]!.program}, but this verdict is ${ctx.bin}`,
      "run verdict install --claude to point them here",
    );
  }
  const labels = statuses.map((s) =>
    hookLabel(s.spec) + (s.state === "hand-wired" ? " (wired by hand)" : "")
  );
  return check("hooks", "ok", `${labels.join(", ")} in ${settings}`);
}
