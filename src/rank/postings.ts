/**
 * Posting lists and the machinery that finds documents in them fast: the list types, skip tables
 * for long lists, dense bitmaps for lists that hold a large share of their range, the searches
 * that advance together through a list (findInList, findInDense), and reusable scratch arrays.
 * Pure data structures: the formula that scores what is found is ./bm25.ts.
 */

/** One document's count of one term. Posting lists are sorted by `doc`, ascending. */
export interface Posting {
  readonly doc: number;
  readonly tf: number;
}

/**
 * Part of a term's documents: doc = base + docs[i], with tfs[i]. `deleted` (a bitmap by docs[i],
 * bit set: not live) is null when the part holds only live documents.
 */
export interface PostingPart {
  readonly docs: Int32Array;
  readonly tfs: Int32Array;
  readonly base: number;
  readonly deleted: Uint8Array | null;
  /**
   * True when docs and tfs are views of a buffer the index reuses (asked for as transient):
   * valid until the caller asks for another term's parts, never to be kept (nor given a skip
   * table, skipsOf, which is kept by the list).
   */
  readonly transient?: boolean;
}

/** Is slot `slot` marked in the bitmap (a deleted document)? */
export function isMarked(bitmap: Uint8Array, slot: number): boolean {
  return (bitmap[slot >> 3]! & (1 << (slot & 7))) !== 0;
}

/** A posting list as parallel arrays, sorted by doc ascending. */
export interface PostingList {
  readonly docs: Int32Array;
  readonly tfs: Int32Array;
}

export const EMPTY_POSTING_LIST: PostingList = { docs: new Int32Array(0), tfs: new Int32Array(0) };

/**
 * A long list's skip table holds every SKIP_BLOCK-th document: a look-up searches the table (a
 * few KiB, which stays in the processor's cache across a query's candidates), then one block of
 * the list (a few cache lines), instead of jumping across the whole list. A common word's list
 * of 10⁵ documents is 400 KB: a plain binary search there misses the cache at most of its 17
 * steps, and the lookups of common words were most of a hint's ranking time.
 */
export const SKIP_BLOCK = 64;
/** Lists shorter than this are searched directly: they fit in the cache as they are. */
const SKIP_MIN_LENGTH = 4096;

/** Skip tables by the list they index: lists are immutable and kept by their index between queries. */
const SKIPS = new WeakMap<Int32Array, Int32Array>();

/** The skip table of a sorted doc list (made on first use), or null for a short list. */
export function skipsOf(docs: Int32Array): Int32Array | null {
  if (docs.length < SKIP_MIN_LENGTH) return null;
  let skips = SKIPS.get(docs);
  if (skips === undefined) {
    skips = new Int32Array(Math.ceil(docs.length / SKIP_BLOCK));
    for (let b = 0; b < skips.length; b++) skips[b] = docs[b * SKIP_BLOCK]!;
    SKIPS.set(docs, skips);
  }
  return skips;
}

/**
 * A list holding at least this share of the documents in its range gets a DenseIndex: its bitmap
 * and counts (a quarter byte per document in the range) then take no more memory than the list's
 * own documents (4 bytes a posting).
 */
export const DENSE_MIN_SHARE = 1 / 16;

/**
 * A long, dense list's documents as a bitmap over its range, with the number of documents before
 * each 32-bit word: a candidate's place in the list is two reads and a bit count, where the
 * skip table's search is a dozen dependent reads. The common words the hint looks candidates up
 * in (the, and, use…) are in a large share of the documents; those look-ups were the largest
 * part of a prompt's ranking after the reads from disk.
 */
export interface DenseIndex {
  /** The list's first document (bit 0). */
  readonly first: number;
  /** Documents in the range: last − first + 1. */
  readonly range: number;
  /** Bit i of word w set: first + 32·w + i is in the list. */
  readonly bits: Int32Array;
  /** Documents of the list before word w. */
  readonly before: Int32Array;
}

/** Dense indexes by the list they index (kept with it, as skip tables are); null: not dense. */
const DENSE = new WeakMap<Int32Array, DenseIndex | null>();

/** The dense index of a sorted, duplicate-free doc list (made on first use), or null. */
export function denseOf(docs: Int32Array): DenseIndex | null {
  if (docs.length < SKIP_MIN_LENGTH) return null;
  let dense = DENSE.get(docs);
  if (dense === undefined) {
    const first = docs[0]!;
    const range = docs[docs.length - 1]! - first + 1;
    dense = null;
    if (docs.length >= DENSE_MIN_SHARE * range) {
      const words = (range + 31) >>> 5;
      const bits = new Int32Array(words);
      const before = new Int32Array(words);
      // One pass in list order: a posting in a later word than the last one's starts the words
      // up to its own, each with the documents before it (the list is sorted).
      let filled = 0;
      for (let i = 0; i < docs.length; i++) {
        const rel = docs[i]! - first;
        const w = rel >>> 5;
        while (filled <= w) before[filled++] = i;
        bits[w] = bits[w]! | (1 << (rel & 31));
      }
      dense = { first, range, bits, before };
    }
    DENSE.set(docs, dense);
  }
  return dense;
}

