/**
 * The warm helper for the benches: start `verdict warm serve` for a bench's env, wait until it
 * answers on its socket, stop it. And the first prompt's cost: a hook that finds no helper
 * answers in-process and starts one; how long until that helper answers.
 */
import { encodeFrame, readFrame, WARM_PROTOCOL, warmSocketOf } from "../src/warm/wire.ts";
import { defaultPaths } from "../src/config/paths.ts";

/** The socket a bench env's helper listens on. */
export function helperSocketOf(env: Record<string, string>): string {
  return warmSocketOf(defaultPaths(env, "/").stateDir, Deno.uid()).socket;
}

/** Does a helper answer a status request on the env's socket? */
export async function helperAnswers(env: Record<string, string>): Promise<boolean> {
  let conn: Deno.UnixConn;
  try {
    conn = await Deno.connect({ transport: "unix", path: helperSocketOf(env) });
  } catch {
    return false;
  }
  try {
    const header = {
      protocol: WARM_PROTOCOL,
      build: "",
      op: "status",
      argv: [],
      env: {},
      cwd: "/",
      elapsedMs: 0,
    };
    const bytes = encodeFrame({ ...header, bodyBytes: 0 }, new Uint8Array());
    let off = 0;
    while (off < bytes.length) off += await conn.write(bytes.subarray(off));
    return (await readFrame(conn, 1 << 20)).header.protocol === WARM_PROTOCOL;
  } catch {
    return false;
  } finally {
    conn.close();
  }
}

/** Waits until a helper answers (or `ms` passes); the time it took, NaN when none did. */
export async function untilHelperAnswers(env: Record<string, string>, ms = 30_000): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    if (await helperAnswers(env)) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 5));
  }
  return NaN;
}

/** Stops the env's helper (verdict warm stop) and waits until its socket answers no more. */
export async function stopHelper(verdict: readonly string[], env: Record<string, string>): Promise<void> {
  await new Deno.Command(verdict[0]!, {
    args: [...verdict.slice(1), "warm", "stop"],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  const t0 = performance.now();
  while (await helperAnswers(env) && performance.now() - t0 < 10_000) {
    await new Promise((r) => setTimeout(r, 20));
  }
}
