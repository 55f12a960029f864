/**
 * Decision markers: the words that show a text states a decision, in Chinese, Japanese, English
 * and Russian. This is the one place the lists live. Ranking gives a record with a marker more weight (score.ts), and
 * the compaction judge uses `markerStrength` to find decision statements.
 *
 * Matching: text is NFKC-normalised and lower-cased, curly apostrophes become '. Chinese phrases
 * match as substrings (Chinese has no spaces); English phrases match on word boundaries, any run
 * of whitespace standing for a space.
 *
 * Negation: a marker is cancelled when a negation phrase contains it (没决定, never mind, 要不要,
 * don't know), overlaps its start (不一定要), or ends directly before it. "Directly" allows nothing but whitespace after a
 * one-character Chinese negation (没, 未: 未来必须 must stay a marker), and at most
 * NEGATION_GAP_CJK characters or NEGATION_GAP_WORDS words, no punctuation, after a longer one
 * (不一定要统一用, not sure whether we should). Bare 不 is deliberately not a negation: 不要 and
 * 不应该 state decisions themselves.
 */

import { MARKER_TERMS } from "./marker_terms.ts";
import { tokenize } from "./tokenize.ts";

export type MarkerStrength = "strong" | "medium";

/** Chinese markers of a settled decision, a rule or a prohibition. */
export const STRONG_MARKERS_ZH: readonly string[] = [
  "决定", // decided / the decision
  "定了", // it's settled (also 确定了)
  "定下来", // fix it, settle on
  "就这么定", // that's final
  "必须", // must
  "务必", // be sure to
  "一定要", // definitely must
  "不要", // do not (a prohibition is a decision)
  "不准", // not allowed
  "不许", // not permitted
  "不能再", // may no longer
  "别再", // stop doing
  "禁止", // forbidden
  "严禁", // strictly forbidden
  "一律", // without exception
  "一概", // across the board
  "以后都", // from now on always
  "今后都", // henceforth always
  "从今以后", // from now on
  "从现在开始", // starting now
  "统一用", // standardise on
  "统一使用", // standardise on (formal)
  "统一改成", // change everything to
  "只能用", // may only use
  "永远不要", // never ever
  "绝对不要", // absolutely do not
  "千万不要", // by no means
  "绝不", // never
  "坚决", // resolutely
  "规定", // the rule is
  "约定", // the convention is
  "记住", // remember (this): a standing instruction
  "永远", // forever, always
  "总是", // always
  "每次都", // every time
  "只用", // use only
  "不再", // no longer
  "统一", // standardise (统一设为, 统一用)
  "别用", // don't use
];

/** Chinese markers of a preference, a recommendation or a switch. */
export const MEDIUM_MARKERS_ZH: readonly string[] = [
  "应该", // should
  "应当", // ought to
  "建议", // recommend / suggestion
  "倾向", // lean towards
  "改用", // switch to
  "换成", // replace with
  "换用", // use … instead
  "选择", // choose
  "选用", // pick for use
  "采用", // adopt
  "优先", // prefer, give priority to
  "最好", // best to
  "推荐", // recommend
  "尽量", // as far as possible
  "宁可", // would rather
  "宁愿", // would rather
  "而不是", // rather than
  "不如用", // better to use
  "还是用", // better stick to
  "偏好", // preference
  "首选", // first choice
  "默认用", // use by default
  "保持", // keep (as it is)
  "改为", // change to
  "代替", // instead of
  "而是", // but rather
];

/** Japanese markers of a settled decision, a rule or a prohibition. */
export const STRONG_MARKERS_JA: readonly string[] = [
  "必ず", // always, without fail
  "絶対", // absolutely (絶対に…しないで)
  "常に", // always
  "今後", // from now on
  "これからは", // from now on
  "以降は", // from then on
  "二度と", // never again
  "禁止", // forbidden
  "しないで", // don't (do)
  "ないでください", // please don't
  "使わないで", // don't use
  "使わない", // (we) don't use
  "使用しない", // (we) don't use
  "やめて", // stop (doing)
  "決めた", // (we) decided
  "決定", // decision
  "統一", // standardise
  "ルール", // the rule
  "たびに", // every time
  "毎回", // every time
];

/** Japanese markers of a preference, a recommendation or a switch. */
export const MEDIUM_MARKERS_JA: readonly string[] = [
  "ではなく", // rather than
  "じゃなくて", // not … but (casual)
  "代わりに", // instead of
  "べき", // should
  "ほうがいい", // better to
  "方がいい", // better to
  "優先", // prefer, first
  "推奨", // recommended
  "でよい", // (X) will do: an option settled on (固定値でよい)
  "でいい", // (X) will do, casual
];

/** English markers of a settled decision, a rule or a prohibition. */
export const STRONG_MARKERS_EN: readonly string[] = [
  "decided",
  "decision is",
  "always",
  "never",
  "must",
  "must not",
  "mustn't",
  "do not",
  "don't",
  "dont",
  "don't ever",
  "from now on",
  "going forward",
  "settled on",
  "we will use",
  "we'll use",
  "is required",
  "are required",
  "required to",
  "mandatory",
  "forbidden",
  "prohibited",
  "banned",
  "not allowed",
  "no longer",
  "only ever",
  "stick with",
  "standardize on",
  "standardise on",
  "stop using",
  "is frozen",
  "are frozen",
  "no more",
  "decision on",
  "agreed",
  "the rule is",
  "under no circumstances",
  "as a rule",
  "by convention",
  "henceforth",
  "from here on",
  "whenever",
  "every time",
  "each time",
  "off the table",
];

/** English markers of a preference, a recommendation or a switch. */
export const MEDIUM_MARKERS_EN: readonly string[] = [
  "prefer",
  "prefers",
  "preferred",
  "preferably",
  "should",
  "should not",
  "shouldn't",
  "let's use",
  "let's go with",
  "let's switch",
  "let's stick",
  "switch to",
  "switched to",
  "switching to",
  "switching from",
  "migrate to",
  "migrated to",
  "migrating to",
  "instead of",
  "rather than",
  "we moved",
  "stays on",
  "stay on",
  "keep using",
  "recommend",
  "recommended",
  "better to",
  "go with",
  "opt for",
  "chose",
  "choose",
  "favor",
  "favour",
  "ideally",
  "avoid",
  "need to be", // a requirement (see NEED_PHRASES for when it is a task instead)
  "needs to be",
];

/** Russian markers of a settled decision, a rule or a prohibition. */
export const STRONG_MARKERS_RU: readonly string[] = [
  "всегда", // always
  "никогда", // never
  "не используй", // don't use
  "не используйте",
  "не надо", // don't
  "нельзя", // must not
  "запрещено", // forbidden
  "обязательно", // must, without fail
  "с этого момента", // from now on
  "отныне", // henceforth
  "впредь", // from now on
  "решили", // (we) decided
  "договорились", // (we) agreed
  "каждый раз", // every time
];

