/**
 * The transcript source: finds every agent's session files under their roots (each reader says
 * which files, src/agents/agent.ts), and feeds each file's new lines to its reader's parser.
 *
 * Incremental must equal full. Per-file state makes a re-collect read only what a file gained,
 * and is trusted only as far as it can be checked:
 * - a file whose identity (device, inode, size, modification and change time) is unchanged is
 *   not read at all; `cp -p` or `rsync -t` keep size and mtime but not the change time; that
 *   look is one string compared (lookFingerprint), the saved state is parsed only otherwise;
 * - a file that changed is resumed only when everything read last time is still its start,
 *   byte for byte (a SHA-256 digest of that prefix): a rewritten middle, a replaced file with
 *   the same first bytes, a truncation, are all re-read whole;
 * - a last line consumed without its newline is resumed by taking that newline (not a new
 *   line number); when anything else follows, the file is re-read whole;
 * - a file read under `--since D` is read whole again by a run that wants older records;
 * - a file read under other options that change what it yields (include_headless: YieldOptions)
 *   is read whole again, so its records become those the new options yield.
 * Only regular files are read (a FIFO or device at a transcript path is reported, never
 * opened), and no further than their size when the read began.
 *
 * A store (one database, StoreReader) is handed its reader's own carry and reads only what is
 * new by itself; its state keeps the store's identity, its cutoff and its options (a store read
 * under a later --since, or under other options, is read whole again).
 */
import { createHash, type Hash } from "node:crypto";
import type { SessionReader, SideFileReader, StoreReader } from "../agents/agent.ts";
import type { SessionRoot } from "../config/roots.ts";
import { type FileIdentity, identityOf, sameIdentity } from "../fsutil/identity.ts";
import { walkFilesSync } from "../fsutil/walk.ts";
import { containedRealPath, containedRealPathSync } from "../sandbox/contain.ts";
import { readLines } from "./lines.ts";
import type { VerdictRecord } from "../record/record.ts";
import {
  emptyStats,
  type ProblemReporter,
  sameYieldOptions,
  sinceCovers,
  type SourceResult,
  type YieldOptions,
} from "../record/source.ts";

export interface TranscriptFileState extends FileIdentity {
  /** The reader's kind: a carry is resumed only by the reader that wrote it. */
  readonly kind: string;
  /** Byte offset just past the last line consumed. */
  readonly offset: number;
  readonly lineNo: number;
  /** The last consumed line had no newline yet (a live writer's complete JSON line). */
  readonly openLine: boolean;
  /** Bytes of the file read last time (from 0), and their SHA-256: what must still be its start. */
  readonly readBytes: number;
  readonly digest: string;
  /** The --since cutoff the file was read under (null: none). */
  readonly since: string | null;
  /** The options it was read under (a state without them is read again whole). */
  readonly options: YieldOptions;
  readonly carry: unknown;
}

export type TranscriptState = Record<string, TranscriptFileState>;

/**
 * The transcript states a collect starts from, as the archive saved them: each file's last look
 * as one string, for every file (a collect that finds one new prompt looks at every transcript,
 * 10,000 files for a million prompts, and parsing each file's whole state cost more than looking
 * at the file), and a file's whole state only when asked.
 */
export interface SavedTranscripts {
  /**
   * The fingerprint of the look the file's state was taken from (lookFingerprint): null when
   * that look is not to be trusted (racy) or was saved without one; undefined: no state.
   */
  fingerprint(file: string): string | null | undefined;
  /** The file's saved state (parsed on the first ask, the same object after), or null. */
  state(file: string): unknown;
}

/**
 * Everything that must be as it was for a saved state to stand without the file being read:
 * the reader, the file's identity (src/fsutil/identity.ts), the cutoff and the options it was
 * read under. An equal fingerprint is a case the full check keeps a state as it is (same kind,
 * the same trusted identity, the same cutoff and options); any change to one of them changes the
 * fingerprint, and every case but equality is decided by the full check on the parsed state.
 */
