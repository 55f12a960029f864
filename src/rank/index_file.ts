/**
 * The on-disk search index beside the records file (`records.jsonl.idx`), so `hint` never parses
 * the JSONL on a prompt. It is written from the in-memory index (same tokens, same document
 * order, same metadata), and read lazily: a query touches the header, the columns it needs, two
 * hash-directory slots and one posting list per term, and the JSONL lines of the hits it shows.
 * `DiskIndex` implements `Corpus`, so it scores exactly like `MemoryIndex` (tests prove it).
 *
 * The writer is index_write.ts (collect only); this module is the reader the hint path loads.
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
 *   postings    per term: varint (doc delta, tf) pairs; for terms in RAW_POSTINGS_MIN_DF or more
 *               documents, raw i32 docs then raw i32 tfs (no decoding on the query path)
 */
import {
  checkDoc,
  type Corpus,
  type DocColumns,
  type DocMeta,
  EMPTY_POSTING_LIST,
  metaFromColumns,
  type Posting,
  type PostingList,
  type PostingPart,
} from "./bm25.ts";

export const MAGIC = "VRDIDX01";
/** Bumped when the layout changes. */
export const INDEX_FORMAT_VERSION = 2;

/**
 * Posting lists this long are stored as raw little-endian i32 arrays: a common word's list is
 * then one read and a typed-array view instead of tens of thousands of varint decodes, at 8
 * bytes per posting instead of about 2. Shorter lists stay varint-coded.
 */
export const RAW_POSTINGS_MIN_DF = 256;

/** Raw postings are read as typed-array views, which assume a little-endian machine. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/**
 * Bumped when tokenization or derived metadata (markers) change: an index built by another
 * version would answer differently from the in-memory scorer, so it counts as stale.
 */
export const INDEX_CONTENT_VERSION = 3;

export const HEADER_BYTES = 160;
export const ID_BYTES = 17;

export function indexPathFor(recordsPath: string): string {
  return recordsPath + ".idx";
}

/** FNV-1a over UTF-8 bytes, 32 bits: the term hash of the bucket directory. */
export function fnv1a32(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
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

/** Decoded postings kept across queries (8 bytes each): about 32 MB at most. */
const MAX_CACHED_POSTINGS = 4_000_000;
/** Term look-ups and record ids kept across queries. */
const MAX_CACHED_TERMS = 200_000;
const MAX_CACHED_IDS = 200_000;

export class IndexStaleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IndexStaleError";
  }
}

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
  readonly docSlots: number;
  readonly avgDocLength: number;
  readonly #file: Deno.FsFile;
  readonly #h: Header;
  #columns?: DocColumns;
  readonly #terms = new Map<string, TermEntry | null>();
  readonly #lists = new Map<string, PostingList>();
  #cachedPostings = 0;
  readonly #ids = new Map<number, string>();

  private constructor(file: Deno.FsFile, header: Header) {
    this.#file = file;
    this.#h = header;
    this.docCount = header.docCount;
    this.docSlots = header.docCount;
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
    if (this.#terms.size >= MAX_CACHED_TERMS) this.#terms.clear();
    this.#terms.set(term, found);
    return found;
  }

  docFreq(term: string): number {
    return this.#entry(term)?.df ?? 0;
  }

  postingList(term: string): PostingList {
    const cached = this.#lists.get(term);
    if (cached) return cached;
    const e = this.#entry(term);
    if (!e) return EMPTY_POSTING_LIST;
    const raw = readAt(this.#file, this.#h.postings + e.offset, e.bytes);
    if (e.df >= RAW_POSTINGS_MIN_DF) {
      const list = LITTLE_ENDIAN
        ? { docs: new Int32Array(raw.buffer, 0, e.df), tfs: new Int32Array(raw.buffer, e.df * 4, e.df) }
        : { docs: decodeI32(raw, 0, e.df), tfs: decodeI32(raw, e.df * 4, e.df) };
      this.#remember(term, list);
      return list;
    }
    const docs = new Int32Array(e.df);
    const tfs = new Int32Array(e.df);
    let p = 0;
    let doc = 0;
    for (let i = 0; i < e.df; i++) {
      // Two varints per posting: the doc gap, then the term frequency.
      let v = 0;
      let mul = 1;
      let b: number;
      do {
        b = raw[p++]!;
        v += (b & 0x7f) * mul;
        mul *= 128;
      } while (b >= 0x80);
      doc += v;
      docs[i] = doc;
      v = 0;
      mul = 1;
      do {
        b = raw[p++]!;
        v += (b & 0x7f) * mul;
        mul *= 128;
      } while (b >= 0x80);
      tfs[i] = v;
    }
    const list = { docs, tfs };
    this.#remember(term, list);
    return list;
  }

  /**
   * Keeps a decoded list for the next query; a long-running server (mcp, serve) would otherwise
   * keep every list it ever decoded, so past MAX_CACHED_POSTINGS the cache starts over.
   */
  #remember(term: string, list: PostingList): void {
    if (this.#cachedPostings + list.docs.length > MAX_CACHED_POSTINGS) {
      this.#lists.clear();
      this.#cachedPostings = 0;
    }
    this.#lists.set(term, list);
    this.#cachedPostings += list.docs.length;
  }

  postingParts(term: string): readonly PostingPart[] {
    const list = this.postingList(term);
    return list.docs.length === 0 ? [] : [{ docs: list.docs, tfs: list.tfs, base: 0, deleted: null }];
  }

  postings(term: string): readonly Posting[] {
    const list = this.postingList(term);
    return Array.from(list.docs, (doc, i) => ({ doc, tf: list.tfs[i]! }));
  }

  /** Loads every column with one read each (a few MB for 200k records), once. */
  columns(): DocColumns {
    if (this.#columns) return this.#columns;
    const h = this.#h;
    const n = this.docCount;
    const strings = JSON.parse(new TextDecoder().decode(readAt(this.#file, h.strings, h.stringsBytes))) as {
      projects: string[];
      sessions: string[];
    };
    this.#columns = {
      lengths: this.#u32Column(h.lengths),
      times: new Float64Array(readAt(this.#file, h.times, n * 8).buffer, 0, n),
      flags: readAt(this.#file, h.flags, n),
      projects: this.#u32Column(h.projects),
      sessions: this.#u32Column(h.sessions),
      projectNames: strings.projects,
      sessionNames: strings.sessions,
    };
    return this.#columns;
  }

  #check(doc: number): void {
    checkDoc(doc, this.docCount);
  }

  docLength(doc: number): number {
    this.#check(doc);
    return this.columns().lengths[doc]!;
  }

  /** The record id, read on demand (only hits and exact ties need it). */
  id(doc: number): string {
    this.#check(doc);
    let id = this.#ids.get(doc);
    if (id === undefined) {
      id = new TextDecoder().decode(readAt(this.#file, this.#h.ids + doc * ID_BYTES, ID_BYTES));
      if (this.#ids.size >= MAX_CACHED_IDS) this.#ids.clear();
      this.#ids.set(doc, id);
    }
    return id;
  }

  meta(doc: number): DocMeta {
    this.#check(doc);
    return metaFromColumns(this.columns(), doc, () => this.id(doc));
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

function decodeI32(bytes: Uint8Array, offset: number, count: number): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return Int32Array.from({ length: count }, (_, i) => view.getInt32(offset + i * 4, true));
}

/** Reads one record's line from an open records file. */
export function readRecordLine(records: Deno.FsFile, span: { offset: number; length: number }): string {
  return new TextDecoder().decode(readAt(records, span.offset, span.length));
}
