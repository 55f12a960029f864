/// <reference lib="deno.worker" />
/**
 * The Worker entry of every sandboxed command: gets the plan, loads the command through its row
 * in the command table (./commands.ts), and runs it under the Worker's narrowed permissions.
 *
 * It lives here, with the table, and not in src/sandbox/: the sandbox is a mechanism below the
 * commands (./run_confined.ts starts a Worker on this entry through src/sandbox/launch.ts; the
 * message protocol is src/sandbox/in_worker.ts), and only the CLI knows its commands. The table's
 * loaders are literal dynamic imports, so `deno compile` (which includes this file by name,
 * scripts/compile.ts) bundles every command with it.
 */
import { describeError } from "../errors.ts";
import { serveWorker } from "../sandbox/in_worker.ts";
import { findCommand } from "./commands.ts";
import { processIO } from "../plan/io.ts";
import type { CommandPlan } from "../plan/plan.ts";

/** What src/cli/run_confined.ts sends this entry. */
export interface CommandRequest {
  readonly plan: CommandPlan;
}

const io = processIO();

serveWorker<CommandRequest>(
  async ({ plan }) => {
    const spec = findCommand(plan.command);
    if (!spec) throw new Error(`Unknown command "${plan.command}"`);
    const mod = await spec.load();
    return () => mod.run(plan, io);
  },
  async (err) => {
    const { code, lines } = describeError(err);
    if (lines.length > 0) await io.stderr(lines.join("\n") + "\n");
    return code;
  },
);
