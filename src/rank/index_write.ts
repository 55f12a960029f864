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

const UTF8 = new TextEncoder();

/** A growable little-endian byte buffer. */
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
  /** Every value of `values` as a u32, with one capacity check. */
  u32s(values: Int32Array) {
    this.#ensure(values.length * 4);
    for (let i = 0; i < values.length; i++) this.#view.setUint32(this.length + i * 4, values[i]!, true);
    this.length += values.length * 4;
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
  /** A non-negative integer below 2^53, seven bits a byte, low bits first. */
  varint(v: number) {
    this.#ensure(8);
    while (v >= 0x80) {
      this.#buf[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.#buf[this.length++] = v;
  }
  /** `text` as UTF-8, encoded in place (no array per string: the index writes a million terms). */
  utf8(text: string) {
    this.#ensure(text.length * 3);
    this.length += UTF8.encodeInto(text, this.#buf.subarray(this.length)).written;
  }
  pad8() {
    while (this.length % 8 !== 0) this.u8(0);
  }
  result(): Uint8Array {
    return this.#buf.subarray(0, this.length);
  }
}

/** UTF-8 byte lengths, measured by encoding into one reused buffer rather than a new array each. */
class Utf8Meter {
  #buf = new Uint8Array(1 << 16);

  length(text: string): number {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    if (text.length * 3 > this.#buf.length) this.#buf = new Uint8Array(text.length * 3);
    return UTF8.encodeInto(text, this.#buf).written;
  }
}

/** Serialises `index` (built from `records`, in file order) to bytes. */
export function encodeIndex(
  index: MemoryIndex,
  records: readonly VerdictRecord[],
  recordsSize: number,
  recordsMtimeMs: number,
): Uint8Array {
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
    const id = index.id(d);
    const start = body.length;
    body.utf8(id);
    if (body.length - start !== ID_BYTES) throw new RangeError(`Cannot index record id "${id}"`);
  }
  body.pad8();
  const lines = at();
  let offset = 0;
  const meter = new Utf8Meter();
  for (const r of records) {
    const len = meter.length(recordLine(r));
    body.f64(offset);
    body.u32(len);
    offset += len + 1;
  }
  body.pad8();
  const strings = at();
  const stringBytes = UTF8.encode(
    JSON.stringify({ projects: cols.projectNames, sessions: cols.sessionNames }),
  );
  body.bytes(stringBytes);
  body.pad8();
  const cjkWords = at();
  const cjkBytes = UTF8.encode(JSON.stringify([...index.cjkWords].sort()));
  body.bytes(cjkBytes);
  body.pad8();

  const vocab = index.vocabulary();
  const { bucketCount, bucketStarts, entries: entriesW, postings: postingsW } = termSections(index, vocab);
  const buckets = at();
  for (const o of bucketStarts) body.u32(o);
  body.pad8();
  const entries = at();
  body.bytes(entriesW);
  body.pad8();
  const postings = at();
  body.bytes(postingsW);

  const header = new ByteWriter();
  header.bytes(UTF8.encode(MAGIC));
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

/**
 * The term sections: entries grouped by hash bucket (in vocabulary order within a bucket), each
 * pointing into the postings, which follow in the same order. Every term is UTF-8-encoded once,
 * into one buffer, and the postings are written straight into one buffer too.
 */
function termSections(index: MemoryIndex, vocab: readonly string[]) {
  let bucketCount = 1;
  while (bucketCount < vocab.length) bucketCount *= 2;

  const names = new ByteWriter();
  const nameStarts = new Int32Array(vocab.length + 1);
  for (let t = 0; t < vocab.length; t++) {
    names.utf8(vocab[t]!);
    nameStarts[t + 1] = names.length;
  }
  const nameBytes = names.result();
  const { order, firstInBucket } = byBucket(nameBytes, nameStarts, bucketCount);

  const entries = new ByteWriter();
  const postings = new ByteWriter();
  const bucketStarts: number[] = [];
  for (let b = 0; b < bucketCount; b++) {
    bucketStarts.push(entries.length);
    for (let k = firstInBucket[b]!; k < firstInBucket[b + 1]!; k++) {
      const t = order[k]!;
      const list = index.postingList(vocab[t]!);
      const postingsAt = postings.length;
      writePostings(postings, list.docs, list.tfs);
      entries.u16(nameStarts[t + 1]! - nameStarts[t]!);
      entries.bytes(nameBytes.subarray(nameStarts[t], nameStarts[t + 1]));
      entries.u32(list.docs.length);
      entries.f64(postingsAt);
      entries.u32(postings.length - postingsAt);
    }
  }
  bucketStarts.push(entries.length);
  return { bucketCount, bucketStarts, entries: entries.result(), postings: postings.result() };
}

/**
 * The terms (indices into `nameStarts`) grouped by the hash bucket of their UTF-8 name, in their
 * own order within a bucket (a stable counting sort); bucket b's terms are
 * order[firstInBucket[b] … firstInBucket[b + 1]).
 */
function byBucket(nameBytes: Uint8Array, nameStarts: Int32Array, bucketCount: number) {
  const termCount = nameStarts.length - 1;
  const bucketOf = new Int32Array(termCount);
  const firstInBucket = new Int32Array(bucketCount + 1);
  for (let t = 0; t < termCount; t++) {
    const b = fnv1a32(nameBytes.subarray(nameStarts[t], nameStarts[t + 1])) & (bucketCount - 1);
    bucketOf[t] = b;
    firstInBucket[b + 1] = firstInBucket[b + 1]! + 1;
  }
  for (let b = 0; b < bucketCount; b++) firstInBucket[b + 1] = firstInBucket[b + 1]! + firstInBucket[b]!;
  const order = new Int32Array(termCount);
  const next = firstInBucket.slice(0, bucketCount);
  for (let t = 0; t < termCount; t++) {
    const b = bucketOf[t]!;
    order[next[b]!] = t;
    next[b] = next[b]! + 1;
  }
  return { order, firstInBucket };
}

/** One posting list: raw u32 docs then tfs when long (see RAW_POSTINGS_MIN_DF), else varint (doc gap, tf) pairs. */
function writePostings(out: ByteWriter, docs: Int32Array, tfs: Int32Array): void {
  if (docs.length >= RAW_POSTINGS_MIN_DF) {
    out.u32s(docs);
    out.u32s(tfs);
    return;
  }
  let prev = 0;
  for (let i = 0; i < docs.length; i++) {
    out.varint(docs[i]! - prev);
    out.varint(tfs[i]!);
    prev = docs[i]!;
  }
}

/** Builds the index for `records` (as written to `recordsPath`) and writes it atomically. */
export async function buildIndexFile(records: readonly VerdictRecord[], recordsPath: string): Promise<void> {
  const info = await Deno.stat(recordsPath);
  const index = buildMemoryIndex(records);
  const bytes = encodeIndex(index, records, info.size, info.mtime?.getTime() ?? 0);
  await writeFileAtomic(indexPathFor(recordsPath), [bytes]);
}
