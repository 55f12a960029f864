/**
 * The index terms of a text. One function serves both sides: records at index-build time and the
 * prompt at query time, so a term means the same thing on both.
 *
 * - Text is NFKC-normalised first (full-width Ａ１，→ A1,) and case-folded.
 * - Latin words: letter/digit runs, joined across inner apostrophes (which are dropped: don't →
 *   dont). A word of the letters a–z only is Porter-stemmed. camelCase words also yield their
 *   parts (getUserName → getusername, get, user, name).
 * - Identifiers: a run that holds `_`, or `-` `.` `:` between two word characters, is emitted whole
 *   and never stemmed (pg_dump, v2.3, gen-itgc, node:sqlite), followed by its parts, which are
 *   treated as words (pg, dump; gen, itgc; node, sqlite). So the exact identifier is the rarest,
 *   sharpest term, and a prompt that spells the parts apart still reaches it.
 * - CJK runs (Han, Hiragana, Katakana, Hangul) give overlapping character bigrams, a lone CJK
 *   character gives itself, and — when a lexicon of corpus-derived words is passed (cjk_words.ts) —
 *   every 2- to 4-character substring that the lexicon holds is added as one more term. Any CJK
 *   character ends a Latin run, so `重跑gen-itgc后` still yields `gen-itgc`.
 *
 * No Intl.Segmenter and no dictionary in the index terms: what is stored must not depend on ICU's
 * version (see cjk_words.ts). The prompt's origins (termOrigins) say which of its bigrams are ICU
 * words, which are seams between words, for the gate's counting of distinct things.
 */

import { porterStem } from "./stem.ts";

/** Whatever can say whether a CJK string is a corpus-derived word: the derived set, or an index (Corpus.isCjkWord). */
export interface CjkLexicon {
  has(word: string): boolean;
  /**
   * False when no word starts with the UTF-16 units `first` and `second` (true may be wrong, false
   * never is): the tokenizer then looks up none of the 2- to 4-character strings starting there,
   * and slices none. Absent: every candidate is looked up.
   */
  mayStartWord?(first: number, second: number): boolean;
}

/**
 * Bits of the filter of words' first two UTF-16 units (CjkStartFilter): 2^16 bits, 8 KiB. A
 * lexicon of a few thousand words sets a few percent of them, so nearly every bigram of a
 * prompt that starts no word is told so by one bit.
 */
const START_FILTER_BITS = 16;

/**
 * The words' first two UTF-16 units hashed into a bitmap: a look-up of a string whose first two
 * units hash to a clear bit can only miss. Built in one pass over the words (no string made), so
 * a process answering one prompt does not pay for more than it saves: the median bench prompt of
 * CJK looked up ~30 strings of which none was a word.
 */
export class CjkStartFilter {
  readonly #bits = new Uint8Array(1 << (START_FILTER_BITS - 3));

  constructor(words: Iterable<string>) {
    for (const w of words) {
      if (w.length < 2) continue;
      const h = startHash(w.charCodeAt(0), w.charCodeAt(1));
      this.#bits[h >> 3] = this.#bits[h >> 3]! | (1 << (h & 7));
    }
  }

  mayStartWord(first: number, second: number): boolean {
    const h = startHash(first, second);
    return (this.#bits[h >> 3]! & (1 << (h & 7))) !== 0;
  }
}

/** START_FILTER_BITS bits of two UTF-16 units (a multiplicative hash of the pair). */
function startHash(first: number, second: number): number {
  return Math.imul((first << 16) | second, 0x9e3779b1) >>> (32 - START_FILTER_BITS);
}

/**
 * A fixed set of CJK words as a lexicon that also knows which bigrams start a longer word, so
 * tokenize looks up a run's 3- and 4-character candidates only after such a bigram. The index
 * build tokenizes every record against the derived words, and most bigrams start none.
 */
export class CjkWordSet implements CjkLexicon {
  readonly #words: ReadonlySet<string>;
  readonly #longWordStarts = new Set<string>();

  constructor(words: Iterable<string>) {
    this.#words = new Set(words);
    for (const word of this.#words) {
      const chars = Array.from(word);
      if (chars.length > 2) this.#longWordStarts.add((chars[0] as string) + (chars[1] as string));
    }
  }

  has(word: string): boolean {
    return this.#words.has(word);
  }

