/** `verdict recall "<words>"`: ranked quotes, no gate. */
import { runLookup } from "../lookup.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  return await runLookup("recall", {
    plan,
    io,
    entitiesPath: plan.config.entities,
    project: null,
    excludeSession: null,
  });
}