export function lookFingerprint(
  kind: string,
  identity: FileIdentity,
  since: string | null,
  options: YieldOptions,
): string {
  const { dev, ino, size, mtimeMs, ctimeMs } = identity;
  return JSON.stringify([kind, dev, ino, size, mtimeMs, ctimeMs, since, options]);
}

/** The fingerprint saved with a state: none for a racy look, which is never trusted. */
export function savedFingerprint(state: TranscriptFileState): string | null {
  return state.racy ? null : lookFingerprint(state.kind, state, state.since, state.options);
}

/** What the transcript source hands back: its SourceResult, and the files whose state stands as saved. */
export interface TranscriptResult extends SourceResult<TranscriptState> {
  /** Files looked at and found as their saved state describes them: not in `state`, not read. */
  readonly kept: ReadonlySet<string>;
}

export interface TranscriptInput {
  /** The session roots to read, in order (from the plan). */
  readonly roots: readonly SessionRoot[];
  /** The readers, by kind; a root whose kind has no reader is skipped. */
  readonly readers: ReadonlyMap<string, SessionReader | StoreReader>;
  readonly includeHeadless: boolean;
  readonly previous: SavedTranscripts | null;
  /** The run's --since cutoff (RFC 3339), or null. */
  readonly since: string | null;
  readonly report: ProblemReporter;
  /** Progress callback: bytes read so far. */
  readonly onBytes?: (bytes: number) => void;
  /** Aborted (a signal): the run stops between chunks, with the signal's reason. */
  readonly signal?: AbortSignal;
  /** The wall clock (ms), read right after each stat (src/fsutil/identity.ts); default Date.now. */
  readonly now?: () => number;
  /**
   * Takes each file's records as soon as the file is read (`replaced`: read from its start), so a
   * large first collect never holds them all; the result's replaced and appended stay empty.
   */
  readonly onFile?: (file: string, replaced: boolean, records: VerdictRecord[]) => void;
}

/**
 * Largest side file a reader's context may read (Gemini CLI's logs.json holds every line typed
 * in a project: 64 MiB is millions of lines); a larger one is reported and read as missing.
 */
export const SIDE_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** A SideFileReader confined to `roots` (real), reporting what it refuses. */
export function sideFileReader(roots: readonly string[], report: ProblemReporter): SideFileReader {
  return async (path) => {
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(path);
    } catch {
      return null; // missing: nothing to say
    }
    const real = await containedRealPath(path, roots);
    if (real === null) {
      report(path, "skipped: resolves outside the transcript roots");
      return null;
    }
    try {
      if (!info.isSymlink && !info.isFile) return null;
      const st = await Deno.stat(real);
      if (!st.isFile) return null;
      if (st.size > SIDE_FILE_MAX_BYTES) {
        report(real, `skipped: over ${SIDE_FILE_MAX_BYTES / 1024 / 1024} MiB`);
        return null;
      }
      return await Deno.readTextFile(real);
    } catch (err) {
      report(real, `cannot read: ${(err as Error).message}`);
      return null;
    }
  };
}

interface Candidate {
  readonly path: string;
  readonly reader: SessionReader;
  readonly roots: readonly string[];
}

/** Lists the transcript files to consider, in root order, each with the roots it must stay under. */
export function findTranscripts(input: TranscriptInput): Candidate[] {
  const out: Candidate[] = [];
  const onError = (path: string, err: Error) => input.report(path, `cannot list: ${err.message}`);
  for (const root of input.roots) {
    const reader = input.readers.get(root.kind);
    if (reader === undefined || reader.layout === "store") continue;
    if (root.layout === "file") {
      out.push({ path: root.path, reader, roots: [root.path] });
      continue;
    }
    const skipDir = reader.skipDir;
    for (
      const path of walkFilesSync(root.path, {
        accept: (p, name) => reader.accept ? reader.accept(p, name, root.path) : name.endsWith(".jsonl"),
        ...(skipDir ? { skipDir: (p: string) => skipDir(p, root.path) } : {}),
        onError,
      })
    ) out.push({ path, reader, roots: [root.path] });
  }
  return out;
}

