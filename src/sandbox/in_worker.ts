/// <reference lib="deno.worker" />
/**
 * The Worker side of runInWorker (./launch.ts): a Worker entry module calls serveWorker once.
 * `prepare` gets the request and loads every module the run needs (before `ready`: once the
 * launcher has dropped its permissions, no module can be loaded any more) and returns the run;
 * the run starts on `go`. A stop request aborts stopSignal. Errors become the exit code
 * `onError` gives, reported inside the sandbox.
 */
import { EXIT, InterruptedError } from "../errors.ts";
import type { LauncherMessage, WorkerReply } from "./launch.ts";
import { stopSignal } from "./stop.ts";

export function serveWorker<Request>(
  prepare: (request: Request) => Promise<() => Promise<number>>,
  onError: (err: unknown) => Promise<number>,
): void {
  let go: () => void = () => {};
  const goSignal = new Promise<void>((resolve) => (go = resolve));
  self.onmessage = async (e: MessageEvent<LauncherMessage<Request>>) => {
    if ("stop" in e.data) {
      stopSignal.abort(new InterruptedError(e.data.stop));
      return;
    }
    if ("go" in e.data) {
      go();
      return;
    }
    let exitCode: number = EXIT.runtime;
    try {
      const run = await prepare(e.data.request);
      self.postMessage({ ready: true } satisfies WorkerReply);
      await goSignal;
      exitCode = await run();
    } catch (err) {
      exitCode = await onError(err);
    }
    self.postMessage({ exitCode } satisfies WorkerReply);
  };
}
