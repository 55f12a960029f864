/**
 * The warm helper: `verdict warm serve` listens on loopback TCP (127.0.0.1, a port the system
 * picks), writes that port and a fresh secret into the address file of the user's private folder
 * ($VERDICT_STATE/warm/helper.addr, mode 0600), and answers each hook request whose client
 * proved it holds that secret (handshake.ts) with the function the
 * in-process hook runs (runUserPromptHook: the same plan, typed-prompt check, secrets screening,
 * gate, per-session cooldown ledger and deadline), so its answer is the hook's output byte for
 * byte. It keeps the archive open between requests and opens it afresh whenever a collect
 * changed it (src/warm/kept_archive.ts), so a collect in between is seen by the next prompt.
 *
 * It runs in a Worker holding read on its config, archive, ledgers and folder, write on its
 * ledgers and folder, and net to listen on a loopback port only (src/cli/commands.ts "warm
 * serve"), which it gives up once it listens (HelperSettings.onListening).
 *
 * It ends: after WARM_IDLE_MS without a request; when its address file or folder disappears (or
 * is replaced); on a request from another build (that client starts a helper of its own); when
 * the config turns it off; on `verdict warm stop`, SIGINT or SIGTERM.
 */
import { defaultPaths, type Env } from "../config/paths.ts";
import { type Config, ConfigKeeper } from "../config/config.ts";
import { hookArgs } from "../hint/hook_argv.ts";
import { HINT_MAX_STDIN } from "../hint/hook_limits.ts";
import { runUserPromptHook } from "../hint/hook_entry.ts";
import type { CommandIO } from "../plan/plan.ts";
import { REFUSED_BUILD, WARM_ANSWER_CODE } from "./client.ts";
import { ensurePrivateFolder } from "./folder.ts";
import { formatAddress, helperHandshake, newSecret, type Signer, WARM_ADDRESS } from "./handshake.ts";
import { createHmac } from "node:crypto";
import {
  encodeFrame,
  FrameError,
  readFrame,
  WARM_ENV_KEYS,
  WARM_LOCK,
  WARM_PRINTED,
  WARM_PROTOCOL,
  warmFolderOf,
  type WarmStatus,
} from "./wire.ts";
import { writeAll } from "../fsutil/bytes.ts";
import { KeptArchive } from "./kept_archive.ts";
import { warmUp } from "./warm_up.ts";

/**
 * Idle exit: ten minutes without a prompt. Someone typing keeps it warm through pauses to read
 * and think; a helper left by a finished day's work goes soon, and the next prompt starts one
 * again (about one hook's cost in the background).
 */
export const WARM_IDLE_MS = 10 * 60_000;

/** How often the helper looks for its address file and folder (and the idle time): cheap, one lstat. */
export const WARM_WATCH_MS = 1000;

/**
 * A connection must deliver its whole request within this: the client sends it at once, so a
 * slower one is not a client of ours, and it must not hold a connection open.
 */
export const WARM_REQUEST_READ_MS = 2000;

/**
 * Connections handled at once; more are closed unread (their clients run the hook in-process).
 * A person's agents send one prompt at a time each, so a few sessions never come near it; without
 * a bound, each open connection may hold a 4 MiB request (HINT_MAX_STDIN) for WARM_REQUEST_READ_MS,
 * and a few hundred of them held a gigabyte.
 */
export const WARM_MAX_CONNECTIONS = 16;

/**
 * A connection is read in chunks of up to this: a client writes its whole request (length,
 * header, body) at once, so one read takes a usual prompt's frame, not three (each read is an
 * event-loop turn). Bounds what one connection holds beyond the frame it is reading.
 */
export const WARM_READ_CHUNK = 16 * 1024;

/** Refusal reasons (the client falls back to the in-process hook on each). */
export const REFUSED = {
  malformed: "malformed request",
  protocol: "another protocol",
  build: REFUSED_BUILD,
  argv: "not a hook request",
  paths: "paths outside the helper's roots",
  disabled: "the config turns the helper off",
} as const;

