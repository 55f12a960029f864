/**
 * Copilot CLI's own doctor check: is verdict's userPromptSubmitted hook in the user settings,
 * does it run this verdict, and will Copilot run it? User-level hooks run in any folder (seen
 * with 1.0.102: a `copilot -p` in an untrusted folder ran them), but `disableAllHooks: true`
 * turns every hook off. Folder trust is a gate of its own: the terminal UI asks once per folder
 * before its first session there (the list is `trustedFolders` in `<folder>/config.json`, which
 * Copilot manages; install never edits it), and nothing, hooks included, runs until it is
 * answered. Doctor says so, with the number of folders trusted so far.
 */
import { parseJsonc } from "../../config/jsonc.ts";
import { type Check, check, parseFailure } from "../../install/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { isObject } from "../json.ts";
import { copilotHookStatus } from "./hooks.ts";

export const SETTINGS_ROLE = "copilot-settings";
export const TRUST_ROLE = "copilot-config";

export async function copilotHooksCheck(ctx: DoctorContext): Promise<Check> {
  if (!ctx.agent.present) return check("hooks", "skip", "Copilot CLI not found; no hooks to check");
  const settings = ctx.agent.files.find((f) => f.role === SETTINGS_ROLE)!.path;
  const config = ctx.agent.files.find((f) => f.role === TRUST_ROLE)?.path ?? null;
  let statuses;
  let parsed: unknown;
  let trusted: number | null = null;
  try {
    const text = (await ctx.read(settings)) ?? "";
    statuses = copilotHookStatus(text, settings);
    parsed = text.trim() === "" ? {} : parseJsonc(text);
  } catch (err) {
    return parseFailure("hooks", settings, err);
  }
  try {
    const c = config === null ? null : await ctx.read(config);
    const v: unknown = c === null || c.trim() === "" ? {} : parseJsonc(c);
    trusted = isObject(v) && Array.isArray(v.trustedFolders) ? v.trustedFolders.length : 0;
  } catch {
    trusted = null; // unreadable trust list: said below
  }
  const fix = "run verdict install --copilot";
  const missing = statuses.filter((s) => s.state === "missing");
  if (missing.length > 0) {
    return check(
      "hooks",
      "fail",
      `Copilot CLI: not registered in ${settings}: ${missing.map((s) => s.spec.event).join(", ")}`,
      fix,
    );
  }
  if (isObject(parsed) && parsed.disableAllHooks === true) {
    return check(
      "hooks",
      "fail",
      "Copilot CLI will not run verdict's hooks: disableAllHooks is true (no hook runs)",
      `edit ${settings}`,
    );
  }
  const elsewhere = statuses.filter((s) => s.program !== null && s.program !== ctx.bin);
  if (elsewhere.length > 0) {
    return check(
      "hooks",
      "warn",
      `Copilot CLI: the hooks run ${elsewhere[0]!.program}, but this verdict is ${ctx.bin}`,
      `${fix} to point them here`,
    );
  }
  const labels = statuses.map((s) => s.spec.event + (s.state === "hand-wired" ? " (wired by hand)" : ""));
  const trust = trusted === null
    ? `its trust list ${config} does not parse`
    : `${trusted} folder${trusted === 1 ? "" : "s"} trusted in ${config}`;
  return check(
    "hooks",
    "ok",
    `Copilot CLI: ${labels.join(", ")} in ${settings} (user hooks run in any folder; the terminal UI asks ` +
      `to trust each folder once before its first session there, and runs nothing until answered: ${trust})`,
  );
}
