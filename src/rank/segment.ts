/**
 * An index segment: one immutable file indexing a set of documents, read lazily through an open
 * handle (so it keeps working after the process revokes its permissions). The archive's index is
 * a list of segments plus, per segment, which of its documents were deleted since it was written
 * (segmented_index.ts); segment_write.ts writes and merges them.
 *
 * Layout (little-endian; sections start on 8-byte boundaries):
 *   header     SEGMENT_HEADER_BYTES: magic, versions, counts, total length, min time, section offsets
 *   docs       DOC_ROW_BYTES × N: per document (its slot): store row id f64, time ms f64, length u32,
 *              project u32, session u32 (NO_SESSION when none), flags u8 (kind | marker << 4), 3 pad
 *   ids        ID_BYTES × N: record ids (ASCII, fixed width)
 *   postings   per term: for a term in fewer than RAW_POSTINGS_MIN_DF documents, varints per posting:
 *              slot gap, tf, and the document's facts (length, flags, time − min time, project,
 *              session + 1), so that scoring a rare word's documents reads nothing else; for a term in
 *              more, raw i32 slots then raw i32 tfs (a common word is looked up, not decoded)
 *   entries    per term, in term order (fnv1a32 of its UTF-8, then its bytes): u16 byte length,
 *              the UTF-8, u32 df, u32 conversations (distinct sessions among the term's documents,
 *              each document without a session counting as one of its own), f64 postings offset
 *              (from the section start), u32 postings bytes
 *   buckets    u32 × (2^bits + 1): entry offsets by the top `bits` bits of the term hash
 *
 * The term order is the same in every segment, so segments merge by streaming their entries.
 */
import { NO_SESSION } from "./bm25.ts";
import { compareBytes, fnv1a32, readAt, VarintReader } from "./byte_io.ts";

export const SEGMENT_MAGIC = "VRDSEG01";
/**
 * Bumped when the layout changes: a segment of another layout is not read (the index is rebuilt).
 * 2: each entry holds its term's conversation count (format 1 had none).
 */
export const SEGMENT_FORMAT_VERSION = 2;
export const SEGMENT_HEADER_BYTES = 128;
export const DOC_ROW_BYTES = 32;
export const ID_BYTES = 17;
/** An entry's bytes after its term: df u32, conversations u32, postings offset f64, postings bytes u32. */
export const ENTRY_FIXED_BYTES = 20;

/**
 * Posting lists this long are stored as raw i32 arrays: a common word's list is then one read and
 * a typed-array view instead of tens of thousands of varint decodes, and the scoring loop only
 * looks candidates up in it. Shorter lists carry their documents' facts.
 */
export const RAW_POSTINGS_MIN_DF = 256;

/** A segment file this small is read whole when opened: one read instead of one per look-up. */
export const SMALL_SEGMENT_BYTES = 256 * 1024;

/**
 * Reads this small (a bucket pair, a bucket's entries, a document row, an id) go through one
 * buffer the segment keeps: allocating a fresh array for each cost as much as the read itself
 * (an 8-byte read at a random offset measured 1.1 µs into a kept buffer, 2.0 µs into a fresh
 * one), and a prompt's look-ups are a dozen such reads.
 */
const PEEK_BYTES = 4096;

/**
 * The bucket table is read and kept in chunks of 2^this buckets (4 KiB): a word's look-up is
 * then one read (its bucket's entries) once its chunk is kept, not two. A read of 4 KiB costs
 * about 1.5 µs against 1.1 µs for the 8 bytes of one bucket (a process answering one prompt pays
 * that), and a process answering many prompts soon has the chunks its words fall in (a table of
 * 2^20 buckets is 1,024 chunks; bench:hint's 300 warm-up prompts look up ~3,000 words).
 */
const BUCKET_CHUNK_BITS = 10;
/** Chunks kept per segment (16 MiB of bucket table; then the kept ones are let go). */
const MAX_BUCKET_CHUNKS = 4096;

/** Record ids are ASCII (ID_BYTES wide). */
const ID_DECODER = new TextDecoder();

/** Decoded lists and term look-ups kept per segment across queries (a server asks many). */
const MAX_CACHED_POSTINGS = 4_000_000;
const MAX_CACHED_TERMS = 200_000;

const UTF8 = new TextEncoder();