export interface HelperSettings {
  readonly env: Env;
  readonly cwd: string;
  readonly build: string;
  /**
   * Called once listening, with the port and the address file (the command then drops its net
   * permission: accepting needs none).
   */
  readonly onListening?: (port: number, addressFile: string) => void;
  readonly signal?: AbortSignal;
  /** Idle exit (default WARM_IDLE_MS; tests give a short one). */
  readonly idleMs?: number;
}

interface Roots {
  readonly config: string;
  readonly records: string;
  readonly stateDir: string;
  readonly entities: string | null;
}

function rootsOf(env: Env, cwd: string, entities: string | null): Roots {
  const p = defaultPaths(env, cwd);
  return { config: p.config, records: p.records, stateDir: p.stateDir, entities };
}

/** Runs the helper until one of its exits; resolves with the reason. */
export async function serveWarm(settings: HelperSettings): Promise<string> {
  const home = defaultPaths(settings.env, settings.cwd);
  // Read again at each request (an edit is honoured on the next prompt), parsed when it changed.
  const configs = new ConfigKeeper();
  const startConfig = configs.load(home.config, home.home);
  if (!startConfig.warm_helper) return "the config turns the helper off";
  const own = rootsOf(settings.env, settings.cwd, startConfig.entities);
  const folder = warmFolderOf(own.stateDir);
  const problem = ensurePrivateFolder(folder);
  if (problem !== null) return `the folder "${folder}" is not private: ${problem}`;
  // One helper per folder: the lock is held for the helper's life (the system drops it when the
  // process ends, however it ends).
  const lock = holdLock(`${folder}/${WARM_LOCK}`);
  if (lock === null) return "another helper is listening";
  try {
    return await serveLocked(settings, configs, startConfig, own, folder);
  } finally {
    lock.close();
  }
}

/** The lock file, locked, or null when another helper holds it. */
function holdLock(path: string): Deno.FsFile | null {
  const file = Deno.openSync(path, { read: true, write: true, create: true, mode: 0o600 });
  try {
    if (file.tryLockSync(true)) return file;
  } catch { /* not lockable: as if held */ }
  file.close();
  return null;
}

