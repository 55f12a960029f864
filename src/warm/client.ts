/**
 * The per-prompt hook's first step: hand the hook's input to the user's warm helper (serve.ts)
 * over loopback TCP, once both sides proved they hold the secret of its private folder
 * (handshake.ts), and take its answer, which is what the in-process hook would print. This
 * module and what it imports are all a warm prompt loads (tests/warm/client_modules_test.ts pins
 * them): no SQLite, no gate, no ranking.
 *
 * Any failure (off, no helper, an unsafe folder, a refusal, another build, a malformed answer,
 * no answer by WARM_ANSWER_TIMEOUT_MS) is a fallback: main.ts then runs the hook in-process with
 * the stdin read here, exactly as without a helper.
 */
import { defaultPaths, type Env } from "../config/paths.ts";
import { readFirstJsonValueSync, writeAll, writeAllSync } from "../fsutil/bytes.ts";
import { HINT_MAX_STDIN } from "../hint/hook_limits.ts";
import { privateFolderProblem } from "./folder.ts";
import { connectToHelper, WARM_ADDRESS } from "./handshake.ts";
import {
  buildIdentity,
  encodeFrame,
  pickEnv,
  readFrame,
  WARM_ENV_KEYS,
  WARM_PRINTED,
  WARM_PROTOCOL,
  warmFolderOf,
  type WarmRequest,
} from "./wire.ts";

/**
 * How long the client waits for the helper's answer. A warm answer takes a few milliseconds; past
 * this the client runs the hook itself, which still has most of the hook's 400 ms deadline
 * (HOOK_DEADLINE_MS) for its ~50 ms cold run on a loaded machine.
 */
export const WARM_ANSWER_TIMEOUT_MS = 150;

/**
 * Set by a hook on the helper it starts: milliseconds to wait before loading the program (the
 * starting hook's deadline; main.ts), at most WARM_AFTER_MAX_MS.
 */
export const WARM_AFTER_ENV = "VERDICT_WARM_AFTER_MS";
export const WARM_AFTER_MAX_MS = 2000;

/**
 * The only exit code an answer may carry: the in-process hook in hook mode always exits 0
 * (src/hint/run.ts: a hook never fails loudly). Another code is no hook's answer (exit 2 would make
 * Claude Code block the prompt), so the hook runs in-process instead.
 */
export const WARM_ANSWER_CODE = 0;

/**
 * The largest answer printed. The in-process hook prints nothing or one JSON line quoting at most
 * HOOK_TOP records' statements, a few KB; a larger answer is not one it prints, so the hook runs
 * in-process (the right bytes by construction, only slower).
 */
export const WARM_MAX_ANSWER_BYTES = 256 * 1024;

/** Refusal reasons the helper sends; the client starts a helper only after "another build". */
export const REFUSED_BUILD = "another build";

export type WarmOutcome =
  | { readonly kind: "answered"; readonly code: number; readonly stdout: Uint8Array }
  | {
    readonly kind: "fallback";
    /** The hook's stdin as read here (null: over HINT_MAX_STDIN), for the in-process hook. */
    readonly stdin: Uint8Array | null;
    /** No helper answers at this address: the in-process hook may start one. */
    readonly startHelper: boolean;
    readonly why: string;
  };

/** Is the helper switched off by the environment (VERDICT_WARM=off, 0, false or no)? */
export function warmOffByEnv(env: Env): boolean {
  const v = env.VERDICT_WARM?.trim().toLowerCase();
  return v === "off" || v === "0" || v === "false" || v === "no";
}

/**
 * Reads the hook's stdin, then asks the helper; never throws. An answer is printed here (with
 * `print`), then the helper is told it was, so that only a printed hint counts as shown.
 */
