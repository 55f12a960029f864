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
 * No Intl.Segmenter and no dictionary: this runs on the per-prompt hook path (see cjk_words.ts).
 */

import { porterStem } from "./stem.ts";

/** Whatever can say whether a CJK string is a corpus-derived word: the derived set, or an index (Corpus.isCjkWord). */
export interface CjkLexicon {
  has(word: string): boolean;
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

/** A piece of normalised text the scanner found: a Latin/identifier run, or a CJK run as code points. */
type Piece = { readonly kind: "latin"; readonly text: string } | {
  readonly kind: "cjk";
  readonly chars: readonly string[];
};

/** Splits NFKC text into Latin/identifier runs and CJK runs, in order; everything else separates. */
function scan(text: string): Piece[] {
  const pieces: Piece[] = [];
  const cps: number[] = [];
  const offsets: number[] = []; // UTF-16 offset of each code point, plus the end
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) as number;
    cps.push(cp);
    offsets.push(i);
    i += cp > 0xffff ? 2 : 1;
  }
  offsets.push(text.length);
  const classes = cps.map(classify);
  const n = cps.length;
  let i = 0;
  while (i < n) {
    const c = classes[i];
    if (c === C.Cjk) {
      const chars: string[] = [];
      while (i < n && classes[i] === C.Cjk) chars.push(String.fromCodePoint(cps[i] as number)), i++;
      pieces.push({ kind: "cjk", chars });
      continue;
    }
    if (c === C.Word || c === C.Underscore) {
      const start = i;
      i++;
      while (i < n) {
        const k = classes[i];
        if (k === C.Word || k === C.Underscore) {
          i++;
          continue;
        }
        // A joiner or apostrophe binds only between two word characters, one at a time.
        const prev = classes[i - 1];
        const next = classes[i + 1];
        if (
          k === C.Joiner && (prev === C.Word || prev === C.Underscore) &&
          (next === C.Word || next === C.Underscore)
        ) {
          i++;
          continue;
        }
        if (k === C.Apostrophe && prev === C.Word && next === C.Word) {
          i++;
          continue;
        }
        break;
      }
      pieces.push({ kind: "latin", text: text.slice(offsets[start], offsets[i]) });
      continue;
    }
    i++;
  }
  return pieces;
}

/** The CJK runs of a text (after NFKC), each as an array of characters (code points). */
export function cjkRuns(text: string): string[][] {
  const runs: string[][] = [];
  for (const p of scan(normalizeText(text))) if (p.kind === "cjk") runs.push([...p.chars]);
  return runs;
}

const APOSTROPHES = /['\u2019]/g;
const IDENTIFIER_SEPARATORS = /[-.:_]+/;
const HAS_IDENTIFIER_SEPARATOR = /[-.:_]/;
const HAS_DIGIT = /[0-9]/;
/** camelCase boundaries: aB, and the last capital of a run before a lower-case letter (JSONParser → JSON|Parser). */
const CAMEL_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;

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

/**
 * The terms of one CJK run: its bigrams (or the lone character), and at each position every
 * lexicon word that starts there. A 2-character word is the same string as its bigram, so a
 * bigram that is a word counts twice and one that straddles two words (the 计的 of 设计的) once:
 * that difference is what the words buy (bench/cjk_known_item.ts).
 */
function cjkTerms(chars: readonly string[], lexicon: CjkLexicon | undefined, out: string[]): void {
  const n = chars.length;
  if (n === 1) {
    out.push(chars[0] as string);
    return;
  }
  for (let i = 0; i < n; i++) {
    if (i + 1 < n) out.push((chars[i] as string) + (chars[i + 1] as string));
    if (lexicon === undefined) continue;
    let w = chars[i] as string;
    for (let len = 2; len <= CJK_WORD_MAX_LENGTH && i + len <= n; len++) {
      w += chars[i + len - 1] as string;
      if (len >= CJK_WORD_MIN_LENGTH && lexicon.has(w)) out.push(w);
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
  for (const p of scan(normalizeText(text))) {
    if (p.kind === "latin") latinTerms(p.text, out);
    else cjkTerms(p.chars, lexicon, out);
  }
  return out;
}
