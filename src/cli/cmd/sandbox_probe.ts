/**
 * `verdict sandbox-probe --as CMD --read PATH`: attempts a read inside CMD's sandbox. The
 * answer comes from Deno itself: exit 0 when the runtime refused the read, 1 when it went
 * through (the sandbox would be broken). Used by tests and by `verdict doctor`.
 */
import { stringOption } from "../../plan/args.ts";
import { EXIT, UsageError } from "../../errors.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const path = stringOption(plan.args, "read");
  if (!path) throw new UsageError('"verdict sandbox-probe" needs --read PATH');
  const as = stringOption(plan.args, "as") ?? "collect";
  try {
    await Deno.readFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotCapable) {
      await io.stdout(`refused: ${as} cannot read ${path}: ${err.message}\n`);
      return EXIT.ok;
    }
    await io.stdout(`allowed, then failed: ${as} may read ${path} (${(err as Error).name})\n`);
    return EXIT.finding;
  }
  await io.stdout(`allowed: ${as} read ${path}\n`);
  return EXIT.finding;
}