/** A term's UTF-8 for a look-up: a view of one buffer, valid until the next call. */
let termBuffer = new Uint8Array(256);
function termBytes(term: string): Uint8Array {
  // Three bytes a UTF-16 unit at most.
  if (termBuffer.length < term.length * 3) termBuffer = new Uint8Array(term.length * 3);
  let ascii = true;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c >= 0x80) {
      ascii = false;
      break;
    }
    termBuffer[i] = c;
  }
  // Most terms are ASCII: written above without a call into the runtime.
  if (ascii) return termBuffer.subarray(0, term.length);
  return termBuffer.subarray(0, UTF8.encodeInto(term, termBuffer).written);
}

/** Raw postings are read as typed-array views, which assume a little-endian machine. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class SegmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SegmentError";
  }
}

export interface SegmentHeader {
  readonly analysis: number;
  readonly docCount: number;
  readonly termCount: number;
  readonly bucketBits: number;
  readonly totalLength: number;
  readonly minTimeMs: number;
  readonly ids: number;
  readonly postings: number;
  readonly entries: number;
  readonly buckets: number;
  readonly fileBytes: number;
  readonly firstRowid: number;
  readonly lastRowid: number;
}

export function encodeHeader(h: SegmentHeader): Uint8Array {
  const out = new Uint8Array(SEGMENT_HEADER_BYTES);
  out.set(new TextEncoder().encode(SEGMENT_MAGIC));
  const v = new DataView(out.buffer);
  v.setUint32(8, SEGMENT_FORMAT_VERSION, true);
  v.setUint32(12, h.analysis, true);
  v.setUint32(16, h.docCount, true);
  v.setUint32(20, h.termCount, true);
  v.setUint32(24, h.bucketBits, true);
  v.setFloat64(32, h.totalLength, true);
  v.setFloat64(40, h.minTimeMs, true);
  v.setFloat64(48, h.ids, true);
  v.setFloat64(56, h.postings, true);
  v.setFloat64(64, h.entries, true);
  v.setFloat64(72, h.buckets, true);
  v.setFloat64(80, h.fileBytes, true);
  v.setFloat64(88, h.firstRowid, true);
  v.setFloat64(96, h.lastRowid, true);
  return out;
}

function decodeHeader(raw: Uint8Array, path: string): SegmentHeader {
  const magic = new TextDecoder().decode(raw.subarray(0, 8));
  if (magic !== SEGMENT_MAGIC) throw new SegmentError(`${path} is not a verdict index segment`);
  const v = new DataView(raw.buffer, raw.byteOffset, SEGMENT_HEADER_BYTES);
  const format = v.getUint32(8, true);
  if (format !== SEGMENT_FORMAT_VERSION) {
    throw new SegmentError(
      `${path} has segment format ${format}, this verdict reads ${SEGMENT_FORMAT_VERSION}`,
    );
  }
  return {
    analysis: v.getUint32(12, true),
    docCount: v.getUint32(16, true),
    termCount: v.getUint32(20, true),
    bucketBits: v.getUint32(24, true),
    totalLength: v.getFloat64(32, true),
    minTimeMs: v.getFloat64(40, true),
    ids: v.getFloat64(48, true),
    postings: v.getFloat64(56, true),
    entries: v.getFloat64(64, true),
    buckets: v.getFloat64(72, true),
    fileBytes: v.getFloat64(80, true),
    firstRowid: v.getFloat64(88, true),
    lastRowid: v.getFloat64(96, true),
  };
}

/** One term's entry in a segment. */
export interface SegmentEntry {
  readonly df: number;
  /**
   * Distinct conversations among the term's documents here, deleted ones included (a document
   * without a session is a conversation of its own): what the common-word test needs without
   * reading a session per posting.
   */
  readonly conversations: number;
  /** Offset of the postings from the postings section's start, and their bytes. */
  readonly offset: number;
  readonly bytes: number;
}

/** The fixed part of an entry, at `at` in `view` (after the term's bytes). */
function decodeEntryTail(view: DataView, at: number): SegmentEntry {
  return {
    df: view.getUint32(at, true),
    conversations: view.getUint32(at + 4, true),
    offset: view.getFloat64(at + 8, true),
    bytes: view.getUint32(at + 16, true),
  };
}

