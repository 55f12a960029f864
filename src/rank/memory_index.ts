/**
 * An in-memory inverted index over records, implementing `Corpus` (bm25.ts). Built in one pass;
 * the on-disk index can be written from it (`vocabulary()`, `postings()`, `docLength()`, `meta()`)
 * and read back to give the same scores.
 */

import type { VerdictRecord } from "../record/record.ts";
import { checkDoc, columnsOf, type Corpus, type DocColumns, type DocMeta, metaFromColumns } from "./bm25.ts";
import { EMPTY_POSTING_LIST, type Posting, type PostingList, type PostingPart } from "./postings.ts";
import { basisRecords, deriveLexicon } from "./analysis.ts";
import { markerStrength } from "./markers.ts";
import { releaseBuffer } from "./byte_io.ts";
import { type CjkLexicon, CjkWordSet, tokenize } from "./tokenize.ts";

export interface MemoryIndexOptions {
  /**
   * The corpus-derived CJK words to index beside the bigrams. Absent: derived from the records'
   * basis (analysis.ts). An empty set: bigrams only.
   */
  readonly cjkWords?: ReadonlySet<string>;
}

/** The weight-relevant facts of a record, as ranking reads them. */
export function docMetaOf(record: VerdictRecord): DocMeta {
  const ms = Date.parse(record.time);
  return {
    id: record.id,
    kind: record.kind,
    timeMs: Number.isFinite(ms) ? ms : 0,
    project: record.project,
    session: record.session,
    marker: markerStrength(record.text),
  };
}

/**
 * Posting lists in three flat arrays: term i's documents are docs[offsets[i] … offsets[i + 1]),
 * ascending, with their term frequencies at the same places in `tfs`.
 */
export interface TermPostings {
  /** Terms by id (ids count from 0 in order of first occurrence); the first `termCount` count. */
  readonly terms: readonly string[];
  readonly termCount: number;
  readonly offsets: Int32Array;
  readonly docs: Int32Array;
  readonly tfs: Int32Array;
  readonly lengths: readonly number[];
}

/** TermPostings with a map from term to id, for looking terms up. */
export interface FlatPostings extends TermPostings {
  readonly termIds: ReadonlyMap<string, number>;
}

/** Doubles a typed array's capacity until it holds `needed` elements. */
function grown(a: Int32Array, needed: number, fill = 0): Int32Array {
  if (needed <= a.length) return a;
  let size = Math.max(1, a.length) * 2;
  while (size < needed) size *= 2;
  const next = new Int32Array(size);
  next.set(a);
  if (fill !== 0) next.fill(fill, a.length);
  return next;
}

/**
 * Where `PostingsBuilder.finish` may scatter its lists: arrays grown as needed and kept, so a
 * builder that writes segment after segment allocates them once, not once per segment (each of
 * a first collect's 50 segments of 10^6 records allocated 10 MB of them afresh, garbage the
 * collector freed late).
 */
export class PostingsScratch {
  offsets: Int32Array = new Int32Array(0);
  next: Int32Array = new Int32Array(0);
  docs: Int32Array = new Int32Array(0);
  tfs: Int32Array = new Int32Array(0);

  /** Gives the arrays' memory back at once (see releaseBuffer); they grow again when used. */
  release(): void {
    for (const a of [this.offsets, this.next, this.docs, this.tfs]) releaseBuffer(a.buffer);
    this.offsets =
      this.next =
      this.docs =
      this.tfs =
        new Int32Array(0);
  }
}

/**
 * Collects documents into posting lists. Each term gets a dense id from one Map; a document's
 * postings go to flat typed arrays as (term id, tf) in order of first occurrence, and `finish`
 * scatters them by term. No array per term, no map per document, and a caller can drop each
 * document's terms as soon as they are added (a large build never holds every token at once).
 * `reset` empties it for the next batch and keeps its arrays.
 */
