/**
 * Gemini CLI's own doctor check: is verdict's BeforeAgent hook in the user settings, does it
 * run this verdict, and will Gemini CLI run it? User-level hooks run with no trust step (seen
 * with 0.61.0; only project-level hooks are fingerprinted and confirmed), but the settings can
 * turn them off: `hooksConfig.enabled: false` stops every hook, and `hooksConfig.disabled`
 * names hooks not to run. An `mcp.allowed` list without "verdict", or an `mcp.excluded` list
 * with it, keeps the MCP server from starting. (The registration itself is checked with every
 * agent's, in src/install/doctor.ts.)
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
import { MCP_NAME } from "../../hostfile/mcp_servers.ts";
import type { DoctorContext } from "../agent.ts";
import { isObject } from "../json.ts";
import { geminiHookStatus, HINT_HOOK_NAME } from "./hooks.ts";

/** The role of the settings file (see mod.ts). */
export const SETTINGS_ROLE = "gemini-settings";

const FIX = "run verdict install --gemini";

export async function geminiHooksCheck(ctx: DoctorContext): Promise<Check> {
  if (!ctx.agent.present) return check("hooks", "skip", "Gemini CLI not found; no hooks to check");
  const settings = ctx.agent.files.find((f) => f.role === SETTINGS_ROLE)!.path;
  let text: string;
  let statuses;
  let parsed: unknown;
  try {
    text = (await ctx.read(settings)) ?? "";
    statuses = geminiHookStatus(text, settings);
    parsed = text.trim() === "" ? {} : parseJsonc(text);
  } catch (err) {
    return parseFailure("hooks", settings, err);
  }
  const missing = missingHooks(statuses, settings, FIX);
  if (missing) return missing;
  const off = turnedOff(parsed);
  if (off !== null) {
    return check("hooks", "fail", `Gemini CLI will not run verdict's hooks: ${off}`, `edit ${settings}`);
  }
  const elsewhere = hooksRunElsewhere(statuses, ctx.bin, FIX);
  if (elsewhere) return elsewhere;
  const mcp = mcpBlocked(parsed);
  if (mcp !== null) return check("hooks", "warn", mcp, `edit ${settings}`);
  return check("hooks", "ok", `${hookList(statuses)} in ${settings} (user hooks need no trust step)`);
}

/** Why the settings keep verdict's hooks from running, or null. */
export function turnedOff(settings: unknown): string | null {
  const config = isObject(settings) && isObject(settings.hooksConfig) ? settings.hooksConfig : {};
  if (config.enabled === false) return "hooksConfig.enabled is false (no hook runs)";
  const disabled = Array.isArray(config.disabled) ? config.disabled : [];
  if (disabled.includes(HINT_HOOK_NAME)) return `hooksConfig.disabled lists "${HINT_HOOK_NAME}"`;
  return null;
}

/** Why the settings keep verdict's MCP server from starting, or null. */
export function mcpBlocked(settings: unknown): string | null {
  const mcp = isObject(settings) && isObject(settings.mcp) ? settings.mcp : {};
  if (Array.isArray(mcp.allowed) && !mcp.allowed.includes(MCP_NAME)) {
    return `mcp.allowed does not list "${MCP_NAME}": its MCP server will not start`;
  }
  if (Array.isArray(mcp.excluded) && mcp.excluded.includes(MCP_NAME)) {
    return `mcp.excluded lists "${MCP_NAME}": its MCP server will not start`;
  }
  return null;
}