/** The facts of each document of a short list, at the same places as its slots. */
export interface ListFacts {
  readonly lengths: Uint32Array;
  readonly times: Float64Array;
  readonly flags: Uint8Array;
  readonly projects: Uint32Array;
  readonly sessions: Uint32Array;
}

/** A term's postings in a segment: slots ascending, their tfs, and (short lists) the documents' facts. */
export interface SegmentList {
  readonly docs: Int32Array;
  readonly tfs: Int32Array;
  readonly facts: ListFacts | null;
}

/** One document's row in the docs section. */
export interface DocRow {
  readonly rowid: number;
  readonly timeMs: number;
  readonly length: number;
  readonly project: number;
  readonly session: number;
  readonly flags: number;
}

/** Reads the rows `bytes` holds (as readDocRows returned them) into `out` callbacks' hands. */
export function decodeDocRow(view: DataView, i: number): DocRow {
  const at = i * DOC_ROW_BYTES;
  return {
    rowid: view.getFloat64(at, true),
    timeMs: view.getFloat64(at + 8, true),
    length: view.getUint32(at + 16, true),
    project: view.getUint32(at + 20, true),
    session: view.getUint32(at + 24, true),
    flags: view.getUint8(at + 28),
  };
}

/** A decoded short list's bytes per posting: time f64, slot, tf, length, project, session (4 each), flags u8. */
const SHORT_LIST_BYTES_PER_POSTING = 8 + 5 * 4 + 1;

/** The bytes a list takes decoded: a raw list is viewed where it was read, a short one is unpacked. */
export function decodedListBytes(e: SegmentEntry): number {
  return e.df >= RAW_POSTINGS_MIN_DF ? e.bytes : e.df * SHORT_LIST_BYTES_PER_POSTING;
}

/**
 * Decodes a list written by segment_write.ts (varint with facts, or raw). A short list's arrays
 * go into `into` when given (8-aligned, decodedListBytes long), else into a fresh buffer.
 */
export function decodeList(raw: Uint8Array, df: number, minTimeMs: number, into?: Uint8Array): SegmentList {
  if (df >= RAW_POSTINGS_MIN_DF) {
    if (LITTLE_ENDIAN && raw.byteOffset % 4 === 0) {
      return {
        docs: new Int32Array(raw.buffer, raw.byteOffset, df),
        tfs: new Int32Array(raw.buffer, raw.byteOffset + df * 4, df),
        facts: null,
      };
    }
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    return {
      docs: Int32Array.from({ length: df }, (_, i) => view.getInt32(i * 4, true)),
      tfs: Int32Array.from({ length: df }, (_, i) => view.getInt32(df * 4 + i * 4, true)),
      facts: null,
    };
  }
  // One buffer for the seven arrays (the f64 times first, so every array is aligned): a fresh
  // backing store each cost about a microsecond, and a prompt decodes a few short lists.
  const store = into?.buffer ?? new ArrayBuffer(df * SHORT_LIST_BYTES_PER_POSTING);
  const at = into?.byteOffset ?? 0;
  const times = new Float64Array(store, at, df);
  const docs = new Int32Array(store, at + df * 8, df);
  const tfs = new Int32Array(store, at + df * 12, df);
  const facts: ListFacts = {
    lengths: new Uint32Array(store, at + df * 16, df),
    times,
    flags: new Uint8Array(store, at + df * 28, df),
    projects: new Uint32Array(store, at + df * 20, df),
    sessions: new Uint32Array(store, at + df * 24, df),
  };
  const r = new VarintReader(raw);
  let slot = 0;
  for (let i = 0; i < df; i++) {
    slot += r.next();
    docs[i] = slot;
    tfs[i] = r.next();
    facts.lengths[i] = r.next();
    facts.flags[i] = r.next();
    facts.times[i] = minTimeMs + r.next();
    facts.projects[i] = r.next();
    const session = r.next();
    facts.sessions[i] = session === 0 ? NO_SESSION : session - 1;
  }
  return { docs, tfs, facts };
}

/**
 * Decodes only the slots and tfs of a list into `docs` and `tfs` (capacity at least df), for
 * merging: the facts a short list carries are skipped (the writer takes them from the rows).
 */
