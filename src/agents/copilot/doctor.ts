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
import {
  type Check,
  check,
  hookList,
  hooksRunElsewhere,
  missingHooks,
  parseFailure,
} from "../../hostfile/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { isObject } from "../json.ts";
import { copilotHookStatus } from "./hooks.ts";

export const SETTINGS_ROLE = "copilot-settings";
export const TRUST_ROLE = "copilot-config";

const FIX = "run verdict install --copilot";

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
  const missing = missingHooks(statuses, settings, FIX);
  if (missing) return missing;
  if (isObject(parsed) && parsed.disableAllHooks === true) {
    return check(
      "hooks",
      "fail",
      "Copilot CLI will not run verdict's hooks: disableAllHooks is true (no hook runs)",
      `edit ${settings}`,
    );
  }
  const elsewhere = hooksRunElsewhere(statuses, ctx.bin, FIX);
  if (elsewhere) return elsewhere;
  const trust = trusted === null
    ? `its trust list ${config} does not parse`
    : `${trusted} folder${trusted === 1 ? "" : "s"} trusted in ${config}`;
  return check(
    "hooks",
    "ok",
    `${hookList(statuses)} in ${settings} (user hooks run in any folder; the terminal UI asks ` +
      `to trust each folder once before its first session there, and runs nothing until answered: ${trust})`,
  );
}