async function serveLocked(
  settings: HelperSettings,
  configs: ConfigKeeper,
  startConfig: Config,
  own: Roots,
  folder: string,
): Promise<string> {
  const addressFile = `${folder}/${WARM_ADDRESS}`;
  // The first prompts would compile the code and read the common words' lists: done before
  // listening, so no prompt waits behind it (src/warm/warm_up.ts).
  const archive = new KeptArchive();
  let aborted = false;
  settings.signal?.addEventListener("abort", () => aborted = true);
  const warmUpPrompts = await warmUp({
    source: archive,
    recordsPath: own.records,
    entitiesPath: startConfig.entities,
    personas: startConfig.hook_personas,
    stopped: () => aborted,
  });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  // A fresh secret for each helper: a listener that takes this port after the helper is gone
  // cannot prove it, nor can a client that could not read this file.
  const secret = newSecret();
  // Synchronous: a handshake waits on no worker thread (WebCrypto's sign runs on one).
  const sign: Signer = (message) => new Uint8Array(createHmac("sha256", secret).update(message).digest());
  let inode: number | null;
  try {
    inode = writePrivateFile(addressFile, formatAddress({ port, secret }));
  } catch (err) {
    listener.close();
    archive.close();
    throw err;
  }
  settings.onListening?.(port, addressFile);
  const idleMs = settings.idleMs ?? WARM_IDLE_MS;
  const startedAt = new Date().toISOString();
  let requests = 0;
  let lastActive = performance.now();
  let exitReason: string | null = null;
  const stop = (why: string) => {
    if (exitReason !== null) return;
    exitReason = why;
    try {
      listener.close();
    } catch { /* closed */ }
  };
  settings.signal?.addEventListener("abort", () => stop("stopped by a signal"));
  const watch = setInterval(() => {
    if (performance.now() - lastActive > idleMs) return stop("idle");
    try {
      const st = Deno.lstatSync(addressFile);
      if (st.ino !== inode) stop("its address file was replaced");
      Deno.lstatSync(folder);
    } catch {
      stop("its address file or folder is gone");
    }
  }, WARM_WATCH_MS);

  const status = (): WarmStatus => ({
    pid: Deno.pid,
    build: settings.build,
    startedAt,
    requests,
    idleExitMs: idleMs,
    archiveOpens: archive.stats.opens,
    archiveReused: archive.stats.reused,
    warmUpPrompts,
    net: Deno.permissions.querySync({ name: "net" }).state,
  });

  const answer = async (conn: Deno.Conn, header: object, body = new Uint8Array()) => {
    const frame = encodeFrame({
      protocol: WARM_PROTOCOL,
      build: settings.build,
      ...header,
      bodyBytes: body.length,
    }, body);
    await writeAll(conn, frame);
  };

  const handle = async (conn: Deno.Conn) => {
    const arrival = performance.now();
    const giveUp = AbortSignal.timeout(WARM_REQUEST_READ_MS);
    const onGiveUp = () => {
      try {
        conn.close();
      } catch { /* done */ }
    };
    giveUp.addEventListener("abort", onGiveUp);
    const reader = new ChunkedReader(conn);
    try {
      // Nothing is read or answered before the client proved the secret; a client that cannot
      // gets the connection closed.
      const proved = await helperHandshake(
        { read: (b) => reader.read(b), write: (b) => conn.write(b) },
        sign,
        port,
      )
        .catch(() => false);
      if (!proved) return;
      let frame;
      try {
        frame = await readFrame(reader, HINT_MAX_STDIN);
      } catch (err) {
        if (err instanceof FrameError) {
          await answer(conn, { refused: `${REFUSED.malformed}: ${err.message}` });
        }
        return;
      }
      const h = frame.header;
      if (h.protocol !== WARM_PROTOCOL) return await answer(conn, { refused: REFUSED.protocol });
      if (h.op === "stop") {
        await answer(conn, { code: 0 });
        return stop("asked to stop");
      }
      // A user's `verdict warm status` of any build may see which helper runs; only hints are held back.
      if (h.op === "status") return await answer(conn, { code: 0, status: status() });
      if (h.build !== settings.build) {
        await answer(conn, { refused: REFUSED.build });
        return stop("a client of another build");
      }
      const argv = stringList(h.argv);
      const env = stringRecord(h.env);
      const cwd = h.cwd;
      const elapsed = h.elapsedMs;
      const args = argv === null ? null : hookArgs(argv);
      if (
        h.op !== "hint" || args === null || env === null || typeof cwd !== "string" || !cwd.startsWith("/") ||
        typeof elapsed !== "number" || !Number.isFinite(elapsed) || elapsed < 0
      ) {
        return await answer(conn, { refused: REFUSED.argv });
      }
      let theirs: Roots;
      let config: Config;
      const paths = defaultPaths(env, cwd);
      try {
        config = configs.load(paths.config, paths.home);
        if (!config.warm_helper) {
          await answer(conn, { refused: REFUSED.disabled });
          return stop("the config turns the helper off");
        }
        theirs = rootsOf(env, cwd, config.entities);
      } catch {
        return await answer(conn, { refused: REFUSED.paths });
      }
      if (!sameRoots(own, theirs)) return await answer(conn, { refused: REFUSED.paths });
      requests++;
      lastActive = performance.now();
      let sent = false;
      const io: CommandIO = {
        // The hint records itself as shown once this returns: send it now, and return only when
        // the client says it printed it (a client that gave up or went away did not).
        stdout: async (text) => {
          if (sent) throw new Error("a second answer");
          sent = true;
          await answer(conn, { code: WARM_ANSWER_CODE }, new TextEncoder().encode(text));
          const ack = new Uint8Array(1);
          if ((await reader.read(ack)) !== 1 || ack[0] !== WARM_PRINTED) {
            throw new Error("the client did not print the answer");
          }
        },
        stderr: () => Promise.resolve(),
        stderrIsTerminal: false,
        readStdin: () => Promise.resolve(null),
      };
      const code = await runUserPromptHook(args, env, cwd, {
        stdin: frame.body,
        io,
        // The config this request's checks read: one read of it per request.
        config: (path, home) =>
          Promise.resolve(path === paths.config && home === paths.home ? config : configs.load(path, home)),
        host: {
          elapsedMs: () => elapsed + (performance.now() - arrival),
          confine: () => Promise.resolve(),
          archive,
        },
      });
      if (!sent) await answer(conn, { code });
    } catch {
      // A client gone mid-answer: nothing to tell it.
    } finally {
      giveUp.removeEventListener("abort", onGiveUp);
      try {
        conn.close();
      } catch { /* closed by the read deadline */ }
    }
  };

  try {
    let handling = 0;
    for await (const conn of listener) {
      if (handling >= WARM_MAX_CONNECTIONS) {
        conn.close();
        continue;
      }
      handling++;
      handle(conn).finally(() => handling--);
    }
  } catch {
    // The listener closed under the loop.
  } finally {
    clearInterval(watch);
    stop("stopped");
    archive.close();
    // Remove the address file only while it is still ours (a newer helper may have written its own).
    try {
      if (Deno.lstatSync(addressFile).ino === inode) Deno.removeSync(addressFile);
    } catch { /* gone */ }
  }
  return exitReason ?? "stopped";
}

