/** `verdict hint`: the gated look-up (see src/cli/hint_run.ts). */
import { runHint } from "../hint_run.ts";
import type { CommandIO, CommandPlan } from "../plan.ts";

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  return await runHint(plan, io, false);
}