  /** False when no word of three or more characters starts with `bigram` (two characters). */
  startsLongerWord(bigram: string): boolean {
    return this.#longWordStarts.has(bigram);
  }
}

/** Corpus-derived CJK words are this long at least: most Chinese words have two characters. */
export const CJK_WORD_MIN_LENGTH = 2;
/** …and at most this long: longer strings are phrases, and each extra length multiplies the candidates. */
export const CJK_WORD_MAX_LENGTH = 4;
/** Identifiers and words longer than this (UTF-16 units) are not terms: base64 blobs and the like only bloat the vocabulary. */
export const MAX_TERM_LENGTH = 64;

/** Character classes of the scanner. */
const enum C {
  Other = 0,
  Word = 1, // a letter, digit or combining mark outside the CJK scripts
  Underscore = 2, // part of an identifier anywhere in it (__init__, _private)
  Joiner = 3, // - . : joins two word characters into one identifier
  Apostrophe = 4, // ' ’ joins two word characters into one word and is dropped
  Cjk = 5,
}

/** True for a code point of the Han, Hiragana, Katakana or Hangul scripts (punctuation excluded). */
export function isCjkCodePoint(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || // CJK Unified Ideographs
    (cp >= 0x3400 && cp <= 0x4dbf) || // Extension A
    (cp >= 0x20000 && cp <= 0x3134f) || // Extensions B–G
    (cp >= 0xf900 && cp <= 0xfaff) || // Compatibility Ideographs
    cp === 0x3005 || cp === 0x3006 || cp === 0x3007 || // 々 〆 〇
    (cp >= 0x3041 && cp <= 0x309f) || // Hiragana
    (cp >= 0x30a0 && cp <= 0x30ff && cp !== 0x30fb) || // Katakana (without the middle dot ・)
    (cp >= 0x31f0 && cp <= 0x31ff) || // Katakana Phonetic Extensions
    (cp >= 0xac00 && cp <= 0xd7a3) || // Hangul Syllables
    (cp >= 0x1100 && cp <= 0x11ff) || // Hangul Jamo
    (cp >= 0x3130 && cp <= 0x318f); // Hangul Compatibility Jamo
}

/**
 * Letters, digits and marks of other scripts. Compiled on first use only: a Unicode-property
 * regex costs about a millisecond to build, which English and Chinese prompts never pay.
 */
let otherScriptWord: RegExp | undefined;

function classify(cp: number): C {
  if (cp < 0x80) {
    if ((cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x30 && cp <= 0x39)) return C.Word;
    if (cp === 0x5f) return C.Underscore;
    if (cp === 0x2d || cp === 0x2e || cp === 0x3a) return C.Joiner;
    if (cp === 0x27) return C.Apostrophe;
    return C.Other;
  }
  if (cp === 0x2019) return C.Apostrophe;
  if (isCjkCodePoint(cp)) return C.Cjk;
  // Latin-1 and Latin Extended-A/B letters, without × and ÷.
  if (cp >= 0xc0 && cp <= 0x24f) return cp === 0xd7 || cp === 0xf7 ? C.Other : C.Word;
  // Punctuation and symbol blocks that are common in prompts and never hold letters.
  if (
    cp < 0xc0 || (cp >= 0x2000 && cp <= 0x2bff) || (cp >= 0x3000 && cp <= 0x303f) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff0f) || (cp >= 0x1f000 && cp <= 0x1faff)
  ) return C.Other;
  otherScriptWord ??= /^[\p{L}\p{N}\p{M}]$/u;
  return otherScriptWord.test(String.fromCodePoint(cp)) ? C.Word : C.Other;
}

/** The form every text is read in: NFKC (full-width and compatibility forms folded). Case is kept here. */
export function normalizeText(text: string): string {
  return text.normalize("NFKC");
}

