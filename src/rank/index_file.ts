/**
 * The on-disk search index beside the records file (`records.jsonl.idx`), so `hint` never parses
 * the JSONL on a prompt. It is written from the in-memory index (same tokens, same document
 * order, same metadata), and read lazily: a query touches the header, the columns it needs, two
 * hash-directory slots and one posting list per term, and the JSONL lines of the hits it shows.
 * `DiskIndex` implements `Corpus`, so it scores exactly like `MemoryIndex` (tests prove it).
 *
 * Layout (little-endian; every section starts on an 8-byte boundary):
 *   header (HEADER_BYTES)        magic, versions, counts, avgdl, records size/mtime, section offsets
 *   lengths     u32 × N          document lengths in terms
 *   times       f64 × N          record time, ms since the epoch
 *   flags       u8  × N          kind (low 4 bits) | marker << 4
 *   projects    u32 × N          index into the project string table
 *   sessions    u32 × N          index into the session table (NO_SESSION for null)
 *   ids         17 bytes × N     record ids (ASCII, fixed width)
 *   lines       (f64, u32) × N   byte offset and length of each record's JSONL line
 *   strings     JSON             {"projects": [...], "sessions": [...]}
 *   cjk words   JSON             the corpus-derived CJK words the documents were indexed with
 *   buckets     u32 × (B + 1)    byte offsets into the term entries, by fnv1a32(term) & (B − 1)
 *   entries     per term: u16 term byte length, term UTF-8, u32 df, f64 postings offset, u32 postings bytes
 *   postings    per term: varint (doc delta, tf) pairs
 */
import type { RecordKind, VerdictRecord } from "../collect/record.ts";
import { RECORD_KINDS, recordLine } from "../collect/record.ts";
import { writeFileAtomic } from "../fsutil/atomic.ts";
import type { Corpus, DocMeta, Posting } from "./bm25.ts";
import type { MarkerStrength } from "./markers.ts";
import { buildMemoryIndex, type MemoryIndex } from "./memory_index.ts";

const MAGIC = "VRDIDX01";
/** Bumped when the layout changes. */
export const INDEX_FORMAT_VERSION = 1;
/**
 * Bumped when tokenization or derived metadata (markers) change: an index built by another
 * version would answer differently from the in-memory scorer, so it counts as stale.
 */
export const INDEX_CONTENT_VERSION = 1;

const HEADER_BYTES = 160;
const ID_BYTES = 17;
const NO_SESSION = 0xffffffff;
const MARKERS: readonly (MarkerStrength | null)[] = [null, "medium", "strong"];

export function indexPathFor(recordsPath: string): string {
  return recordsPath + ".idx";
}