/** Russian markers of a preference, a recommendation or a switch. */
export const MEDIUM_MARKERS_RU: readonly string[] = [
  "вместо", // instead of
  "лучше", // better
  "предпочитаю", // I prefer
  "только", // only
  "следует", // should
  "должны", // must, should
  "должен",
  "должно",
];

/** Chinese phrases that cancel a marker they contain or directly precede: not yet, not needed, a question. */
export const NEGATIONS_ZH: readonly string[] = [
  "没", // not (没决定)
  "未", // not yet (未决定)
  "没有", // have not
  "还没", // not yet
  "还没有", // not yet
  "并没有", // did not actually
  "尚未", // not yet
  "并未", // did not
  "还未", // not yet
  "不必", // need not
  "不用", // no need to
  "不需要", // no need to
  "没必要", // unnecessary
  "不一定", // not necessarily
  "不确定", // not sure
  "不知道", // don't know
  "暂不", // not for now
  "暂时不", // not for now
  "是否", // whether (a question, not a decision)
  "要不要", // whether or not to (contains 不要)
  "该不该", // should or shouldn't
  "是不是", // is it that
  "能不能", // can or can't
  "可不可以", // may or may not
  "不要紧", // it doesn't matter (contains 不要)
  "犹豫", // hesitating
  "不是说", // it's not that
  // 应该 before these states an expectation ("should already be set up"), not a rule.
  "应该已经",
  "应该是",
  "应该会",
  "应该能",
  "应该可以",
  "应该就",
  "应该没",
  "应该有",
  "应该还",
  "应该也",
  "应该都",
];

/** Japanese phrases that cancel a marker they contain or directly precede. */
export const NEGATIONS_JA: readonly string[] = [
  "かどうか", // whether
  "未定", // undecided
  "わからない", // don't know
  "分からない",
  "まだ決", // not yet decided
];

/** English phrases that cancel a marker they contain or directly precede. */
export const NEGATIONS_EN: readonly string[] = [
  "not decided",
  "not yet decided",
  "haven't decided",
  "have not decided",
  "hasn't decided",
  "undecided",
  "not sure",
  "unsure",
  "never mind",
  "nevermind",
  "not necessarily",
  "no need to",
  "don't need to",
  "do not need to",
  "doesn't have to",
  "don't have to",
  "do not have to",
  "don't know",
  "dont know",
  "do not know",
  "don't think",
  "dont think",
  "don't care",
  "dont care",
  "don't mind",
  "dont mind",
  "don't worry",
  "dont worry",
  "do not worry",
  // A first person that doesn't see or understand is reporting, not ruling.
  "don't see",
  "dont see",
  "don't understand",
  "dont understand",
  "don't remember",
  "dont remember",
  "dont need to",
  "dont have to",
  // "try X instead" is a suggestion for now, not a rule.
  "try",
  "not certain",
  "maybe",
  "perhaps",
  "whether",
  "wondering",
  "should we",
  "must we",
  // "what you should do", "what should be done next": the object of a request, not a rule.
  "what",
  // "as it should be": a comparison, not a rule.
  "as it",
  "don't decide",
  "do not decide",
  "not decide",
  "yet to decide",
  "to be decided",
  "tbd",
];

/** Russian phrases that cancel a marker they contain or directly precede. */
export const NEGATIONS_RU: readonly string[] = [
  "не уверен", // not sure
  "может быть", // maybe
  "возможно", // perhaps
  "не знаю", // don't know
  "не решили", // haven't decided
  "пока не", // not yet
  "не обязательно", // not necessarily
  "не всегда", // not always
  "нужно ли", // whether we need
  "стоит ли", // whether it's worth
];

/** Words allowed between an English negation and the marker it cancels ("not sure whether we should"). */
export const NEGATION_GAP_WORDS = 2;
/** CJK characters allowed between a multi-character Chinese negation and its marker (不一定要统一用). */
export const NEGATION_GAP_CJK = 2;

const STRONG_SET: ReadonlySet<string> = new Set([
  ...STRONG_MARKERS_ZH,
  ...STRONG_MARKERS_JA,
  ...STRONG_MARKERS_EN,
  ...STRONG_MARKERS_RU,
]);
const MEDIUM_SET: ReadonlySet<string> = new Set([
  ...MEDIUM_MARKERS_ZH,
  ...MEDIUM_MARKERS_JA,
  ...MEDIUM_MARKERS_EN,
  ...MEDIUM_MARKERS_RU,
]);
const NEGATION_SET: ReadonlySet<string> = new Set([
  ...NEGATIONS_ZH,
  ...NEGATIONS_JA,
  ...NEGATIONS_EN,
  ...NEGATIONS_RU,
]);

/** One marker occurrence in the normalised text. */
export interface MarkerHit {
  readonly marker: string;
  readonly strength: MarkerStrength;
  readonly start: number;
  readonly end: number;
  /** The negation that cancels it, or null. */
  readonly negatedBy: string | null;
  /** True when the marker sits in a question ("should we always …?"): asking is not deciding. */
  readonly inQuestion: boolean;
}

/** Ends a sentence; a sentence ending in a question mark holds no decision. */
const SENTENCE_END = /[.!?。！？\n]/g;

function inQuestion(text: string, end: number): boolean {
  SENTENCE_END.lastIndex = end;
  const m = SENTENCE_END.exec(text);
  return m !== null && (m[0] === "?" || m[0] === "？");
}

interface Span {
  readonly phrase: string;
  readonly start: number;
  readonly end: number;
}

const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff]/;
const ENGLISH_GAP = new RegExp(`^\\s*(?:[a-z0-9'\\u0430-\\u045f]+\\s+){0,${NEGATION_GAP_WORDS}}$`);
const CJK_GAP = new RegExp(
  `^\\s*(?:[\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff]\\s*){0,${NEGATION_GAP_CJK}}$`,
);
const WHITESPACE_ONLY = /^\s*$/;

/** The form markers are matched in. */
function normalizeForMarkers(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\u2019/g, "'");
}

/** True for a character of an English or Russian word: [a-z0-9_'], Cyrillic (the text is lower-cased already). */
function isWordUnit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x27 ||
    (c >= 0x0430 && c <= 0x045f);
}

/** Name joiners: a word next to one of these, with a word character beyond, is part of a name. */
function isNameJoiner(c: number): boolean {
  return c === 0x2d || c === 0x2e || c === 0x2f || c === 0x40 || c === 0x5c;
}

