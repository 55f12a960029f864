/**
 * The archive's index as ranking reads it: a list of immutable segments (segment.ts), each with
 * the documents deleted from it since it was written, seen as one `Corpus`.
 *
 * Statistics are combined at query time, exactly: a term's df is the sum of its segments' dfs
 * less the deleted documents holding it (each segment keeps that count per term), N and the
 * total length are the live ones the store keeps. So a search over the segments gives the same
 * result, bit for bit, as a search over one index built from the live records (tests prove it).
 *
 * Documents are numbered segment after segment (slot + the segment's base). Columns are filled
 * lazily: a rare word's postings carry their documents' facts, so a hint reads no column at
 * all; a caller that walks a common word's whole list gets that segment's columns loaded whole.
 */
import {
  checkDoc,
  type ConversationBounds,
  type Corpus,
  type DocColumns,
  type DocMeta,
  metaFromColumns,
  type NameTable,
} from "./bm25.ts";
import {
  EMPTY_POSTING_LIST,
  isMarked,
  type Posting,
  type PostingList,
  type PostingPart,
} from "./postings.ts";
import { decodedListBytes, DOC_ROW_BYTES, type Segment, type SegmentList } from "./segment.ts";
import { type CjkLexicon, CjkStartFilter } from "./tokenize.ts";

/** One segment as the manifest describes it now. */
export interface SegmentView {
  readonly segment: Segment;
  /** Deleted slots (bit set) or null when none. */
  readonly deleted: Uint8Array | null;
  /** Per term, how many of the deleted documents hold it (read on first use). */
  readonly deletedTerms: () => ReadonlyMap<string, number>;
}

export interface SegmentedIndexInput {
  readonly segments: readonly SegmentView[];
  readonly liveDocs: number;
  readonly liveLength: number;
  /** The corpus-derived CJK words every live document was indexed with (read on first use). */
  readonly lexicon: () => ReadonlySet<string>;
  readonly projectNames: NameTable;
  readonly sessionNames: NameTable;
}

/** Slots whose columns were filled, by document number. */
class FillMap {
  readonly bits: Uint8Array;
  constructor(slots: number) {
    this.bits = new Uint8Array((slots + 7) >> 3);
  }
  has(doc: number): boolean {
    return (this.bits[doc >> 3]! & (1 << (doc & 7))) !== 0;
  }
  set(doc: number): void {
    this.bits[doc >> 3] = this.bits[doc >> 3]! | (1 << (doc & 7));
  }
}

/**
 * Terms whose merged posting lists are remembered: a prompt asks for a few dozen, a server for
 * many over its life (the lists themselves are bounded by the segments' own cache).
 */
const MAX_REMEMBERED_LISTS = 256;

/**
 * A list holding at least this share of a segment's documents has the segment's whole document
 * table loaded (one sequential read, ~70 ns a row here); a shorter one has only its rows read,
 * each read costing a few µs: about the break-even point.
 */
const WHOLE_TABLE_MIN_SHARE = 1 / 64;
/**
 * The scoring loop (bm25.ts) reads a term's lists and keeps nothing of them: the first time a
 * word is asked for so, its lists are read (a long one) or unpacked (a short one) into one
 * buffer the index reuses instead of fresh arrays it keeps. Most words come once in a process's life (a prompt's rare words),
 * and a fresh array of tens of KiB costs twice the read (allocated, zeroed, its pages faulted
 * in: 32 KiB measured 4.9 µs into a kept buffer, 11.6 µs into a fresh one; the median bench
 * prompt reads three lists of 40 KiB in all). From the second time on the lists are kept, as a
 * word asked for again (the, and, to) is likely asked for in every prompt. Up to this many bytes
 * a term (a longer one is kept at once).
 */
const PROBE_BUFFER_MAX_BYTES = 4 * 1024 * 1024;
/** Terms remembered as probed once (a bound on what a long-running process keeps). */
const MAX_PROBED_TERMS = 100_000;

/** Rows this close together (4 KiB of them) are read in one read. */
const ROWS_PER_READ = 4096 / DOC_ROW_BYTES;

