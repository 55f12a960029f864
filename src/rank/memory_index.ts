/**
 * An in-memory inverted index over records, implementing `Corpus` (bm25.ts). Built in one pass;
 * the on-disk index can be written from it (`vocabulary()`, `postings()`, `docLength()`, `meta()`)
 * and read back to give the same scores.
 */

import type { VerdictRecord } from "../collect/record.ts";
import {
  columnsOf,
  type Corpus,
  type DocColumns,
  type DocMeta,
  EMPTY_POSTING_LIST,
  metaFromColumns,
  type Posting,
  type PostingList,
} from "./bm25.ts";
import { deriveCjkWords } from "./cjk_words.ts";
import { markerStrength } from "./markers.ts";
import { tokenize } from "./tokenize.ts";

export interface MemoryIndexOptions {
  /**
   * The corpus-derived CJK words to index beside the bigrams. Absent: derived from the records'
   * own texts (deriveCjkWords). An empty set: bigrams only.
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

export class MemoryIndex implements Corpus {
  readonly docCount: number;
  readonly avgDocLength: number;
  /** The CJK words the documents were indexed with (the query side asks `isCjkWord`). */
  readonly cjkWords: ReadonlySet<string>;
  readonly #postings: Map<string, PostingList>;
  readonly #columns: DocColumns;
  readonly #ids: readonly string[];

  private constructor(
    postings: Map<string, PostingList>,
    lengths: readonly number[],
    metas: readonly DocMeta[],
    cjkWords: ReadonlySet<string>,
  ) {
    this.#postings = postings;
    this.#columns = columnsOf(lengths, metas);
    this.#ids = metas.map((m) => m.id);
    this.cjkWords = cjkWords;
    this.docCount = lengths.length;
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
    const lists = new Map<string, { docs: number[]; tfs: number[] }>();
    const lengths: number[] = [];
    docs.forEach((terms, doc) => {
      lengths.push(terms.length);
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        const list = lists.get(term);
        // Docs arrive in ascending order, so lists stay sorted.
        if (list === undefined) lists.set(term, { docs: [doc], tfs: [n] });
        else {
          list.docs.push(doc);
          list.tfs.push(n);
        }
      }
    });
    const postings = new Map<string, PostingList>();
    for (const [term, l] of lists) {
      postings.set(term, { docs: Int32Array.from(l.docs), tfs: Int32Array.from(l.tfs) });
    }
    return new MemoryIndex(postings, lengths, metas, cjkWords);
  }

  docFreq(term: string): number {
    return this.#postings.get(term)?.docs.length ?? 0;
  }

  postingList(term: string): PostingList {
    return this.#postings.get(term) ?? EMPTY_POSTING_LIST;
  }

  postings(term: string): readonly Posting[] {
    const list = this.postingList(term);
    return Array.from(list.docs, (doc, i) => ({ doc, tf: list.tfs[i]! }));
  }

  columns(): DocColumns {
    return this.#columns;
  }

  #check(doc: number): void {
    if (!(doc >= 0 && doc < this.docCount)) {
      throw new RangeError(`Cannot read document ${doc}: the index has ${this.docCount}`);
    }
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
    return [...this.#postings.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

/**
 * Indexes records in the order given (document i = records[i]). CJK words are derived from the
 * records unless `options.cjkWords` is passed.
 */
export function buildMemoryIndex(
  records: readonly VerdictRecord[],
  options: MemoryIndexOptions = {},
): MemoryIndex {
  const words = options.cjkWords ?? deriveCjkWords(records.map((r) => r.text));
  const lexicon = words.size > 0 ? words : undefined;
  return MemoryIndex.fromTokens(
    records.map((r) => tokenize(r.text, lexicon)),
    records.map(docMetaOf),
    words,
  );
}