/** Whether position `at` holds a name joiner followed (in direction `dir`) by a word character. */
function joinedToWord(text: string, at: number, dir: 1 | -1): boolean {
  if (at < 0 || at >= text.length || !isNameJoiner(text.charCodeAt(at))) return false;
  const beyond = at + dir;
  return beyond >= 0 && beyond < text.length && isWordUnit(text.charCodeAt(beyond));
}

/**
 * The English words of the normalised text — runs of [a-z0-9_'] without edge apostrophes — as
 * flat (start, end) offset pairs: no string or object per word, since most words start no phrase.
 */
function englishWords(text: string): number[] {
  const bounds: number[] = [];
  const n = text.length;
  for (let i = 0; i < n;) {
    if (!isWordUnit(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && isWordUnit(text.charCodeAt(end))) end++;
    let s = i;
    let e = end;
    while (s < e && text.charCodeAt(s) === 0x27) s++;
    while (e > s && text.charCodeAt(e - 1) === 0x27) e--;
    // A word joined to another by - . / @ or \\ is part of a name (dont-ignore-errors.mdc), not a word said.
    if (s < e && !joinedToWord(text, i - 1, -1) && !joinedToWord(text, end, 1)) bounds.push(s, e);
    i = end;
  }
  return bounds;
}

/** The three phrase sets a match is sorted into, as indices of `Found`. */
const NEGATION = 0;
const STRONG = 1;
const MEDIUM = 2;
const PHRASE_SETS: readonly ReadonlySet<string>[] = [NEGATION_SET, STRONG_SET, MEDIUM_SET];

/** A phrase to look for, and the sets (NEGATION, STRONG, MEDIUM) that hold it. */
interface Phrase {
  readonly phrase: string;
  readonly words: readonly string[];
  readonly sets: readonly number[];
}

/** The phrases, indexed for one pass over a text; built on first use (the hint path never matches markers). */
interface PhraseIndex {
  /** English phrases by first word: one entry per list entry, as the lists hold them. */
  readonly english: ReadonlyMap<string, readonly Phrase[]>;
  /**
   * The shape of each first word as a filter before the map: by its first two characters (the
   * second 0 for a one-letter word), a bit for each length under 32. Most words of a text match
   * no shape and are never sliced out to be looked up; a word without a shape (32 units or more)
   * is looked up.
   */
  readonly firstWordShapes: Uint32Array;
  /** The phrases holding a CJK character, each once, by their first UTF-16 unit. */
  readonly cjk: ReadonlyMap<number, readonly Phrase[]>;
  /** 1 for each UTF-16 unit that starts such a phrase: a filter before the map. */
  readonly cjkFirstUnits: Uint8Array;
}

let phraseIndex: PhraseIndex | undefined;

/** Decision words whose typos are still the word: always, never, should, prefer, decided, instead. */
const TYPO_TOLERANT: readonly string[] = ["always", "never", "should", "prefer", "decided", "instead"];
/** Typos of those that are words of their own (refer, decide, ever) or a negation's (neve r): never markers. */
const NOT_TYPOS: ReadonlySet<string> = new Set([
  "refer",
  "decide",
  "ever",
  "nver",
  "neer",
  "newer",
  "severe",
]);

/**
 * The typos of a word a hand makes most: two neighbouring letters swapped (alwasy, shoudl), a
 * letter doubled (allways), and, for a word of six letters or more, one left out (alays, shoud).
 */
export function typosOf(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] !== word[i + 1]) out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i + 1) + word[i] + word.slice(i + 1));
  if (word.length >= 6) {
    for (let i = 0; i < word.length; i++) {
      out.add(word.slice(0, i) + word.slice(i + 1));
    }
  }
  out.delete(word);
  return [...out].sort();
}

/** The firstWordShapes slot of the word text[start, start + length), or -1 when it has none (non-ASCII, 32 or longer). */
function wordShape(text: string, start: number, length: number): number {
  const first = text.charCodeAt(start);
  const second = length > 1 ? text.charCodeAt(start + 1) : 0;
  return length > 0 && length < 32 && first < 128 && second < 128 ? first * 128 + second : -1;
}

function phrasesIndex(): PhraseIndex {
  if (phraseIndex !== undefined) return phraseIndex;
  const setsOf = (phrase: string) => [NEGATION, STRONG, MEDIUM].filter((k) => PHRASE_SETS[k]!.has(phrase));
  const english = new Map<string, Phrase[]>();
  const firstWordShapes = new Uint32Array(128 * 128);
  for (
    const list of [
      STRONG_MARKERS_EN,
      MEDIUM_MARKERS_EN,
      NEGATIONS_EN,
      STRONG_MARKERS_RU,
      MEDIUM_MARKERS_RU,
      NEGATIONS_RU,
    ]
  ) {
    for (const phrase of list) {
      const words = phrase.split(" ");
      const first = words[0] as string;
      const bucket = english.get(first) ?? [];
      bucket.push({ phrase, words, sets: setsOf(phrase) });
      english.set(first, bucket);
      const shape = wordShape(first, 0, first.length);
      if (shape >= 0) firstWordShapes[shape] = (firstWordShapes[shape] as number) | (1 << first.length);
    }
  }
  // A typo of a decision word ("alwasy", "shoudl") is that word: it maps to the word's phrases.
  for (const word of TYPO_TOLERANT) {
    const phrases = english.get(word) ?? [];
    for (const typo of typosOf(word)) {
      if (english.has(typo) || NOT_TYPOS.has(typo)) continue;
      english.set(typo, phrases);
      const shape = wordShape(typo, 0, typo.length);
      if (shape >= 0) firstWordShapes[shape] = (firstWordShapes[shape] as number) | (1 << typo.length);
    }
  }
  const cjk = new Map<number, Phrase[]>();
  const cjkFirstUnits = new Uint8Array(0x10000);
  for (const phrase of new Set([...NEGATION_SET, ...STRONG_SET, ...MEDIUM_SET])) {
    if (!CJK_CHAR.test(phrase)) continue;
    const bucket = cjk.get(phrase.charCodeAt(0)) ?? [];
    bucket.push({ phrase, words: [phrase], sets: setsOf(phrase) });
    cjk.set(phrase.charCodeAt(0), bucket);
    cjkFirstUnits[phrase.charCodeAt(0)] = 1;
  }
  phraseIndex = { english, firstWordShapes, cjk, cjkFirstUnits };
  return phraseIndex;
}

/** Every occurrence (overlapping ones included) of the phrases of each set, by set, each in text order. */
type Found = readonly [negations: Span[], strong: Span[], medium: Span[]];

