/**
 * The per-prompt hook's own entry: `verdict hook user-prompt`, taken over when argv is as
 * hook_argv.ts says. It runs on every prompt the person types, so it
 * skips the launcher: no command table, help texts or permission table are loaded, only the
 * plan builder and the hint. The plan and the run are the ones the launcher uses
 * (src/plan/build_plan.ts, ./run.ts), so both entries behave the same; like every hook, it never
 * fails loudly. Any other argv (another option, --help) goes through the launcher.
 *
 * The warm helper (src/warm/serve.ts) answers each request with this same function, handing it
 * the request's stdin, a stdout it captures and its own deadline clock.
 */
import { EXIT, VerdictError } from "../errors.ts";
import { defaultPaths } from "../config/paths.ts";
import { recordTrouble, type TroubleKind } from "../gate/health.ts";
import { nowMs } from "../plan/clock.ts";
import type { Env } from "../config/paths.ts";
import type { ParsedArgs } from "../plan/args.ts";
import { buildPlan, type ConfigSource } from "../plan/build_plan.ts";
import { type HintHost, HOOK_PROCESS, runHint } from "./run.ts";
import { processIO } from "../plan/io.ts";
import type { CommandIO } from "../plan/plan.ts";

/** The plan rows the hook entry builds with: the command table's, without loading the table. */
export const HOOK_PLAN_SPEC = { name: "hook user-prompt", sandbox: "revoke", options: {} } as const;

export interface HookRunOptions {
  /** The hook's stdin, already read (by the warm client); null when it was over the limit. */
  readonly stdin?: Uint8Array | null;
  /** Where the output goes (default: the process's stdout). */
  readonly io?: CommandIO;
  /** The deadline's clock and the confinement (default: this process's). */
  readonly host?: HintHost;
  /**
   * The config (default: read from its file). The warm helper passes the config it read for this
   * request's checks, so one request reads its config once.
   */
  readonly config?: ConfigSource;
  /**
   * No helper answered: how to start one (detached) before answering, unless the config says not
   * to. The entry's caller (main.ts) hands it in, since the helper is the floor above the hint.
   */
  readonly startHelper?: (stateDir: string) => Promise<void>;
  /** The warm helper refused this request (not for being another build): counted as trouble. */
  readonly helperRefused?: boolean;
}

export async function runUserPromptHook(
  args: ParsedArgs,
  env: Env,
  cwd: string,
  options: HookRunOptions = {},
): Promise<number> {
  let plan;
  try {
    plan = await buildPlan(HOOK_PLAN_SPEC, args, env, cwd, null, options.config);
  } catch (err) {
    // A config that does not load: the prompt goes on without a hint, and it is counted.
    if (err instanceof VerdictError) troubleAt(env, cwd, "config");
    return EXIT.ok;
  }
  if (options.helperRefused) recordTrouble(plan.paths.stateDir, "refused", nowMs(plan.asOf));
  try {
    const base = options.io ?? processIO();
    const stdin = options.stdin;
    const io: CommandIO = stdin === undefined ? base : { ...base, readStdin: () => Promise.resolve(stdin) };
    // Before the hint: the hint revokes every permission once its files are open.
    if (options.startHelper && plan.config.warm_helper) {
      await options.startHelper(plan.paths.stateDir).catch(() => {});
    }
    return await runHint(plan, io, true, options.host ?? HOOK_PROCESS);
  } catch {
    return EXIT.ok;
  }
}

/** Counts trouble met before there is a plan (its state folder from the environment alone). */
function troubleAt(env: Env, cwd: string, kind: TroubleKind): void {
  try {
    recordTrouble(defaultPaths(env, cwd).stateDir, kind, Date.now());
  } catch {
    // No home to count in: nothing to do.
  }
}
