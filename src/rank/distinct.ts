/**
 * Ranked look-ups list distinct texts. A template or a decision sent again in several sessions is
 * archived once per send, and its copies score alike, so an uncollapsed top 3 is often one text
 * three times. Here the ranking is taken as the ranker returns it (never re-scored) and each text
 * is kept once, as its best-ranked copy, with how many copies the ranked matches held and the
 * first and last time one was made. "The same text" is the gate's definition (src/gate/
 * statements.ts `sameTextKey`: spacing, punctuation, case and numbers aside), so what the hint
 * treats as a resend, a look-up shows once.
 *
 * The ranker is asked for more matches than results (FETCH_PER_RESULT each), and again for twice
 * as many while the texts found do not fill the results and more matches exist, up to
 * MAX_RANKED_MATCHES. Copies are counted among the matches ranked: when every match was ranked
 * the count is exact (`complete`), else it is a lower bound.
 */
import type { Corpus } from "./bm25.ts";
import { search, type SearchHit, type SearchOptions, type SearchResult } from "./score.ts";

/** Matches ranked per result asked for: room for a few copies of each text without a second search. */
export const FETCH_PER_RESULT = 4;
/**
 * The most matches ranked for one look-up (the ranker's selection is O(matches × this)): 40 per
 * result at the largest top (50), enough for any resend count seen in the development histories.
 */
export const MAX_RANKED_MATCHES = 2000;

/** A text's copies among the ranked matches. */
export interface Copies {
  /** Copies among the matches ranked (1: the text was found once). */
  readonly count: number;
  /** The earliest and latest time of a copy (record times; equal when count is 1). */
  readonly first: string;
  readonly last: string;
  /** True when every match of the query was ranked, so `count` is every copy that matches. */
  readonly complete: boolean;
}

/** One distinct text: its best-ranked copy and its copies. */
export interface DistinctHit<T> {
  readonly best: T;
  readonly copies: Copies;
}

/**
 * Groups `ranked` (best first) by `keyOf`, in the order of each group's best copy; an item whose
 * key is null is left out (it may not be shown). `timeOf` is an ISO time: the earliest and latest
 * of a group are compared as instants, and as strings when equal or unparseable, so the result
 * depends only on the items and their order.
 */
export function collapseCopies<T>(
  ranked: readonly T[],
  keyOf: (item: T) => string | null,
  timeOf: (item: T) => string,
  complete: boolean,
): DistinctHit<T>[] {
  const groups = new Map<string, { best: T; count: number; first: string; last: string }>();
  for (const item of ranked) {
    const key = keyOf(item);
    if (key === null) continue;
    const time = timeOf(item);
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, { best: item, count: 1, first: time, last: time });
      continue;
    }
    group.count++;
    if (compareTimes(time, group.first) < 0) group.first = time;
    if (compareTimes(time, group.last) > 0) group.last = time;
  }
  return [...groups.values()].map((g) => ({
    best: g.best,
    copies: { count: g.count, first: g.first, last: g.last, complete },
  }));
}

/** Instants first (unparseable times sort before every parseable one), then the strings. */
function compareTimes(a: string, b: string): number {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  const na = Number.isNaN(ta);
  const nb = Number.isNaN(tb);
  if (na !== nb) return na ? -1 : 1;
  if (!na && ta !== tb) return ta - tb;
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface DistinctSearch {
  /** The last search run (terms, candidates; its hits are every match ranked, copies included). */
  readonly result: SearchResult;
  /** At most `top` distinct texts, best first. */
  readonly hits: readonly DistinctHit<SearchHit>[];
}

/** What a look-up knows of a ranked hit's record: its text key (`sameTextKey`) and its time. */
export interface CopyOf {
  readonly key: string;
  readonly time: string;
}

/**
 * The best `options.top` distinct texts for `query`: `search` asked for enough matches to fill
 * them (see the module comment). `copyOf` gives a hit's record key and time, or null to leave the
 * hit out (a quote that may not be shown); it is asked once per hit of each search, so a caller
 * that reads records may cache by `hit.doc`.
 */
export function searchDistinct(
  corpus: Corpus,
  query: string,
  options: SearchOptions & { readonly top: number },
  copyOf: (hit: SearchHit) => CopyOf | null,
): DistinctSearch {
  const top = options.top;
  let fetch = Math.min(MAX_RANKED_MATCHES, Math.max(top, top * FETCH_PER_RESULT));
  for (;;) {
    const result = search(corpus, query, { ...options, top: fetch });
    // Fewer than asked: the ranker ran out of matches, so every one of them is here.
    const complete = result.hits.length < fetch;
    const described = result.hits.flatMap((hit) => {
      const copy = copyOf(hit);
      return copy === null ? [] : [{ hit, ...copy }];
    });
    const hits = collapseCopies(described, (d) => d.key, (d) => d.time, complete)
      .map(({ best, copies }) => ({ best: best.hit, copies }));
    if (hits.length >= top || complete || fetch >= MAX_RANKED_MATCHES) {
      return { result, hits: hits.slice(0, top) };
    }
    fetch = Math.min(MAX_RANKED_MATCHES, fetch * 2);
  }
}
