/**
 * Codex's own doctor check: are verdict's hooks in hooks.json, do they run this verdict, and will
 * Codex run them at all? Codex skips a hook it has not been told to trust, without a word, so a
 * hook that is registered but untrusted (or trusted in an older version, or turned off) fails.
 */
import { type Check, check, parseFailure } from "../../install/checks.ts";
import { hookLabel } from "../../install/hook_json.ts";
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
  const missing = statuses.filter((s) => s.state === "missing");
  if (missing.length > 0) {
    return check(
      "hooks",
      "fail",
      `not registered in ${hooksFile.path}: ${missing.map((s) => hookLabel(s.spec)).join(", ")}`,
      "run verdict install --codex",
    );
  }
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
  const elsewhere = statuses.filter((s) => s.program !== null && s.program !== ctx.bin);
  if (elsewhere.length > 0) {
    return check(
      "hooks",
      "warn",
      `the hooks run ${elsewhere[0]!.program}, but this verdict is ${ctx.bin}`,
      "run verdict install --codex to point them here",
    );
  }
  const labels = statuses.map((s) =>
    hookLabel(s.spec) + (s.state === "hand-wired" ? " (wired by hand)" : "")
  );
  return check("hooks", "ok", `${labels.join(", ")} in ${hooksFile.path}, trusted`);
}
