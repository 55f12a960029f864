/**
 * BM25 over an abstract corpus. The in-memory index (memory_index.ts) and the on-disk index both
 * implement `Corpus`; scoring goes through `bm25Rank` for both, so equal corpora give equal scores
 * bit for bit (same formula, same summation order).
 *
 * score(d, q) = Σ_t qtf(t) · idf(t) · tf(t,d)·(k1 + 1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 * idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))   (never negative, unlike Robertson's original)
 *
 * |d| is the exact document length in terms (no lossy length norms), qtf is counted linearly.
 */

import type { RecordKind } from "../collect/record.ts";
import type { MarkerStrength } from "./markers.ts";

/** Term-frequency saturation: the standard value; the IR check (bench/eval_ir.ts) is measured with it. */
export const BM25_K1 = 1.2;
/** Length normalisation: the standard value; prompts vary from a word to pages, so full-ish normalisation. */
export const BM25_B = 0.75;

/** One document's count of one term. Posting lists are sorted by `doc`, ascending. */
export interface Posting {
  readonly doc: number;
  readonly tf: number;
}

/** The per-record facts the weights need, fixed at index-build time. */
export interface DocMeta {
  /** The record id (VerdictRecord.id). */
  readonly id: string;
  readonly kind: RecordKind;
  /** The record's time as epoch milliseconds (0 when unparseable). */
  readonly timeMs: number;
  readonly project: string;
  readonly session: string | null;
  /** The strongest non-negated decision marker in the text (markers.ts), found at build time. */
  readonly marker: MarkerStrength | null;
}

/**
 * What ranking reads from an index. Documents are numbered 0 … docCount − 1.
 * `avgDocLength` must be Σ docLength / docCount computed in float64, so that every implementation
 * scores identically.
 */
export interface Corpus {
  readonly docCount: number;
  readonly avgDocLength: number;
  /** Number of documents holding `term` (0 when it is not in the vocabulary). */
  docFreq(term: string): number;
  /** The documents holding `term`, sorted by doc ascending (empty when absent). */
  postings(term: string): readonly Posting[];
  /** The number of terms (with repeats) the document was indexed with. */
  docLength(doc: number): number;
  meta(doc: number): DocMeta;
  /**
   * Whether `word` is one of the corpus-derived CJK words the documents were indexed with
   * (cjk_words.ts). The query is tokenized with this lookup, so both sides emit the same words.
   */
  isCjkWord(word: string): boolean;
}

/** A search term with its query-term frequency. */
export interface QueryTerm {
  readonly term: string;
  readonly qtf: number;
}

/** One scored document: its BM25 score and which query terms (indices into the term list) it holds. */
export interface Bm25Match {
  readonly doc: number;
  readonly bm25: number;
  readonly matched: readonly number[];
}

/** BM25's idf for a term held by `df` of `docCount` documents. */
export function bm25Idf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/**
 * Scores every document that holds at least one of `terms`. Terms are added in the order given,
 * so pass them in a fixed order (the caller's rarest-first order) for reproducible float sums.
 * The result is in ascending doc order; ranking is the caller's (ties need its rules).
 */
export function bm25Rank(corpus: Corpus, terms: readonly QueryTerm[]): Bm25Match[] {
  const n = corpus.docCount;
  const avgdl = corpus.avgDocLength > 0 ? corpus.avgDocLength : 1;
  const scores = new Map<number, { bm25: number; matched: number[] }>();
  terms.forEach((t, ti) => {
    const df = corpus.docFreq(t.term);
    if (df === 0 || t.qtf <= 0) return;
    const weight = t.qtf * bm25Idf(n, df);
    for (const p of corpus.postings(t.term)) {
      const norm = BM25_K1 * (1 - BM25_B + BM25_B * corpus.docLength(p.doc) / avgdl);
      const s = weight * (p.tf * (BM25_K1 + 1)) / (p.tf + norm);
      const acc = scores.get(p.doc);
      if (acc === undefined) scores.set(p.doc, { bm25: s, matched: [ti] });
      else {
        acc.bm25 += s;
        acc.matched.push(ti);
      }
    }
  });
  const out: Bm25Match[] = [];
  for (const [doc, acc] of scores) out.push({ doc, bm25: acc.bm25, matched: acc.matched });
  out.sort((a, b) => a.doc - b.doc);
  return out;
}
