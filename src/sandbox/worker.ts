/// <reference lib="deno.worker" />
/**
 * Worker entry: receives a command plan, runs the command under the Worker's narrowed
 * permissions, and replies with the exit code. Errors are reported here, inside the sandbox.
 */
import type { CommandModule } from "../cli/plan.ts";
import { describeError, EXIT } from "../errors.ts";
import { processIO } from "../cli/io.ts";
import type { WorkerReply, WorkerRequest } from "./launch.ts";
import { stopSignal } from "./stop.ts";

/** Loaders of the commands that run in a Worker (the only graph that reaches the MCP SDK). */
const WORKER_COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  "collect": () => import("../cli/cmd/collect.ts"),
  "recall": () => import("../cli/cmd/recall.ts"),
  "query": () => import("../cli/cmd/query.ts"),
  "mcp": () => import("../cli/cmd/mcp.ts"),
  "serve": () => import("../cli/cmd/serve.ts"),
  "compact build": () => import("../cli/cmd/compact_build.ts"),
  "compact judge": () => import("../cli/cmd/compact_judge.ts"),
  "compact verify": () => import("../cli/cmd/compact_verify.ts"),
  "hook pre-compact": () => import("../cli/cmd/hook_pre_compact.ts"),
  "hook session-start": () => import("../cli/cmd/hook_session_start.ts"),
  "sandbox-probe": () => import("../cli/cmd/sandbox_probe.ts"),
  "install": () => import("../cli/cmd/install.ts"),
  "uninstall": () => import("../cli/cmd/uninstall.ts"),
  "schedule install": () => import("../cli/cmd/schedule.ts"),
  "schedule remove": () => import("../cli/cmd/schedule.ts"),
  "schedule status": () => import("../cli/cmd/schedule.ts"),
  "doctor": () => import("../cli/cmd/doctor.ts"),
};

export function workerCommandNames(): string[] {
  return Object.keys(WORKER_COMMANDS);
}

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
    const load = WORKER_COMMANDS[plan.command];
    if (!load) throw new Error(`Unknown command "${plan.command}"`);
    const mod = await load();
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
