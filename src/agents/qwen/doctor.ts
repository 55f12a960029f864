/**
 * Qwen Code's own doctor check: are verdict's three hooks in the user settings, do they run this
 * verdict, and will Qwen run them? User-level hooks need no trust step (only project-level
 * settings depend on folder trust), but the settings can turn every hook off:
 * `disableAllHooks: true` (fail); a `tools.executionSandbox` Qwen admits turns them off too (read
 * in its 0.24 bundle; a warning: whether Qwen admits the sandbox, bwrap present, is not in the
 * file); so do `--bare` and safe mode for one run, which no file shows. An
 * `mcp.allowed` list without "verdict", or `mcp.excluded` with it, keeps the MCP server from
 * starting. (The registration itself is checked with every agent's, in src/install/doctor.ts.)
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
import { mcpBlocked } from "../gemini/doctor.ts";
import { qwenHookStatus } from "./hooks.ts";

/** The role of the settings file (see mod.ts). */
export const SETTINGS_ROLE = "qwen-settings";

const FIX = "run verdict install --qwen";

export async function qwenHooksCheck(ctx: DoctorContext): Promise<Check> {
  if (!ctx.agent.present) return check("hooks", "skip", "Qwen Code not found; no hooks to check");
  const settings = ctx.agent.files.find((f) => f.role === SETTINGS_ROLE)!.path;
  let statuses;
  let parsed: unknown;
  try {
    const text = (await ctx.read(settings)) ?? "";
    statuses = qwenHookStatus(text, settings);
    parsed = text.trim() === "" ? {} : parseJsonc(text);
  } catch (err) {
    return parseFailure("hooks", settings, err);
  }
  const missing = missingHooks(statuses, settings, FIX);
  if (missing) return missing;
  const off = turnedOff(parsed);
  if (off !== null) {
    return check("hooks", "fail", `Qwen Code will not run verdict's hooks: ${off}`, `edit ${settings}`);
  }
  const elsewhere = hooksRunElsewhere(statuses, ctx.bin, FIX);
  if (elsewhere) return elsewhere;
  const sandbox = sandboxed(parsed);
  if (sandbox !== null) {
    return check("hooks", "warn", `Qwen Code may not run verdict's hooks: ${sandbox}`, `edit ${settings}`);
  }
  const mcp = mcpBlocked(parsed);
  if (mcp !== null) return check("hooks", "warn", mcp, `edit ${settings}`);
  return check("hooks", "ok", `${hookList(statuses)} in ${settings} (user hooks need no trust step)`);
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
