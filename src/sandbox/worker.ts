/// <reference lib="deno.worker" />
/**
 * Worker entry: receives a command plan, runs the command under the Worker's narrowed
 * permissions, and replies with the exit code. Errors are reported here, inside the sandbox.
 */
import { findCommand } from "../cli/commands.ts";
import { describeError, EXIT } from "../cli/errors.ts";
import { processIO } from "../cli/io.ts";
import type { WorkerReply, WorkerRequest } from "./launch.ts";
import { stopSignal } from "./stop.ts";

let go: () => void = () => {};
const goSignal = new Promise<void>((resolve) => (go = resolve));

self.onmessage = async (e: MessageEvent<WorkerRequest | { stop: true } | { go: true }>) => {
  if ("stop" in e.data) {
    stopSignal.abort();
    return;
  }
  if ("go" in e.data) {
    go();
    return;
  }
  const { plan } = e.data;
  const io = processIO();
  let exitCode: number = EXIT.runtime;
  try {
    const spec = findCommand(plan.command);
    if (!spec) throw new Error(`Unknown command "${plan.command}"`);
    const mod = await spec.load();
    self.postMessage({ ready: true } satisfies WorkerReply);
    await goSignal;
    exitCode = await mod.run(plan, io);
  } catch (err) {
    const { code, lines } = describeError(err);
    await io.stderr(lines.join("\n") + "\n");
    exitCode = code;
  }
  self.postMessage({ exitCode } satisfies WorkerReply);
};