export class PostingsBuilder {
  /**
   * Term ids by an open-addressing table over typed arrays (slot: id + 1, 0 empty; at most half
   * full), terms by id in a plain array. Not a Map: a segment's map of 64,000 terms grew its table
   * by copies and was dropped whole at the segment's end, all of it old enough by then to fill
   * the old generation (a first collect of 10^6 records writes 50 segments); these arrays are
   * kept from one batch to the next.
   */
  #slots: Int32Array = new Int32Array(1 << 12);
  #slotHashes: Int32Array = new Int32Array(1 << 12);
  readonly #terms: string[] = [];
  #termCount = 0;
  #lengths: number[] = [];
  /** The postings in document order, and where each document's postings begin (plus the end). */
  #postTerm: Int32Array = new Int32Array(1 << 16);
  #postTf: Int32Array = new Int32Array(1 << 16);
  #postCount = 0;
  #docStarts: Int32Array = new Int32Array(1 << 12);
  #docCount = 0;
  /** Per term id: the last document it occurred in, and that posting's index. */
  #lastDoc: Int32Array = new Int32Array(1 << 12).fill(-1);
  #lastPosting: Int32Array = new Int32Array(1 << 12);

  /** Documents added since the last reset. */
  get size(): number {
    return this.#docCount;
  }

  /** Forgets every document and term; the arrays stay for the next batch. */
  reset(): void {
    // A stale "last document" would merge a posting of the next batch's document of that number.
    this.#lastDoc.fill(-1, 0, this.#termCount);
    this.#slots.fill(0);
    this.#termCount = 0;
    this.#lengths = [];
    this.#postCount = 0;
    this.#docCount = 0;
  }

