/**
 * Runs a command in a Worker narrowed to its permission rule (the command table, ./commands.ts):
 * the entry is ./worker.ts, the mechanism src/sandbox/launch.ts. Used by the launcher for
 * "worker" commands and by the commands that pin their plan first (install, doctor, schedule).
 */
import { runInWorker } from "../sandbox/launch.ts";
import { findCommand } from "./commands.ts";
import { permissionsFor } from "./grants.ts";
import type { CommandPlan } from "../plan/plan.ts";
import type { CommandRequest } from "./worker.ts";

const WORKER_ENTRY = new URL("./worker.ts", import.meta.url);

/** `as`: whose permission rule applies (sandbox-probe runs under another command's). */
export async function runConfined(plan: CommandPlan, as: string = plan.command): Promise<number> {
  return await runInWorker<CommandRequest>(
    WORKER_ENTRY,
    `verdict ${plan.command}`,
    { plan },
    permissionsFor(as, plan),
    // A hook stays silent, even when a signal ends it.
    { silentStop: findCommand(plan.command)?.exitsZero === true },
  );
}
