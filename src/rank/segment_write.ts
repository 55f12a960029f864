/**
 * Writing index segments (segment.ts has the layout): from newly indexed documents, or by merging
 * segments into one without their deleted documents. Both stream terms in the common term order
 * into one writer, so memory stays bounded by the documents' rows, one term's postings and the
 * bucket directory, whatever the sizes. A segment is written to a temp name, flushed, and renamed
 * into place: a segment file that exists is complete.
 */
import { NO_SESSION } from "./bm25.ts";
import { ByteWriter, compareBytes, fnv1a32 } from "./byte_io.ts";
import { writeAllSync } from "../fsutil/bytes.ts";
import { PostingsBuilder, PostingsScratch } from "./memory_index.ts";
import {
  compareTerms,
  decodeSlots,
  DOC_ROW_BYTES,
  encodeHeader,
  ID_BYTES,
  RAW_POSTINGS_MIN_DF,
  type Segment,
  SEGMENT_HEADER_BYTES,
  SegmentError,
  type StreamedEntry,
} from "./segment.ts";

/** One document to index: its store row id, record id, terms and the facts ranking weighs. */
export interface SegmentDoc {
  readonly rowid: number;
  readonly id: string;
  readonly terms: readonly string[];
  readonly timeMs: number;
  readonly flags: number;
  readonly project: number;
  /** NO_SESSION when the record has none. */
  readonly session: number;
}

/** What a written segment holds (the manifest keeps it). */
export interface SegmentSummary {
  readonly docCount: number;
  readonly totalLength: number;
  readonly firstRowid: number;
  readonly lastRowid: number;
  readonly bytes: number;
}

/** Postings and entries are written out in pieces of this size. */
const FLUSH_BYTES = 1 << 20;
/** A raw posting list this long is written straight to the file, not through the buffer. */
const DIRECT_WRITE_BYTES = 64 * 1024;
/**
 * Bucket starts held before they go to the directory's side file. The directory is sized for
 * the most terms a segment may hold (for a merge, the sum of its inputs' terms: 8.4 M buckets,
 * 32 MiB, when 50 segments of 20,000 records merge), but is filled front to back as the terms
 * come in hash order, so it streams; a directory this small is never written apart.
 */
const BUCKET_CHUNK = 16 * 1024;

/** Bits of the bucket directory for up to `terms` terms (one bucket per term or so). */
function bucketBitsFor(terms: number): number {
  let bits = 0;
  while ((1 << bits) < terms && bits < 26) bits++;
  return bits;
}

/**
 * A segment's documents, in slot order, as blocks of rows (DOC_ROW_BYTES each) and of ids
 * (ID_BYTES each). Each is read once, rows first: a merge copies them from its inputs block by
 * block, so a million documents' 49 bytes each are never held together. A block is valid until
 * the next one is asked for (a merge reads every block into the same buffer).
 */
interface DocBlocks {
  readonly count: number;
  rows(): Iterable<Uint8Array>;
  ids(): Iterable<Uint8Array>;
}

/** Raw u32 arrays are written as views of their buffer, which assumes a little-endian machine. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Writes one segment file: the documents' rows and ids first, then terms in term order. The
 * entries go to a side file while the postings stream into the segment, and are appended at the
 * end with the bucket directory. What it keeps per document is the facts a short list carries
 * (21 bytes); the rows and ids go to the file as they come.
 */
