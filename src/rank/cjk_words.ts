/**
 * CJK words derived from the corpus itself, with no dictionary: at index-build time, strings of
 * 2–4 characters that recur across records and behave like words become extra index terms
 * (tokenize.ts adds them beside the bigrams). Query time needs no statistics, only a lookup: a
 * substring of the prompt is a word exactly when the index says so (Corpus.isCjkWord, a flag on
 * the vocabulary entry). The index stores the set it was built with, so both sides always agree.
 *
 * A string w counts as a word when all three hold:
 * - it recurs: it occurs in at least CJK_WORD_MIN_DF records;
 * - it is cohesive: for every way of cutting it in two (w = a·b), w occurs far more often than
 *   a and b would meet by chance — min over cuts of ln(c(w)·T / (c(a)·c(b))) ≥ CJK_WORD_MIN_COHESION,
 *   T the number of CJK characters (pointwise mutual information of the two halves);
 * - it is free: the characters seen directly left of it, and those directly right, are varied —
 *   min(left entropy, right entropy) ≥ CJK_WORD_MIN_FREEDOM (each run edge counts as a distinct
 *   neighbour). A fragment of a longer word (据库迁 of 数据库迁移) always has the same neighbour.
 *
 * This is the "cohesion and freedom" method of new-word discovery in Chinese text mining.
 */

import { CJK_WORD_MAX_LENGTH, CJK_WORD_MIN_LENGTH, cjkRuns } from "./tokenize.ts";

/** A word must occur in this many records: a string seen once or twice says nothing about the corpus. */
export const CJK_WORD_MIN_DF = 3;
/** Least PMI (nats) across every cut: e^3 ≈ 20× more often than chance keeps phrase junctions such as 的数据 out. */
export const CJK_WORD_MIN_COHESION = 3;
/** Least neighbour entropy (nats) on either side: e^1.5 ≈ 4.5 equally likely neighbours or more. */
export const CJK_WORD_MIN_FREEDOM = 1.5;

/** Thresholds, for experiments; the defaults are the constants above. */
export interface CjkWordOptions {
  readonly minDf?: number;
  readonly minCohesion?: number;
  readonly minFreedom?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
}

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/**
 * Shannon entropy (nats) of a neighbour distribution; `edges` neighbours are each distinct. Counts
 * are summed in sorted order so the float result does not depend on the order texts came in.
 */
function entropy(neighbours: Map<string, number> | undefined, edges: number): number {
  const counts = neighbours === undefined ? [] : [...neighbours.values()].sort((a, b) => a - b);
  let total = edges;
  for (const c of counts) total += c;
  if (total === 0) return 0;
  let h = edges * (1 / total) * Math.log(total);
  for (const c of counts) h -= (c / total) * Math.log(c / total);
  return h;
}

/**
 * The words of `texts` (in any order: the result does not depend on it), as a set of
 * NFKC-normalised strings of CJK_WORD_MIN_LENGTH…CJK_WORD_MAX_LENGTH characters.
 */
export function deriveCjkWords(texts: Iterable<string>, options: CjkWordOptions = {}): Set<string> {
  const minDf = options.minDf ?? CJK_WORD_MIN_DF;
  const minCohesion = options.minCohesion ?? CJK_WORD_MIN_COHESION;
  const minFreedom = options.minFreedom ?? CJK_WORD_MIN_FREEDOM;
  const minLength = options.minLength ?? CJK_WORD_MIN_LENGTH;
  const maxLength = options.maxLength ?? CJK_WORD_MAX_LENGTH;

  // Pass 1: occurrence counts of every 1…4-gram, and the number of records holding each 3…4-gram.
  const docs: string[][][] = [];
  const count = new Map<string, number>();
  const df = new Map<string, number>();
  let total = 0;
  for (const text of texts) {
    const runs = cjkRuns(text);
    if (runs.length === 0) continue;
    docs.push(runs);
    const seen = new Set<string>();
    for (const run of runs) {
      total += run.length;
      for (let i = 0; i < run.length; i++) {
        let g = "";
        for (let len = 1; len <= maxLength && i + len <= run.length; len++) {
          g += run[i + len - 1] as string;
          bump(count, g);
          if (len >= minLength && !seen.has(g)) {
            seen.add(g);
            bump(df, g);
          }
        }
      }
    }
  }

  // Recurring and cohesive candidates.
  const candidates = new Set<string>();
  for (const [g, d] of df) {
    if (d < minDf) continue;
    const chars = [...g];
    const cw = count.get(g) as number;
    let cohesion = Infinity;
    for (let cut = 1; cut < chars.length; cut++) {
      const a = count.get(chars.slice(0, cut).join("")) as number;
      const b = count.get(chars.slice(cut).join("")) as number;
      cohesion = Math.min(cohesion, Math.log(cw * total / (a * b)));
    }
    if (cohesion >= minCohesion) candidates.add(g);
  }
  if (candidates.size === 0) return new Set();

  // Pass 2: the neighbours of each candidate, left and right.
  const left = new Map<string, Map<string, number>>();
  const right = new Map<string, Map<string, number>>();
  const leftEdges = new Map<string, number>();
  const rightEdges = new Map<string, number>();
  for (const runs of docs) {
    for (const run of runs) {
      for (let i = 0; i < run.length; i++) {
        let g = "";
        for (let len = 1; len <= maxLength && i + len <= run.length; len++) {
          g += run[i + len - 1] as string;
          if (len < minLength || !candidates.has(g)) continue;
          const before = run[i - 1];
          const after = run[i + len];
          if (before === undefined) bump(leftEdges, g);
          else {
            const m = left.get(g) ?? new Map<string, number>();
            bump(m, before);
            left.set(g, m);
          }
          if (after === undefined) bump(rightEdges, g);
          else {
            const m = right.get(g) ?? new Map<string, number>();
            bump(m, after);
            right.set(g, m);
          }
        }
      }
    }
  }

  const words = new Set<string>();
  for (const g of [...candidates].sort()) {
    const freedom = Math.min(
      entropy(left.get(g), leftEdges.get(g) ?? 0),
      entropy(right.get(g), rightEdges.get(g) ?? 0),
    );
    if (freedom >= minFreedom) words.add(g);
  }
  return words;
}
