/**
 * Streaming line reader for JSONL transcripts. Reads a file from a byte offset in large chunks,
 * decodes only whole lines (a newline byte never occurs inside a UTF-8 sequence, so chunk
 * boundaries are safe), and reports the byte offset just past the last line consumed so a later
 * run can resume there.
 *
 * - A last line without its newline is a live session still writing: it is consumed only when
 *   it is complete JSON (`openLine` says so); otherwise it is left for the next run. A run that
 *   resumes after an open line (`afterOpenLine`) first takes the newline that ends it, without
 *   counting another line; when anything else follows, the line was not finished after all and
 *   the result says `continued` (the caller re-reads the file from its start).
 * - Lines longer than MAX_LINE_BYTES are skipped (counted), never buffered whole; lines that
 *   are not valid UTF-8 are skipped (counted), never decoded with replacement characters.
 * - At most `limit` bytes are read (the size the caller saw when it opened the file), so a file
 *   that keeps growing, or a device that never ends, cannot keep a collect reading forever.
 */

import { concatBytes } from "../fsutil/bytes.ts";

/**
 * Longest line kept in memory; longer ones (a pasted log, an image a tool returned) are
 * skipped and counted. No prompt or memory write comes near it, and holding one line this long
 * costs about three times its size while it is parsed.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Read size: large enough that per-read overhead vanishes next to decoding. */
const CHUNK_BYTES = 4 * 1024 * 1024;
/** Smallest read buffer (a file that grows while it is read still takes few reads). */
const MIN_CHUNK_BYTES = 64 * 1024;

export interface ReadLinesOptions {
  /** Longest line fed (default MAX_LINE_BYTES). */
  readonly maxLineBytes?: number;
  /** Read no further than this file offset (default: to the end). */
  readonly limit?: number;
  /** The line before `offset` was consumed without its newline (see the module note). */
  readonly afterOpenLine?: boolean;
  /** Called with every chunk read and the file offset it starts at (e.g. to digest the file). */
  readonly onRead?: (bytes: Uint8Array, position: number) => void;
  /** Checked between chunks: an aborted signal stops the read with its reason. */
  readonly signal?: AbortSignal;
}

export interface ReadLinesResult {
  /** Byte offset just past the last consumed line. */
  readonly offset: number;
  /** Number of the last consumed line (1-based; equals the start value when none). */
  readonly lineNo: number;
  /** Bytes read from disk (from `offset` on). */
  readonly bytes: number;
  /** Lines skipped for being longer than the cap. */
  readonly oversized: number;
  /** Lines skipped for not being valid UTF-8. */
  readonly invalidUtf8: number;
  /** The last consumed line had no newline (complete JSON a live writer had not ended yet). */
  readonly openLine: boolean;
  /** `afterOpenLine` was given and the open line went on: nothing was fed; re-read the file. */
  readonly continued: boolean;
}

const NL = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Feeds each line of `path` after byte `offset` to `onLine`, numbering from `lineNo + 1`.
 * Empty lines are counted but not fed.
 */
