/**
 * Runs code inside a Worker whose Deno permissions are exactly a given set, then drops the
 * launcher's own permissions while it waits. The mechanism only: the caller names the Worker's
 * entry module and the request it gets (for commands: src/cli/worker.ts and the plan), and the
 * entry answers through serveWorker (./in_worker.ts). Nothing here knows what a command is.
 * Requires --unstable-worker-options (baked into the compiled binary and the `verdict` task).
 */
import { EXIT, signalExit } from "../errors.ts";
import { type PermissionSet, workerPermissions } from "./permissions.ts";
import { revokeAll } from "./revoke.ts";

/** What the launcher sends: the request once, then `go` (or `stop` on a signal). */
export type LauncherMessage<Request> =
  | { readonly request: Request }
  | { readonly go: true }
  | { readonly stop: Deno.Signal };

/**
 * How long a Worker told to stop may take to finish (serve closing its sessions, collect
 * leaving between two reads). Past it the Worker is ended, whatever it waits on (a FIFO, a
 * slow disk), and the launcher exits with the signal's code. A second signal ends it at once.
 */
export const STOP_GRACE_MS = 2000;

/**
 * The worker first loads its code and says `ready`; only then does the launcher drop its own
 * permissions (under `deno run`, module loading is checked against the launcher's grants) and
 * send `go`. Then the worker runs and replies with the exit code.
 */
export type WorkerReply = { readonly ready: true } | { readonly exitCode: number };

export interface RunOptions {
  /** Say nothing when a signal ends the Worker (a hook must stay silent). */
  readonly silentStop?: boolean;
}

export async function runInWorker<Request>(
  entry: URL,
  name: string,
  request: Request,
  permissions: PermissionSet,
  options: RunOptions = {},
): Promise<number> {
  const worker = new Worker(entry.href, {
    type: "module",
    name,
    deno: { permissions: workerPermissions(permissions) },
  });
  const done = new Promise<number>((resolve) => {
    worker.onmessage = async (e: MessageEvent<WorkerReply>) => {
      if ("ready" in e.data) {
        // The launcher gives up every permission class once its Worker is running.
        await revokeAll();
        worker.postMessage({ go: true } satisfies LauncherMessage<Request>);
      } else resolve(e.data.exitCode);
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      const msg = e.message || String(e.error);
      Deno.stderr.writeSync(new TextEncoder().encode(`verdict: ${msg}\n`));
      resolve(EXIT.runtime);
    };
  });
  // A signal: the worker is told (serve and mcp close cleanly, collect stops between reads)
  // and gets STOP_GRACE_MS; then, or on a second signal, it is ended where it stands.
  let forced: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => (forced = resolve));
  let grace: ReturnType<typeof setTimeout> | undefined;
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const end = (signal: Deno.Signal, why: string) => {
    if (!options.silentStop) {
      Deno.stderr.writeSync(
        new TextEncoder().encode(
          `verdict: stopped by ${signal} before finishing (${why}); nothing was half-written\n`,
        ),
      );
    }
    forced(signalExit(signal));
  };
  const handlers = signals.map((signal) => {
    const handler = () => {
      if (grace !== undefined) return end(signal, "a second signal");
      worker.postMessage({ stop: signal } satisfies LauncherMessage<Request>);
      grace = setTimeout(
        () => end(signal, `it did not stop within ${STOP_GRACE_MS / 1000} s`),
        STOP_GRACE_MS,
      );
    };
    Deno.addSignalListener(signal, handler);
    return [signal, handler] as const;
  });
  worker.postMessage({ request } satisfies LauncherMessage<Request>);
  const code = await Promise.race([done, stopped]);
  clearTimeout(grace);
  for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  worker.terminate();
  return code;
}