/** FNV-1a over UTF-8 bytes, 32 bits: the term hash of the bucket directory. */
function fnv1a32(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

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

interface Header {
  readonly docCount: number;
  readonly termCount: number;
  readonly avgDocLength: number;
  readonly recordsSize: number;
  readonly recordsMtimeMs: number;
  readonly bucketCount: number;
  readonly lengths: number;
  readonly times: number;
  readonly flags: number;
  readonly projects: number;
  readonly sessions: number;
  readonly ids: number;
  readonly lines: number;
  readonly strings: number;
  readonly stringsBytes: number;
  readonly buckets: number;
  readonly entries: number;
  readonly postings: number;
  readonly cjkWords: number;
  readonly cjkWordsBytes: number;
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

  const lengths = at();
  for (let d = 0; d < n; d++) body.u32(index.docLength(d));
  body.pad8();
  const times = at();
  for (let d = 0; d < n; d++) body.f64(index.meta(d).timeMs);
  const flags = at();
  for (let d = 0; d < n; d++) {
    const m = index.meta(d);
    body.u8(RECORD_KINDS.indexOf(m.kind) | (MARKERS.indexOf(m.marker) << 4));
  }
  body.pad8();
  const projectIds = new Map<string, number>();
  const sessionIds = new Map<string, number>();
  const projects = at();
  for (let d = 0; d < n; d++) {
    const p = index.meta(d).project;
    if (!projectIds.has(p)) projectIds.set(p, projectIds.size);
    body.u32(projectIds.get(p)!);
  }
  const sessions = at();
  for (let d = 0; d < n; d++) {
    const s = index.meta(d).session;
    if (s === null) body.u32(NO_SESSION);
    else {
      if (!sessionIds.has(s)) sessionIds.set(s, sessionIds.size);
      body.u32(sessionIds.get(s)!);
    }
  }
  const ids = at();
  for (let d = 0; d < n; d++) {
    const id = enc.encode(index.meta(d).id);
    if (id.length !== ID_BYTES) throw new RangeError(`Cannot index record id "${index.meta(d).id}"`);
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
    JSON.stringify({ projects: [...projectIds.keys()], sessions: [...sessionIds.keys()] }),
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
      let prev = 0;
      const list = index.postings(term);
      for (const p of list) {
        pw.varint(p.doc - prev);
        pw.varint(p.tf);
        prev = p.doc;
      }
      const blob = pw.result().slice();
      postingBlobs.push(blob);
      entriesW.u16(bytes.length);
      entriesW.bytes(bytes);
      entriesW.u32(list.length);
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

function readAt(file: Deno.FsFile, offset: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  file.seekSync(offset, Deno.SeekMode.Start);
  let got = 0;
  while (got < length) {
    const n = file.readSync(buf.subarray(got));
    if (n === null) {
      throw new RangeError(`Cannot read the index: it ends at ${offset + got}, expected ${offset + length}`);
    }
    got += n;
  }
  return buf;
}

export class IndexStaleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IndexStaleError";
  }
}

const EMPTY: readonly Posting[] = Object.freeze([]);

interface TermEntry {
  readonly df: number;
  readonly offset: number;
  readonly bytes: number;
}

/**
 * A read-only view of an index file through an open handle (so it keeps working after the
 * process revokes its permissions). Columns load on first use; term entries and postings are
 * cached per query process.
 */
export class DiskIndex implements Corpus {
  readonly docCount: number;
  readonly avgDocLength: number;
  readonly #file: Deno.FsFile;
  readonly #h: Header;
  #lengths?: Uint32Array;
  #times?: Float64Array;
  #flags?: Uint8Array;
  #projectCol?: Uint32Array;
  #sessionCol?: Uint32Array;
  #strings?: { projects: string[]; sessions: string[] };
  readonly #terms = new Map<string, TermEntry | null>();
  readonly #postings = new Map<string, readonly Posting[]>();
  readonly #metas = new Map<number, DocMeta>();

  private constructor(file: Deno.FsFile, header: Header) {
    this.#file = file;
    this.#h = header;
    this.docCount = header.docCount;
    this.avgDocLength = header.avgDocLength;
  }

  /**
   * Opens `indexFile` and checks it belongs to the records file whose size and mtime are given.
   * Throws IndexStaleError when it does not (or has another version); the caller rebuilds or
   * falls back to the JSONL.
   */
  static open(file: Deno.FsFile, recordsSize: number, recordsMtimeMs: number): DiskIndex {
    const raw = readAt(file, 0, HEADER_BYTES);
    const magic = new TextDecoder().decode(raw.subarray(0, 8));
    const v = new DataView(raw.buffer);
    if (magic !== MAGIC) throw new IndexStaleError("not a verdict index");
    if (v.getUint32(8, true) !== INDEX_FORMAT_VERSION || v.getUint32(12, true) !== INDEX_CONTENT_VERSION) {
      throw new IndexStaleError("built by another version");
    }
    const header: Header = {
      docCount: v.getUint32(16, true),
      termCount: v.getUint32(20, true),
      avgDocLength: v.getFloat64(24, true),
      recordsSize: v.getFloat64(32, true),
      recordsMtimeMs: v.getFloat64(40, true),
      bucketCount: v.getUint32(48, true),
      stringsBytes: v.getUint32(52, true),
      lengths: v.getFloat64(56, true),
      times: v.getFloat64(64, true),
      flags: v.getFloat64(72, true),
      projects: v.getFloat64(80, true),
      sessions: v.getFloat64(88, true),
      ids: v.getFloat64(96, true),
      lines: v.getFloat64(104, true),
      strings: v.getFloat64(112, true),
      buckets: v.getFloat64(120, true),
      entries: v.getFloat64(128, true),
      postings: v.getFloat64(136, true),
      cjkWords: v.getFloat64(144, true),
      cjkWordsBytes: v.getUint32(152, true),
    };
    if (header.recordsSize !== recordsSize || header.recordsMtimeMs !== recordsMtimeMs) {
      throw new IndexStaleError("the records file changed since the index was built");
    }
    return new DiskIndex(file, header);
  }

  close(): void {
    this.#file.close();
  }

  #u32Column(offset: number): Uint32Array {
    const bytes = readAt(this.#file, offset, this.docCount * 4);
    return new Uint32Array(bytes.buffer, 0, this.docCount);
  }

  #entry(term: string): TermEntry | null {
    const cached = this.#terms.get(term);
    if (cached !== undefined) return cached;
    const h = this.#h;
    const bytes = new TextEncoder().encode(term);
    const bucket = fnv1a32(bytes) & (h.bucketCount - 1);
    const slots = new DataView(readAt(this.#file, h.buckets + bucket * 4, 8).buffer);
    const start = slots.getUint32(0, true);
    const end = slots.getUint32(4, true);
    let found: TermEntry | null = null;
    if (end > start) {
      const block = readAt(this.#file, h.entries + start, end - start);
      const view = new DataView(block.buffer);
      for (let p = 0; p < block.length;) {
        const len = view.getUint16(p, true);
        const same = len === bytes.length &&
          block.subarray(p + 2, p + 2 + len).every((b, i) => b === bytes[i]);
        const q = p + 2 + len;
        if (same) {
          found = {
            df: view.getUint32(q, true),
            offset: view.getFloat64(q + 4, true),
            bytes: view.getUint32(q + 12, true),
          };
          break;
        }
        p = q + 16;
      }
    }
    this.#terms.set(term, found);
    return found;
  }

  docFreq(term: string): number {
    return this.#entry(term)?.df ?? 0;
  }

  postings(term: string): readonly Posting[] {
    const cached = this.#postings.get(term);
    if (cached) return cached;
    const e = this.#entry(term);
    if (!e) return EMPTY;
    const raw = readAt(this.#file, this.#h.postings + e.offset, e.bytes);
    const out: Posting[] = new Array(e.df);
    let p = 0;
    let doc = 0;
    const varint = () => {
      let v = 0;
      let mul = 1;
      while (true) {
        const b = raw[p++]!;
        v += (b & 0x7f) * mul;
        if (b < 0x80) return v;
        mul *= 128;
      }
    };
    for (let i = 0; i < e.df; i++) {
      doc += varint();
      out[i] = { doc, tf: varint() };
    }
    this.#postings.set(term, out);
    return out;
  }

  docLength(doc: number): number {
    this.#lengths ??= this.#u32Column(this.#h.lengths);
    const l = this.#lengths[doc];
    if (l === undefined) throw new RangeError(`Cannot read document ${doc}: the index has ${this.docCount}`);
    return l;
  }

  meta(doc: number): DocMeta {
    const cached = this.#metas.get(doc);
    if (cached) return cached;
    if (doc < 0 || doc >= this.docCount) {
      throw new RangeError(`Cannot read document ${doc}: the index has ${this.docCount}`);
    }
    const h = this.#h;
    this.#times ??= new Float64Array(readAt(this.#file, h.times, this.docCount * 8).buffer, 0, this.docCount);
    this.#flags ??= readAt(this.#file, h.flags, this.docCount);
    this.#projectCol ??= this.#u32Column(h.projects);
    this.#sessionCol ??= this.#u32Column(h.sessions);
    this.#strings ??= JSON.parse(new TextDecoder().decode(readAt(this.#file, h.strings, h.stringsBytes)));
    const flag = this.#flags[doc]!;
    const sessionIdx = this.#sessionCol[doc]!;
    const m: DocMeta = {
      id: new TextDecoder().decode(readAt(this.#file, h.ids + doc * ID_BYTES, ID_BYTES)),
      kind: RECORD_KINDS[flag & 0x0f] as RecordKind,
      timeMs: this.#times[doc]!,
      project: this.#strings!.projects[this.#projectCol[doc]!]!,
      session: sessionIdx === NO_SESSION ? null : this.#strings!.sessions[sessionIdx]!,
      marker: MARKERS[flag >> 4] ?? null,
    };
    this.#metas.set(doc, m);
    return m;
  }

  /** Byte offset and length of document `doc`'s line in the records file. */
  recordSpan(doc: number): { offset: number; length: number } {
    const v = new DataView(readAt(this.#file, this.#h.lines + doc * 12, 12).buffer);
    return { offset: v.getFloat64(0, true), length: v.getUint32(8, true) };
  }

  #cjkWords?: ReadonlySet<string>;

  isCjkWord(word: string): boolean {
    this.#cjkWords ??= new Set(
      JSON.parse(new TextDecoder().decode(readAt(this.#file, this.#h.cjkWords, this.#h.cjkWordsBytes))),
    );
    return this.#cjkWords.has(word);
  }
}

/** Reads one record's line from an open records file. */
export function readRecordLine(records: Deno.FsFile, span: { offset: number; length: number }): string {
  return new TextDecoder().decode(readAt(records, span.offset, span.length));
}
