/**
 * The transcript source: finds every agent's session files under their roots (each reader says
 * which files, src/agents/agent.ts), and feeds each file's new lines to its reader's parser.
 * Per-file state (size, mtime, offset, line number, a fingerprint of the file's head, the
 * parser's carry) makes a re-collect read only what a file gained; a file that shrank or whose
 * head changed is re-read whole. A store (one database, StoreReader) is handed its reader's own
 * carry and reads only what is new by itself; its state keeps the store's size and mtime.
 */
import type { SessionReader, SideFileReader, StoreReader } from "../agents/agent.ts";
import type { SessionRoot } from "../config/roots.ts";
import { walkFiles } from "../fsutil/walk.ts";
import { containedRealPath } from "../sandbox/contain.ts";
import { readLines } from "./lines.ts";
import { fnv1a64, type VerdictRecord } from "./record.ts";
import { emptyStats, type ProblemReporter, type SourceResult } from "./source.ts";

export interface TranscriptFileState {
  /** The reader's kind: a carry is resumed only by the reader that wrote it. */
  readonly kind: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly offset: number;
  readonly lineNo: number;
  /** Fingerprint of the first `headLength` bytes: a replaced file is noticed even if it grew. */
  readonly head: string;
  readonly headLength: number;
  readonly carry: unknown;
}

export type TranscriptState = Record<string, TranscriptFileState>;

export interface TranscriptInput {
  /** The session roots to read, in order (from the plan). */
  readonly roots: readonly SessionRoot[];
  /** The readers, by kind; a root whose kind has no reader is skipped. */
  readonly readers: ReadonlyMap<string, SessionReader | StoreReader>;
  readonly includeHeadless: boolean;
  readonly previous: TranscriptState | null;
  readonly report: ProblemReporter;
  /** Progress callback: bytes read so far. */
  readonly onBytes?: (bytes: number) => void;
}

const HEAD_BYTES = 1024;

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
export async function findTranscripts(input: TranscriptInput): Promise<Candidate[]> {
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
    for await (
      const path of walkFiles(root.path, {
        accept: (p, name) => reader.accept ? reader.accept(p, name, root.path) : name.endsWith(".jsonl"),
        ...(skipDir ? { skipDir: (p: string) => skipDir(p, root.path) } : {}),
        onError,
      })
    ) out.push({ path, reader, roots: [root.path] });
  }
  return out;
}

async function headFingerprint(path: string, length: number): Promise<string> {
  if (length === 0) return "";
  const file = await Deno.open(path, { read: true });
  try {
    const buf = new Uint8Array(length);
    let off = 0;
    while (off < buf.length) {
      const n = await file.read(buf.subarray(off));
      if (n === null) break;
      off += n;
    }
    let s = "";
    for (let i = 0; i < off; i++) s += String.fromCharCode(buf[i]!);
    return fnv1a64(s);
  } finally {
    file.close();
  }
}

/** Reads new transcript lines and returns the records they yield. */
export async function collectTranscripts(input: TranscriptInput): Promise<SourceResult<TranscriptState>> {
  const stats = emptyStats();
  const replaced = new Map<string, VerdictRecord[]>();
  const appended: VerdictRecord[] = [];
  const state: Record<string, TranscriptFileState> = {};
  const previous = input.previous ?? {};
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
    const done = await readStore(root.path, reader, previous[root.path] ?? null, input);
    if (done.read) {
      stats.filesRead++;
      stats.linesSkipped += done.read.skipped;
      totalBytes += done.read.bytes;
      input.onBytes?.(totalBytes);
      if (done.read.whole) replaced.set(root.path, [...done.read.records]);
      else appended.push(...done.read.records);
    } else if (done.unreadable) stats.filesUnreadable++;
    if (done.state) state[root.path] = done.state;
  }

  for (const cand of await findTranscripts(input)) {
    const real = await containedRealPath(cand.path, cand.roots);
    if (real === null) {
      input.report(cand.path, "skipped: resolves outside the transcript roots");
      stats.filesUnreadable++;
      continue;
    }
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(real);
    } catch (err) {
      input.report(real, `cannot read: ${(err as Error).message}`);
      stats.filesUnreadable++;
      continue;
    }
    const mtimeMs = info.mtime?.getTime() ?? 0;
    const prev = previous[real];
    const kind = cand.reader.kind;
    if (prev && prev.kind === kind && prev.size === info.size && prev.mtimeMs === mtimeMs) {
      state[real] = prev;
      continue;
    }
    try {
      const headLength = Math.min(HEAD_BYTES, info.size);
      const head = await headFingerprint(real, headLength);
      // Resume only when the file did not shrink below what we read and still starts the same.
      const resumable = prev !== undefined && prev.kind === kind && info.size >= prev.offset &&
        info.size >= prev.headLength &&
        (prev.headLength === headLength
          ? prev.head === head
          : prev.head === await headFingerprint(real, prev.headLength));
      const startOffset = resumable ? prev.offset : 0;
      const startLine = resumable ? prev.lineNo : 0;
      // The carry was written by the same reader (the state records its kind).
      const context = await contextFor(cand, real);
      const parser = cand.reader.open(
        { file: real, includeHeadless: input.includeHeadless, ...(context === undefined ? {} : { context }) },
        resumable ? prev.carry : null,
      );
      const result = await readLines(
        real,
        startOffset,
        startLine,
        (text, lineNo) => parser.line(text, lineNo),
      );
      totalBytes += result.bytes;
      input.onBytes?.(totalBytes);
      stats.filesRead++;
      stats.linesSkipped += parser.malformed + result.oversized;
      const records = parser.drain();
      if (resumable) appended.push(...records);
      else replaced.set(real, records);
      state[real] = {
        kind,
        size: info.size,
        mtimeMs,
        offset: result.offset,
        lineNo: result.lineNo,
        head,
        headLength,
        carry: parser.carry(),
      };
    } catch (err) {
      input.report(real, `cannot read: ${(err as Error).message}`);
      stats.filesUnreadable++;
      if (prev) state[real] = prev;
    }
  }
  return { replaced, appended, state, stats };
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
  const carry = prev !== null && prev.kind === reader.kind ? prev.carry : null;
  try {
    const read = await reader.read({
      file: path,
      includeHeadless: input.includeHeadless,
      carry,
      report: input.report,
    });
    const state: TranscriptFileState = {
      kind: reader.kind,
      size: info.size,
      mtimeMs: info.mtime?.getTime() ?? 0,
      offset: 0,
      lineNo: 0,
      head: "",
      headLength: 0,
      carry: read.carry,
    };
    return { read, state, unreadable: false };
  } catch (err) {
    return failed(`cannot read: ${(err as Error).message}`);
  }
}
