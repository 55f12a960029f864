/** `verdict hint`: the gated look-up (see src/hint/run.ts). */
import { runHint } from "../../hint/run.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  return await runHint(plan, io, false);
}