export class SegmentedIndex implements Corpus {
  readonly docCount: number;
  readonly docSlots: number;
  readonly avgDocLength: number;
  readonly #segments: readonly SegmentView[];
  readonly #bases: Int32Array;
  readonly #input: SegmentedIndexInput;
  #columns?: DocColumns;
  #filled?: FillMap;
  readonly #fullyLoaded: Uint8Array;
  #lexicon?: CjkLexicon;
  readonly #postingLists = new Map<string, PostingList>();
  /** Terms asked for as transient before (their lists are kept from the second time on). */
  readonly #probed = new Set<string>();
  #probeBuffer = new ArrayBuffer(0);

  constructor(input: SegmentedIndexInput) {
    this.#input = input;
    this.#segments = input.segments;
    this.#bases = new Int32Array(input.segments.length + 1);
    input.segments.forEach((s, i) => this.#bases[i + 1] = this.#bases[i]! + s.segment.docCount);
    this.docSlots = this.#bases[input.segments.length]!;
    this.docCount = input.liveDocs;
    this.avgDocLength = input.liveDocs === 0 ? 0 : input.liveLength / input.liveDocs;
    this.#fullyLoaded = new Uint8Array(input.segments.length);
  }

  get segmentCount(): number {
    return this.#segments.length;
  }

  close(): void {
    for (const s of this.#segments) s.segment.close();
  }

  /** The segment holding document `doc`, and its slot there. */
  locate(doc: number): { index: number; slot: number } {
    checkDoc(doc, this.docSlots);
    let lo = 0;
    let hi = this.#segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#bases[mid]! <= doc) lo = mid;
      else hi = mid - 1;
    }
    return { index: lo, slot: doc - this.#bases[lo]! };
  }

  docFreq(term: string): number {
    let df = 0;
    for (const s of this.#segments) {
      const e = s.segment.entry(term);
      if (!e) continue;
      df += e.df;
      if (s.deleted) df -= s.deletedTerms().get(term) ?? 0;
    }
    return df;
  }

  /**
   * From each segment's count of the term's conversations (deleted documents included). Upper:
   * their sum, since deleting can only lose conversations and one spanning several segments is
   * counted in each. Lower: the best single segment less its deleted documents holding the
   * term, since deleting a document loses at most the one conversation it is in. Both are
   * exact bounds, so a caller that decides only when they settle it decides as an exact count
   * would (no segment layout or deletion can change a hint).
   */
  conversationBounds(term: string): ConversationBounds {
    let lower = 0;
    let upper = 0;
    for (const s of this.#segments) {
      const e = s.segment.entry(term);
      if (!e) continue;
      upper += e.conversations;
      const lost = s.deleted ? s.deletedTerms().get(term) ?? 0 : 0;
      lower = Math.max(lower, e.conversations - lost);
    }
    return { lower, upper };
  }

  columns(): DocColumns {
    if (!this.#columns) {
      const n = this.docSlots;
      this.#columns = {
        lengths: new Uint32Array(n),
        times: new Float64Array(n),
        flags: new Uint8Array(n),
        projects: new Uint32Array(n),
        sessions: new Uint32Array(n),
        projectNames: this.#input.projectNames,
        sessionNames: this.#input.sessionNames,
      };
      this.#filled = new FillMap(n);
    }
    return this.#columns;
  }

  /** Loads segment `index`'s columns whole (once). */
  #loadSegment(index: number): void {
    if (this.#fullyLoaded[index]) return;
    const cols = this.columns();
    const filled = this.#filled!;
    const seg = this.#segments[index]!.segment;
    const base = this.#bases[index]!;
    const BLOCK = 16384;
    for (let from = 0; from < seg.docCount; from += BLOCK) {
      const count = Math.min(BLOCK, seg.docCount - from);
      const bytes = seg.docRows(from, count);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let i = 0; i < count; i++) {
        const doc = base + from + i;
        fillColumns(cols, doc, view, i * DOC_ROW_BYTES);
        filled.set(doc);
      }
    }
    this.#fullyLoaded[index] = 1;
  }