/** One pass over the text and its words finds the phrases of all three sets. */
function findPhrases(text: string, words: readonly number[]): Found {
  const found: Found = [[], [], []];
  const index = phrasesIndex();
  const add = (p: Phrase, start: number, end: number) => {
    for (const k of p.sets) found[k]!.push({ phrase: p.phrase, start, end });
  };
  if (CJK_CHAR.test(text)) {
    for (let i = 0; i < text.length; i++) {
      if (index.cjkFirstUnits[text.charCodeAt(i)] === 0) continue;
      for (const p of index.cjk.get(text.charCodeAt(i)) ?? []) {
        if (text.startsWith(p.phrase, i)) add(p, i, i + p.phrase.length);
      }
    }
  }
  for (let w = 0; w < words.length; w += 2) {
    const start = words[w] as number;
    const length = (words[w + 1] as number) - start;
    const shape = wordShape(text, start, length);
    if (shape >= 0 && ((index.firstWordShapes[shape] as number) & (1 << length)) === 0) continue;
    for (const p of index.english.get(text.slice(start, start + length)) ?? []) {
      const end = phraseEnd(text, words, w, p.words);
      if (end >= 0) add(p, start, end);
    }
  }
  for (const spans of found) {
    spans.sort((a, b) => a.start - b.start || a.end - b.end || (a.phrase < b.phrase ? -1 : 1));
  }
  return found;
}

/**
 * Where a phrase of `phraseWords` starting at word pair `w` ends, or -1: its next words must
 * follow with nothing but whitespace between them.
 */
function phraseEnd(
  text: string,
  words: readonly number[],
  w: number,
  phraseWords: readonly string[],
): number {
  let end = words[w + 1] as number;
  for (let k = 1; k < phraseWords.length; k++) {
    const at = w + 2 * k;
    if (at >= words.length) return -1;
    const start = words[at] as number;
    const want = phraseWords[k] as string;
    if ((words[at + 1] as number) - start !== want.length || !text.startsWith(want, start)) return -1;
    if (!WHITESPACE_ONLY.test(text.slice(end, start))) return -1;
    end = start + want.length;
  }
  return end;
}

