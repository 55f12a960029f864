/**
 * Writing the on-disk index (collect's last step). Kept apart from the reader (index_file.ts) so
 * the per-prompt path never loads the in-memory index builder, the CJK word deriver or the marker
 * lists.
 */
import { recordLine, type VerdictRecord } from "../collect/record.ts";
import { writeFileAtomic } from "../fsutil/atomic.ts";
import {
  fnv1a32,
  HEADER_BYTES,
  ID_BYTES,
  INDEX_CONTENT_VERSION,
  INDEX_FORMAT_VERSION,
  indexPathFor,
  MAGIC,
  RAW_POSTINGS_MIN_DF,
} from "./index_file.ts";
import { buildMemoryIndex, type MemoryIndex } from "./memory_index.ts";

class ByteWriter {
  #buf = new Uint8Array(1 << 16);
  #view = new DataView(this.#buf.buffer);
  length = 0;
  #ensure(extra: number) {
    if (this.length + extra <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.length));
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }
  u8(v: number) {
    this.#ensure(1);
    this.#buf[this.length++] = v;
  }
  u16(v: number) {
    this.#ensure(2);
    this.#view.setUint16(this.length, v, true);
    this.length += 2;
  }
  u32(v: number) {
    this.#ensure(4);
    this.#view.setUint32(this.length, v, true);
    this.length += 4;
  }
  f64(v: number) {
    this.#ensure(8);
    this.#view.setFloat64(this.length, v, true);
    this.length += 8;
  }
  bytes(b: Uint8Array) {
    this.#ensure(b.length);
    this.#buf.set(b, this.length);
    this.length += b.length;
  }
  varint(v: number) {
    while (v >= 0x80) {
      this.u8((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    this.u8(v);
  }
  pad8() {
    while (this.length % 8 !== 0) this.u8(0);
  }
  result(): Uint8Array {
    return this.#buf.subarray(0, this.length);
  }
}

/** Serialises `index` (built from `records`, in file order) to bytes. */
export function encodeIndex(
  index: MemoryIndex,
  records: readonly VerdictRecord[],
  recordsSize: number,
  recordsMtimeMs: number,
): Uint8Array {
  const enc = new TextEncoder();
  const n = index.docCount;
  const body = new ByteWriter();
  // Body offsets are relative to the body start; the header adds HEADER_BYTES.
  const at = () => HEADER_BYTES + body.length;

  const cols = index.columns();
  const lengths = at();
  body.bytes(new Uint8Array(cols.lengths.buffer, cols.lengths.byteOffset, n * 4));
  body.pad8();
  const times = at();
  body.bytes(new Uint8Array(cols.times.buffer, cols.times.byteOffset, n * 8));
  const flags = at();
  body.bytes(cols.flags.subarray(0, n));
  body.pad8();
  const projects = at();
  body.bytes(new Uint8Array(cols.projects.buffer, cols.projects.byteOffset, n * 4));
  const sessions = at();
  body.bytes(new Uint8Array(cols.sessions.buffer, cols.sessions.byteOffset, n * 4));
  const ids = at();
  for (let d = 0; d < n; d++) {
    const id = enc.encode(index.id(d));
    if (id.length !== ID_BYTES) throw new RangeError(`Cannot index record id "${index.id(d)}"`);
    body.bytes(id);
  }
  body.pad8();
  const lines = at();
  let offset = 0;
  for (const r of records) {
    const len = enc.encode(recordLine(r)).length;
    body.f64(offset);
    body.u32(len);
    offset += len + 1;
  }
  body.pad8();
  const strings = at();
  const stringBytes = enc.encode(
    JSON.stringify({ projects: cols.projectNames, sessions: cols.sessionNames }),
  );
  body.bytes(stringBytes);
  body.pad8();
  const cjkWords = at();
  const cjkBytes = enc.encode(JSON.stringify([...index.cjkWords].sort()));
  body.bytes(cjkBytes);
  body.pad8();

  // Terms grouped by bucket; postings written after the entries.
  const vocab = index.vocabulary();
  let bucketCount = 1;
  while (bucketCount < vocab.length) bucketCount *= 2;
  const byBucket: { term: string; bytes: Uint8Array }[][] = Array.from({ length: bucketCount }, () => []);
  for (const term of vocab) {
    const bytes = enc.encode(term);
    byBucket[fnv1a32(bytes) & (bucketCount - 1)]!.push({ term, bytes });
  }
  const postingBlobs: Uint8Array[] = [];
  const entriesW = new ByteWriter();
  const bucketOffsets: number[] = [];
  let postingsAt = 0;
  for (const bucket of byBucket) {
    bucketOffsets.push(entriesW.length);
    for (const { term, bytes } of bucket) {
      const pw = new ByteWriter();
      const list = index.postingList(term);
      if (list.docs.length >= RAW_POSTINGS_MIN_DF) {
        for (const d of list.docs) pw.u32(d);
        for (const tf of list.tfs) pw.u32(tf);
      } else {
        let prev = 0;
        for (let i = 0; i < list.docs.length; i++) {
          pw.varint(list.docs[i]! - prev);
          pw.varint(list.tfs[i]!);
          prev = list.docs[i]!;
        }
      }
      const blob = pw.result().slice();
      postingBlobs.push(blob);
      entriesW.u16(bytes.length);
      entriesW.bytes(bytes);
      entriesW.u32(list.docs.length);
      entriesW.f64(postingsAt);
      entriesW.u32(blob.length);
      postingsAt += blob.length;
    }
  }
  bucketOffsets.push(entriesW.length);
  const buckets = at();
  for (const o of bucketOffsets) body.u32(o);
  body.pad8();
  const entries = at();
  body.bytes(entriesW.result());
  body.pad8();
  const postings = at();
  for (const b of postingBlobs) body.bytes(b);

  const header = new ByteWriter();
  header.bytes(enc.encode(MAGIC));
  header.u32(INDEX_FORMAT_VERSION);
  header.u32(INDEX_CONTENT_VERSION);
  header.u32(n);
  header.u32(vocab.length);
  header.f64(index.avgDocLength);
  header.f64(recordsSize);
  header.f64(recordsMtimeMs);
  header.u32(bucketCount);
  header.u32(stringBytes.length);
  for (
    const o of [lengths, times, flags, projects, sessions, ids, lines, strings, buckets, entries, postings]
  ) {
    header.f64(o);
  }
  header.f64(cjkWords);
  header.u32(cjkBytes.length);
  while (header.length < HEADER_BYTES) header.u8(0);
  const out = new Uint8Array(HEADER_BYTES + body.length);
  out.set(header.result());
  out.set(body.result(), HEADER_BYTES);
  return out;
}

/** Builds the index for `records` (as written to `recordsPath`) and writes it atomically. */
export async function buildIndexFile(records: readonly VerdictRecord[], recordsPath: string): Promise<void> {
  const info = await Deno.stat(recordsPath);
  const index = buildMemoryIndex(records);
  const bytes = encodeIndex(index, records, info.size, info.mtime?.getTime() ?? 0);
  await writeFileAtomic(indexPathFor(recordsPath), [bytes]);
}