export async function askWarmHelper(
  argv: readonly string[],
  env: Env,
  cwd: string,
  print: (stdout: Uint8Array) => Promise<void> = printAnswer,
): Promise<WarmOutcome> {
  let stdin: Uint8Array | null;
  try {
    stdin = readFirstJsonValueSync(Deno.stdin, HINT_MAX_STDIN);
  } catch {
    stdin = null;
  }
  const fallback = (startHelper: boolean, why: string): WarmOutcome => ({
    kind: "fallback",
    stdin,
    startHelper,
    why,
  });
  if (warmOffByEnv(env)) return fallback(false, "VERDICT_WARM is off");
  if (stdin === null) return fallback(false, "stdin is over the hook's limit");
  // No owner or mode to check a folder or an address file by.
  if (Deno.build.os === "windows") return fallback(false, "no private folder check on Windows");
  // The helper writes the per-session ledgers under its state folder only (an empty
  // VERDICT_SEEN, the cooldown off, it honours).
  if (env.VERDICT_SEEN) return fallback(false, "VERDICT_SEEN names a ledger of its own");
  let folder: string;
  let problem: string | null;
  try {
    folder = warmFolderOf(defaultPaths(env, cwd).stateDir);
    problem = privateFolderProblem(folder);
  } catch {
    return fallback(false, "cannot find or check the helper's folder");
  }
  if (problem === "it does not exist") return fallback(true, "no helper folder yet");
  if (problem !== null) return fallback(false, `the helper's folder is unsafe: ${problem}`);
  // One wait for the connection, the handshake and the answer.
  const late = timeout();
  const connecting = await Promise.race([connectToHelper(`${folder}/${WARM_ADDRESS}`, Deno.uid()), late]);
  if (connecting === null) return fallback(false, "no answer in time");
  if (connecting.kind === "absent") return fallback(true, connecting.why);
  if (connecting.kind === "refused") return fallback(connecting.startHelper, connecting.why);
  const { conn, proof } = connecting;
  try {
    const build = buildIdentity(Deno.execPath());
    const request: WarmRequest = {
      protocol: WARM_PROTOCOL,
      build,
      op: "hint",
      argv,
      env: envSubset(env),
      cwd,
      elapsedMs: performance.now(),
      bodyBytes: stdin.length,
    };
    const answer = await Promise.race([exchange(conn, proof, request, stdin), late]);
    if (answer === null) return fallback(false, "no answer in time");
    const h = answer.header;
    if (h.protocol !== WARM_PROTOCOL || h.build !== build) {
      return fallback(false, "an answer of another build");
    }
    if (typeof h.refused === "string") return fallback(h.refused === REFUSED_BUILD, `refused: ${h.refused}`);
    if (h.code !== WARM_ANSWER_CODE) return fallback(false, "an exit code no hook gives");
    if (!isHookOutput(answer.body)) return fallback(false, "an answer the hook would not print");
    if (answer.body.length > 0) {
      // As the in-process hook: a hint that could not be printed is not recorded as shown.
      const printed = await print(answer.body).then(() => true, () => false);
      if (printed) await writeAll(conn, Uint8Array.of(WARM_PRINTED)).catch(() => {});
    }
    return { kind: "answered", code: WARM_ANSWER_CODE, stdout: answer.body };
  } catch {
    return fallback(false, "the exchange failed");
  } finally {
    try {
      conn.close();
    } catch { /* closed by the timeout's race already */ }
  }
}

async function exchange(conn: Deno.TcpConn, proof: Uint8Array, request: WarmRequest, stdin: Uint8Array) {
  const frame = encodeFrame(request, stdin);
  // The proof and the request in one write: one segment for a usual prompt.
  const bytes = new Uint8Array(proof.length + frame.length);
  bytes.set(proof);
  bytes.set(frame, proof.length);
  await writeAll(conn, bytes);
  // An answer's body is what the hook prints: a hint is a few KB.
  return await readFrame(conn, WARM_MAX_ANSWER_BYTES);
}

/**
 * Is `body` what the in-process hook could print: nothing, or one JSON value exactly as
 * JSON.stringify writes it, then a newline (src/hint/run.ts)? Anything else (text, two lines, other
 * spacing, bytes that are not UTF-8) would reach the agent's context as if the hook said it.
 */
export function isHookOutput(body: Uint8Array): boolean {
  if (body.length === 0) return true;
  if (body.length > WARM_MAX_ANSWER_BYTES || body[body.length - 1] !== 0x0a) return false;
  try {
    const line = new TextDecoder("utf-8", { fatal: true }).decode(body.subarray(0, body.length - 1));
    return JSON.stringify(JSON.parse(line)) === line;
  } catch {
    return false;
  }
}

/** Resolves null after WARM_ANSWER_TIMEOUT_MS (AbortSignal.timeout: no timer module to load). */
function timeout(): Promise<null> {
  return new Promise((resolve) =>
    AbortSignal.timeout(WARM_ANSWER_TIMEOUT_MS).addEventListener("abort", () => resolve(null))
  );
}

function envSubset(env: Env): Record<string, string> {
  const out = pickEnv(env, WARM_ENV_KEYS);
  if (env.VERDICT_SEEN === "") out.VERDICT_SEEN = "";
  return out;
}

/**
 * Prints the helper's answer as the hook would have: all of stdout (main.ts then exits with its
 * code). Blocking writes: an `await Deno.stdout.write` to the host's pipe goes through Deno's
 * blocking-thread pool, 0.33-0.54 ms for a 1.5 KB hint against 0.09-0.10 ms for `writeSync`
 * (docs/hook_startup.md); the client has nothing else to do meanwhile.
 */
export function printAnswer(stdout: Uint8Array): Promise<void> {
  try {
    writeAllSync(Deno.stdout, stdout);
    return Promise.resolve();
  } catch (err) {
    return Promise.reject(err);
  }
}
