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
 *
 * Memory: counting every 1…4-gram of a large corpus at once takes hundreds of MB (the 4-grams
 * are nearly as many as the characters). A word recurs in CJK_WORD_MIN_DF records, and so does
 * every piece of it; so grams are counted level by level, one pass over the texts per length, and
 * a gram longer than CJK_WORD_MIN_LENGTH is counted only when both of its (length − 1)-pieces
 * recur. Every count a word's cohesion needs is still exact (its pieces recur too, or are short
 * enough to be counted whole), so the words are exactly those the one-pass count gives (a test
 * compares them); memory is bounded by the distinct short grams and the recurring longer ones.
 */

import { CJK_WORD_MAX_LENGTH, CJK_WORD_MIN_LENGTH, cjkRunTexts } from "./tokenize.ts";

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

/**
 * Shannon entropy (nats) of a neighbour distribution; `edges` neighbours are each distinct. Counts
 * are summed in sorted order so the float result does not depend on the order texts came in.
 */
function entropy(neighbours: Map<number, number> | undefined, edges: number): number {
  const counts = neighbours === undefined ? [] : [...neighbours.values()].sort((a, b) => a - b);
  let total = edges;
  for (const c of counts) total += c;
  if (total === 0) return 0;
  let h = edges * (1 / total) * Math.log(total);
  for (const c of counts) h -= (c / total) * Math.log(c / total);
  return h;
}

/**
 * The grams of one length, in an open-addressing hash table keyed by (prefix gram id at the
 * previous length, last code point): extending a gram by a character is one integer probe, and
 * no string is built until a gram is a word candidate. Ids start at 1; 0 means absent.
 */
class GramLevel {
  prefix = new Int32Array(1024);
  last = new Int32Array(1024);
  count = new Float64Array(1024);
  df = new Int32Array(1024);
  lastDoc = new Int32Array(1024).fill(-1);
  size = 0;
  /** Slots holding gram ids (0: empty); a power of two, at most half full. */
  #slots = new Int32Array(2048);

  #slotOf(prefix: number, cp: number): number {
    let h = Math.imul(prefix, 0x9e3779b1) ^ Math.imul(cp, 0x85ebca6b);
    h ^= h >>> 15;
    const mask = this.#slots.length - 1;
    for (let slot = h & mask;; slot = (slot + 1) & mask) {
      const g = this.#slots[slot] as number;
      if (g === 0 || (this.prefix[g] === prefix && this.last[g] === cp)) return slot;
    }
  }

  find(prefix: number, cp: number): number {
    return this.#slots[this.#slotOf(prefix, cp)] as number;
  }

  add(prefix: number, cp: number): number {
    const slot = this.#slotOf(prefix, cp);
    const found = this.#slots[slot] as number;
    if (found !== 0) return found;
    const g = ++this.size;
    if (g >= this.prefix.length) this.#grow();
    this.prefix[g] = prefix;
    this.last[g] = cp;
    this.#slots[slot] = g;
    if (2 * g > this.#slots.length) this.#rehash();
    return g;
  }

  /** Counts an occurrence of gram `g` in record `doc`, and the record once when `inDf`. */
  occur(g: number, doc: number, inDf: boolean): void {
    this.count[g] = (this.count[g] as number) + 1;
    if (inDf && this.lastDoc[g] !== doc) {
      this.lastDoc[g] = doc;
      this.df[g] = (this.df[g] as number) + 1;
    }
  }

  #grow(): void {
    const grow = <T extends Int32Array | Float64Array>(a: T, fill = 0): T => {
      const next = new (a.constructor as { new (n: number): T })(a.length * 2);
      next.set(a);
      if (fill !== 0) next.fill(fill, a.length);
      return next;
    };
    this.prefix = grow(this.prefix);
    this.last = grow(this.last);
    this.count = grow(this.count);
    this.df = grow(this.df);
    this.lastDoc = grow(this.lastDoc, -1);
  }

  #rehash(): void {
    this.#slots = new Int32Array(this.#slots.length * 2);
    for (let g = 1; g <= this.size; g++) {
      this.#slots[this.#slotOf(this.prefix[g] as number, this.last[g] as number)] = g;
    }
  }
}

/** Texts that can be read more than once: an array, or a function giving a fresh pass each call. */
export type TextPasses = readonly string[] | (() => Iterable<string>);

/** Calls `each` with every CJK run's code points (reused buffer, length n) and its record number. */
function forEachRun(
  passes: TextPasses,
  each: (cps: Int32Array, n: number, doc: number) => void,
): void {
  let cps = new Int32Array(256);
  let doc = 0;
  for (const text of typeof passes === "function" ? passes() : passes) {
    const runs = cjkRunTexts(text);
    if (runs.length === 0) continue;
    for (const run of runs) {
      if (run.length > cps.length) cps = new Int32Array(run.length * 2);
      let n = 0;
      for (let i = 0; i < run.length;) {
        const cp = run.codePointAt(i) as number;
        cps[n++] = cp;
        i += cp > 0xffff ? 2 : 1;
      }
      each(cps, n, doc);
    }
    doc++;
  }
}

/**
 * The words of `texts` (in any order: the result does not depend on it), as a set of
 * NFKC-normalised strings of CJK_WORD_MIN_LENGTH…CJK_WORD_MAX_LENGTH characters. The texts are
 * read once per gram length and once more (pass a function to stream them, e.g. from a database).
 */