/** "things we should do next", "items that should be addressed next": a plan of the work, not a rule. */
const NEXT_AFTER = /^\s+(?:[a-z']+\s+){0,2}next\b(?![.\-/_]\w)/;

/**
 * "the types should be updated in page.svelte", "there should be added a modal": a modal before
 * a passive verb of change asks for one change now, it sets no standing rule.
 */
const CHANGE_AFTER =
  /^\s+(?:also\s+|now\s+)?be\s+(?:updated|changed|fixed|added|moved|removed|renamed|refactored|rewritten|deleted|replaced|created|implemented|extracted|converted|modified|adjusted|split)\b/;

/**
 * "neither the name nor the id need to be provided": a requirement, as "is required" is, unless
 * what follows is a verb of change or "done" (one task now: "the types need to be updated") or
 * a relative clause holds it ("the comments that need to be addressed" names an object).
 */
const NEED_PHRASES: ReadonlySet<string> = new Set(["need to be", "needs to be"]);
const RELATIVE_BEFORE = /\b(?:that|which|what)\s+$/;

/** Whether the modal marker `m` (should, must) says what comes next (NEXT_AFTER) or asks for a change (CHANGE_AFTER). */
function plansNext(text: string, m: Span): boolean {
  if (NEED_PHRASES.has(m.phrase)) {
    const after = text.slice(m.end, m.end + 40);
    return CHANGE_AFTER.test(` be${after}`) || /^\s+done\b/.test(after) ||
      RELATIVE_BEFORE.test(text.slice(Math.max(0, m.start - 8), m.start));
  }
  if (m.phrase !== "should" && m.phrase !== "must") return false;
  const after = text.slice(m.end, m.end + 40);
  return NEXT_AFTER.test(after) || CHANGE_AFTER.test(after);
}

/**
 * "use pnpm instead of npm" chooses; "make the command take a path instead of a name" asks for a
 * feature. "instead of" and "rather than" are a choice only with a verb of choice (CHOICE_VERBS)
 * in their sentence, before or after them ("instead of strings, use constants").
 */
function unchosenAlternative(text: string, m: Span): boolean {
  if (m.phrase !== "instead of" && m.phrase !== "rather than") return false;
  SENTENCE_END.lastIndex = m.end;
  const next = SENTENCE_END.exec(text);
  const end = next === null ? text.length : next.index;
  return !CHOICE_VERB.test(text.slice(Math.max(0, m.start - 200), m.start)) &&
    !CHOICE_WORD.test(text.slice(m.end, end));
}

/** The negations that, before a verb of seeing or working, may report what happens instead of forbidding. */
const REPORTING_NEGATIONS: ReadonlySet<string> = new Set(["do not", "don't", "dont"]);
/** A verb of seeing, working or being right after the negation (an adverb may come between): see, show, work, exist… */
const SEEING_OR_WORKING =
  /^\s+(?:(?:even|really|actually|yet|always|seem\s+to|appear\s+to)\s+)?(?:see|seem|show|appear|work|render|load|display|understand|exist)\b/;
/** "whenever I …": what happens to me, unless it opens its clause ("Whenever I ask for a commit, …"). */
const FIRST_PERSON_AFTER = /^\s+i\b/;
/** What may open a clause before an order or a practice: nothing, or please, just, and…; we or you. */
const ORDER_OPENING =
  /(?:^|[.!?;:,。！？；：，\n(]\s*|\s[-–—]\s+)(?:(?:please|pls|just|and|but|so|then|also)\s+)*(?:(?:we|you)\s+)?$/;

/**
 * "the modules do not show contents" / "I do not see them" / "the box closes whenever I hit
 * enter": a negation before a verb of seeing or working, or a whenever before I, reports what
 * happens; at the head of its clause it is an order ("don't show the badge on mobile"), and after
 * we or you a practice ("we don't show prices to guests").
 */
function reportsWhatHappens(text: string, m: Span): boolean {
  const after = text.slice(m.end, m.end + 40);
  const reports = REPORTING_NEGATIONS.has(m.phrase)
    ? SEEING_OR_WORKING.test(after)
    : m.phrase === "whenever" && FIRST_PERSON_AFTER.test(after);
  return reports && !ORDER_OPENING.test(text.slice(Math.max(0, m.start - 40), m.start));
}

/** "a list people can choose from": what is chosen from is a menu offered, not a choice made. */
function namesAMenu(text: string, m: Span): boolean {
  return (m.phrase === "choose" || m.phrase === "chose") && /^\s+from\b/.test(text.slice(m.end, m.end + 8));
}

/** "por favor", "faz o favor de": Portuguese and Spanish for please, not a preference. */
const PLEASE_BEFORE = /\b(?:por|o|um|el|un|de)\s+$/;

/** Whether `m` is the favor of a Portuguese or Spanish please (PLEASE_BEFORE). */
function saysPlease(text: string, m: Span): boolean {
  return (m.phrase === "favor" || m.phrase === "favour") &&
    PLEASE_BEFORE.test(text.slice(Math.max(0, m.start - 8), m.start));
}

/**
 * Why the marker `m`, where it stands, sets no rule though no negation cancels it (the plan of
 * the work, a feature asked for, a report, a please, a menu), or null when it may.
 */
function saysNoRule(text: string, m: Span): string | null {
  if (plansNext(text, m)) return "… next";
  if (unchosenAlternative(text, m)) return "no verb of choice";
  if (reportsWhatHappens(text, m)) return "a report of what happens";
  if (saysPlease(text, m)) return "please";
  if (namesAMenu(text, m)) return "a menu (choose from)";
  return null;
}

/** Does `neg` cancel the marker `m`: contain it, overlap its start (不一定要), or end directly before it? */
function cancels(text: string, neg: Span, m: Span): boolean {
  if (neg.start === m.start) return neg.end > m.end; // never mind ⊃ never, 不要紧 ⊃ 不要
  if (neg.start > m.start) return false;
  if (neg.end > m.start) return true; // 没决定, 要不要, 不一定要
  const gap = text.slice(neg.end, m.start);
  if (CJK_CHAR.test(neg.phrase)) {
    return [...neg.phrase].length === 1 ? WHITESPACE_ONLY.test(gap) : CJK_GAP.test(gap);
  }
  return ENGLISH_GAP.test(gap);
}

/**
 * "No deploys on Friday." / "upload it to GitHub, no secret keys" / "…, and no console.log": a
 * sentence or clause (after a comma, a semicolon, a colon, a dash, "and" or "but") that opens
 * with "no" and a word states a prohibition — not "no," or "no." (an answer), and not the
 * idioms excluded below ("no problem", "no idea", "No such file": a message).
 */
const OPENING_NO =
  /(?:^|[.!?;:,。！？；：，\n]\s*|\b(?:and|but)\s+|\s[-–—]\s+)(no)\s+(?!(?:problem|problems|worries|worry|idea|clue|luck|thanks|doubt|matter|such)\b)[a-z]/g;

/** Where each "no" that opens a sentence or clause with a word (OPENING_NO) starts. */
function openingNos(text: string): number[] {
  const starts: number[] = [];
  OPENING_NO.lastIndex = 0;
  for (let m = OPENING_NO.exec(text); m !== null; m = OPENING_NO.exec(text)) {
    starts.push(m.index + m[0].lastIndexOf("no"));
    // The word after "no" may open the next match's clause: step back onto it.
    OPENING_NO.lastIndex = m.index + m[0].length - 1;
  }
  return starts;
}

/**
 * "use pnpm, not npm" / "we use tabs, not spaces": a clause after a comma or a dash that opens
 * with "not" and a word, after a verb of choice, names the option turned down — a choice, of
 * medium strength — unless it is an aside (excluded below: "not sure", "not yet").
 */
const CLAUSE_NOT =
  /(?:,|\s[-–—])\s*(not)\s+(?!(?:sure|yet|now|really|quite|exactly|much|working|that|bad|only|just|even|always)\b)[a-z`'"@./_-]/g;

/** Verbs of choice: use pnpm, prefer tabs, stick with Postgres. */
const CHOICE_VERBS = "use|uses|using|prefer|prefers|pick|choose|go with|stick with|keep";
const CHOICE_WORD = new RegExp(`\\b(?:${CHOICE_VERBS})\\b`);
/** A verb of choice earlier in the same sentence: "use pnpm, not npm", not "you edited main, not the branch". */
const CHOICE_VERB = new RegExp(`\\b(?:${CHOICE_VERBS})\\b[^.!?\\n]*$`);

/** Where each "not" that opens a clause (CLAUSE_NOT) after a verb of choice starts. */
function clauseNots(text: string): number[] {
  const starts: number[] = [];
  CLAUSE_NOT.lastIndex = 0;
  for (let m = CLAUSE_NOT.exec(text); m !== null; m = CLAUSE_NOT.exec(text)) {
    if (CHOICE_VERB.test(text.slice(Math.max(0, m.index - 200), m.index))) {
      starts.push(m.index + m[0].lastIndexOf("not"));
    }
  }
  return starts;
}

/**
 * "Decision: nightly backups are pg_dump…" / "Rule: …" / "决定：…": a sentence that opens with
 * one of these labels and a colon states a decision, whatever words follow.
 */
const OPENING_LABEL =
  /(?:^|[.!?;。！？；\n]\s*)(?:[-*•]\s*)?(decision|decided|rule|convention|policy|决定|规则|约定|決定|ルール|решение|правило)\s*[:：]/g;

/**
 * "When you edit TODO.md, lead each line with a checkbox" / "Before we release, bump the version":
 * a sentence that opens with a condition on what you or we do (when, whenever, before, after,
 * each time, every time) and goes on, after a comma, to say what to do then states a standing
 * rule — unless what follows the comma is a statement of fact (it fails, the server…).
 */
const CONDITIONAL_RULE =
  /(?:^|[!?;。！？；\n]\s*|\.\s+)(when|whenever|before|after|each time|every time)\s+(?:you|we)\b(?:[^,.!?\n]|\.(?=\S)){1,100},\s*(?!(?:you|we|i|it|its|it's|the|this|that|these|those|there|then|he|she|they|my|our|your|a|an|what|why|how|which|where|who|does|do|did|is|are|was|were|can|could|should|would|will|shall)\b)[a-z]/g;

/** Where each conditional rule (CONDITIONAL_RULE) starts, and its condition word's end. */
function conditionalRules(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  CONDITIONAL_RULE.lastIndex = 0;
  for (let m = CONDITIONAL_RULE.exec(text); m !== null; m = CONDITIONAL_RULE.exec(text)) {
    const start = m.index + m[0].indexOf(m[1]!);
    out.push({ start, end: start + m[1]!.length });
    CONDITIONAL_RULE.lastIndex = m.index + m[0].length;
  }
  return out;
}

/** Where each label that opens a sentence (OPENING_LABEL) starts, and its length. */
function openingLabels(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  OPENING_LABEL.lastIndex = 0;
  for (let m = OPENING_LABEL.exec(text); m !== null; m = OPENING_LABEL.exec(text)) {
    const start = m.index + m[0].indexOf(m[1]!);
    out.push({ start, end: start + m[1]!.length });
  }
  return out;
}

/** Every marker occurrence in `text`, with the negation that cancels it, in text order. */
export function findMarkers(text: string): MarkerHit[] {
  const t = normalizeForMarkers(text);
  const [negations, strong, medium] = findPhrases(t, englishWords(t));
  const hits: MarkerHit[] = openingNos(t).map((start) => ({
    marker: "no …",
    strength: "strong",
    start,
    end: start + 2,
    negatedBy: null,
    inQuestion: inQuestion(t, start + 2),
  }));
  for (const start of clauseNots(t)) {
    hits.push({
      marker: ", not …",
      strength: "medium",
      start,
      end: start + 3,
      negatedBy: null,
      inQuestion: inQuestion(t, start + 3),
    });
  }
  for (const l of conditionalRules(t)) {
    hits.push({
      marker: "when you …, do …",
      strength: "medium",
      start: l.start,
      end: l.end,
      negatedBy: null,
      inQuestion: inQuestion(t, l.end),
    });
  }
  for (const l of openingLabels(t)) {
    hits.push({
      marker: `${t.slice(l.start, l.end)}:`,
      strength: "strong",
      start: l.start,
      end: l.end,
      negatedBy: null,
      inQuestion: inQuestion(t, l.end),
    });
  }
  const lists: readonly [MarkerStrength, readonly Span[]][] = [["strong", strong], ["medium", medium]];
  for (const [strength, spans] of lists) {
    for (const m of spans) {
      const neg = negations.find((n) => cancels(t, n, m));
      hits.push({
        marker: m.phrase,
        strength,
        start: m.start,
        end: m.end,
        negatedBy: neg?.phrase ?? saysNoRule(t, m),
        inQuestion: inQuestion(t, m.end),
      });
    }
  }
  return hits.sort((a, b) =>
    a.start - b.start || a.end - b.end ||
    (a.strength === b.strength ? 0 : a.strength === "strong" ? -1 : 1) ||
    (a.marker < b.marker ? -1 : a.marker > b.marker ? 1 : 0)
  );
}

/**
 * The strongest marker in `text` that no negation cancels and no question holds, or null. The
 * same answer as the strongest live hit of findMarkers, without building and sorting the hits:
 * the index build asks it of every record.
 */
export function markerStrength(text: string): MarkerStrength | null {
  const t = normalizeForMarkers(text);
  const [negations, strong, medium] = findPhrases(t, englishWords(t));
  if (openingNos(t).some((start) => !inQuestion(t, start + 2))) return "strong";
  if (openingLabels(t).some((l) => !inQuestion(t, l.end))) return "strong";
  const live = (m: Span) =>
    !inQuestion(t, m.end) && !negations.some((n) => cancels(t, n, m)) && saysNoRule(t, m) === null;
  if (strong.some(live)) return "strong";
  if (clauseNots(t).some((start) => !inQuestion(t, start + 3))) return "medium";
  if (conditionalRules(t).some((l) => !inQuestion(t, l.end))) return "medium";
  return medium.some(live) ? "medium" : null;
}

/**
 * Questions, without a question mark too: a statement that ends in a question mark or a question
 * particle (吗, 呢, か), or that opens or is built around a question word (what, why, how…,
 * 为什么, 怎么, 哪, なぜ, どう…, почему, как, ли). Asking is not deciding.
 */
const QUESTION_END = /(?:[?？]|[吗呢]|(?:です|ます|でしょう|の)?か|かな)\s*[。.!！…~～]*\s*$/;
const QUESTION_OPENER =
  /^\s*(?:what|why|how|which|who|whose|whom|is|are|was|were|does|did|can|could|would|should|will|shall|has|have|may|might|isn't|aren't|doesn't|didn't|can't|won't|wouldn't|shouldn't)\b/i;
/**
 * "When selecting a procedure, a callback should be sent" / "Where possible, prefer X": when and
 * where open a time or place clause; they ask only with a verb of asking right after them (when
 * does…, where is…).
 */
const CLAUSE_OPENER_QUESTION =
  /^\s*(?:when|where)\s+(?:is|are|was|were|do|does|did|will|would|can|could|should|shall|has|have|had|may|might|must|am)\b/i;
const QUESTION_WORD_ZH =
  /为什么|为何|怎么|怎样|如何|哪|是否|能否|可否|是不是|有没有|对不对|行不行|好不好|(?<![没不])什么/;
const QUESTION_WORD_JA = /なぜ|どうして|どうやって|どうすれば|どこ|どれ|いつ|ですか|ますか|でしょうか/;
const QUESTION_WORD_RU =
  /(?:^|\s)(?:почему|зачем|как|где|когда|какой|какая|какие|что\s+если)(?:\s|$)|\sли(?:\s|$)/i;

/** True when `statement` (one sentence) asks rather than states. */
export function isQuestion(statement: string): boolean {
  const t = statement.normalize("NFKC");
  // "When you edit TODO.md, lead each line with a checkbox": a condition, then what to do.
  const opener = (QUESTION_OPENER.test(t) || CLAUSE_OPENER_QUESTION.test(t)) &&
    conditionalRules(t.toLowerCase()).length === 0;
  return QUESTION_END.test(t) || opener || QUESTION_WORD_ZH.test(t) ||
    QUESTION_WORD_JA.test(t) || QUESTION_WORD_RU.test(t);
}

/** The shortest stem of a decision word's typo that is a marker term (shorter ones are other words' stems). */
const TYPO_STEM_MIN = 5;
/** Stems of decision words' typos that are words of their own: decide, away (awai), insta(gram). */
const TYPO_STEMS_OF_WORDS: ReadonlySet<string> = new Set(["decide", "awai", "insta"]);

/** Words of marker phrases that say nothing but how a choice is made ("instead of", "rather than"). */
const CHOICE_WORDS: readonly string[] = ["instead", "rather"];

/**
 * The index terms of every marker and negation phrase (tokenize.ts), derived: the words that make
 * a decision say how it is said (always, never, instead, 必须…), not what it is about, so the gate
 * never counts them toward a topic. Only one-word markers (and every CJK one), and CHOICE_WORDS:
 * the other words of a phrase ("we moved", "let's use") are ordinary words on their own.
 * Tokenizing the few hundred phrases costs a cold process about 2 ms, a twentieth of the
 * per-prompt hook, so the hook reads the stored result (marker_terms.ts) and this derivation is
 * what `deno task gen:marker-terms` writes there and tests/rank/marker_terms_test.ts compares.
 */
export function deriveMarkerTerms(): string[] {
  // A typo of a decision word is that word (phrasesIndex), so it says how as the word does; its
  // stem, when it is long enough not to be another word's (insta, deci) or a word of its own.
  const typos = TYPO_TOLERANT.flatMap((w) => typosOf(w)).filter((t) => !NOT_TYPOS.has(t))
    .flatMap((t) => tokenize(t)).filter((t) => t.length >= TYPO_STEM_MIN && !TYPO_STEMS_OF_WORDS.has(t));
  const terms = [...STRONG_SET, ...MEDIUM_SET, ...NEGATION_SET, ...CHOICE_WORDS].filter((p) =>
    CJK_CHAR.test(p) || !/\s/.test(p)
  ).flatMap((p) => tokenize(p)).concat(typos);
  return [...new Set(terms)].sort();
}

let markerTermSet: ReadonlySet<string> | undefined;
/** The index terms of the marker phrases (deriveMarkerTerms), from the stored table. */
export function markerTerms(): ReadonlySet<string> {
  markerTermSet ??= new Set(MARKER_TERMS.split(" "));
  return markerTermSet;
}

/** The strength of a single statement as a decision: its live marker, or null for a question or no marker. */
export function statementDecision(statement: string): MarkerStrength | null {
  return isQuestion(statement) ? null : markerStrength(statement);
}

/** Where a clause ends inside a sentence: a comma, a semicolon, a colon, a dash between spaces, "but". */
const CLAUSE_BREAK = /[,;:，；：、]|\s[-–—]\s|\bbut\b/g;

/** Prohibitions: what they rule out follows a verb of use after them ("never use npm", "不要再用 Redis 锁"). */
const PROHIBITIONS: ReadonlySet<string> = new Set([
  "never",
  "must not",
  "mustn't",
  "do not",
  "don't",
  "dont",
  "don't ever",
  "no longer",
  "stop using",
  "avoid",
  "不要",
  "不准",
  "不许",
  "不能再",
  "别再",
  "别用",
  "严禁",
  "永远不要",
  "绝对不要",
  "千万不要",
  "绝不",
  "不再",
  "二度と",
  "никогда",
  "не используй",
  "не используйте",
  "не надо",
]);
/** Contrasts: the thing after them is the alternative turned down ("instead of Y", "use X, not Y"). */
const CONTRASTS: ReadonlySet<string> = new Set([
  ", not …",
  "instead of",
  "rather than",
  "而不是",
  "代替",
  "вместо",
]);
/** Bans: the thing before them is turned down ("Tailwind is off the table", "Xを使わないで"). */
const BANS: ReadonlySet<string> = new Set([
  "forbidden",
  "prohibited",
  "banned",
  "not allowed",
  "off the table",
  "使わないで",
  "使わない",
  "使用しない",
  "ではなく",
  "じゃなくて",
  "代わりに",
]);
/**
 * Verbs of use: after a prohibition, what follows them is the tool turned down. A marker that
 * holds one (stop using, 别用, не используй) is its own.
 */
const USE_VERB =
  /^(?:use|using|install|installing|add|adding|import|importing|run|running|call|calling|用|使用|采用|引入|写|装|使う|使っ|использ\S*|ставь|ставить)$/;
const SELF_USE: ReadonlySet<string> = new Set(["stop using", "别用", "не используй", "не используйте"]);

/** Words (or CJK characters) of a clause a rule reaches: "never use the npm", "instead of plain CSS modules". */
export const RULE_REACH = 3;

/** A unit of reach: a CJK character, or a run of anything else but spaces and clause breaks. */
const REACH_UNIT =
  /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3]|[^\s,;:，；：、。！？\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3]+/g;

/**
 * What a standing rule turns down, by the live markers that do (not negated, not asked): the
 * RULE_REACH words after a verb of use that follows a prohibition ("never use npm", "不要再用 Redis
 * 锁", "не используй moment.js"), or a prohibition's one word when its clause holds no other
 * ("never npm"); after a contrast ("instead of Y", "use X, not Y", "而不是 Y"); before a ban
 * ("Tailwind is off the table", "Xを使わないで"). A prohibition of anything else ("don't mention
 * it", "never forget") turns no tool down. In NFKC form, with the statement's case.
 */
export function ruledOut(statement: string): string[] {
  const hits = findMarkers(statement).filter((h) =>
    h.negatedBy === null && !h.inQuestion &&
    (PROHIBITIONS.has(h.marker) || CONTRASTS.has(h.marker) || BANS.has(h.marker))
  );
  if (hits.length === 0) return [];
  const t = normalizeForMarkers(statement);
  // The spans keep their case (a name is often told by it: Redis, Tailwind) where lower-casing
  // kept every offset.
  const cased = statement.normalize("NFKC").replace(/\u2019/g, "'");
  const out = cased.length === t.length ? cased : t;
  const bounds = [0];
  CLAUSE_BREAK.lastIndex = 0;
  for (let m = CLAUSE_BREAK.exec(t); m !== null; m = CLAUSE_BREAK.exec(t)) bounds.push(m.index);
  bounds.push(t.length);
  const units: { start: number; end: number; text: string }[] = [];
  REACH_UNIT.lastIndex = 0;
  for (let m = REACH_UNIT.exec(t); m !== null; m = REACH_UNIT.exec(t)) {
    units.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  const spans: string[] = [];
  const span = (side: readonly { start: number; end: number }[]) => {
    if (side.length > 0) spans.push(out.slice(side[0]!.start, side.at(-1)!.end));
  };
  for (const h of hits) {
    let k = 0;
    while (k + 2 < bounds.length && bounds[k + 1]! <= h.start) k++;
    const inside = units.filter((u) => u.start >= bounds[k]! && u.end <= bounds[k + 1]!);
    const after = inside.filter((u) => u.start >= h.end);
    if (BANS.has(h.marker)) span(inside.filter((u) => u.end <= h.start).slice(-RULE_REACH));
    else if (CONTRASTS.has(h.marker) || SELF_USE.has(h.marker)) span(after.slice(0, RULE_REACH));
    else if (after.length === 1) span(after);
    else {
      // The verb of use within the reach ("never use", "不要再用": 再 before 用).
      const verb = after.slice(0, RULE_REACH).findIndex((u) => USE_VERB.test(u.text));
      if (verb >= 0) span(after.slice(verb + 1, verb + 1 + RULE_REACH));
    }
  }
  return spans;
}

/**
 * A fact: a subject, then within its first words what it is or where it lives ("thumbnails are
 * 320×180 WebP", "the handbook lives in docs/handbook", "the api listens on port 8080").
 */
const FACT_SHAPE =
  /^\s*(?:\S+\s+){0,4}?(?:is|are|lives?\s+(?:in|at|under)|sits?\s+(?:in|at|under)|goes\s+(?:in|to)|stays?\s+(?:in|at)|runs?\s+on|listens?\s+on)\s/i;
const FACT_SHAPE_ZH = /^[^，。,]{1,12}?(?:是|为|放在|位于)/;
/** A value a fact states: a size or a count with its unit (320×180, 15 秒, 30s, 2MB), a port, a version. */
const FACT_VALUE =
  /\d+\s*[x×]\s*\d+|\b\d+(?:\.\d+)?\s*(?:px|ms|s|sec|secs|seconds?|min|minutes?|hours?|days?|kb|mb|gb|%|rem|em|dpi|fps|chars?|characters?|lines?|items?|rows?)\b|\d+\s*(?:秒|分钟|小时|天|像素|个|条|行)|\bport\s+\d+|\bv\d+(?:\.\d+)+\b/i;
/** …or, for where something lives, a path after in, at or under (docs/handbook). */
const FACT_PLACE = /\b(?:in|at|under)\s+`?[\w.-]+\/[\w./-]*/i;
/** A clause that reports a state now (broken, failing, slow, still), not a fact that holds. */
const STATUS =
  /\b(?:fail\w*|error\w*|broken|break\w*|slow\w*|wrong|bug\w*|crash\w*|still|now|currently|anymore|seems?|looks?|missing|empty|undefined|null|not|isn't|aren't|doesn't|don't|can't|won't)\b|报错|失败|不行|不对|太慢|还是/i;

/**
 * Whether a statement holds a durable fact: a clause of it (between commas and semicolons) that
 * opens with what it is about and says what that is or where it lives, with a value (a size, a
 * count with its unit, a port, a version) or a path it lives in, and reports no state
 * ("thumbnails are 320×180 WebP, can you regenerate them"; not "the build is slow now", not
 * "read @README.md to understand it").
 */
export function durableFact(statement: string): boolean {
  const t = statement.normalize("NFKC");
  for (const clause of t.split(/[,;，；]|\s[-–—]\s/)) {
    if (clause.trim() === "" || /[?？]\s*$/.test(clause) || STATUS.test(clause)) continue;
    const shaped = FACT_SHAPE.test(clause) || FACT_SHAPE_ZH.test(clause.trim());
    if (shaped && (FACT_VALUE.test(clause) || FACT_PLACE.test(clause))) return true;
  }
  return false;
}

/**
 * Words that turn the next few words down, in a prompt or a rule: "no co-authors", "without
 * Docker", "do not add Claude", "sem bot", "不要改动源码", "без авторизации". Wider than the
 * prohibitions of ruledOut, which a standing rule needs: here any "no X" counts, because the
 * question is only whether two texts turn the same thing down.
 */
const TURN_DOWN_BEFORE_WORDS =
  /(?<![\p{L}\p{N}])(?:no|not|never|don'?t|dont|do not|without|w\/o|avoid|stop|sem|sin|não|nao|nunca|не|без|нельзя|никогда)(?![\p{L}\p{N}])|不要|不用|不再|别|没有|无需|禁止|勿/giu;
/** Japanese turns down what comes before: "コメントは入れない", "ハードコーディングはしないで". */
const TURN_DOWN_AFTER_WORDS = /ないで|ない|なく|せず|禁止/g;
/** How far a turn-down reaches: words after it, or CJK characters on either side. */
export const TURN_DOWN_REACH_WORDS = 5;
export const TURN_DOWN_REACH_CJK = 8;
const TURN_DOWN_UNIT =
  /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3]|[^\s,;:，；：、。！？()（）\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3]+/gu;

/** Ends a sentence for turnedDown: what a turn-down reaches stops there. */
const TURN_DOWN_SENTENCE_END = /[.!?。！？\n]/g;
/** Ends a sentence that is stated, not asked: a question mark before one of these asks. */
const STATED_END = /[.!。！\n]/g;
const QUESTION_MARK = /[?？]/g;

/** The offsets of every match of `re` in `t`, in order: where each starts, or with `after`, ends. */
function offsetsOf(re: RegExp, t: string, after = false): number[] {
  const out: number[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(t); m !== null; m = re.exec(t)) out.push(after ? m.index + m[0].length : m.index);
  return out;
}

/**
 * The spans a text turns down (turn-down words above; a question turns nothing down): the few
 * words after a turn-down word within its clause, or the CJK characters before a Japanese one.
 * Lower-cased, NFKC. Linear in the text: the clause and sentence ends are found once and walked
 * with the turn-down words, which come in text order.
 */
export function turnedDown(text: string): string[] {
  const t = normalizeForMarkers(text);
  const spans: string[] = [];
  // Where clauses end (a clause break or a sentence end), and where a sentence is stated or asked.
  const ends = [...offsetsOf(CLAUSE_BREAK, t), ...offsetsOf(TURN_DOWN_SENTENCE_END, t)].sort((a, b) => a - b);
  // …and where the next clause starts after each end (a break of several characters: " - ").
  const starts = [...offsetsOf(CLAUSE_BREAK, t, true), ...offsetsOf(TURN_DOWN_SENTENCE_END, t, true)].sort((
    a,
    b,
  ) => a - b);
  const stated = offsetsOf(STATED_END, t);
  const asks = offsetsOf(QUESTION_MARK, t);
  /** The first offset in `list` at or after `at`, from `k` on (the walk's position). */
  const walk = (list: readonly number[], k: { i: number }, at: number): number => {
    while (k.i < list.length && list[k.i]! < at) k.i++;
    return k.i < list.length ? list[k.i]! : t.length;
  };
  const asked = (at: number, ks: { i: number }, ka: { i: number }) =>
    walk(asks, ka, at) < walk(stated, ks, at);

  const ke = { i: 0 };
  let ks = { i: 0 };
  let ka = { i: 0 };
  TURN_DOWN_BEFORE_WORDS.lastIndex = 0;
  for (let m = TURN_DOWN_BEFORE_WORDS.exec(t); m !== null; m = TURN_DOWN_BEFORE_WORDS.exec(t)) {
    const end = m.index + m[0].length;
    if (asked(end, ks, ka)) continue;
    const clauseEnd = walk(ends, ke, end);
    const after = t.slice(end, Math.max(end, clauseEnd));
    let words = 0;
    let cjk = 0;
    let last = 0;
    TURN_DOWN_UNIT.lastIndex = 0;
    for (let u = TURN_DOWN_UNIT.exec(after); u !== null; u = TURN_DOWN_UNIT.exec(after)) {
      if (CJK_CHAR.test(u[0])) cjk++;
      else words++;
      if (words > TURN_DOWN_REACH_WORDS || cjk > TURN_DOWN_REACH_CJK) break;
      last = u.index + u[0].length;
    }
    if (last > 0) spans.push(after.slice(0, last).trim());
  }
  ks = { i: 0 };
  ka = { i: 0 };
  /** The start of the clause a Japanese turn-down word is in: the last clause start at or before it. */
  let clauseStart = 0;
  let kc = 0;
  TURN_DOWN_AFTER_WORDS.lastIndex = 0;
  for (let m = TURN_DOWN_AFTER_WORDS.exec(t); m !== null; m = TURN_DOWN_AFTER_WORDS.exec(t)) {
    if (asked(m.index + m[0].length, ks, ka)) continue;
    while (kc < starts.length && starts[kc]! <= m.index) clauseStart = starts[kc++]!;
    const from = Math.max(clauseStart, m.index - TURN_DOWN_REACH_CJK * 2);
    const before = t.slice(from, m.index);
    if (!CJK_CHAR.test(before)) continue;
    spans.push(before.trim());
  }
  return spans;
}
