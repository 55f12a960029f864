/**
 * An in-memory inverted index over records, implementing `Corpus` (bm25.ts). Built in one pass;
 * the on-disk index can be written from it (`vocabulary()`, `postings()`, `docLength()`, `meta()`)
 * and read back to give the same scores.
 */

import type { VerdictRecord } from "../collect/record.ts";
import {
  checkDoc,
  columnsOf,
  type Corpus,
  type DocColumns,
  type DocMeta,
  EMPTY_POSTING_LIST,
  metaFromColumns,
  type Posting,
  type PostingList,
  type PostingPart,
} from "./bm25.ts";
import { basisRecords, deriveLexicon } from "./analysis.ts";
import { markerStrength } from "./markers.ts";
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
export interface FlatPostings {
  readonly termIds: ReadonlyMap<string, number>;
  readonly offsets: Int32Array;
  readonly docs: Int32Array;
  readonly tfs: Int32Array;
  readonly lengths: readonly number[];
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
}

/**
 * Collects documents into posting lists. Each term gets a dense id from one Map; a document's
 * postings go to flat typed arrays as (term id, tf) in order of first occurrence, and `finish`
 * scatters them by term. No array per term, no map per document, and a caller can drop each
 * document's terms as soon as they are added (a large build never holds every token at once).
 * `reset` empties it for the next batch and keeps its arrays.
 */
export class PostingsBuilder {
  readonly #termIds = new Map<string, number>();
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
    this.#lastDoc.fill(-1, 0, this.#termIds.size);
    this.#termIds.clear();
    this.#lengths = [];
    this.#postCount = 0;
    this.#docCount = 0;
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
    let id = this.#termIds.get(term);
    if (id === undefined) {
      id = this.#termIds.size;
      this.#termIds.set(term, id);
      this.#lastDoc = grown(this.#lastDoc, id + 1, -1);
      this.#lastPosting = grown(this.#lastPosting, id + 1);
    }
    return id;
  }

  /**
   * The posting lists; a counting sort by term id, stable, so each list stays in document order.
   * With `scratch`, they are views into its arrays (valid until its next use); else fresh arrays.
   */
  finish(scratch?: PostingsScratch): FlatPostings {
    const termCount = this.#termIds.size;
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
    return { termIds: this.#termIds, offsets, docs, tfs, lengths: this.#lengths };
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