export function deriveCjkWords(
  texts: TextPasses | Iterable<string>,
  options: CjkWordOptions = {},
): Set<string> {
  const minDf = options.minDf ?? CJK_WORD_MIN_DF;
  const minCohesion = options.minCohesion ?? CJK_WORD_MIN_COHESION;
  const minFreedom = options.minFreedom ?? CJK_WORD_MIN_FREEDOM;
  const minLength = options.minLength ?? CJK_WORD_MIN_LENGTH;
  const maxLength = options.maxLength ?? CJK_WORD_MAX_LENGTH;
  const passes: TextPasses = typeof texts === "function" || Array.isArray(texts)
    ? texts as TextPasses
    : [...texts];

  // levels[len] holds the grams of that length (levels[0] unused).
  const levels: GramLevel[] = Array.from({ length: maxLength + 1 }, () => new GramLevel());
  const recurs = (len: number, g: number) => g !== 0 && levels[len]!.df[g]! >= minDf;
  // Lengths up to minLength: every gram, in one pass (the shorter ones have no df to prune by).
  const full = Math.min(minLength, maxLength);
  let total = 0;
  forEachRun(passes, (cps, n, doc) => {
    total += n;
    for (let i = 0; i < n; i++) {
      let g = 0;
      for (let len = 1; len <= full && i + len <= n; len++) {
        g = levels[len]!.add(g, cps[i + len - 1]!);
        levels[len]!.occur(g, doc, len >= minLength);
      }
    }
  });
  // Longer lengths: a gram whose prefix and suffix (one shorter) both recur.
  let chain = new Int32Array(256);
  for (let len = Math.max(full + 1, 2); len <= maxLength; len++) {
    if (len - 1 < minLength) continue;
    forEachRun(passes, (cps, n, doc) => {
      if (n < len) return;
      if (chain.length < n) chain = new Int32Array(n * 2);
      // chain[i]: the (len − 1)-gram starting at i, or 0 when it does not recur.
      for (let i = 0; i + len - 1 <= n; i++) {
        let g = 0;
        for (let k = 1; k < len && g !== undefined; k++) {
          g = levels[k]!.find(g, cps[i + k - 1]!);
          if (g === 0) break;
        }
        chain[i] = recurs(len - 1, g) ? g : 0;
      }
      const level = levels[len]!;
      for (let i = 0; i + len <= n; i++) {
        const p = chain[i]!;
        if (p === 0 || chain[i + 1] === 0) continue;
        level.occur(level.add(p, cps[i + len - 1]!), doc, true);
      }
    });
  }

  // Candidates: recurring and cohesive.
  const candidates = new Map<number, { len: number; g: number; word: string }>();
  const key = (len: number, g: number) => g * 8 + len;
  for (let len = Math.max(1, minLength); len <= maxLength; len++) {
    const level = levels[len]!;
    for (let g = 1; g <= level.size; g++) {
      if (level.df[g]! < minDf) continue;
      const cps: number[] = [];
      for (let k = len, x = g; k >= 1; k--) {
        cps.push(levels[k]!.last[x]!);
        x = levels[k]!.prefix[x]!;
      }
      cps.reverse();
      const cw = level.count[g]!;
      let cohesion = Infinity;
      for (let cut = 1; cut < len; cut++) {
        let prefix = g;
        for (let k = len; k > cut; k--) prefix = levels[k]!.prefix[prefix]!;
        let suffix = 0;
        for (let k = cut; k < len; k++) suffix = levels[k - cut + 1]!.find(suffix, cps[k]!);
        const a = levels[cut]!.count[prefix]!;
        const b = levels[len - cut]!.count[suffix]!;
        cohesion = Math.min(cohesion, Math.log(cw * total / (a * b)));
      }
      if (cohesion >= minCohesion) {
        candidates.set(key(len, g), { len, g, word: String.fromCodePoint(...cps) });
      }
    }
  }
  if (candidates.size === 0) return new Set();

  // The neighbours of each candidate, left and right, by code point; run edges counted apart.
  const onPath = levels.map((l) => new Uint8Array(l.size + 1));
  for (const { len, g } of candidates.values()) {
    for (let k = len, x = g; k >= 1 && onPath[k]![x] === 0; k--) {
      onPath[k]![x] = 1;
      x = levels[k]!.prefix[x]!;
    }
  }
  const left = new Map<number, Map<number, number>>();
  const right = new Map<number, Map<number, number>>();
  const leftEdges = new Map<number, number>();
  const rightEdges = new Map<number, number>();
  const bump = <K>(map: Map<K, number>, k: K) => map.set(k, (map.get(k) ?? 0) + 1);
  const side = (sides: Map<number, Map<number, number>>, k: number, cp: number) => {
    let m = sides.get(k);
    if (m === undefined) sides.set(k, m = new Map());
    bump(m, cp);
  };
  forEachRun(passes, (cps, n) => {
    for (let i = 0; i < n; i++) {
      let g = 0;
      for (let len = 1; len <= maxLength && i + len <= n; len++) {
        g = levels[len]!.find(g, cps[i + len - 1]!);
        if (g === 0 || onPath[len]![g] === 0) break;
        const k = key(len, g);
        if (len < minLength || !candidates.has(k)) continue;
        if (i === 0) bump(leftEdges, k);
        else side(left, k, cps[i - 1]!);
        if (i + len === n) bump(rightEdges, k);
        else side(right, k, cps[i + len]!);
      }
    }
  });

  const words = new Set<string>();
  const sorted = [...candidates].map(([k, c]) => ({ k, word: c.word }))
    .sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  for (const { k, word } of sorted) {
    const freedom = Math.min(
      entropy(left.get(k), leftEdges.get(k) ?? 0),
      entropy(right.get(k), rightEdges.get(k) ?? 0),
    );
    if (freedom >= minFreedom) words.add(word);
  }
  return words;
}
