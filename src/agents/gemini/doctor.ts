/**
 * Gemini CLI's own doctor check: is verdict's BeforeAgent hook in the user settings, does it
 * run this verdict, and will Gemini CLI run it? User-level hooks run with no trust step (seen
 * with 0.61.0; only project-level hooks are fingerprinted and confirmed), but the settings can
 * turn them off: `hooksConfig.enabled: false` stops every hook, and `hooksConfig.disabled`
 * names hooks not to run. An `mcp.allowed` list without "verdict", or an `mcp.excluded` list
 * with it, keeps the MCP server from starting. (The registration itself is checked with every
 * agent's, in src/install/doctor.ts.) The check's steps are the family's
 * (src/agents/gemini_family/doctor.ts); Gemini CLI's own are the keys that turn hooks off.
 */
import type { Check } from "../../hostfile/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { settingsHooksCheck } from "../gemini_family/doctor.ts";
import { isObject } from "../json.ts";
import { HINT_HOOK_NAME } from "./hooks.ts";
import { GEMINI_SETTINGS } from "./settings.ts";

/** The role of the settings file (see mod.ts). */
export const SETTINGS_ROLE = "gemini-settings";

export async function geminiHooksCheck(ctx: DoctorContext): Promise<Check> {
  return await settingsHooksCheck(ctx, {
    label: "Gemini CLI",
    role: SETTINGS_ROLE,
    fix: "run verdict install --gemini",
    file: GEMINI_SETTINGS,
    turnedOff,
  });
}

/** Why the settings keep verdict's hooks from running, or null. */
export function turnedOff(settings: unknown): string | null {
  const config = isObject(settings) && isObject(settings.hooksConfig) ? settings.hooksConfig : {};
  if (config.enabled === false) return "hooksConfig.enabled is false (no hook runs)";
  const disabled = Array.isArray(config.disabled) ? config.disabled : [];
  if (disabled.includes(HINT_HOOK_NAME)) return `hooksConfig.disabled lists "${HINT_HOOK_NAME}"`;
  return null;
}