/** Set bits of a 32-bit integer. */
function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * As findInList, through the list's dense index: the positions in the list of docs[0 … count)
 * (each less `base`), −1 for those it does not hold (an array valid until the next call of
 * either function).
 */
export function findInDense(dense: DenseIndex, docs: Int32Array, count: number, base: number): Int32Array {
  const at = FOUND_AT.take(count).subarray(0, count);
  const { first, range, bits, before } = dense;
  for (let k = 0; k < count; k++) {
    const rel = docs[k]! - base - first;
    at[k] = -1;
    if (rel < 0 || rel >= range) continue;
    const word = bits[rel >>> 5]!;
    const bit = 1 << (rel & 31);
    if ((word & bit) === 0) continue;
    // The documents before it in its word: the bits below its own.
    at[k] = before[rel >>> 5]! + popcount32(word & (bit - 1));
  }
  return at;
}

/**
 * A typed array reused from call to call, grown when asked for more: a search makes a few dozen
 * small arrays, and a fresh one costs a backing store allocated and later swept (about a
 * microsecond each beyond 64 bytes), more than the work done in it.
 */
export class ScratchArray<T extends Int32Array | Float64Array | Uint8Array> {
  #array: T;
  constructor(readonly make: (length: number) => T) {
    this.#array = make(64);
  }
  /** An array of at least `length` elements, its contents left from earlier use. */
  take(length: number): T {
    if (this.#array.length < length) this.#array = this.make(Math.max(length, 2 * this.#array.length));
    return this.#array;
  }
}

/** findInList's arrays: its answer (valid until its next call), the documents in range, their places. */
const FOUND_AT = new ScratchArray((n) => new Int32Array(n));
const FIND_WHICH = new ScratchArray((n) => new Int32Array(n));
const FIND_PLACE = new ScratchArray((n) => new Int32Array(n));

/**
 * The positions in the sorted list `list` of the documents docs[0 … count) (each less `base`,
 * the list's first document number), −1 for those it does not hold (an array valid until the
 * next call). The searches advance together, a step of each in turn: every step of one search
 * waits for the read before it, but the searches are independent, so the processor overlaps
 * their reads. A common word's list is too large to stay in the cache, and one search at a time
 * waits for each of its misses.
 * Through the skip table (skipsOf) when the list has one: first each document's block, then
 * its place in the block.
 */
export function findInList(
  list: Int32Array,
  skips: Int32Array | null,
  docs: Int32Array,
  count: number,
  base: number,
): Int32Array {
  const at = FOUND_AT.take(count).fill(-1, 0, count).subarray(0, count);
  const n = list.length;
  if (n === 0) return at;
  // Only the documents within the list's range are searched: in an archive of several
  // segments, most candidates are in another segment's part of the numbering.
  const first = list[0]! + base;
  const last = list[n - 1]! + base;
  const which = FIND_WHICH.take(count);
  let m = 0;
  for (let k = 0; k < count; k++) {
    const doc = docs[k]!;
    if (doc >= first && doc <= last) which[m++] = k;
  }
  if (m === 0) return at;
  const place = FIND_PLACE.take(m);
  if (skips === null) floorsTogether(list, list.length, docs, which, m, base, place);
  else {
    floorsTogether(skips, skips.length, docs, which, m, base, place);
    // Each block's start, then the place within the block: the uniform search over SKIP_BLOCK
    // places (the last block's missing places count as above every document).
    for (let j = 0; j < m; j++) place[j] = place[j]! * SKIP_BLOCK;
    for (let half = SKIP_BLOCK >> 1; half >= 1; half >>= 1) {
      for (let j = 0; j < m; j++) {
        const i = place[j]! + half;
        if (i < n && list[i]! <= docs[which[j]!]! - base) place[j] = i;
      }
    }
  }
  for (let j = 0; j < m; j++) {
    const k = which[j]!;
    if (list[place[j]!] === docs[k]! - base) at[k] = place[j]!;
  }
  return at;
}

/**
 * For each j < count, the last place i in the sorted `values` (of `size`) with values[i] ≤
 * docs[which[j]] − base, into out[j]: the uniform binary search (the answer stays in
 * [out[j], out[j] + len); each step halves len), the searches in step. Every document asked is
 * at least values[0] + base.
 */
function floorsTogether(
  values: Int32Array,
  size: number,
  docs: Int32Array,
  which: Int32Array,
  count: number,
  base: number,
  out: Int32Array,
): void {
  out.fill(0, 0, count);
  for (let len = size; len > 1;) {
    const half = len >> 1;
    for (let j = 0; j < count; j++) {
      const i = out[j]! + half;
      if (values[i]! <= docs[which[j]!]! - base) out[j] = i;
    }
    len -= half;
  }
}

/** Position of `doc` in a sorted doc list, or -1 (binary search). */
export function indexOfDoc(docs: Int32Array, doc: number): number {
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = docs[mid]!;
    if (d === doc) return mid;
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export function holdsDoc(docs: Int32Array, doc: number): boolean {
  return indexOfDoc(docs, doc) >= 0;
}
