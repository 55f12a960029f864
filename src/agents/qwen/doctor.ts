/**
 * Qwen Code's own doctor check: are verdict's three hooks in the user settings, do they run this
 * verdict, and will Qwen run them? User-level hooks need no trust step (only project-level
 * settings depend on folder trust), but the settings can turn every hook off:
 * `disableAllHooks: true` (fail); a `tools.executionSandbox` Qwen admits turns them off too (read
 * in its 0.24 bundle; a warning: whether Qwen admits the sandbox, bwrap present, is not in the
 * file); so do `--bare` and safe mode for one run, which no file shows. An
 * `mcp.allowed` list without "verdict", or `mcp.excluded` with it, keeps the MCP server from
 * starting. (The registration itself is checked with every agent's, in src/install/doctor.ts.)
 * The check's steps are the family's (src/agents/gemini_family/doctor.ts).
 */
import type { Check } from "../../hostfile/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { settingsHooksCheck } from "../gemini_family/doctor.ts";
import { isObject } from "../json.ts";
import { QWEN_SETTINGS } from "./settings.ts";

/** The role of the settings file (see mod.ts). */
export const SETTINGS_ROLE = "qwen-settings";

export async function qwenHooksCheck(ctx: DoctorContext): Promise<Check> {
  return await settingsHooksCheck(ctx, {
    label: "Qwen Code",
    role: SETTINGS_ROLE,
    fix: "run verdict install --qwen",
    file: QWEN_SETTINGS,
    turnedOff,
    mayNotRun: sandboxed,
  });
}

/** Why the settings keep every hook from running, or null. */
export function turnedOff(settings: unknown): string | null {
  return isObject(settings) && settings.disableAllHooks === true
    ? "disableAllHooks is true (no hook runs)"
    : null;
}

/** Why the settings may keep every hook from running, or null. */
export function sandboxed(settings: unknown): string | null {
  const tools = isObject(settings) && isObject(settings.tools) ? settings.tools : {};
  return isObject(tools.executionSandbox)
    ? "tools.executionSandbox is set (with its sandbox admitted, Qwen Code runs no hook)"
    : null;
}