export function decodeSlots(raw: Uint8Array, df: number, docs: Int32Array, tfs: Int32Array): void {
  if (df >= RAW_POSTINGS_MIN_DF) {
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    for (let i = 0; i < df; i++) {
      docs[i] = view.getInt32(i * 4, true);
      tfs[i] = view.getInt32(df * 4 + i * 4, true);
    }
    return;
  }
  const r = new VarintReader(raw);
  let slot = 0;
  for (let i = 0; i < df; i++) {
    slot += r.next();
    docs[i] = slot;
    tfs[i] = r.next();
    for (let f = 0; f < 5; f++) r.next();
  }
}

/**
 * Reads a region of a file front to back in large chunks: `take` returns the bytes at an offset
 * not before the previous one's (a view, valid until the next call).
 */
/**
 * A sequential reader's buffer: large enough that a read's overhead is small next to decoding it,
 * and small because a merge holds two per input (a first collect of 10^6 records merges 50
 * segments: 25 MB of buffers at 256 KiB each).
 */
const SEQUENTIAL_CHUNK_BYTES = 64 * 1024;

export class SequentialReader {
  readonly #segment: Segment;
  readonly #end: number;
  /** One buffer for the whole read: bytes [#from, #to) of it hold the file from offset #at. */
  #buf = new Uint8Array(SEQUENTIAL_CHUNK_BYTES);
  #at: number;
  #from = 0;
  #to = 0;
  constructor(segment: Segment, start: number, end: number) {
    this.#segment = segment;
    this.#at = start;
    this.#end = end;
  }

