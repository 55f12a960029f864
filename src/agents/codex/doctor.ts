/**
 * Codex's own doctor check: are verdict's hooks in hooks.json, do they run this verdict, and will
 * Codex run them at all? Codex skips a hook it has not been told to trust, without a word, so a
 * hook that is registered but untrusted (or trusted in an older version, or turned off) fails.
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
import { codexHookStatus, runsVerdict, wantedTrust } from "./hooks.ts";
import { HOOKS_ROLE } from "./mcp.ts";
import { hooksStateIsInline, readHookStates } from "./trust.ts";

/** The role of config.toml (mod.ts), where Codex keeps hook trust. */
export const CONFIG_ROLE = "codex-config";

/** What to do to trust verdict's hooks, said wherever trust is missing. */
export const TRUST_FIX =
  "run verdict install --codex (it records trust for the hooks it writes), or in Codex type /hooks, " +
  'select each verdict hook and press "t"';

const FIX = "run verdict install --codex";

export async function codexHooksCheck(ctx: DoctorContext): Promise<Check> {
  if (!ctx.agent.present) return check("hooks", "skip", "Codex not found; no hooks to check");
  const hooksFile = ctx.agent.files.find((f) => f.role === HOOKS_ROLE)!;
  const configFile = ctx.agent.files.find((f) => f.role === CONFIG_ROLE)!;
  let hooksText: string;
  let statuses;
  try {
    hooksText = (await ctx.read(hooksFile.path)) ?? "";
    statuses = codexHookStatus(hooksText, hooksFile.path);
  } catch (err) {
    return parseFailure("hooks", hooksFile.path, err);
  }
  const missing = missingHooks(statuses, hooksFile.path, FIX);
  if (missing) return missing;
  let configText: string;
  let wanted;
  try {
    configText = (await ctx.read(configFile.path)) ?? "";
    wanted = wantedTrust(hooksText, hooksFile.path, hooksFile.agentPath, runsVerdict);
  } catch (err) {
    return parseFailure("hooks", configFile.path, err);
  }
  if (wanted.length > 0 && hooksStateIsInline(configText)) {
    return check(
      "hooks",
      "warn",
      `cannot tell whether Codex trusts verdict's hooks: ${configFile.path} keeps hook state inline`,
      'in Codex, type /hooks: verdict\'s hooks must show as trusted (press "t" on each if not)',
    );
  }
  const states = readHookStates(configText);
  for (const w of wanted) {
    const state = states.get(w.key);
    if (state?.enabled === false) {
      return check(
        "hooks",
        "fail",
        `Codex will not run verdict's ${w.label} hook: it is turned off (${configFile.path}:${state.line})`,
        "in Codex, type /hooks and turn it on",
      );
    }
    if (!state || state.trustedHash === null) {
      return check(
        "hooks",
        "fail",
        `Codex will not run verdict's ${w.label} hook: it is not trusted (no [hooks.state] entry for ${w.key})`,
        TRUST_FIX,
      );
    }
    if (state.trustedHash !== w.hash) {
      return check(
        "hooks",
        "fail",
        `Codex will not run verdict's ${w.label} hook: ${configFile.path}:${state.line} trusts another version of it`,
        TRUST_FIX,
      );
    }
  }
  return hooksRunElsewhere(statuses, ctx.bin, FIX) ??
    check("hooks", "ok", `${hookList(statuses)} in ${hooksFile.path}, trusted`);
}
