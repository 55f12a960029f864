/**
 * The one-pass CJK word derivation as it was before src/rank/cjk_words.ts counted by levels (to
 * bound its memory): kept only as the oracle the new one must agree with, word for word.
 */
import { CJK_WORD_MAX_LENGTH, CJK_WORD_MIN_LENGTH, cjkRunTexts } from "../../src/rank/tokenize.ts";
import {
  CJK_WORD_MIN_COHESION,
  CJK_WORD_MIN_DF,
  CJK_WORD_MIN_FREEDOM,
  type CjkWordOptions,
} from "../../src/rank/cjk_words.ts";

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
 * The n-grams of the corpus's CJK runs, as a trie kept in one open-addressing hash table: gram
 * g·c is the key (id of g, code point c), the empty gram has id 0. Extending a gram by a character
 * is then one integer probe, and no string is built until a gram is a word candidate: counting
 * every 1…4-gram of a large corpus through string-keyed maps was most of the index build.
 */
class GramTable {
  /** Per gram id (from 1): its prefix gram, last code point, length, occurrences, records, last record seen. */
  prefix = new Int32Array(1024);
  last = new Int32Array(1024);
  length = new Int32Array(1024);
  count = new Float64Array(1024);
  df = new Int32Array(1024);
  lastDoc = new Int32Array(1024).fill(-1);
  size = 0;
  /** Hash slots holding gram ids (0: empty); a power of two, at most half full. */
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

  /** The id of gram `prefix`·`cp`, or 0 when it was never added. */
  find(prefix: number, cp: number): number {
    return this.#slots[this.#slotOf(prefix, cp)] as number;
  }