/** The options of this run that change what a file yields (each file's state keeps them). */
function yieldOptionsOf(input: TranscriptInput): YieldOptions {
  return { includeHeadless: input.includeHeadless };
}

/** A stored per-file state, checked field by field; null when it is not one this version wrote. */
function validState(v: unknown): TranscriptFileState | null {
  if (typeof v !== "object" || v === null) return null;
  const s = v as Record<string, unknown>;
  const num = (x: unknown) => typeof x === "number" && Number.isFinite(x);
  const numOrNull = (x: unknown) => x === null || num(x);
  return typeof s.kind === "string" && num(s.size) && num(s.mtimeMs) && numOrNull(s.ctimeMs) &&
      typeof s.racy === "boolean" &&
      numOrNull(s.dev) && numOrNull(s.ino) && num(s.offset) && num(s.lineNo) &&
      typeof s.openLine === "boolean" && num(s.readBytes) && typeof s.digest === "string" &&
      (s.since === null || typeof s.since === "string")
    ? v as TranscriptFileState
    : null;
}

/** Read size when digesting what a file held last time. */
const DIGEST_CHUNK_BYTES = 1024 * 1024;

/**
 * Feeds the first `length` bytes of `path` to `hash` through `buf`; returns how many there were.
 * One buffer serves a whole run: a collect may check thousands of files (each one whose last
 * look was racy), and a fresh 4 MiB buffer each left the process holding the garbage (a
 * one-prompt collect at 10^5 records peaked 70 MB higher when half its files were racy).
 */
async function digestPrefix(path: string, length: number, hash: Hash, buf: Uint8Array): Promise<number> {
  const file = await Deno.open(path, { read: true });
  let fed = 0;
  try {
    while (fed < length) {
      const n = await file.read(buf.subarray(0, Math.min(buf.length, length - fed)));
      if (n === null) break;
      hash.update(buf.subarray(0, n));
      fed += n;
    }
  } finally {
    file.close();
  }
  return fed;
}

/** Whether a root is its own real path, asked once per root. */
function realRootCheck(): (root: string) => boolean {
  const realRoot = new Map<string, boolean>();
  return (root) => {
    let real = realRoot.get(root);
    if (real === undefined) {
      try {
        real = Deno.realPathSync(root) === root;
      } catch {
        real = false;
      }
      realRoot.set(root, real);
    }
    return real;
  };
}

/**
 * A found transcript's real path and file info, or null (reported) when it resolves outside its
 * roots, cannot be read, or is not a regular file. The walker descends no link and yields only
 * plain files, so a file it found under a real root is its own real path: one lstat confirms it
 * is still a plain file (resolving the path instead costs an lstat per component). Anything
 * else is resolved and checked.
 */
function plainFileOf(
  cand: Candidate,
  isRealRoot: (root: string) => boolean,
  report: ProblemReporter,
): { real: string; info: Deno.FileInfo } | null {
  let real: string | null = null;
  let info: Deno.FileInfo | null = null;
  if (cand.roots.length === 1 && isRealRoot(cand.roots[0]!)) {
    try {
      const l = Deno.lstatSync(cand.path);
      if (l.isFile) [real, info] = [cand.path, l];
    } catch {
      // Resolved below, which reports why.
    }
  }
  if (real === null) real = containedRealPathSync(cand.path, cand.roots);
  if (real === null) {
    report(cand.path, "skipped: resolves outside the transcript roots");
    return null;
  }
  try {
    info ??= Deno.statSync(real);
  } catch (err) {
    report(real, `cannot read: ${(err as Error).message}`);
    return null;
  }
  if (!info.isFile) {
    // Opening a FIFO blocks until a writer comes; a device may never end.
    report(real, "skipped: not a regular file");
    return null;
  }
  return { real, info };
}

