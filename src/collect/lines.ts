/**
 * Streaming line reader for JSONL transcripts. Reads a file from a byte offset in large chunks,
 * decodes only whole lines (a newline byte never occurs inside a UTF-8 sequence, so chunk
 * boundaries are safe), and reports the byte offset just past the last line consumed so a later
 * run can resume there.
 *
 * A last line without its newline is a live session still writing: it is consumed only when it
 * is complete JSON; otherwise it is left for the next run. Lines longer than MAX_LINE_BYTES are
 * skipped (counted), never buffered whole.
 */

import { concatBytes } from "../fsutil/bytes.ts";

/** Longest line kept in memory; longer ones (e.g. a pasted 300 MB log) are skipped. */
export const MAX_LINE_BYTES = 128 * 1024 * 1024;

/** Read size: large enough that per-read overhead vanishes next to decoding. */
const CHUNK_BYTES = 4 * 1024 * 1024;

export interface ReadLinesResult {
  /** Byte offset just past the last consumed line. */
  readonly offset: number;
  /** Number of the last consumed line (1-based; equals the start value when none). */
  readonly lineNo: number;
  /** Bytes read from disk. */
  readonly bytes: number;
  /** Lines skipped for being longer than MAX_LINE_BYTES. */
  readonly oversized: number;
}

const NL = 0x0a;

/**
 * Feeds each line of `path` after byte `offset` to `onLine`, numbering from `lineNo + 1`.
 * Empty lines are counted but not fed.
 */
export async function readLines(
  path: string,
  offset: number,
  lineNo: number,
  onLine: (text: string, lineNo: number) => void,
  maxLineBytes: number = MAX_LINE_BYTES,
): Promise<ReadLinesResult> {
  const file = await Deno.open(path, { read: true });
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: offset > 0 });
  let consumed = offset;
  let bytes = 0;
  let oversized = 0;
  let line = lineNo;
  // Bytes of a line that started in an earlier chunk.
  let partial: Uint8Array[] = [];
  let partialBytes = 0;
  let skippingOversized = false;
  try {
    if (offset > 0) await file.seek(offset, Deno.SeekMode.Start);
    const buf = new Uint8Array(CHUNK_BYTES);
    while (true) {
      const n = await file.read(buf);
      if (n === null) break;
      bytes += n;
      const chunk = buf.subarray(0, n);
      const lastNl = chunk.lastIndexOf(NL);
      if (lastNl === -1) {
        if (!skippingOversized) {
          partial.push(chunk.slice());
          partialBytes += n;
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
        const firstNl = chunk.indexOf(NL);
        oversized++;
        line++;
        skippingOversized = false;
        start = firstNl + 1;
      } else if (partialBytes > 0) {
        const firstNl = chunk.indexOf(NL);
        const head = concatBytes([...partial, chunk.subarray(0, firstNl)]);
        partial = [];
        partialBytes = 0;
        line++;
        if (head.length > maxLineBytes) oversized++;
        else feed(decoder.decode(head), line, onLine);
        start = firstNl + 1;
      }
      if (start <= lastNl) {
        const text = decoder.decode(chunk.subarray(start, lastNl));
        let from = 0;
        while (true) {
          const nl = text.indexOf("\n", from);
          line++;
          if (nl === -1) {
            feed(text.slice(from), line, onLine);
            break;
          }
          feed(text.slice(from, nl), line, onLine);
          from = nl + 1;
        }
      }
      consumed = offset + bytes - (n - lastNl - 1);
      const rest = chunk.subarray(lastNl + 1);
      if (rest.length > 0) {
        partial = [rest.slice()];
        partialBytes = rest.length;
      }
    }
    // A last line without newline: consume it only if it is complete JSON.
    if (!skippingOversized && partialBytes > 0) {
      const tail = decoder.decode(concatBytes(partial));
      if (isCompleteJson(tail)) {
        line++;
        feed(tail, line, onLine);
        consumed = offset + bytes;
      }
    }
  } finally {
    file.close();
  }
  return { offset: consumed, lineNo: line, bytes, oversized };
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
