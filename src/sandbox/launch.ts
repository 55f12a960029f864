/**
 * Runs a command inside a Worker whose Deno permissions are exactly the command's set, then
 * drops the launcher's own permissions while it waits. Requires --unstable-worker-options (baked
 * into the compiled binary and the `verdict` task).
 */
import type { CommandPlan } from "../cli/plan.ts";
import { EXIT } from "../errors.ts";
import { type PermissionSet, workerPermissions } from "./permissions.ts";

export interface WorkerRequest {
  readonly plan: CommandPlan;
}

/**
 * The worker first loads the command's code and says `ready`; only then does the launcher drop
 * its own permissions (under `deno run`, module loading is checked against the launcher's
 * grants) and send `go`. Then the worker runs and replies with the exit code.
 */
export type WorkerReply = { readonly ready: true } | { readonly exitCode: number };

/** Permission classes the launcher gives up once its Worker is running. */
const LAUNCHER_REVOCABLE = ["read", "write", "net", "run", "env", "sys", "ffi"] as const;

export async function runInWorker(plan: CommandPlan, permissions: PermissionSet): Promise<number> {
  const worker = new Worker(new URL("./worker.ts", import.meta.url).href, {
    type: "module",
    name: `verdict ${plan.command}`,
    deno: { permissions: workerPermissions(permissions) },
  });
  const done = new Promise<number>((resolve) => {
    worker.onmessage = async (e: MessageEvent<WorkerReply>) => {
      if ("ready" in e.data) {
        for (const name of LAUNCHER_REVOCABLE) await Deno.permissions.revoke({ name });
        worker.postMessage({ go: true });
      } else resolve(e.data.exitCode);
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      const msg = e.message || String(e.error);
      Deno.stderr.writeSync(new TextEncoder().encode(`verdict: ${msg}\n`));
      resolve(EXIT.runtime);
    };
  });
  // Long-running commands (serve, mcp) stop cleanly: the worker is told, and gets a moment.
  const stop = () => worker.postMessage({ stop: true });
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, stop);
  worker.postMessage({ plan } satisfies WorkerRequest);
  const code = await done;
  for (const s of signals) Deno.removeSignalListener(s, stop);
  worker.terminate();
  return code;
}
