/**
 * The per-prompt hook's own entry: `verdict hook user-prompt`, taken over when argv is as
 * hook_argv.ts says. It runs on every prompt the person types, so it
 * skips the launcher: no command table, help texts or permission table are loaded, only the
 * plan builder and the hint. The plan and the run are the launcher's own (build_plan.ts,
 * hint_run.ts), so both entries behave the same; like every hook, it never fails loudly. Any
 * other argv (another option, --help) goes through the launcher.
 *
 * The warm helper (src/warm/serve.ts) answers each request with this same function, handing it
 * the request's stdin, a stdout it captures and its own deadline clock.
 */
import { EXIT } from "../errors.ts";
import type { Env } from "../config/paths.ts";
import type { ParsedArgs } from "./args.ts";
import { buildPlan, type ConfigSource } from "./build_plan.ts";
import { type HintHost, HOOK_PROCESS, runHint } from "./hint_run.ts";
import { processIO } from "./io.ts";
import type { CommandIO } from "./plan.ts";

/** The plan rows the hook entry builds with: the command table's, without loading the table. */
export const HOOK_PLAN_SPEC = { name: "hook user-prompt", sandbox: "revoke", options: {} } as const;

/**
 * Starting the helper: named through a variable, so a hook that does not start one (nearly
 * every hook) never reads it. The compile names it with --include.
 */
const WARM_START = new URL("../warm/start.ts", import.meta.url).href;

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
  /** No helper answered: start one (detached) before answering, unless the config says not to. */
  readonly startHelper?: boolean;
}

export async function runUserPromptHook(
  args: ParsedArgs,
  env: Env,
  cwd: string,
  options: HookRunOptions = {},
): Promise<number> {
  try {
    const plan = await buildPlan(HOOK_PLAN_SPEC, args, env, cwd, null, options.config);
    const base = options.io ?? processIO();
    const stdin = options.stdin;
    const io: CommandIO = stdin === undefined ? base : { ...base, readStdin: () => Promise.resolve(stdin) };
    // Before the hint: the hint revokes every permission once its files are open.
    if (options.startHelper && plan.config.warm_helper) {
      await import(WARM_START).then((m) => m.startHelper(plan.paths.stateDir, env)).catch(() => {});
    }
    return await runHint(plan, io, true, options.host ?? HOOK_PROCESS);
  } catch {
    return EXIT.ok;
  }
}