class SegmentFileWriter {
  readonly #path: string;
  readonly #tmp: string;
  readonly #side: string;
  readonly #bucketsSide: string;
  readonly #file: Deno.FsFile;
  readonly #entriesFile: Deno.FsFile;
  /** Opened when the directory outgrows one chunk. */
  #bucketsFile: Deno.FsFile | null = null;
  readonly #docCount: number;
  readonly #analysis: number;
  readonly #bits: number;
  /** Buckets in the directory ((1 << bits) + 1 starts: the last one is the end). */
  readonly #bucketCount: number;
  /** The next bucket starts, before they are written out (chunk of the directory). */
  readonly #bucketChunk: Uint32Array;
  #bucketFill = 0;
  #bucketBytesWritten = 0;
  // Grown as needed (to about 2 × FLUSH_BYTES): a one-prompt collect writes segments of a few bytes.
  readonly #postings: ByteWriter;
  readonly #entries: ByteWriter;
  #postingsBytes = 0;
  #entriesBytes = 0;
  #terms = 0;
  #nextBucket = 0;
  #lastHash = -1;
  #lastTerm: Uint8Array = new Uint8Array(0);
  readonly #minTimeMs: number;
  readonly #totalLength: number;
  /** The rows' facts by slot, as the short lists carry them (time relative to the minimum). */
  readonly #lengths: Uint32Array;
  readonly #flags: Uint8Array;
  readonly #times: Float64Array;
  readonly #projects: Uint32Array;
  readonly #sessions: Uint32Array;
  /** Per session (+ 1), the last term that counted it: distinct conversations without a Set. */
  readonly #sessionMarks: Uint32Array;
  #termStamp = 0;
  readonly #idsAt: number;
  readonly #postingsAt: number;

