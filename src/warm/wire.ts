/**
 * The warm helper's wire format and the names both sides agree on. Imports nothing: the
 * per-prompt client (client.ts) loads this and a few other small modules, nothing more.
 *
 * One request and one answer per connection, each a frame: 4 bytes of big-endian header length,
 * the header as JSON, then `bodyBytes` bytes of body (the request: the hook's stdin; the answer:
 * what the hook prints on stdout). Every length is checked against a limit before anything is
 * read into memory. A client that prints a non-empty answer then sends one byte, WARM_PRINTED:
 * only then does the helper record the hint as shown in the session's cooldown ledger.
 */

/**
 * Bumped whenever a frame's fields or the handshake change (handshake.ts): a helper and client
 * that disagree never talk.
 */
export const WARM_PROTOCOL = 2;

/**
 * The byte a client sends once it has printed a non-empty answer. Until it comes, the helper does
 * not count the hint as shown: a client that gave up waiting (and ran the hook itself) or went away
 * never printed it, and the session's next prompt must still get it. (Not a frame field: a client
 * and a helper of different builds never get this far.)
 */
export const WARM_PRINTED = 0x01;

/** The helper's folder under the state folder ($VERDICT_STATE/warm): 0700, the user's own. */
export const WARM_FOLDER = "warm";
/** Held locked (flock) by the running helper, so that one helper serves a folder. */
export const WARM_LOCK = "helper.lock";
/** Touched when a hook starts a helper: no second start within WARM_RESPAWN_MS of it. */
export const WARM_STARTING = "starting";

/** A header is a few hundred bytes (argv, the env subset, cwd); anything bigger is not ours. */
export const WARM_MAX_HEADER_BYTES = 64 * 1024;

/**
 * The environment the hook's plan reads for its paths: the only variables a client sends (and an
 * empty VERDICT_SEEN, the cooldown off). The helper refuses a request whose paths are not its own.
 */
export const WARM_ENV_KEYS = [
  "HOME",
  "USERPROFILE",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "VERDICT_CONFIG",
  "VERDICT_RECORDS",
  "VERDICT_STATE",
  "VERDICT_HOOK_DEADLINE_MS",
] as const;

/** The variables of `env` named in `keys` that are set (a request's env, a started helper's). */
export function pickEnv(
  env: Readonly<Record<string, string | undefined>>,
  keys: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const v = env[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

export type WarmOp = "hint" | "status" | "stop";

export interface WarmRequest {
  readonly protocol: number;
  readonly build: string;
  readonly op: WarmOp;
  /** The hook's argv after `verdict` (only `hook user-prompt [--agent ID]` is served). */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** How long the client had run when it sent this: the hook's deadline counts from its start. */
  readonly elapsedMs: number;
  readonly bodyBytes: number;
}

export interface WarmAnswer {
  readonly protocol: number;
  readonly build: string;
  /** The hook's exit code; absent when the request was refused. */
  readonly code?: number;
  /** Why the request was refused (the client then runs the hook itself). */
  readonly refused?: string;
  /** For `status`: what the helper says about itself. */
  readonly status?: WarmStatus;
  readonly bodyBytes: number;
}

export interface WarmStatus {
  readonly pid: number;
  readonly build: string;
  readonly startedAt: string;
  readonly requests: number;
  readonly idleExitMs: number;
  /** Times the helper opened the archive, and prompts answered from one it kept open (src/warm/kept_archive.ts). */
  readonly archiveOpens?: number;
  readonly archiveReused?: number;
  /** Prompts the helper's warm-up asked itself before it listened (src/warm/warm_up.ts). */
  readonly warmUpPrompts?: number;
  /** Deno's answer for the helper's own net permission ("granted" until it gave it up). */
  readonly net?: string;
}

const encoder = new TextEncoder();

/** One frame: header length, header JSON, body. */
export function encodeFrame(header: object, body: Uint8Array): Uint8Array {
  const json = encoder.encode(JSON.stringify(header));
  const out = new Uint8Array(4 + json.length + body.length);
  new DataView(out.buffer).setUint32(0, json.length);
  out.set(json, 4);
  out.set(body, 4 + json.length);
  return out;
}

/** Why a frame could not be read: the caller refuses or falls back, it never guesses. */
export class FrameError extends Error {}

interface Reader {
  read(buffer: Uint8Array): Promise<number | null>;
}

/** Reads exactly `n` bytes, or throws FrameError when the connection ends first. */
export async function readExactly(conn: Reader, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let off = 0;
  while (off < n) {
    const got = await conn.read(out.subarray(off));
    if (got === null) throw new FrameError(`the frame ended after ${off} of ${n} bytes`);
    off += got;
  }
  return out;
}

/**
 * Reads one frame: the header (at most WARM_MAX_HEADER_BYTES, a JSON object with a whole
 * `bodyBytes` of at most `maxBody`) and its body.
 */
export async function readFrame(
  conn: Reader,
  maxBody: number,
): Promise<{ header: Record<string, unknown>; body: Uint8Array }> {
  const size = new DataView((await readExactly(conn, 4)).buffer).getUint32(0);
  if (size > WARM_MAX_HEADER_BYTES) throw new FrameError(`a header of ${size} bytes is over the limit`);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(await readExactly(conn, size)));
  } catch (err) {
    if (err instanceof FrameError) throw err;
    throw new FrameError("the header is not JSON");
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) {
    throw new FrameError("the header is not a JSON object");
  }
  const h = header as Record<string, unknown>;
  const bodyBytes = h.bodyBytes;
  if (typeof bodyBytes !== "number" || !Number.isInteger(bodyBytes) || bodyBytes < 0) {
    throw new FrameError("the header has no whole bodyBytes");
  }
  if (bodyBytes > maxBody) {
    throw new FrameError(`a body of ${bodyBytes} bytes is over the limit of ${maxBody}`);
  }
  return { header: h, body: await readExactly(conn, bodyBytes) };
}

/** The helper's folder under a state folder (its address file, lock and start marker). */
export function warmFolderOf(stateDir: string): string {
  return `${stateDir}/${WARM_FOLDER}`;
}

/** verdict's main module, as both the client and the helper see it (a Worker has no Deno.mainModule). */
export const MAIN_MODULE: URL = new URL("../../main.ts", import.meta.url);

/**
 * This build's identity: the protocol, the executable (the compiled verdict, or deno) and
 * verdict's main module, each with its size and modification time. A helper answers only a
 * client whose identity is its own: an upgraded binary or an edited main.ts never gets an older
 * helper's answers. (Under `deno run`, an edit to another module is seen by the next helper, not
 * the running one: `verdict warm stop`.)
 */
export function buildIdentity(execPath: string): string {
  const stamp = (path: string) => {
    try {
      const st = Deno.statSync(path);
      return `${st.size}:${st.mtime?.getTime() ?? 0}`;
    } catch {
      return "-";
    }
  };
  const main = MAIN_MODULE.protocol === "file:" ? decodeURIComponent(MAIN_MODULE.pathname) : null;
  return `v${WARM_PROTOCOL}|${execPath}|${stamp(execPath)}|${MAIN_MODULE.href}|${main ? stamp(main) : "-"}`;
}
