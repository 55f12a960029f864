/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", Program 14(3), 1980),
 * written from the paper's description, with the three departures of Porter's own reference
 * version that the official test vocabulary expects: step 2 maps -bli to -ble (not -abli to
 * -able) and adds -logi to -log, and words of one or two letters are left alone.
 *
 * Input: a lower-case word of the letters a–z. Anything else is returned unchanged (callers only
 * stem plain English words; identifiers and other scripts never reach here).
 */

const ASCII_LOWER_WORD = /^[a-z]+$/;

/** Words this short are returned as they are: stripping would leave almost nothing. */
const MIN_STEM_INPUT_LENGTH = 3;

/** Porter's stem of `word` (lower-case a–z), or `word` itself when it is not such a word. */
export function porterStem(word: string): string {
  if (word.length < MIN_STEM_INPUT_LENGTH || !ASCII_LOWER_WORD.test(word)) return word;
  let w = step1a(word);
  w = step1b(w);
  w = step1c(w);
  w = step2(w);
  w = step3(w);
  w = step4(w);
  w = step5(w);
  return w;
}

// --- the letter classes and the measure ---------------------------------------------------

/** A consonant is a letter other than a e i o u, and other than y preceded by a consonant. */
function isConsonant(w: string, i: number): boolean {
  switch (w.charCodeAt(i)) {
    case 97: // a
    case 101: // e
    case 105: // i
    case 111: // o
    case 117: // u
      return false;
    case 121: // y: a consonant at the start or after a vowel, a vowel after a consonant
      return i === 0 ? true : !isConsonant(w, i - 1);
    default:
      return true;
  }
}

/** m in [C](VC)^m[V] over the first `len` letters of `w`: the number of vowel→consonant turns. */
function measure(w: string, len: number): number {
  let m = 0;
  let i = 0;
  while (i < len && isConsonant(w, i)) i++; // the optional leading consonants
  while (i < len) {
    while (i < len && !isConsonant(w, i)) i++; // a vowel sequence
    if (i >= len) break;
    while (i < len && isConsonant(w, i)) i++; // the consonant sequence that closes a VC
    m++;
  }
  return m;
}

/** *v*: the first `len` letters contain a vowel. */
function hasVowel(w: string, len: number): boolean {
  for (let i = 0; i < len; i++) if (!isConsonant(w, i)) return true;
  return false;
}

/** *d: the first `len` letters end in a double consonant. */
function endsDoubleConsonant(w: string, len: number): boolean {
  return len >= 2 && w[len - 1] === w[len - 2] && isConsonant(w, len - 1);
}

/** *o: the first `len` letters end consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string, len: number): boolean {
  if (len < 3) return false;
  if (!isConsonant(w, len - 1) || isConsonant(w, len - 2) || !isConsonant(w, len - 3)) return false;
  const last = w[len - 1];
  return last !== "w" && last !== "x" && last !== "y";
}

/** A rule: the suffix to find, its replacement, and the least measure the stem must have. */
type Rule = readonly [suffix: string, replacement: string];

/**
 * Applies the rule with the longest suffix that `w` ends with, if its stem's measure exceeds
 * `minMeasure`. As in the paper, once the longest suffix matches, no shorter one is tried.
 */
function applyLongest(w: string, rules: readonly Rule[], minMeasure: number): string {
  let best: Rule | undefined;
  for (const rule of rules) {
    if (w.endsWith(rule[0]) && (best === undefined || rule[0].length > best[0].length)) best = rule;
  }
  if (best === undefined) return w;
  const stemLen = w.length - best[0].length;
  return measure(w, stemLen) > minMeasure ? w.slice(0, stemLen) + best[1] : w;
}

// --- the steps -----------------------------------------------------------------------------

/** Step 1a: plurals. sses→ss, ies→i, ss→ss, s→(nothing). */
function step1a(w: string): string {
  if (w.endsWith("sses")) return w.slice(0, -2);
  if (w.endsWith("ies")) return w.slice(0, -2);
  if (w.endsWith("ss")) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

/** Step 1b: -eed, -ed, -ing, with the tidy-up that restores an e or undoubles a consonant. */
function step1b(w: string): string {
  if (w.endsWith("eed")) {
    return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  }
  let stem: string | undefined;
  if (w.endsWith("ed") && hasVowel(w, w.length - 2)) stem = w.slice(0, -2);
  else if (w.endsWith("ing") && hasVowel(w, w.length - 3)) stem = w.slice(0, -3);
  if (stem === undefined) return w;
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return stem + "e";
  const n = stem.length;
  if (endsDoubleConsonant(stem, n)) {
    const last = stem[n - 1];
    return last === "l" || last === "s" || last === "z" ? stem : stem.slice(0, -1);
  }
  if (measure(stem, n) === 1 && endsCvc(stem, n)) return stem + "e";
  return stem;
}

/** Step 1c: a final y becomes i when the stem has a vowel. */
function step1c(w: string): string {
  return w.endsWith("y") && hasVowel(w, w.length - 1) ? w.slice(0, -1) + "i" : w;
}

/** Step 2: double suffixes to single ones, for stems with m > 0. */
const STEP2_RULES: readonly Rule[] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];

function step2(w: string): string {
  return applyLongest(w, STEP2_RULES, 0);
}

/** Step 3: -ic-, -full, -ness and the like, for stems with m > 0. */
const STEP3_RULES: readonly Rule[] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];

function step3(w: string): string {
  return applyLongest(w, STEP3_RULES, 0);
}

/** Step 4: the residual suffixes, removed from stems with m > 1 (-ion only after s or t). */
const STEP4_SUFFIXES: readonly string[] = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

function step4(w: string): string {
  let best = "";
  for (const suffix of STEP4_SUFFIXES) {
    if (w.endsWith(suffix) && suffix.length > best.length) best = suffix;
  }
  if (best === "") return w;
  const stemLen = w.length - best.length;
  if (measure(w, stemLen) <= 1) return w;
  if (best === "ion") {
    const before = w[stemLen - 1];
    if (before !== "s" && before !== "t") return w;
  }
  return w.slice(0, stemLen);
}

/** Step 5: drop a final e (m > 1, or m = 1 unless *o), then -ll to -l when m > 1. */
function step5(w: string): string {
  let out = w;
  if (out.endsWith("e")) {
    const stemLen = out.length - 1;
    const m = measure(out, stemLen);
    if (m > 1 || (m === 1 && !endsCvc(out, stemLen))) out = out.slice(0, stemLen);
  }
  if (out.endsWith("ll") && measure(out, out.length) > 1) out = out.slice(0, -1);
  return out;
}