/** True when a term is made of ASCII characters only (the words the "common" rule applies to). */
export function isAsciiTerm(term: string): boolean {
  for (let i = 0; i < term.length; i++) if (term.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** True when a term comes from CJK text (a bigram, a lone character or a derived word). */
export function isCjkTerm(term: string): boolean {
  const cp = term.codePointAt(0);
  return cp !== undefined && isCjkCodePoint(cp);
}

/*
 * Words of a CJK run by ICU's dictionary (Intl.Segmenter, built into Deno), for telling a word
 * of a prompt from a seam between two words (口的 of 接口|的): termOrigins only. The index keeps its
 * bigrams and corpus-derived words, so nothing stored depends on ICU's version. The segmenter is
 * made on first use: ICU loads its CJK dictionary then, tens of milliseconds a process pays once
 * (the warm helper once for all its prompts), and a prompt without CJK never.
 */

let segmenter: Intl.Segmenter | undefined;

/**
 * The UTF-16 offsets where ICU's words of `run` (one CJK run, as tokenize.ts scans it) start,
 * followed by the run's length: word k is [bounds[k], bounds[k + 1]).
 */
export function cjkWordBounds(run: string): number[] {
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  const bounds: number[] = [];
  for (const s of segmenter.segment(run)) bounds.push(s.index);
  bounds.push(run.length);
  return bounds;
}

/**
 * Characters of Chinese grammar and the personal pronouns (的, 了, 把, 就, 我…): ICU gives them as
 * words of one character, and a bigram holding one is a seam, not a word ICU did not know (的超
 * of 的|超|时, 我把 of 帮|我|把).
 */
const GRAMMAR = new Set([..."的了着过是在和把被就也都个吗呢吧啊我你他她它们"]);

/** Whether a character is Chinese grammar (GRAMMAR). */
export function isGrammarChar(ch: string): boolean {
  return GRAMMAR.has(ch);
}

/** Piece kinds in the flat list `scan` returns. */
const PIECE_LATIN = 0;
const PIECE_CJK = 1;

/** UTF-16 units of a code point. */
function width(cp: number): number {
  return cp > 0xffff ? 2 : 1;
}

/**
 * Splits NFKC text into Latin/identifier runs and CJK runs, in order; everything else separates.
 * Returns flat (kind, start, end) triples of UTF-16 offsets: a text costs one array, not an object,
 * a code-point array and a string per character.
 */
function scan(text: string): number[] {
  const pieces: number[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const cp = text.codePointAt(i) as number;
    const c = classify(cp);
    const start = i;
    if (c === C.Cjk) {
      i = cjkRunEnd(text, i);
      pieces.push(PIECE_CJK, start, i);
    } else if (c === C.Word || c === C.Underscore) {
      i = latinRunEnd(text, i + width(cp), c);
      pieces.push(PIECE_LATIN, start, i);
    } else i += width(cp);
  }
  return pieces;
}

/** The end of the CJK run that holds offset `i`. */
function cjkRunEnd(text: string, i: number): number {
  while (i < text.length) {
    const cp = text.codePointAt(i) as number;
    if (classify(cp) !== C.Cjk) break;
    i += width(cp);
  }
  return i;
}

/** The end of the Latin/identifier run continuing at offset `i`, after a character of class `prev`. */
function latinRunEnd(text: string, i: number, prev: C): number {
  while (i < text.length) {
    const cp = text.codePointAt(i) as number;
    const k = classify(cp);
    if (k === C.Word || k === C.Underscore) {
      prev = k;
      i += width(cp);
      continue;
    }
    if (k !== C.Joiner && k !== C.Apostrophe) break;
    // A joiner or apostrophe binds only between two word characters, one at a time. Both are
    // single UTF-16 units, so the next code point starts at i + 1.
    const next = i + 1 < text.length ? classify(text.codePointAt(i + 1) as number) : C.Other;
    const binds = k === C.Joiner
      ? (prev === C.Word || prev === C.Underscore) && (next === C.Word || next === C.Underscore)
      : prev === C.Word && next === C.Word;
    if (!binds) break;
    prev = k;
    i++;
  }
  return i;
}

/** The CJK runs of a text (after NFKC), each as an array of characters (code points). */
export function cjkRuns(text: string): string[][] {
  return cjkRunTexts(text).map((run) => Array.from(run));
}

/** The CJK runs of a text (after NFKC), each as one string. */
export function cjkRunTexts(text: string): string[] {
  const t = normalizeText(text);
  const pieces = scan(t);
  const runs: string[] = [];
  for (let p = 0; p < pieces.length; p += 3) {
    if (pieces[p] === PIECE_CJK) runs.push(t.slice(pieces[p + 1], pieces[p + 2]));
  }
  return runs;
}

const APOSTROPHES = /['\u2019]/g;
const IDENTIFIER_SEPARATORS = /[-.:_]+/;
const HAS_IDENTIFIER_SEPARATOR = /[-.:_]/;
const HAS_DIGIT = /[0-9]/;
/**
 * camelCase boundaries: aB, and the last capital of a run before a lower-case letter (JSONParser →
 * JSON|Parser) — but not before a plural's s (APIs, PRs, FIXMEs, getURLs: an acronym and its
 * plural are one word, not AP|Is).
 */
const CAMEL_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])(?![A-Z]s(?![a-z]))/;

/** A word (no separators): letters only → stemmed; holding a digit → as it is (v2, bm25, sha256). */
function wordTerm(lower: string): string {
  return HAS_DIGIT.test(lower) ? lower : porterStem(lower);
}

/** The terms of one Latin/identifier run. */
function latinTerms(raw: string, out: string[]): void {
  const text = raw.replace(APOSTROPHES, "");
  if (!HAS_IDENTIFIER_SEPARATOR.test(text)) {
    const parts = text.split(CAMEL_BOUNDARY);
    const whole = text.toLowerCase();
    if (whole.length <= MAX_TERM_LENGTH) out.push(wordTerm(whole));
    if (parts.length > 1) { for (const p of parts) pushPart(p, out); }
    return;
  }
  const whole = text.toLowerCase();
  if (whole.length <= MAX_TERM_LENGTH) out.push(whole); // an identifier is never stemmed
  for (const segment of text.split(IDENTIFIER_SEPARATORS)) {
    if (segment === "") continue;
    for (const p of segment.split(CAMEL_BOUNDARY)) pushPart(p, out);
  }
}

function pushPart(part: string, out: string[]): void {
  if (part === "" || part.length > MAX_TERM_LENGTH) return;
  out.push(wordTerm(part.toLowerCase()));
}

/** FNV-1a over the UTF-16 units of text[start, end). */
function hashRange(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** Slots of a RangeCache's memory of keys seen once (a power of two: 256 KiB of hashes). */
const SEEN_SLOTS = 1 << 16;

/**
 * A bounded map from strings to values, looked up by a range of a text instead of a string: the
 * tokenizer finds most Latin runs and CJK bigrams here, and slicing each one out to hash it
 * afresh for a Map cost more than all the rest of tokenizing. Open addressing over typed arrays;
 * a hit is confirmed with startsWith. Emptied when it reaches `capacity` entries, which bounds it
 * in a long-running process.
 *
 * A key is stored only the second time it is asked for (`admit`): most words of a large archive
 * that miss are seen once (a name, a typo, a hash), and an entry made for them lived until the
 * next emptying, long enough for the garbage collector to move it to the old generation, where
 * the garbage of an index build piled up (a first collect of 10^6 records: 3.2 misses a record,
 * half a KB of entries, 10 MB a segment). A key seen once is remembered by its hash alone.
 */
class RangeCache<V> {
  readonly #capacity: number;
  /** Hashes of keys asked for and not stored, by hash (direct-mapped: a collision forgets one). */
  readonly #seen = new Int32Array(SEEN_SLOTS);
  /** Entry index + 1 per slot (0: empty), and the entry's hash; a power of two, at most half full. */
  #slots = new Int32Array(1024);
  #slotHashes = new Int32Array(1024);
  #keys: string[] = [];
  #values: V[] = [];

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** The value stored for text[start, end), whose hashRange is `hash`. */
  get(text: string, start: number, end: number, hash: number): V | undefined {
    const mask = this.#slots.length - 1;
    for (let s = hash & mask;; s = (s + 1) & mask) {
      const e = this.#slots[s] as number;
      if (e === 0) return undefined;
      if (this.#slotHashes[s] !== hash) continue;
      const key = this.#keys[e - 1] as string;
      if (key.length === end - start && text.startsWith(key, start)) return this.#values[e - 1];
    }
  }

  /**
   * Whether a missing key whose hashRange is `hash` is worth storing: true the second time it is
   * asked for (or after a colliding key took its place the first, rarely).
   */
  admit(hash: number): boolean {
    const slot = hash & (SEEN_SLOTS - 1);
    if (this.#seen[slot] === hash) return true;
    this.#seen[slot] = hash;
    return false;
  }

  /** Stores `value` for `key` (absent), whose hashRange is `hash`. */
  set(key: string, hash: number, value: V): void {
    if (this.#keys.length >= this.#capacity) {
      this.#slots = new Int32Array(1024);
      this.#slotHashes = new Int32Array(1024);
      this.#keys = [];
      this.#values = [];
    }
    this.#keys.push(key);
    this.#values.push(value);
    if (2 * this.#keys.length > this.#slots.length) this.#rehash(this.#slots.length * 2);
    else this.#place(this.#keys.length, hash);
  }

  #place(entry: number, hash: number): void {
    const mask = this.#slots.length - 1;
    let s = hash & mask;
    while (this.#slots[s] !== 0) s = (s + 1) & mask;
    this.#slots[s] = entry;
    this.#slotHashes[s] = hash;
  }

  #rehash(size: number): void {
    this.#slots = new Int32Array(size);
    this.#slotHashes = new Int32Array(size);
    this.#keys.forEach((key, e) => this.#place(e + 1, hashRange(key, 0, key.length)));
  }
}

/**
 * The terms of Latin runs seen recently. Text repeats its words (Zipf), so at index-build time
 * most runs are looked up instead of split, lower-cased and stemmed again, and equal terms share
 * one string (whose hash the postings map then finds cached).
 */
const latinTermCache = new RangeCache<readonly string[]>(1 << 15);
/** CJK bigrams seen recently, so that equal bigrams are one string, hashed once. */
const bigramCache = new RangeCache<string>(1 << 14);

function pushLatinTerms(text: string, start: number, end: number, out: string[]): void {
  const hash = hashRange(text, start, end);
  let terms = latinTermCache.get(text, start, end, hash);
  if (terms === undefined) {
    const raw = text.slice(start, end);
    const fresh: string[] = [];
    latinTerms(raw, fresh);
    if (latinTermCache.admit(hash)) latinTermCache.set(raw, hash, fresh);
    terms = fresh;
  }
  for (const term of terms) out.push(term);
}

/** text[start, end) as a string shared with earlier equal bigrams. */
function bigramAt(text: string, start: number, end: number): string {
  const hash = hashRange(text, start, end);
  let bigram = bigramCache.get(text, start, end, hash);
  if (bigram === undefined) {
    bigram = text.slice(start, end);
    if (bigramCache.admit(hash)) bigramCache.set(bigram, hash, bigram);
  }
  return bigram;
}

/** The UTF-16 offset of each code point of text[start, end), and `end`. */
function codePointOffsets(text: string, start: number, end: number): number[] {
  const offsets: number[] = [];
  for (let i = start; i < end; i += width(text.codePointAt(i) as number)) offsets.push(i);
  offsets.push(end);
  return offsets;
}

/**
 * The terms of the CJK run text[start, end): its bigrams (or the lone character), and at each
 * position every lexicon word that starts there. A 2-character word is the same string as its
 * bigram, so a bigram that is a word counts twice and one that straddles two words (the 计的 of
 * 设计的) once: that difference is what the words buy (bench/cjk_known_item.ts).
 */
function cjkTerms(
  text: string,
  start: number,
  end: number,
  lexicon: CjkLexicon | undefined,
  out: string[],
): void {
  const at = codePointOffsets(text, start, end);
  const n = at.length - 1;
  const wordSet = lexicon instanceof CjkWordSet ? lexicon : undefined;
  if (n === 1) {
    out.push(text.slice(start, end));
    return;
  }
  // The last character starts no bigram and no word.
  for (let i = 0; i + 1 < n; i++) {
    const bigram = bigramAt(text, at[i] as number, at[i + 2] as number);
    out.push(bigram);
    if (lexicon === undefined) continue;
    if (
      lexicon.mayStartWord?.(text.charCodeAt(at[i] as number), text.charCodeAt((at[i] as number) + 1)) ===
        false
    ) {
      continue;
    }
    for (let len = 2; len <= CJK_WORD_MAX_LENGTH && i + len <= n; len++) {
      // The 2-character candidate is the bigram itself: no second slice.
      const w = len === 2 ? bigram : text.slice(at[i], at[i + len]);
      if (len >= CJK_WORD_MIN_LENGTH && lexicon.has(w)) out.push(w);
      if (len === 2 && wordSet?.startsLongerWord(bigram) === false) break;
    }
  }
}

/**
 * The index terms of `text`, in text order, duplicates kept (their count is the term frequency).
 * Pass the corpus-derived CJK words (or the index vocabulary) as `lexicon` to get them as terms;
 * without it CJK text gives bigrams only.
 */
export function tokenize(text: string, lexicon?: CjkLexicon): string[] {
  const out: string[] = [];
  const t = normalizeText(text);
  const pieces = scan(t);
  for (let p = 0; p < pieces.length; p += 3) {
    const start = pieces[p + 1] as number;
    const end = pieces[p + 2] as number;
    if (pieces[p] === PIECE_LATIN) pushLatinTerms(t, start, end, out);
    else cjkTerms(t, start, end, lexicon, out);
  }
  return out;
}

/**
 * Where a term of the text came from, for counting distinct things by structure: a Latin or
 * identifier run (all its terms — the whole identifier and its parts, the camelCase parts — are
 * one thing; every run of one path, a token holding / or \\, is one thing too), or a CJK span
 * (overlapping spans, like the bigrams of one word, are one thing).
 */
export interface TermOrigin {
  readonly term: string;
  /** For Latin: the unit it belongs to (a run, or a whole path); -1 for CJK. */
  readonly run: number;
  /** True for the terms of a path: a folder or file name is a place, not a topic. */
  readonly inPath: boolean;
  /**
   * True for the whole of a folder name in a path that is an identifier (export_to_audit,
   * select-procedure, v2): it names one specific thing, where a plain word (src, components) is a place.
   */
  readonly pathName: boolean;
  /** True for a file extension (the letters after a name's last dot: md, ts, mdc): a kind of file, not a topic. */
  readonly extension: boolean;
  /** For CJK: the UTF-16 span [start, end) in the NFKC text; 0, 0 for Latin. */
  readonly start: number;
  readonly end: number;
  /** For CJK: true when the term is a corpus-derived word (not just a bigram). */
  readonly word: boolean;
  /**
   * For CJK: the index (in the text) of the ICU word of two characters or more that holds the
   * term whole (cjkWordBounds), or -1 when none does.
   */
  readonly unit: number;
  /**
   * For a CJK bigram: true when it crosses the edge of an ICU word of two characters or more
   * (口的 of 接口|的), or holds a grammar character (的超 of 的|超|时): a seam, not a word.
   */
  readonly seam: boolean;
  /**
   * For a CJK bigram: true when both its characters are ICU words of one character, neither
   * grammar (超时 of 超|时, a word ICU's dictionary lacks): perhaps a word.
   */
  readonly loose: boolean;
}

/**
 * Whitespace-delimited tokens that are file paths, as [start, end) offset pairs: two separators
 * (/ or \\) or more, so a folder and a file at least (src/gate/gate.ts); a reference with one
 * (actions/checkout@v4, df/components) is a name.
 */
function pathTokens(text: string): number[] {
  const out: number[] = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if ((m[0].match(/[/\\]/g)?.length ?? 0) >= 2) out.push(m.index, m.index + m[0].length);
  }
  return out;
}

/** A folder name that is an identifier: letters joined by _ or - to more letters, or letters with digits. */
const PATH_NAME = /^(?=.*[A-Za-z])(?:.*[A-Za-z0-9][_-][A-Za-z0-9]|.*[A-Za-z].*[0-9]|.*[0-9].*[A-Za-z])/;

/** The terms of `text` as `tokenize` gives them (same order and repeats), each with its origin. */
export function termOrigins(text: string, lexicon?: CjkLexicon): TermOrigin[] {
  const out: TermOrigin[] = [];
  const t = normalizeText(text);
  const pieces = scan(t);
  const paths = pathTokens(t);
  const pathOf = (start: number): number => {
    for (let k = 0; k < paths.length; k += 2) {
      if (start >= (paths[k] as number) && start < (paths[k + 1] as number)) return k / 2;
    }
    return -1;
  };
  const runCount = pieces.length / 3;
  /** ICU words of the CJK runs so far: a run's word k is unit wordBase + k. */
  let wordBase = 0;
  /** The ICU words of the CJK run t[start, end) (code point offsets `at`), numbered from wordBase. */
  const runWords = (text: string, start: number, end: number, at: readonly number[]) => {
    const bounds = cjkWordBounds(text.slice(start, end));
    // Each code point's ICU word (k), and each word's length in code points.
    const wordOf = new Int32Array(at.length - 1);
    const lengths: number[] = [];
    /** Per ICU word: whether it is grammar characters only (我把: no word of a subject). */
    const grammar: boolean[] = [];
    let k = 0;
    for (let i = 0; i + 1 < at.length; i++) {
      while ((bounds[k + 1] as number) + start <= (at[i] as number)) k++;
      wordOf[i] = k;
      lengths[k] = (lengths[k] ?? 0) + 1;
      grammar[k] = (grammar[k] ?? true) && isGrammarChar(text.slice(at[i], at[i + 1]));
    }
    return {
      count: bounds.length - 1,
      /**
       * The unit of code points [i, j) when one ICU word of two or more holds them all, and it is
       * not grammar alone; else -1.
       */
      unitOf: (i: number, j: number) =>
        wordOf[i] === wordOf[j - 1] && (lengths[wordOf[i]!] ?? 0) >= 2 && !grammar[wordOf[i]!]
          ? wordBase + wordOf[i]!
          : -1,
      /** Whether an ICU word starts at code point i (or i is the run's end). */
      startsWord: (i: number) => i === 0 || i >= wordOf.length || wordOf[i] !== wordOf[i - 1],
      /** Whether code point i is an ICU word of its own. */
      single: (i: number) => lengths[wordOf[i]!] === 1,
    };
  };
  for (let p = 0; p < pieces.length; p += 3) {
    const start = pieces[p + 1] as number;
    const end = pieces[p + 2] as number;
    if (pieces[p] === PIECE_LATIN) {
      const terms: string[] = [];
      pushLatinTerms(t, start, end, terms);
      const path = pathOf(start);
      const run = path >= 0 ? runCount + path : p / 3;
      const raw = t.slice(start, end);
      const dot = raw.lastIndexOf(".");
      // An extension is a letter and up to three letters or digits (md, ts, ps1, mp4), not a version's digits.
      const ext = dot > 0 && /^[A-Za-z][A-Za-z0-9]{0,3}$/.test(raw.slice(dot + 1))
        ? raw.slice(dot + 1).toLowerCase()
        : null;
      // The run's first term is its whole (an identifier is never split before its parts).
      // A route parameter's folder ([client_id], [slug=lang]) is a slot any value fills, not a name.
      const named = path >= 0 && !raw.includes(".") && PATH_NAME.test(raw) && t[start - 1] !== "[" &&
        t[end] !== "]";
      terms.forEach((term, i) => {
        out.push({
          term,
          run,
          inPath: path >= 0,
          pathName: named && i === 0,
          extension: term === ext,
          start: 0,
          end: 0,
          word: false,
          unit: -1,
          seam: false,
          loose: false,
        });
      });
      continue;
    }
    const at = codePointOffsets(t, start, end);
    const n = at.length - 1;
    const cjk = { run: -1, inPath: false, pathName: false, extension: false } as const;
    if (n === 1) {
      const term = t.slice(start, end);
      out.push({ ...cjk, term, start, end, word: false, unit: -1, seam: false, loose: false });
      continue;
    }
    const words = runWords(t, start, end, at);
    for (let i = 0; i + 1 < n; i++) {
      const s = at[i] as number;
      const e = at[i + 2] as number;
      const w = words.unitOf(i, i + 2);
      const loose = w < 0 && words.single(i) && words.single(i + 1) &&
        !isGrammarChar(t.slice(s, at[i + 1])) && !isGrammarChar(t.slice(at[i + 1], e));
      out.push({
        ...cjk,
        term: t.slice(s, e),
        start: s,
        end: e,
        word: false,
        unit: w,
        seam: w < 0 && !loose,
        loose,
      });
      if (lexicon === undefined) continue;
      if (lexicon.mayStartWord?.(t.charCodeAt(s), t.charCodeAt(s + 1)) === false) continue;
      for (let len = 2; len <= CJK_WORD_MAX_LENGTH && i + len <= n; len++) {
        const w = t.slice(s, at[i + len]);
        if (len >= CJK_WORD_MIN_LENGTH && lexicon.has(w)) {
          const end = at[i + len] as number;
          const unit = words.unitOf(i, i + len);
          // A derived word across ICU's words is a word when it is made of whole ones, none of
          // them grammar (帮我把 of 帮|我|把 is a habit of phrasing, not a word).
          const whole = unit >= 0 || (words.startsWord(i) && words.startsWord(i + len) &&
            ![...w].some(isGrammarChar));
          out.push({ ...cjk, term: w, start: s, end, word: true, unit, seam: !whole, loose: false });
        }
      }
    }
    wordBase += words.count;
  }
  return out;
}
