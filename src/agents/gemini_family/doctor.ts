/**
 * The doctor check Gemini CLI and Qwen Code share: are verdict's hooks in the user settings, do
 * they run this verdict, and will the agent run them? User-level hooks need no trust step in
 * either; what can stop them is in the settings, each agent's own keys (`turnedOff`, and
 * `mayNotRun` for a setting that stops them only under conditions the file does not show), and
 * an `mcp` block can keep the MCP server from starting. (The registration itself is checked with
 * every agent's, in src/install/doctor.ts.)
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
import type { HookStatus } from "../../hostfile/hook_json.ts";
import type { DoctorContext } from "../agent.ts";
import { mcpBlocked, type SettingsFile } from "./settings_file.ts";

export interface SettingsHooksCheck {
  /** The agent's name in messages, e.g. "Gemini CLI". */
  readonly label: string;
  /** The role of the settings file among the agent's host files. */
  readonly role: string;
  /** The fix for missing or foreign hooks, e.g. "run verdict install --gemini". */
  readonly fix: string;
  readonly file: SettingsFile;
  /** Why the settings keep verdict's hooks from running (a failure), or null. */
  readonly turnedOff: (settings: unknown) => string | null;
  /** Why the settings may keep them from running (a warning), or null. */
  readonly mayNotRun?: (settings: unknown) => string | null;
}

export async function settingsHooksCheck(ctx: DoctorContext, spec: SettingsHooksCheck): Promise<Check> {
  const { label, fix } = spec;
  if (!ctx.agent.present) return check("hooks", "skip", `${label} not found; no hooks to check`);
  const settings = ctx.agent.files.find((f) => f.role === spec.role)!.path;
  let statuses: HookStatus[];
  let parsed: unknown;
  try {
    const text = (await ctx.read(settings)) ?? "";
    statuses = spec.file.hookStatus(text, settings);
    parsed = text.trim() === "" ? {} : parseJsonc(text);
  } catch (err) {
    return parseFailure("hooks", settings, err);
  }
  const missing = missingHooks(statuses, settings, fix);
  if (missing) return missing;
  const off = spec.turnedOff(parsed);
  if (off !== null) {
    return check("hooks", "fail", `${label} will not run verdict's hooks: ${off}`, `edit ${settings}`);
  }
  const elsewhere = hooksRunElsewhere(statuses, ctx.bin, fix);
  if (elsewhere) return elsewhere;
  const maybe = spec.mayNotRun?.(parsed) ?? null;
  if (maybe !== null) {
    return check("hooks", "warn", `${label} may not run verdict's hooks: ${maybe}`, `edit ${settings}`);
  }
  const mcp = mcpBlocked(parsed);
  if (mcp !== null) return check("hooks", "warn", mcp, `edit ${settings}`);
  return check("hooks", "ok", `${hookList(statuses)} in ${settings} (user hooks need no trust step)`);
}