  /**
   * Fills the columns of segment `index`'s documents at `slots` (ascending): the whole table when
   * they are a large share of it, else only their rows, neighbours read together. A start term
   * of a few hundred documents in a segment of 10⁶ thus reads a few hundred rows, not 32 MB.
   */
  #loadDocs(index: number, slots: Int32Array): void {
    if (this.#fullyLoaded[index]) return;
    const seg = this.#segments[index]!.segment;
    if (slots.length >= WHOLE_TABLE_MIN_SHARE * seg.docCount) return this.#loadSegment(index);
    const cols = this.columns();
    const filled = this.#filled!;
    const base = this.#bases[index]!;
    for (let i = 0; i < slots.length;) {
      // Rows filled already (by an earlier prompt to a helper that keeps this index, or by this
      // prompt's other words) are not read again: a common word's list was re-read row group by
      // row group at every prompt, half of a repeated prompt's time at 10^6 records.
      if (filled.has(base + slots[i]!)) {
        i++;
        continue;
      }
      // One read for the rows from slots[i] up to the last unfilled slot within ROWS_PER_READ of it.
      const first = slots[i]!;
      let last = first;
      let j = i + 1;
      for (; j < slots.length && slots[j]! - first < ROWS_PER_READ; j++) {
        if (!filled.has(base + slots[j]!)) last = slots[j]!;
      }
      const bytes = seg.docRows(first, last - first + 1);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (; i < j; i++) {
        const doc = base + slots[i]!;
        if (filled.has(doc)) continue;
        fillColumns(cols, doc, view, (slots[i]! - first) * DOC_ROW_BYTES);
        filled.set(doc);
      }
    }
  }

  /** Makes sure document `doc`'s columns are filled (one row read when they are not). */
  #ensureDoc(doc: number): void {
    const cols = this.columns();
    if (this.#filled!.has(doc)) return;
    const { index, slot } = this.locate(doc);
    const row = this.#segments[index]!.segment.docRow(slot);
    cols.times[doc] = row.timeMs;
    cols.lengths[doc] = row.length;
    cols.projects[doc] = row.project;
    cols.sessions[doc] = row.session;
    cols.flags[doc] = row.flags;
    this.#filled!.set(doc);
  }

  postingParts(term: string, candidatesOnly: boolean, transient = false): readonly PostingPart[] {
    const parts: PostingPart[] = [];
    // A word asked for the first time by a caller that keeps nothing: its long lists are read
    // into the reused buffer, not kept (see PROBE_BUFFER_MAX_BYTES).
    const probe = transient && this.#firstProbe(term);
    let probeAt = 0;
    for (let k = 0; k < this.#segments.length; k++) {
      const view = this.#segments[k]!;
      const seg = view.segment;
      const base = this.#bases[k]!;
      if (probe && !seg.inMemory && seg.keptList(term) === null) {
        const e = seg.entry(term);
        if (!e) continue;
        const bytes = decodedListBytes(e);
        if (probeAt + bytes <= PROBE_BUFFER_MAX_BYTES) {
          const list = seg.listInto(e, this.#probeBytes(probeAt, bytes));
          probeAt += (bytes + 7) & ~7;
          this.#columnsOf(k, list, candidatesOnly);
          parts.push({ docs: list.docs, tfs: list.tfs, base, deleted: view.deleted, transient: true });
          continue;
        }
      }
      const list = seg.list(term);
      if (!list) continue;
      this.#columnsOf(k, list, candidatesOnly);
      parts.push({ docs: list.docs, tfs: list.tfs, base, deleted: view.deleted });
    }
    return parts;
  }

  /**
   * Fills the columns of segment `index`'s documents in `list`: from the facts a short list
   * carries, or (unless candidatesOnly) from their rows.
   */
  #columnsOf(index: number, list: SegmentList, candidatesOnly: boolean): void {
    if (list.facts === null) {
      if (!candidatesOnly) this.#loadDocs(index, list.docs);
      return;
    }
    const cols = this.columns();
    const filled = this.#filled!;
    const base = this.#bases[index]!;
    const f = list.facts;
    for (let i = 0; i < list.docs.length; i++) {
      const doc = base + list.docs[i]!;
      if (filled.has(doc)) continue;
      cols.lengths[doc] = f.lengths[i]!;
      cols.times[doc] = f.times[i]!;
      cols.flags[doc] = f.flags[i]!;
      cols.projects[doc] = f.projects[i]!;
      cols.sessions[doc] = f.sessions[i]!;
      filled.set(doc);
    }
  }

