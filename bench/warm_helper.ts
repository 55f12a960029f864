/**
 * The warm helper for the benches: start `verdict warm serve` for a bench's env, wait until it
 * answers (at its address file, with the handshake), stop it. And the first prompt's cost: a hook that finds no helper
 * answers in-process and starts one; how long until that helper answers.
 */
import { encodeFrame, readFrame, WARM_PROTOCOL, warmFolderOf } from "../src/warm/wire.ts";
import { connectToHelper, WARM_ADDRESS } from "../src/warm/handshake.ts";
import { defaultPaths } from "../src/config/paths.ts";

/** The address file of a bench env's helper. */
export function helperAddressOf(env: Record<string, string>): string {
  return `${warmFolderOf(defaultPaths(env, "/").stateDir)}/${WARM_ADDRESS}`;
}

/** A connection to the env's helper with the handshake done and the client's proof sent, or null. */
export async function helperConn(env: Record<string, string>): Promise<Deno.TcpConn | null> {
  const c = await connectToHelper(helperAddressOf(env), Deno.uid());
  if (c.kind !== "connected") return null;
  let off = 0;
  while (off < c.proof.length) off += await c.conn.write(c.proof.subarray(off));
  return c.conn;
}

/** Does a helper answer a status request at the env's address? */
export async function helperAnswers(env: Record<string, string>): Promise<boolean> {
  const conn = await helperConn(env).catch(() => null);
  if (conn === null) return false;
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

/** Stops the env's helper (verdict warm stop) and waits until it answers no more. */
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