  take(offset: number, length: number): Uint8Array {
    const skip = offset - this.#at;
    if (skip < 0) throw new SegmentError(`${this.#segment.path}: read out of order`);
    if (skip + length <= this.#to - this.#from) {
      return this.#buf.subarray(this.#from + skip, this.#from + skip + length);
    }
    // Move what is still ahead to the front (into a larger buffer when one item needs it), read on.
    const keep = Math.max(0, this.#to - this.#from - skip);
    if (length > this.#buf.length) {
      const bigger = new Uint8Array(length);
      bigger.set(this.#buf.subarray(this.#to - keep, this.#to));
      this.#buf = bigger;
    } else this.#buf.copyWithin(0, this.#to - keep, this.#to);
    this.#at = offset;
    this.#from = 0;
    this.#to = keep;
    const readFrom = offset + keep;
    const want = Math.min(this.#buf.length - keep, this.#end - readFrom);
    if (keep + want < length) throw new SegmentError(`${this.#segment.path} is truncated`);
    this.#segment.readInto(readFrom, this.#buf.subarray(keep, keep + want));
    this.#to = keep + want;
    return this.#buf.subarray(0, length);
  }
}

/** An entry read in order from the entries section (for merging). */
export interface StreamedEntry {
  /** The term's UTF-8 bytes (a fresh copy). */
  readonly term: Uint8Array;
  readonly hash: number;
  readonly entry: SegmentEntry;
}

/** A segment file opened for reading. */
export class Segment {
  readonly path: string;
  readonly header: SegmentHeader;
  readonly #file: Deno.FsFile;
  /** The whole file, when it is small enough to keep. */
  readonly #whole: Uint8Array | null;
  readonly #terms = new Map<string, SegmentEntry | null>();
  readonly #lists = new Map<string, SegmentList>();
  #cachedPostings = 0;
  readonly #bucketChunks = new Map<number, DataView>();
  /** The buffer of #peek (made on first use: a merge's inputs never peek). */
  #peekBuffer: Uint8Array | null = null;

  private constructor(path: string, file: Deno.FsFile, header: SegmentHeader, whole: Uint8Array | null) {
    this.path = path;
    this.#file = file;
    this.header = header;
    this.#whole = whole;
  }

  /** Opens `path` and checks its header; throws SegmentError when it is not a readable segment. */
  static open(path: string): Segment {
    const file = Deno.openSync(path, { read: true });
    try {
      const size = file.statSync().size;
      if (size < SEGMENT_HEADER_BYTES) throw new SegmentError(`${path} is truncated`);
      const whole = size <= SMALL_SEGMENT_BYTES ? readAt(file, 0, size, path) : null;
      const header = decodeHeader(whole ?? readAt(file, 0, SEGMENT_HEADER_BYTES, path), path);
      if (header.fileBytes !== size) {
        throw new SegmentError(`${path} is ${size} bytes, its header says ${header.fileBytes}`);
      }
      return new Segment(path, file, header, whole);
    } catch (err) {
      file.close();
      throw err;
    }
  }

  close(): void {
    this.#file.close();
  }

  /** `length` bytes at `offset` (a view into the kept file, or a fresh read). */
  read(offset: number, length: number): Uint8Array {
    if (this.#whole) {
      if (offset + length > this.#whole.length) throw new SegmentError(`${this.path} is truncated`);
      return this.#whole.subarray(offset, offset + length);
    }
    return readAt(this.#file, offset, length, this.path);
  }

  /**
   * `length` bytes at `offset` as a view valid only until this segment's next read: for bytes
   * decoded at once and not kept (PEEK_BYTES). Longer ones are a fresh read.
   */
  #peek(offset: number, length: number): Uint8Array {
    if (this.#whole || length > PEEK_BYTES) return this.read(offset, length);
    const into = (this.#peekBuffer ??= new Uint8Array(PEEK_BYTES)).subarray(0, length);
    this.#file.seekSync(offset, Deno.SeekMode.Start);
    for (let got = 0; got < length;) {
      const n = this.#file.readSync(into.subarray(got));
      if (n === null) {
        throw new RangeError(
          `Cannot read ${this.path}: it ends at ${offset + got}, expected ${offset + length}`,
        );
      }
      got += n;
    }
    return into;
  }

  get docCount(): number {
    return this.header.docCount;
  }

  /**
   * Bucket offsets 2^BUCKET_CHUNK_BITS·k to 2^BUCKET_CHUNK_BITS·(k + 1) inclusive (so a bucket's
   * pair is always in one chunk), read once and kept.
   */
  #bucketChunk(k: number): DataView {
    let chunk = this.#bucketChunks.get(k);
    if (chunk === undefined) {
      const h = this.header;
      const first = k << BUCKET_CHUNK_BITS;
      const entries = Math.min(1 << BUCKET_CHUNK_BITS, 2 ** h.bucketBits - first) + 1;
      const bytes = this.read(h.buckets + first * 4, entries * 4);
      chunk = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (this.#bucketChunks.size >= MAX_BUCKET_CHUNKS) this.#bucketChunks.clear();
      this.#bucketChunks.set(k, chunk);
    }
    return chunk;
  }

  entry(term: string): SegmentEntry | null {
    const cached = this.#terms.get(term);
    if (cached !== undefined) return cached;
    const found = this.#lookup(termBytes(term));
    if (this.#terms.size >= MAX_CACHED_TERMS) this.#terms.clear();
    this.#terms.set(term, found);
    return found;
  }

  #lookup(bytes: Uint8Array): SegmentEntry | null {
    const h = this.header;
    if (h.termCount === 0) return null;
    const hash = fnv1a32(bytes);
    const bucket = h.bucketBits === 0 ? 0 : hash >>> (32 - h.bucketBits);
    let start: number;
    let end: number;
    if (this.#whole) {
      const pair = this.read(h.buckets + bucket * 4, 8);
      const slots = new DataView(pair.buffer, pair.byteOffset, 8);
      start = slots.getUint32(0, true);
      end = slots.getUint32(4, true);
    } else {
      const chunk = this.#bucketChunk(bucket >>> BUCKET_CHUNK_BITS);
      const at = (bucket & ((1 << BUCKET_CHUNK_BITS) - 1)) * 4;
      start = chunk.getUint32(at, true);
      end = chunk.getUint32(at + 4, true);
    }
    if (end <= start) return null;
    const block = this.#peek(h.entries + start, end - start);
    const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
    for (let p = 0; p < block.length;) {
      const len = view.getUint16(p, true);
      const q = p + 2 + len;
      if (compareBytes(block, p + 2, q, bytes, 0, bytes.length) === 0) {
        return decodeEntryTail(view, q);
      }
      p = q + ENTRY_FIXED_BYTES;
    }
    return null;
  }

  /** The term's list here (cached), or null when the segment does not hold it. */
  list(term: string): SegmentList | null {
    const cached = this.#lists.get(term);
    if (cached) return cached;
    const e = this.entry(term);
    if (!e) return null;
    const list = this.listAt(e);
    if (this.#cachedPostings + list.docs.length > MAX_CACHED_POSTINGS) {
      this.#lists.clear();
      this.#cachedPostings = 0;
    }
    this.#lists.set(term, list);
    this.#cachedPostings += list.docs.length;
    return list;
  }

  /** The term's list when this segment keeps it decoded already (no read), else null. */
  keptList(term: string): SegmentList | null {
    return this.#lists.get(term) ?? null;
  }

  /** Whether the whole file is in memory (its lists are then cheap to decode and keep). */
  get inMemory(): boolean {
    return this.#whole !== null;
  }

  /**
   * Decodes the list an entry points at into `into` (decodedListBytes long, 8-aligned): a raw
   * list is read there and viewed, a short one read into the small-read buffer and unpacked
   * there. For a caller that reuses the buffer and keeps nothing.
   */
  listInto(e: SegmentEntry, into: Uint8Array): SegmentList {
    if (into.length !== decodedListBytes(e) || into.byteOffset % 8 !== 0) {
      throw new SegmentError(`${this.path}: a list of ${e.df} postings cannot be decoded into that buffer`);
    }
    const offset = this.header.postings + e.offset;
    if (e.df >= RAW_POSTINGS_MIN_DF) {
      this.readInto(offset, into);
      return decodeList(into, e.df, this.header.minTimeMs);
    }
    return decodeList(this.#peek(offset, e.bytes), e.df, this.header.minTimeMs, into);
  }

  /** Decodes the list an entry points at (not cached: merges read each once). */
  listAt(e: SegmentEntry): SegmentList {
    // A raw list is viewed in place: copy it out of the kept file so the view is 4-aligned.
    const raw = this.read(this.header.postings + e.offset, e.bytes);
    return decodeList(this.#whole ? raw.slice() : raw, e.df, this.header.minTimeMs);
  }

  /** Fills `into` with the bytes at `offset`. */
  readInto(offset: number, into: Uint8Array): void {
    if (this.#whole) {
      if (offset + into.length > this.#whole.length) throw new SegmentError(`${this.path} is truncated`);
      into.set(this.#whole.subarray(offset, offset + into.length));
      return;
    }
    this.#file.seekSync(offset, Deno.SeekMode.Start);
    for (let got = 0; got < into.length;) {
      const n = this.#file.readSync(into.subarray(got));
      if (n === null) throw new SegmentError(`${this.path} is truncated`);
      got += n;
    }
  }

  /**
   * The rows of `count` documents from slot `first` (DOC_ROW_BYTES each), as a view valid only
   * until this segment's next read (decode them at once).
   */
  docRows(first: number, count: number): Uint8Array {
    return this.#peek(SEGMENT_HEADER_BYTES + first * DOC_ROW_BYTES, count * DOC_ROW_BYTES);
  }

  docRow(slot: number): DocRow {
    const bytes = this.docRows(slot, 1);
    return decodeDocRow(new DataView(bytes.buffer, bytes.byteOffset, DOC_ROW_BYTES), 0);
  }

  id(slot: number): string {
    return ID_DECODER.decode(this.#peek(this.header.ids + slot * ID_BYTES, ID_BYTES));
  }

  /** Every entry in term order, read in chunks (for merging). */
  *streamEntries(): Generator<StreamedEntry> {
    const h = this.header;
    const reader = new SequentialReader(this, h.entries, h.buckets);
    let at = h.entries;
    for (let k = 0; k < h.termCount; k++) {
      const head = reader.take(at, 2);
      const len = head[0]! | (head[1]! << 8);
      const rest = reader.take(at, 2 + len + ENTRY_FIXED_BYTES);
      const term = rest.slice(2, 2 + len);
      const entry = decodeEntryTail(new DataView(rest.buffer, rest.byteOffset, rest.byteLength), 2 + len);
      at += 2 + len + ENTRY_FIXED_BYTES;
      yield { term, hash: fnv1a32(term), entry };
    }
  }

  /** A front-to-back reader of the postings section (entries come in the same order). */
  postingsReader(): SequentialReader {
    return new SequentialReader(this, this.header.postings, this.header.entries);
  }
}

/** The term order of every segment: fnv1a32 of the UTF-8 bytes, then the bytes. */
export function compareTerms(ah: number, a: Uint8Array, bh: number, b: Uint8Array): number {
  if (ah !== bh) return ah < bh ? -1 : 1;
  return compareBytes(a, 0, a.length, b, 0, b.length);
}