  /** Whether this is the first time `term`'s parts are asked for as transient. */
  #firstProbe(term: string): boolean {
    if (this.#probed.has(term)) return false;
    if (this.#probed.size >= MAX_PROBED_TERMS) this.#probed.clear();
    this.#probed.add(term);
    return true;
  }

  /**
   * `length` bytes of the probe buffer from `at` (8-aligned). A larger buffer replaces a smaller
   * one; views of the old one (earlier parts of the same term) stay valid, as they hold it.
   */
  #probeBytes(at: number, length: number): Uint8Array {
    if (this.#probeBuffer.byteLength < at + length) {
      this.#probeBuffer = new ArrayBuffer(Math.max(at + length, 2 * this.#probeBuffer.byteLength));
      // What is before `at` belongs to parts already handed out, in the old buffer.
    }
    return new Uint8Array(this.#probeBuffer, at, length);
  }

  postingList(term: string): PostingList {
    const cached = this.#postingLists.get(term);
    if (cached !== undefined) return cached;
    // Not candidatesOnly: a caller may read the columns of any document returned here.
    const parts = this.postingParts(term, false);
    let list: PostingList;
    const only = parts.length === 1 ? parts[0]! : null;
    if (parts.length === 0) list = EMPTY_POSTING_LIST;
    else if (only !== null && only.base === 0 && only.deleted === null) {
      list = { docs: only.docs, tfs: only.tfs }; // the segment's own arrays, no copy
    } else {
      let total = 0;
      for (const part of parts) total += part.docs.length;
      const docs = new Int32Array(total);
      const tfs = new Int32Array(total);
      let n = 0;
      for (const part of parts) {
        for (let i = 0; i < part.docs.length; i++) {
          const slot = part.docs[i]!;
          if (part.deleted && isMarked(part.deleted, slot)) continue;
          docs[n] = part.base + slot;
          tfs[n++] = part.tfs[i]!;
        }
      }
      list = n === 0 ? EMPTY_POSTING_LIST : { docs: docs.subarray(0, n), tfs: tfs.subarray(0, n) };
    }
    // Asked again per candidate and per gate check: remembered, within a bound.
    if (this.#postingLists.size >= MAX_REMEMBERED_LISTS) this.#postingLists.clear();
    this.#postingLists.set(term, list);
    return list;
  }

  postings(term: string): readonly Posting[] {
    const list = this.postingList(term);
    return Array.from(list.docs, (doc, i) => ({ doc, tf: list.tfs[i]! }));
  }

  docLength(doc: number): number {
    this.#ensureDoc(doc);
    return this.#columns!.lengths[doc]!;
  }

  id(doc: number): string {
    const { index, slot } = this.locate(doc);
    return this.#segments[index]!.segment.id(slot);
  }

  /** The store's row id of document `doc` (where its record is kept). */
  rowid(doc: number): number {
    const { index, slot } = this.locate(doc);
    return this.#segments[index]!.segment.docRow(slot).rowid;
  }

  /** Is document `doc` live (not deleted since its segment was written)? */
  isLive(doc: number): boolean {
    const { index, slot } = this.locate(doc);
    const deleted = this.#segments[index]!.deleted;
    return deleted === null || !isMarked(deleted, slot);
  }

  meta(doc: number): DocMeta {
    this.#ensureDoc(doc);
    return metaFromColumns(this.#columns!, doc, () => this.id(doc));
  }

  isCjkWord(word: string): boolean {
    return this.cjkLexicon().has(word);
  }

  cjkLexicon(): CjkLexicon {
    if (this.#lexicon === undefined) {
      const words = this.#input.lexicon();
      const starts = new CjkStartFilter(words);
      this.#lexicon = {
        has: (word) => words.has(word),
        mayStartWord: (first, second) => starts.mayStartWord(first, second),
      };
    }
    return this.#lexicon;
  }
}

/**
 * Copies document `doc`'s ranking columns from the docs-table row at byte `at` of `view` (the
 * row layout of segment.ts; the store row id at `at` is not a ranking column). Both ways of
 * loading a segment's rows, the whole table and only some rows, decode through here.
 */
function fillColumns(cols: DocColumns, doc: number, view: DataView, at: number): void {
  cols.times[doc] = view.getFloat64(at + 8, true);
  cols.lengths[doc] = view.getUint32(at + 16, true);
  cols.projects[doc] = view.getUint32(at + 20, true);
  cols.sessions[doc] = view.getUint32(at + 24, true);
  cols.flags[doc] = view.getUint8(at + 28);
}
