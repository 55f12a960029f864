/**
 * The per-prompt hook's own entry: `verdict hook user-prompt`, taken over when argv is as
 * hook_argv.ts says. It runs on every prompt the person types, so it
 * skips the launcher: no command table, help texts or permission table are loaded, only the
 * plan builder and the hint. The plan and the run are the launcher's own (build_plan.ts,
 * hint_run.ts), so both entries behave the same; like every hook, it never fails loudly. Any
 * other argv (another option, --help) goes through the launcher.
 */
import { EXIT } from "../errors.ts";
import type { Env } from "../config/paths.ts";
import type { ParsedArgs } from "./args.ts";
import { buildPlan } from "./build_plan.ts";
import { runHint } from "./hint_run.ts";
import { processIO } from "./io.ts";

export async function runUserPromptHook(args: ParsedArgs, env: Env, cwd: string): Promise<number> {
  try {
    const plan = await buildPlan(
      { name: "hook user-prompt", sandbox: "revoke", options: {} },
      args,
      env,
      cwd,
      null,
    );
    return await runHint(plan, processIO(), true);
  } catch {
    return EXIT.ok;
  }
}
