/**
 * An in-memory inverted index over records, implementing `Corpus` (bm25.ts). Built in one pass;
 * the on-disk index can be written from it (`vocabulary()`, `postings()`, `docLength()`, `meta()`)
 * and read back to give the same scores.
 */

import type { VerdictRecord } from "../collect/record.ts";
import type { Corpus, DocMeta, Posting } from "./bm25.ts";
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

const EMPTY: readonly Posting[] = Object.freeze([]);

export class MemoryIndex implements Corpus {
  readonly docCount: number;
  readonly avgDocLength: number;
  /** The CJK words the documents were indexed with (the query side asks `isCjkWord`). */
  readonly cjkWords: ReadonlySet<string>;
  readonly #postings: Map<string, Posting[]>;
  readonly #lengths: readonly number[];
  readonly #metas: readonly DocMeta[];

  private constructor(
    postings: Map<string, Posting[]>,
    lengths: readonly number[],
    metas: readonly DocMeta[],
    cjkWords: ReadonlySet<string>,
  ) {
    this.#postings = postings;
    this.#lengths = lengths;
    this.#metas = metas;
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
    const postings = new Map<string, Posting[]>();
    const lengths: number[] = [];
    docs.forEach((terms, doc) => {
      lengths.push(terms.length);
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        const list = postings.get(term);
        if (list === undefined) postings.set(term, [{ doc, tf: n }]);
        else list.push({ doc, tf: n }); // docs arrive in ascending order, so lists stay sorted
      }
    });
    return new MemoryIndex(postings, lengths, metas, cjkWords);
  }

  docFreq(term: string): number {
    return this.#postings.get(term)?.length ?? 0;
  }

  postings(term: string): readonly Posting[] {
    return this.#postings.get(term) ?? EMPTY;
  }

  docLength(doc: number): number {
    const l = this.#lengths[doc];
    if (l === undefined) throw new RangeError(`Cannot read document ${doc}: the index has ${this.docCount}`);
    return l;
  }

  meta(doc: number): DocMeta {
    const m = this.#metas[doc];
    if (m === undefined) throw new RangeError(`Cannot read document ${doc}: the index has ${this.docCount}`);
    return m;
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
