/** `verdict version`: the version set at build time (deno.json is the single source). */
import type { CommandIO, CommandPlan } from "../plan.ts";
import { VERSION } from "../main.ts";

export async function run(_plan: CommandPlan, io: CommandIO): Promise<number> {
  await io.stdout(`verdict ${VERSION}\n`);
  return 0;
}