/** Reads new transcript lines and returns the records they yield. */
export async function collectTranscripts(input: TranscriptInput): Promise<TranscriptResult> {
  const stats = emptyStats();
  const replaced = new Map<string, VerdictRecord[]>();
  const appended: VerdictRecord[] = [];
  const state: Record<string, TranscriptFileState> = {};
  const kept = new Set<string>();
  const previous = input.previous;
  const options = yieldOptionsOf(input);
  let totalBytes = 0;
  // One load per reader and key per run: the files of one folder share their side files.
  const contexts = new Map<string, Promise<unknown>>();
  const contextFor = (cand: Candidate, real: string): Promise<unknown> => {
    const spec = cand.reader.context;
    if (spec === undefined) return Promise.resolve(undefined);
    const key = spec.key(real, cand.roots[0]!);
    const memo = `${cand.reader.kind}\u0000${key}`;
    let loaded = contexts.get(memo);
    if (loaded === undefined) {
      loaded = spec.load(key, sideFileReader(cand.roots, input.report));
      contexts.set(memo, loaded);
    }
    return loaded;
  };

  for (const root of input.roots) {
    const reader = input.readers.get(root.kind);
    if (reader === undefined || reader.layout !== "store") continue;
    if (input.signal?.aborted) throw input.signal.reason;
    const done = await readStore(root.path, reader, validState(previous?.state(root.path)), input);
    if (done.read) {
      // A store as the last read left it read nothing new, as an unchanged line file is not read.
      if (done.read.changed) stats.filesRead++;
      stats.linesSkipped += done.read.skipped;
      totalBytes += done.read.bytes;
      input.onBytes?.(totalBytes);
      if (input.onFile) input.onFile(root.path, done.read.whole, [...done.read.records]);
      else if (done.read.whole) replaced.set(root.path, [...done.read.records]);
      else appended.push(...done.read.records);
    } else if (done.unreadable) stats.filesUnreadable++;
    if (done.state) state[root.path] = done.state;
  }

  // The look at each file is synchronous: a collect that finds one new prompt looks at every
  // transcript (10,000 files for a million prompts), and an async file-system call costs many
  // times its work in dispatch (measured: half a second of a one-prompt collect at that size).
  const isRealRoot = realRootCheck();
  let digestBuffer: Uint8Array | null = null;
  for (const cand of findTranscripts(input)) {
    if (input.signal?.aborted) throw input.signal.reason;
    const found = plainFileOf(cand, isRealRoot, input.report);
    if (found === null) {
      stats.filesUnreadable++;
      continue;
    }
    const { real, info } = found;
    const identity = identityOf(info, (input.now ?? Date.now)());
    const kind = cand.reader.kind;
    // The common case, a file as it was, decided without parsing its state.
    const saved = previous?.fingerprint(real);
    if (typeof saved === "string" && saved === lookFingerprint(kind, identity, input.since, options)) {
      kept.add(real);
      continue;
    }
    const prev = validState(previous?.state(real));
    const usable = prev !== null && prev.kind === kind && sinceCovers(prev.since, input.since) &&
      sameYieldOptions(prev.options, options);
    if (usable && sameIdentity(prev, identity)) {
      state[real] = prev;
      continue;
    }
    try {
      // The digest of everything read from 0, kept as the file is read; the bytes it covers are
      // the file's current bytes, so it serves a resumed read and a full re-read alike.
      const hash = createHash("sha256");
      let hashed = 0;
      // Resume only when all that was read last time is still, byte for byte, the file's start.
      let resumable = false;
      if (usable && identity.size >= prev.readBytes) {
        digestBuffer ??= new Uint8Array(DIGEST_CHUNK_BYTES);
        hashed = await digestPrefix(real, prev.readBytes, hash, digestBuffer);
        resumable = hashed === prev.readBytes && hash.copy().digest("hex") === prev.digest;
      }
      const context = await contextFor(cand, real);
      const read = async (from: TranscriptFileState | null) => {
        // The carry was written by the same reader (the state records its kind).
        const parser = cand.reader.open(
          {
            file: real,
            includeHeadless: input.includeHeadless,
            ...(context === undefined ? {} : { context }),
          },
          from?.carry ?? null,
        );
        const result = await readLines(
          real,
          from?.offset ?? 0,
          from?.lineNo ?? 0,
          (t, n) => parser.line(t, n),
          {
            limit: identity.size,
            afterOpenLine: from?.openLine ?? false,
            onRead: (bytes, position) => {
              if (position + bytes.length <= hashed) return;
              hash.update(bytes.subarray(Math.max(0, hashed - position)));
              hashed = position + bytes.length;
            },
            ...(input.signal ? { signal: input.signal } : {}),
          },
        );
        return { parser, result };
      };
      let run = await read(resumable ? prev : null);
      if (run.result.continued) {
        // The line consumed without its newline went on: it was not finished after all.
        resumable = false;
        run = await read(null);
      }
      const { parser, result } = run;
      totalBytes += result.bytes;
      input.onBytes?.(totalBytes);
      // A look that only confirmed the file is as it was (a racy identity, same bytes) read nothing.
      const confirmed = resumable && prev !== null && identity.size === prev.readBytes &&
        result.offset === prev.offset;
      if (!confirmed) stats.filesRead++;
      const records = parser.drain();
      stats.linesSkipped += parser.malformed + result.oversized + result.invalidUtf8;
      if (input.onFile) input.onFile(real, !resumable, records);
      else if (resumable) appended.push(...records);
      else replaced.set(real, records);
      state[real] = {
        kind,
        ...identity,
        offset: result.offset,
        lineNo: result.lineNo,
        openLine: result.openLine,
        readBytes: hashed,
        digest: hash.digest("hex"),
        since: input.since,
        options,
        carry: parser.carry(),
      };
    } catch (err) {
      if (input.signal?.aborted) throw input.signal.reason;
      input.report(real, `cannot read: ${(err as Error).message}`);
      stats.filesUnreadable++;
      if (prev) state[real] = prev;
    }
  }
  return { replaced, appended, state, kept, stats };
}