export async function readLines(
  path: string,
  offset: number,
  lineNo: number,
  onLine: (text: string, lineNo: number) => void,
  options: ReadLinesOptions = {},
): Promise<ReadLinesResult> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const limit = options.limit ?? Infinity;
  const file = await Deno.open(path, { read: true });
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let consumed = offset;
  let position = offset;
  let oversized = 0;
  let invalidUtf8 = 0;
  let openLine = false;
  let line = lineNo;
  // Bytes of a line that started in an earlier chunk.
  let partial: Uint8Array[] = [];
  let partialBytes = 0;
  let skippingOversized = false;
  let atStart = true;
  let afterOpenLine = options.afterOpenLine === true;

  /** The result of a read that consumed nothing: where it started, with what it learnt. */
  const unmoved = (open: boolean, continued: boolean): ReadLinesResult => ({
    offset,
    lineNo,
    bytes: position - offset,
    oversized,
    invalidUtf8,
    openLine: open,
    continued,
  });

  /** Decodes whole lines (no newline inside any), feeding or counting each. */
  const feedLines = (bytes: Uint8Array) => {
    let text: string | null = null;
    try {
      text = decoder.decode(bytes);
    } catch {
      // Some line is not UTF-8: find it, and keep every other line.
    }
    if (text !== null) {
      let from = 0;
      while (true) {
        const nl = text.indexOf("\n", from);
        line++;
        if (nl === -1) {
          feed(text.slice(from), line, onLine);
          return;
        }
        feed(text.slice(from, nl), line, onLine);
        from = nl + 1;
      }
    }
    let from = 0;
    while (true) {
      const nl = bytes.indexOf(NL, from);
      const one = bytes.subarray(from, nl === -1 ? bytes.length : nl);
      line++;
      try {
        feed(decoder.decode(one), line, onLine);
      } catch {
        invalidUtf8++;
      }
      if (nl === -1) return;
      from = nl + 1;
    }
  };

  try {
    if (offset > 0) await file.seek(offset, Deno.SeekMode.Start);
    // No bigger than the file needs: a collect reads thousands of small files, and a fresh 4 MiB
    // buffer each would leave the process holding hundreds of MB the allocator keeps.
    const left = Number.isFinite(limit) ? limit - offset : (await file.stat()).size - offset;
    const buf = new Uint8Array(Math.max(MIN_CHUNK_BYTES, Math.min(CHUNK_BYTES, left + 1)));
    while (position < limit) {
      if (options.signal?.aborted) throw options.signal.reason;
      const want = Math.min(buf.length, limit - position);
      const n = await file.read(buf.subarray(0, want));
      if (n === null) break;
      let chunk = buf.subarray(0, n);
      options.onRead?.(chunk, position);
      position += n;
      if (atStart) {
        atStart = false;
        if (afterOpenLine) {
          // The newline that ends the line consumed last time (CRLF or LF), not a new line.
          const skip = chunk[0] === NL ? 1 : chunk[0] === CR && chunk[1] === NL ? 2 : 0;
          if (skip === 0) return unmoved(false, true);
          afterOpenLine = false;
          chunk = chunk.subarray(skip);
          consumed += skip;
        } else if (offset === 0 && BOM.every((b, i) => chunk[i] === b)) {
          chunk = chunk.subarray(BOM.length);
          consumed += BOM.length;
        }
      }
      const chunkStart = position - chunk.length;
      const lastNl = chunk.lastIndexOf(NL);
      if (lastNl === -1) {
        if (!skippingOversized) {
          partial.push(chunk.slice());
          partialBytes += chunk.length;
          if (partialBytes > maxLineBytes) {
            skippingOversized = true;
            partial = [];
            partialBytes = 0;
          }
        }
        continue;
      }
      // Whole lines end at lastNl; the first of them may continue an earlier partial line.
      let start = 0;
      if (skippingOversized) {
        oversized++;
        line++;
        skippingOversized = false;
        start = chunk.indexOf(NL) + 1;
      } else if (partialBytes > 0) {
        const firstNl = chunk.indexOf(NL);
        const head = concatBytes([...partial, chunk.subarray(0, firstNl)]);
        partial = [];
        partialBytes = 0;
        if (head.length > maxLineBytes) {
          line++;
          oversized++;
        } else feedLines(head);
        start = firstNl + 1;
      }
      if (start <= lastNl) feedLines(chunk.subarray(start, lastNl));
      consumed = chunkStart + lastNl + 1;
      const rest = chunk.subarray(lastNl + 1);
      if (rest.length > 0) {
        partial = [rest.slice()];
        partialBytes = rest.length;
      }
    }
    if (afterOpenLine) {
      // Nothing after the open line yet: it stays open.
      return unmoved(true, false);
    }
    // A last line without newline: consume it only if it is complete JSON.
    if (!skippingOversized && partialBytes > 0) {
      const bytes = concatBytes(partial);
      let tail: string | null = null;
      try {
        tail = decoder.decode(bytes);
      } catch {
        tail = null; // not UTF-8 (yet: a writer may be mid-character); left for the next run
      }
      if (tail !== null && isCompleteJson(tail)) {
        line++;
        feed(tail, line, onLine);
        consumed += bytes.length;
        openLine = true;
      }
    }
  } finally {
    file.close();
  }
  return {
    offset: consumed,
    lineNo: line,
    bytes: position - offset,
    oversized,
    invalidUtf8,
    openLine,
    continued: false,
  };
}

function feed(text: string, lineNo: number, onLine: (text: string, lineNo: number) => void): void {
  // A CRLF file leaves "\r" at the end; an empty line is no record.
  const t = text.endsWith("\r") ? text.slice(0, -1) : text;
  if (t.length > 0) onLine(t, lineNo);
}

function isCompleteJson(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith("{") || !t.endsWith("}")) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}