/**
 * Writes `text` to `path` as a new file of mode 0600 (a temporary file renamed over it, so a
 * client reads either the old file or the whole new one); returns its inode.
 */
function writePrivateFile(path: string, text: string): number | null {
  const tmp = `${path}.${Deno.pid}.tmp`;
  try {
    Deno.removeSync(tmp);
  } catch { /* none */ }
  Deno.writeTextFileSync(tmp, text, { mode: 0o600, createNew: true });
  Deno.renameSync(tmp, path);
  return Deno.lstatSync(path).ino;
}

/** A connection read through WARM_READ_CHUNK-byte reads; what a read took beyond its ask waits for the next. */
class ChunkedReader {
  #pending = new Uint8Array(0);
  constructor(readonly conn: Deno.Conn) {}

  async read(into: Uint8Array): Promise<number | null> {
    if (this.#pending.length === 0) {
      if (into.length >= WARM_READ_CHUNK) return await this.conn.read(into);
      const chunk = new Uint8Array(WARM_READ_CHUNK);
      const got = await this.conn.read(chunk);
      if (got === null) return null;
      this.#pending = chunk.subarray(0, got);
    }
    const n = Math.min(into.length, this.#pending.length);
    into.set(this.#pending.subarray(0, n));
    this.#pending = this.#pending.subarray(n);
    return n;
  }
}

function sameRoots(a: Roots, b: Roots): boolean {
  return a.config === b.config && a.records === b.records && a.stateDir === b.stateDir &&
    a.entities === b.entities;
}

function stringList(v: unknown): string[] | null {
  return Array.isArray(v) && v.every((x) => typeof x === "string") ? v as string[] : null;
}

/**
 * The env subset: only the keys a client sends, each a string; VERDICT_SEEN only empty (the
 * cooldown off: a ledger elsewhere is not the helper's to write).
 */
function stringRecord(v: unknown): Record<string, string> | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== "string") return null;
    if (!(WARM_ENV_KEYS as readonly string[]).includes(k) && !(k === "VERDICT_SEEN" && x === "")) return null;
    out[k] = x;
  }
  return out;
}