interface StoreOutcome {
  readonly read: Awaited<ReturnType<StoreReader["read"]>> | null;
  readonly state: TranscriptFileState | null;
  readonly unreadable: boolean;
}

/**
 * One store: containment of the store (its root is already real) and of its companions, which
 * must be plain files beside it (a link could point the reader anywhere), then its reader.
 */
async function readStore(
  path: string,
  reader: StoreReader,
  prev: TranscriptFileState | null,
  input: TranscriptInput,
): Promise<StoreOutcome> {
  const failed = (message: string): StoreOutcome => {
    input.report(path, message);
    return { read: null, state: prev, unreadable: true };
  };
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (err) {
    return failed(`cannot read: ${(err as Error).message}`);
  }
  if (!info.isFile) return failed("skipped: not a regular file");
  for (const companion of reader.companions(path)) {
    try {
      const c = await Deno.lstat(companion);
      if (!c.isFile) return failed(`skipped: ${companion} is not a regular file (a link is never followed)`);
    } catch {
      // Absent companions (no write-ahead log) are normal.
    }
  }
  // A store read under a later --since than this run's, or under other options, is read whole (no carry).
  const options = yieldOptionsOf(input);
  const carry = prev !== null && prev.kind === reader.kind && sinceCovers(prev.since, input.since) &&
      sameYieldOptions(prev.options, options)
    ? prev.carry
    : null;
  try {
    const read = await reader.read({
      file: path,
      includeHeadless: input.includeHeadless,
      carry,
      report: input.report,
    });
    const state: TranscriptFileState = {
      kind: reader.kind,
      ...identityOf(info, (input.now ?? Date.now)()),
      offset: 0,
      lineNo: 0,
      openLine: false,
      readBytes: 0,
      digest: "",
      since: input.since,
      options,
      carry: read.carry,
    };
    return { read, state, unreadable: false };
  } catch (err) {
    return failed(`cannot read: ${(err as Error).message}`);
  }
}