  /** The id of gram `prefix`·`cp`, added if new. */
  add(prefix: number, cp: number): number {
    const slot = this.#slotOf(prefix, cp);
    const found = this.#slots[slot] as number;
    if (found !== 0) return found;
    const g = ++this.size;
    if (g >= this.prefix.length) this.#growGrams();
    this.prefix[g] = prefix;
    this.last[g] = cp;
    this.length[g] = prefix === 0 ? 1 : (this.length[prefix] as number) + 1;
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

  /** The gram's code points, first to last. */
  codePoints(g: number): number[] {
    const cps: number[] = [];
    for (; g !== 0; g = this.prefix[g] as number) cps.push(this.last[g] as number);
    return cps.reverse();
  }

  #growGrams(): void {
    const grow = <T extends Int32Array | Float64Array>(a: T, fill = 0): T => {
      const next = new (a.constructor as { new (n: number): T })(a.length * 2);
      next.set(a);
      if (fill !== 0) next.fill(fill, a.length);
      return next;
    };
    this.prefix = grow(this.prefix);
    this.last = grow(this.last);
    this.length = grow(this.length);
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

/** The CJK runs of many texts as code points, kept for the second pass (the texts may be a one-shot iterable). */
class RunStore {
  cps = new Int32Array(1 << 16);
  used = 0;
  /** Code-point length of each run, in order. */
  readonly lengths: number[] = [];

  /** Appends `run`'s code points; returns its length in code points. */
  add(run: string): number {
    const start = this.used;
    for (let i = 0; i < run.length;) {
      const cp = run.codePointAt(i) as number;
      if (this.used === this.cps.length) {
        const next = new Int32Array(this.cps.length * 2);
        next.set(this.cps);
        this.cps = next;
      }
      this.cps[this.used++] = cp;
      i += cp > 0xffff ? 2 : 1;
    }
    this.lengths.push(this.used - start);
    return this.used - start;
  }
}

/**
 * The words of `texts` (in any order: the result does not depend on it), as a set of
 * NFKC-normalised strings of CJK_WORD_MIN_LENGTH…CJK_WORD_MAX_LENGTH characters.
 */
export function deriveCjkWordsReference(texts: Iterable<string>, options: CjkWordOptions = {}): Set<string> {
  const minDf = options.minDf ?? CJK_WORD_MIN_DF;
  const minCohesion = options.minCohesion ?? CJK_WORD_MIN_COHESION;
  const minFreedom = options.minFreedom ?? CJK_WORD_MIN_FREEDOM;
  const minLength = options.minLength ?? CJK_WORD_MIN_LENGTH;
  const maxLength = options.maxLength ?? CJK_WORD_MAX_LENGTH;

  // Pass 1: occurrence counts of every 1…4-gram, and the number of records holding each 2…4-gram.
  const grams = new GramTable();
  const runs = new RunStore();
  let total = 0;
  let doc = 0;
  for (const text of texts) {
    const runTexts = cjkRunTexts(text);
    if (runTexts.length === 0) continue;
    for (const run of runTexts) {
      const start = runs.used;
      const n = runs.add(run);
      total += n;
      for (let i = 0; i < n; i++) {
        let g = 0;
        for (let len = 1; len <= maxLength && i + len <= n; len++) {
          g = grams.add(g, runs.cps[start + i + len - 1] as number);
          grams.occur(g, doc, len >= minLength);
        }
      }
    }
    doc++;
  }

  const candidates = cohesiveGrams(grams, total, minDf, minCohesion, minLength);
  if (candidates.size === 0) return new Set();
  const { left, right, leftEdges, rightEdges } = neighbours(grams, runs, candidates, minLength, maxLength);

  const words = new Set<string>();
  const sorted = [...candidates].map(([g, word]) => ({ g, word }))
    .sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  for (const { g, word } of sorted) {
    const freedom = Math.min(
      entropy(left.get(g), leftEdges.get(g) ?? 0),
      entropy(right.get(g), rightEdges.get(g) ?? 0),
    );
    if (freedom >= minFreedom) words.add(word);
  }
  return words;
}

/** The recurring and cohesive grams (see the module comment), as gram id → string. */
function cohesiveGrams(
  grams: GramTable,
  total: number,
  minDf: number,
  minCohesion: number,
  minLength: number,
): Map<number, string> {
  const candidates = new Map<number, string>();
  for (let g = 1; g <= grams.size; g++) {
    if ((grams.length[g] as number) < minLength || (grams.df[g] as number) < minDf) continue;
    const cps = grams.codePoints(g);
    const cw = grams.count[g] as number;
    let cohesion = Infinity;
    for (let cut = 1; cut < cps.length; cut++) {
      let prefix = g;
      for (let k = cps.length; k > cut; k--) prefix = grams.prefix[prefix] as number;
      let suffix = 0;
      for (let k = cut; k < cps.length; k++) suffix = grams.find(suffix, cps[k] as number);
      const a = grams.count[prefix] as number;
      const b = grams.count[suffix] as number;
      cohesion = Math.min(cohesion, Math.log(cw * total / (a * b)));
    }
    if (cohesion >= minCohesion) candidates.set(g, String.fromCodePoint(...cps));
  }
  return candidates;
}

/** Pass 2: the neighbours of each candidate, left and right, by code point; run edges counted apart. */
function neighbours(
  grams: GramTable,
  runs: RunStore,
  candidates: ReadonlyMap<number, string>,
  minLength: number,
  maxLength: number,
) {
  const left = new Map<number, Map<number, number>>();
  const right = new Map<number, Map<number, number>>();
  const leftEdges = new Map<number, number>();
  const rightEdges = new Map<number, number>();
  const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  const side = (sides: Map<number, Map<number, number>>, g: number, cp: number) => {
    let m = sides.get(g);
    if (m === undefined) sides.set(g, m = new Map());
    bump(m, cp);
  };
  // Flags per gram id: candidates, and the grams on their way (their prefixes). A gram that is
  // neither ends the walk from its start position, which is most of them after one character.
  const isCandidate = new Uint8Array(grams.size + 1);
  const onPath = new Uint8Array(grams.size + 1);
  for (const g of candidates.keys()) {
    isCandidate[g] = 1;
    for (let p = g; p !== 0 && onPath[p] === 0; p = grams.prefix[p] as number) onPath[p] = 1;
  }
  const cps = runs.cps;
  let start = 0;
  for (const n of runs.lengths) {
    for (let i = 0; i < n; i++) {
      let g = 0;
      for (let len = 1; len <= maxLength && i + len <= n; len++) {
        g = grams.find(g, cps[start + i + len - 1] as number);
        if (onPath[g] === 0) break;
        if (len < minLength || isCandidate[g] === 0) continue;
        if (i === 0) bump(leftEdges, g);
        else side(left, g, cps[start + i - 1] as number);
        if (i + len === n) bump(rightEdges, g);
        else side(right, g, cps[start + i + len] as number);
      }
    }
    start += n;
  }
  return { left, right, leftEdges, rightEdges };
}
