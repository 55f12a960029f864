/**
 * `verdict hook user-prompt`: the UserPromptSubmit hook entry. The hint in hook mode: reads at
 * most 4 MiB of hook JSON, prints the hook output or nothing, always exits 0, and gives up
 * silently past its deadline (HOOK_DEADLINE_MS).
 */
import { runHint } from "../../hint/run.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  return await runHint(plan, io, true);
}