  /** Resets, and gives the arrays' memory back at once (see releaseBuffer). */
  release(): void {
    this.reset();
    const arrays = [this.#slots, this.#slotHashes, this.#postTerm, this.#postTf, this.#docStarts];
    for (const a of [...arrays, this.#lastDoc, this.#lastPosting]) releaseBuffer(a.buffer);
    this.#slots = new Int32Array(1 << 12);
    this.#slotHashes = new Int32Array(1 << 12);
    this.#postTerm = new Int32Array(1 << 16);
    this.#postTf = new Int32Array(1 << 16);
    this.#docStarts = new Int32Array(1 << 12);
    this.#lastDoc = new Int32Array(1 << 12).fill(-1);
    this.#lastPosting = new Int32Array(1 << 12);
    this.#terms.length = 0;
  }

  add(terms: readonly string[]): void {
    const doc = this.#docCount++;
    this.#lengths.push(terms.length);
    for (const term of terms) {
      const id = this.#idOf(term);
      if (this.#lastDoc[id] === doc) {
        const p = this.#lastPosting[id] as number;
        this.#postTf[p] = (this.#postTf[p] as number) + 1;
        continue;
      }
      const p = this.#postCount++;
      if (p === this.#postTerm.length) {
        this.#postTerm = grown(this.#postTerm, p + 1);
        this.#postTf = grown(this.#postTf, p + 1);
      }
      this.#postTerm[p] = id;
      this.#postTf[p] = 1;
      this.#lastDoc[id] = doc;
      this.#lastPosting[id] = p;
    }
    this.#docStarts = grown(this.#docStarts, doc + 2);
    this.#docStarts[doc + 1] = this.#postCount;
  }

  #idOf(term: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
    const mask = this.#slots.length - 1;
    let s = h & mask;
    for (;; s = (s + 1) & mask) {
      const e = this.#slots[s] as number;
      if (e === 0) break;
      if (this.#slotHashes[s] === h && this.#terms[e - 1] === term) return e - 1;
    }
    const id = this.#termCount++;
    this.#terms[id] = term;
    this.#slots[s] = id + 1;
    this.#slotHashes[s] = h;
    this.#lastDoc = grown(this.#lastDoc, id + 1, -1);
    this.#lastPosting = grown(this.#lastPosting, id + 1);
    if (2 * this.#termCount > this.#slots.length) this.#rehash(this.#slots.length * 2);
    return id;
  }

  #rehash(size: number): void {
    const oldSlots = this.#slots;
    const oldHashes = this.#slotHashes;
    this.#slots = new Int32Array(size);
    this.#slotHashes = new Int32Array(size);
    const mask = size - 1;
    for (let o = 0; o < oldSlots.length; o++) {
      const e = oldSlots[o] as number;
      if (e === 0) continue;
      const h = oldHashes[o] as number;
      let s = h & mask;
      while (this.#slots[s] !== 0) s = (s + 1) & mask;
      this.#slots[s] = e;
      this.#slotHashes[s] = h;
    }
  }

  /** The posting lists, in fresh arrays, with a map from term to id. */
  finish(): FlatPostings {
    const flat = this.#scatter();
    const termIds = new Map<string, number>();
    for (let id = 0; id < flat.termCount; id++) termIds.set(flat.terms[id]!, id);
    return { ...flat, terms: flat.terms.slice(0, flat.termCount), termIds };
  }

  /** The posting lists as views into `scratch`'s arrays (valid until its next use); terms until the next reset. */
  finishInto(scratch: PostingsScratch): TermPostings {
    return this.#scatter(scratch);
  }

  /** A counting sort by term id, stable, so each list stays in document order. */
  #scatter(scratch?: PostingsScratch): TermPostings {
    const termCount = this.#termCount;
    const total = this.#postCount;
    let offsets: Int32Array;
    let next: Int32Array;
    let docs: Int32Array;
    let tfs: Int32Array;
    if (scratch) {
      scratch.offsets = grown(scratch.offsets, termCount + 1);
      scratch.next = grown(scratch.next, termCount);
      scratch.docs = grown(scratch.docs, total);
      scratch.tfs = grown(scratch.tfs, total);
      offsets = scratch.offsets.subarray(0, termCount + 1).fill(0);
      next = scratch.next.subarray(0, termCount);
      docs = scratch.docs.subarray(0, total);
      tfs = scratch.tfs.subarray(0, total);
    } else {
      offsets = new Int32Array(termCount + 1);
      next = new Int32Array(termCount);
      docs = new Int32Array(total);
      tfs = new Int32Array(total);
    }
    for (let p = 0; p < total; p++) {
      const slot = (this.#postTerm[p] as number) + 1;
      offsets[slot] = (offsets[slot] as number) + 1;
    }
    for (let i = 0; i < termCount; i++) offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
    next.set(offsets.subarray(0, termCount));
    for (let doc = 0; doc < this.#docCount; doc++) {
      const end = this.#docStarts[doc + 1] as number;
      for (let p = this.#docStarts[doc] as number; p < end; p++) {
        const id = this.#postTerm[p] as number;
        const at = next[id] as number;
        next[id] = at + 1;
        docs[at] = doc;
        tfs[at] = this.#postTf[p] as number;
      }
    }
    return { terms: this.#terms, termCount, offsets, docs, tfs, lengths: this.#lengths };
  }
}

export class MemoryIndex implements Corpus {
  readonly docCount: number;
  readonly docSlots: number;
  readonly avgDocLength: number;
  /** The CJK words the documents were indexed with (the query side asks `isCjkWord`). */
  readonly cjkWords: ReadonlySet<string>;
  readonly #postings: FlatPostings;
  readonly #columns: DocColumns;
  readonly #ids: readonly string[];

  private constructor(postings: FlatPostings, metas: readonly DocMeta[], cjkWords: ReadonlySet<string>) {
    const lengths = postings.lengths;
    this.#postings = postings;
    this.#columns = columnsOf(lengths, metas);
    this.#ids = metas.map((m) => m.id);
    this.cjkWords = cjkWords;
    this.docCount = lengths.length;
    this.docSlots = lengths.length;
    let total = 0;
    for (const l of lengths) total += l;
    this.avgDocLength = lengths.length === 0 ? 0 : total / lengths.length;
  }

  /**
   * An index over already-tokenized documents: `docs[i]` are the terms of document i, `metas[i]`
   * its facts. The IR evaluation uses this with its own tokenisers; records go through `buildMemoryIndex`.
   */
  static fromTokens(
    docs: readonly (readonly string[])[],
    metas: readonly DocMeta[],
    cjkWords: ReadonlySet<string> = new Set(),
  ): MemoryIndex {
    if (docs.length !== metas.length) {
      throw new RangeError(`Cannot build index: ${docs.length} documents but ${metas.length} metas`);
    }
    const builder = new PostingsBuilder();
    for (const terms of docs) builder.add(terms);
    return new MemoryIndex(builder.finish(), metas, cjkWords);
  }

  /**
   * An index over records, tokenized with `lexicon` one at a time, so that their terms are never
   * all held at once (see PostingsBuilder); `buildMemoryIndex` is the usual way in.
   */
  static fromRecords(
    records: readonly VerdictRecord[],
    lexicon: CjkLexicon | undefined,
    cjkWords: ReadonlySet<string>,
  ): MemoryIndex {
    const builder = new PostingsBuilder();
    for (const r of records) builder.add(tokenize(r.text, lexicon));
    return new MemoryIndex(builder.finish(), records.map(docMetaOf), cjkWords);
  }

  docFreq(term: string): number {
    const id = this.#postings.termIds.get(term);
    if (id === undefined) return 0;
    return (this.#postings.offsets[id + 1] as number) - (this.#postings.offsets[id] as number);
  }

  /** Views into the shared arrays, made per call (cheap; the query path asks a few terms). */
  postingList(term: string): PostingList {
    const { termIds, offsets, docs, tfs } = this.#postings;
    const id = termIds.get(term);
    if (id === undefined) return EMPTY_POSTING_LIST;
    const start = offsets[id] as number;
    const end = offsets[id + 1] as number;
    return { docs: docs.subarray(start, end), tfs: tfs.subarray(start, end) };
  }

  postings(term: string): readonly Posting[] {
    const list = this.postingList(term);
    return Array.from(list.docs, (doc, i) => ({ doc, tf: list.tfs[i]! }));
  }

  postingParts(term: string): readonly PostingPart[] {
    const list = this.postingList(term);
    return list.docs.length === 0 ? [] : [{ docs: list.docs, tfs: list.tfs, base: 0, deleted: null }];
  }

  columns(): DocColumns {
    return this.#columns;
  }

  #check(doc: number): void {
    checkDoc(doc, this.docCount);
  }

  docLength(doc: number): number {
    this.#check(doc);
    return this.#columns.lengths[doc]!;
  }

  id(doc: number): string {
    this.#check(doc);
    return this.#ids[doc]!;
  }

  meta(doc: number): DocMeta {
    this.#check(doc);
    return metaFromColumns(this.#columns, doc, this.#ids[doc]!);
  }

  isCjkWord(word: string): boolean {
    return this.cjkWords.has(word);
  }

  /** Every term, sorted by UTF-16 code units (a stable order for writing an index to disk). */
  vocabulary(): string[] {
    return [...this.#postings.termIds.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

/**
 * Indexes records in the order given (document i = records[i]). CJK words are derived from the
 * records' basis (analysis.ts) unless `options.cjkWords` is passed: the same words an archive of
 * these records is indexed with, however it was collected.
 */
export function buildMemoryIndex(
  records: readonly VerdictRecord[],
  options: MemoryIndexOptions = {},
): MemoryIndex {
  const words = options.cjkWords ?? deriveLexicon(basisRecords(records).map((r) => r.text));
  const lexicon = words.size > 0 ? new CjkWordSet(words) : undefined;
  return MemoryIndex.fromRecords(records, lexicon, words);
}