  /** `buffers`, when given, are emptied and used for the postings and entries (a builder's, kept across segments). */
  constructor(
    path: string,
    analysis: number,
    docs: DocBlocks,
    maxTerms: number,
    buffers?: { readonly postings: ByteWriter; readonly entries: ByteWriter },
  ) {
    this.#path = path;
    this.#postings = buffers?.postings ?? new ByteWriter();
    this.#entries = buffers?.entries ?? new ByteWriter();
    this.#postings.clear();
    this.#entries.clear();
    this.#tmp = `${path}.tmp`;
    this.#side = `${path}.entries.tmp`;
    this.#bucketsSide = `${path}.buckets.tmp`;
    this.#analysis = analysis;
    const n = this.#docCount = docs.count;
    this.#bits = bucketBitsFor(maxTerms);
    this.#bucketCount = (1 << this.#bits) + 1;
    this.#bucketChunk = new Uint32Array(Math.min(BUCKET_CHUNK, this.#bucketCount));
    this.#lengths = new Uint32Array(n);
    this.#flags = new Uint8Array(n);
    this.#times = new Float64Array(n);
    this.#projects = new Uint32Array(n);
    this.#sessions = new Uint32Array(n);
    this.#file = Deno.openSync(this.#tmp, { write: true, create: true, truncate: true, mode: 0o600 });
    this.#entriesFile = Deno.openSync(this.#side, {
      read: true,
      write: true,
      create: true,
      truncate: true,
      mode: 0o600,
    });
    try {
      writeAllSync(this.#file, new Uint8Array(SEGMENT_HEADER_BYTES));
      let min = Infinity;
      let total = 0;
      let maxSession = 0;
      let slot = 0;
      for (const block of docs.rows()) {
        const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
        for (let at = 0; at < block.length; at += DOC_ROW_BYTES, slot++) {
          if (slot >= n) throw new SegmentError(`Cannot write ${path}: more rows than its ${n} documents`);
          const t = view.getFloat64(at + 8, true);
          if (!Number.isInteger(t)) throw new SegmentError(`Cannot index a record time of ${t} ms`);
          min = Math.min(min, t);
          this.#times[slot] = t;
          const length = view.getUint32(at + 16, true);
          total += length;
          this.#lengths[slot] = length;
          this.#projects[slot] = view.getUint32(at + 20, true);
          const session = view.getUint32(at + 24, true);
          this.#sessions[slot] = session === NO_SESSION ? 0 : session + 1;
          maxSession = Math.max(maxSession, this.#sessions[slot]!);
          this.#flags[slot] = view.getUint8(at + 28);
        }
        writeAllSync(this.#file, block);
      }
      if (slot !== n) throw new SegmentError(`Cannot write ${path}: ${slot} rows for ${n} documents`);
      this.#minTimeMs = n === 0 ? 0 : min;
      this.#totalLength = total;
      this.#sessionMarks = new Uint32Array(maxSession + 1);
      // The short lists carry times relative to the segment's earliest.
      for (let i = 0; i < n; i++) this.#times[i] = this.#times[i]! - this.#minTimeMs;
      this.#idsAt = SEGMENT_HEADER_BYTES + n * DOC_ROW_BYTES;
      let idBytes = 0;
      for (const block of docs.ids()) {
        writeAllSync(this.#file, block);
        idBytes += block.length;
      }
      if (idBytes !== n * ID_BYTES) {
        throw new SegmentError(`Cannot write ${path}: ${idBytes} bytes of ids for ${n} documents`);
      }
      const pad = (8 - ((this.#idsAt + idBytes) % 8)) % 8;
      writeAllSync(this.#file, new Uint8Array(pad));
      this.#postingsAt = this.#idsAt + idBytes + pad;
    } catch (err) {
      this.abort();
      throw err;
    }
  }

  /** Adds a term's postings (slots ascending, at least one); terms must come in term order. */
  addTerm(term: Uint8Array, hash: number, docs: Int32Array, tfs: Int32Array): void {
    if (this.#lastHash >= 0 && compareTerms(this.#lastHash, this.#lastTerm, hash, term) >= 0) {
      throw new SegmentError("Cannot write a segment: terms out of order");
    }
    this.#lastHash = hash;
    this.#lastTerm = term;
    const bucket = this.#bits === 0 ? 0 : hash >>> (32 - this.#bits);
    const entryAt = this.#entriesBytes + this.#entries.length;
    while (this.#nextBucket <= bucket) this.#pushBucket(entryAt);

    const offset = this.#postingsBytes + this.#postings.length;
    const out = this.#postings;
    const df = docs.length;
    if (df >= RAW_POSTINGS_MIN_DF && LITTLE_ENDIAN && df * 8 >= DIRECT_WRITE_BYTES) {
      // A long list goes to the file as it is: through the buffer it would grow the buffer to
      // its size for good (a common word of a million documents: 8 MB, doubled to 16).
      writeAllSync(this.#file, out.result());
      this.#postingsBytes += out.length;
      out.clear();
      writeAllSync(this.#file, new Uint8Array(docs.buffer, docs.byteOffset, df * 4));
      writeAllSync(this.#file, new Uint8Array(tfs.buffer, tfs.byteOffset, df * 4));
      this.#postingsBytes += df * 8;
    } else if (df >= RAW_POSTINGS_MIN_DF) {
      out.u32s(docs);
      out.u32s(tfs);
    } else {
      let prev = 0;
      for (let i = 0; i < df; i++) {
        const slot = docs[i]!;
        out.varint(slot - prev);
        out.varint(tfs[i]!);
        out.varint(this.#lengths[slot]!);
        out.varint(this.#flags[slot]!);
        out.varint(this.#times[slot]!);
        out.varint(this.#projects[slot]!);
        out.varint(this.#sessions[slot]!);
        prev = slot;
      }
    }
    const bytes = this.#postingsBytes + out.length - offset;
    this.#entries.u16(term.length);
    this.#entries.bytes(term);
    this.#entries.u32(df);
    this.#entries.u32(this.#conversations(docs));
    this.#entries.f64(offset);
    this.#entries.u32(bytes);
    this.#terms++;
    if (out.length >= FLUSH_BYTES) {
      writeAllSync(this.#file, out.result());
      this.#postingsBytes += out.length;
      out.clear();
    }
    if (this.#entries.length >= FLUSH_BYTES) {
      writeAllSync(this.#entriesFile, this.#entries.result());
      this.#entriesBytes += this.#entries.length;
      this.#entries.clear();
    }
  }

  /** Appends the next bucket's start to the directory. */
  #pushBucket(start: number): void {
    this.#nextBucket++;
    this.#bucketChunk[this.#bucketFill++] = start;
    if (this.#bucketFill === this.#bucketChunk.length && this.#nextBucket < this.#bucketCount) {
      this.#bucketsFile ??= Deno.openSync(this.#bucketsSide, {
        read: true,
        write: true,
        create: true,
        truncate: true,
        mode: 0o600,
      });
      writeAllSync(this.#bucketsFile, this.#bucketBytes());
      this.#bucketBytesWritten += this.#bucketFill * 4;
      this.#bucketFill = 0;
    }
  }

  /** The chunk's bucket starts as little-endian bytes (a view of the chunk itself where it can be). */
  #bucketBytes(): Uint8Array {
    const chunk = this.#bucketChunk.subarray(0, this.#bucketFill);
    if (LITTLE_ENDIAN) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const bytes = new Uint8Array(chunk.length * 4);
    const view = new DataView(bytes.buffer);
    chunk.forEach((v, i) => view.setUint32(i * 4, v, true));
    return bytes;
  }

  /** Distinct conversations among `docs` (a document without a session is one of its own). */
  #conversations(docs: Int32Array): number {
    const stamp = ++this.#termStamp; // one per term: fewer than 2³² in a segment
    const marks = this.#sessionMarks;
    let count = 0;
    for (let i = 0; i < docs.length; i++) {
      const s = this.#sessions[docs[i]!]!;
      if (s === 0) count++;
      else if (marks[s] !== stamp) {
        marks[s] = stamp;
        count++;
      }
    }
    return count;
  }

  /** Writes the rest and the header, flushes, and renames the file into place. */
  async finish(firstRowid: number, lastRowid: number): Promise<SegmentSummary> {
    try {
      writeAllSync(this.#file, this.#postings.result());
      this.#postingsBytes += this.#postings.length;
      const pad = (8 - (this.#postingsBytes % 8)) % 8;
      writeAllSync(this.#file, new Uint8Array(pad));
      const entriesAt = this.#postingsAt + this.#postingsBytes + pad;
      writeAllSync(this.#entriesFile, this.#entries.result());
      this.#entriesBytes += this.#entries.length;
      // Copy the side file's entries after the postings.
      this.#entriesFile.seekSync(0, Deno.SeekMode.Start);
      const copy = new Uint8Array(Math.max(1, Math.min(FLUSH_BYTES, this.#entriesBytes)));
      this.#copySide(this.#entriesFile, this.#entriesBytes, copy);
      const pad2 = (8 - (this.#entriesBytes % 8)) % 8;
      writeAllSync(this.#file, new Uint8Array(pad2));
      const bucketsAt = entriesAt + this.#entriesBytes + pad2;
      while (this.#nextBucket < this.#bucketCount) this.#pushBucket(this.#entriesBytes);
      // The directory's chunks written out so far, then the last one.
      if (this.#bucketsFile) {
        this.#bucketsFile.seekSync(0, Deno.SeekMode.Start);
        this.#copySide(this.#bucketsFile, this.#bucketBytesWritten, copy);
      }
      writeAllSync(this.#file, this.#bucketBytes());
      const fileBytes = bucketsAt + this.#bucketCount * 4;
      this.#file.seekSync(0, Deno.SeekMode.Start);
      writeAllSync(
        this.#file,
        encodeHeader({
          analysis: this.#analysis,
          docCount: this.#docCount,
          termCount: this.#terms,
          bucketBits: this.#bits,
          totalLength: this.#totalLength,
          minTimeMs: this.#minTimeMs,
          ids: this.#idsAt,
          postings: this.#postingsAt,
          entries: entriesAt,
          buckets: bucketsAt,
          fileBytes,
          firstRowid,
          lastRowid,
        }),
      );
      await this.#file.sync();
      this.#file.close();
      this.#entriesFile.close();
      this.#bucketsFile?.close();
      await Deno.remove(this.#side);
      if (this.#bucketsFile) await Deno.remove(this.#bucketsSide);
      await Deno.rename(this.#tmp, this.#path);
      return {
        docCount: this.#docCount,
        totalLength: this.#totalLength,
        firstRowid,
        lastRowid,
        bytes: fileBytes,
      };
    } catch (err) {
      this.abort();
      throw err;
    }
  }

  /** Appends the first `bytes` bytes of a side file (read from where it stands) to the segment. */
  #copySide(side: Deno.FsFile, bytes: number, chunk: Uint8Array): void {
    for (let copied = 0; copied < bytes;) {
      const n = side.readSync(chunk.subarray(0, Math.min(chunk.length, bytes - copied)));
      if (n === null) throw new SegmentError(`Cannot write ${this.#path}: a side file ended early`);
      writeAllSync(this.#file, chunk.subarray(0, n));
      copied += n;
    }
  }

  abort(): void {
    for (const f of [this.#file, this.#entriesFile, this.#bucketsFile]) {
      if (f === null) continue;
      try {
        f.close();
      } catch {
        // Already closed.
      }
    }
    for (const p of [this.#tmp, this.#side, this.#bucketsSide]) {
      try {
        Deno.removeSync(p);
      } catch {
        // Not there.
      }
    }
  }
}

/**
 * Collects newly indexed documents (in row-id order) and writes them as one segment; then it is
 * empty and takes the next segment's documents. Its buffers are kept from one segment to the
 * next: a collect that indexes 10^6 records writes 50 segments, and buffers allocated afresh for
 * each were garbage that held the process's memory up until the collector got to it.
 */
export class SegmentBuilder {
  readonly #postings = new PostingsBuilder();
  readonly #scratch = new PostingsScratch();
  readonly #rows = new ByteWriter();
  readonly #ids = new ByteWriter();
  readonly #names = new ByteWriter();
  readonly #buffers = { postings: new ByteWriter(), entries: new ByteWriter() };
  #first = -1;
  #last = -1;
  #count = 0;

  get size(): number {
    return this.#count;
  }

  add(doc: SegmentDoc): void {
    if (doc.rowid <= this.#last) throw new SegmentError("Cannot index documents out of row-id order");
    if (this.#first < 0) this.#first = doc.rowid;
    this.#last = doc.rowid;
    this.#postings.add(doc.terms);
    const rows = this.#rows;
    rows.f64(doc.rowid);
    rows.f64(doc.timeMs);
    rows.u32(doc.terms.length);
    rows.u32(doc.project);
    rows.u32(doc.session);
    rows.u8(doc.flags);
    rows.u8(0);
    rows.u8(0);
    rows.u8(0);
    const before = this.#ids.length;
    this.#ids.utf8(doc.id);
    if (this.#ids.length - before !== ID_BYTES) throw new SegmentError(`Cannot index record id "${doc.id}"`);
    this.#count++;
  }

  /**
   * Gives every buffer's memory back at once (see releaseBuffer), for a caller done building:
   * about 30 MB after segments of 20,000 records, which the merge that follows would otherwise
   * find still held. The builder stays usable (its buffers grow again).
   */
  release(): void {
    this.#postings.release();
    this.#scratch.release();
    for (const w of [this.#rows, this.#ids, this.#names, this.#buffers.postings, this.#buffers.entries]) {
      w.release();
    }
  }

  /** Writes the segment to `path` (atomically); the builder is empty afterwards, even when it fails. */
  async write(path: string, analysis: number): Promise<SegmentSummary> {
    try {
      return await this.#write(path, analysis);
    } finally {
      this.#postings.reset();
      this.#rows.clear();
      this.#ids.clear();
      this.#first = -1;
      this.#last = -1;
      this.#count = 0;
    }
  }

  async #write(path: string, analysis: number): Promise<SegmentSummary> {
    const flat = this.#postings.finishInto(this.#scratch);
    // Term t is term id t.
    const termCount = flat.termCount;
    const names = this.#names;
    names.clear();
    const starts = new Int32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) {
      names.utf8(flat.terms[t]!);
      starts[t + 1] = names.length;
    }
    const nameBytes = names.result();
    const hashes = new Uint32Array(termCount);
    for (let t = 0; t < termCount; t++) hashes[t] = fnv1a32(nameBytes, starts[t]!, starts[t + 1]!);
    const order = Array.from({ length: termCount }, (_, t) => t).sort((a, b) =>
      hashes[a]! !== hashes[b]!
        ? hashes[a]! - hashes[b]!
        : compareBytes(nameBytes, starts[a]!, starts[a + 1]!, nameBytes, starts[b]!, starts[b + 1]!)
    );
    const rows = this.#rows.result();
    const ids = this.#ids.result();
    const writer = new SegmentFileWriter(
      path,
      analysis,
      { count: this.#count, rows: () => [rows], ids: () => [ids] },
      termCount,
      this.#buffers,
    );
    try {
      for (const t of order) {
        const from = flat.offsets[t]!;
        const to = flat.offsets[t + 1]!;
        writer.addTerm(
          nameBytes.subarray(starts[t]!, starts[t + 1]!),
          hashes[t]!,
          flat.docs.subarray(from, to),
          flat.tfs.subarray(from, to),
        );
      }
    } catch (err) {
      writer.abort();
      throw err;
    }
    return await writer.finish(this.#first, this.#last);
  }
}

/** Documents a merge copies from an input at a time (their rows and ids, then the next block). */
const MERGE_BLOCK_DOCS = 8192;

/** Whether a merge input's current entry is the term (`hash`, `term`). */
function holdsTerm(h: StreamedEntry | null, hash: number, term: Uint8Array): h is StreamedEntry {
  return h !== null && h.hash === hash && compareBytes(h.term, 0, h.term.length, term, 0, term.length) === 0;
}

/** A segment to merge, with its deleted slots (a bitmap, bit set: deleted) or null. */
export interface MergeInput {
  readonly segment: Segment;
  readonly deleted: Uint8Array | null;
}

function isDeleted(bitmap: Uint8Array | null, slot: number): boolean {
  return bitmap !== null && (bitmap[slot >> 3]! & (1 << (slot & 7))) !== 0;
}

/**
 * Merges `inputs` (adjacent in row-id order, oldest first) into one segment at `path`, dropping
 * deleted documents. Documents keep their terms: they were indexed with the analysis in force,
 * and a document whose terms would change is deleted and indexed anew instead.
 */
export async function mergeSegments(
  inputs: readonly MergeInput[],
  path: string,
  analysis: number,
): Promise<SegmentSummary> {
  // New slots: each input's live documents, in order, after the previous inputs'.
  // An input without deletions needs no table: slot + base is its new slot (a first collect's
  // merge of 10^6 documents kept 4 MB of tables that said only that).
  const remaps: (Int32Array | null)[] = [];
  const bases = new Int32Array(inputs.length);
  let live = 0;
  for (const [k, { segment, deleted }] of inputs.entries()) {
    bases[k] = live;
    if (deleted === null) {
      remaps.push(null);
      live += segment.docCount;
      continue;
    }
    const remap = new Int32Array(segment.docCount);
    for (let s = 0; s < segment.docCount; s++) remap[s] = isDeleted(deleted, s) ? -1 : live++;
    remaps.push(remap);
  }
  let first = -1;
  let last = -1;
  // The live documents' rows (or ids: `width` bytes each, section at `at`), block by block,
  // read into one buffer and compacted in place: a buffer per block (two, with the compacted
  // copy) was 120 MB of garbage for a merge of 10^6 documents, freed only when the collector
  // next ran, and little else allocates on the heap meanwhile to make it run.
  function* liveBlocks(width: number, at: (segment: Segment) => number): Generator<Uint8Array> {
    const buffer = new Uint8Array(MERGE_BLOCK_DOCS * width);
    for (const [k, { segment }] of inputs.entries()) {
      const remap = remaps[k] ?? null;
      for (let from = 0; from < segment.docCount; from += MERGE_BLOCK_DOCS) {
        const count = Math.min(MERGE_BLOCK_DOCS, segment.docCount - from);
        const block = buffer.subarray(0, count * width);
        segment.readInto(at(segment) + from * width, block);
        let kept = 0;
        for (let i = 0; i < count; i++) {
          if (remap !== null && remap[from + i]! < 0) continue;
          // Moving down only: a kept document's bytes go at or before where they were.
          if (kept !== i) block.copyWithin(kept * width, i * width, (i + 1) * width);
          kept++;
        }
        if (kept > 0) yield block.subarray(0, kept * width);
      }
    }
  }
  const docs: DocBlocks = {
    count: live,
    *rows() {
      for (const block of liveBlocks(DOC_ROW_BYTES, () => SEGMENT_HEADER_BYTES)) {
        const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
        if (first < 0) first = view.getFloat64(0, true);
        last = view.getFloat64(block.length - DOC_ROW_BYTES, true);
        yield block;
      }
    },
    ids: () => liveBlocks(ID_BYTES, (segment) => segment.header.ids),
  };
  const maxTerms = inputs.reduce((n, i) => n + i.segment.header.termCount, 0);
  const writer = new SegmentFileWriter(path, analysis, docs, maxTerms);
  try {
    const streams = inputs.map((i) => i.segment.streamEntries());
    const readers = inputs.map((i) => i.segment.postingsReader());
    const heads: (StreamedEntry | null)[] = streams.map((s) => s.next().value ?? null);
    let docs = new Int32Array(1024);
    let tfs = new Int32Array(1024);
    for (;;) {
      let min = -1;
      for (let k = 0; k < heads.length; k++) {
        const h = heads[k];
        if (!h) continue;
        if (min < 0 || compareTerms(h.hash, h.term, heads[min]!.hash, heads[min]!.term) < 0) min = k;
      }
      if (min < 0) break;
      const term = heads[min]!.term;
      const hash = heads[min]!.hash;
      // Room for every posting of the term at once, in arrays no larger than the next power of two.
      let needed = 0;
      for (const h of heads) if (holdsTerm(h, hash, term)) needed += h.entry.df;
      if (docs.length < needed) {
        docs = new Int32Array(2 ** Math.ceil(Math.log2(needed)));
        tfs = new Int32Array(docs.length);
      }
      let count = 0;
      // Inputs in row-id order: appending their new slots keeps the list ascending.
      for (let k = 0; k < heads.length; k++) {
        const h = heads[k] ?? null;
        if (!holdsTerm(h, hash, term)) continue;
        const e = h.entry;
        const segment = inputs[k]!.segment;
        // Decoded in place after the postings so far, then renumbered (and the deleted dropped)
        // in place: the write position never passes the read position.
        decodeSlots(
          readers[k]!.take(segment.header.postings + e.offset, e.bytes),
          e.df,
          docs.subarray(count),
          tfs.subarray(count),
        );
        const remap = remaps[k] ?? null;
        const from = count;
        for (let i = from; i < from + e.df; i++) {
          const to = remap === null ? docs[i]! + bases[k]! : remap[docs[i]!]!;
          if (to < 0) continue;
          docs[count] = to;
          tfs[count] = tfs[i]!;
          count++;
        }
        heads[k] = streams[k]!.next().value ?? null;
      }
      if (count > 0) writer.addTerm(term, hash, docs.subarray(0, count), tfs.subarray(0, count));
    }
  } catch (err) {
    writer.abort();
    throw err;
  }
  return await writer.finish(first, last);
}
