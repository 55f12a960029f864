/**
 * `verdict version`: the version set at build time (deno.json is the single source, read here
 * rather than through the launcher, which loads this command).
 */
import denoJson from "../../../deno.json" with { type: "json" };
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

export async function run(_plan: CommandPlan, io: CommandIO): Promise<number> {
  await io.stdout(`verdict ${denoJson.version}\n`);
  return 0;
}
