/**
 * Decision markers: the words that show a text states a decision, in Chinese and English. This is
 * the one place the lists live. Ranking gives a record with a marker more weight (score.ts), and
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
  "make sure to",
  "under no circumstances",
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
  "do not know",
  "don't think",
  "don't care",
  "don't mind",
  "not certain",
  "maybe",
  "perhaps",
  "whether",
  "wondering",
  "should we",
  "must we",
  "don't decide",
  "do not decide",
  "not decide",
  "yet to decide",
  "to be decided",
  "tbd",
];

/** Words allowed between an English negation and the marker it cancels ("not sure whether we should"). */
export const NEGATION_GAP_WORDS = 2;
/** CJK characters allowed between a multi-character Chinese negation and its marker (不一定要统一用). */
export const NEGATION_GAP_CJK = 2;

const STRONG_SET: ReadonlySet<string> = new Set([...STRONG_MARKERS_ZH, ...STRONG_MARKERS_EN]);
const MEDIUM_SET: ReadonlySet<string> = new Set([...MEDIUM_MARKERS_ZH, ...MEDIUM_MARKERS_EN]);
const NEGATION_SET: ReadonlySet<string> = new Set([...NEGATIONS_ZH, ...NEGATIONS_EN]);

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
const ENGLISH_GAP = new RegExp(`^\\s*(?:[a-z0-9']+\\s+){0,${NEGATION_GAP_WORDS}}$`);
const CJK_GAP = new RegExp(`^\\s*(?:[\\u3400-\\u4dbf\\u4e00-\\u9fff]\\s*){0,${NEGATION_GAP_CJK}}$`);
const WHITESPACE_ONLY = /^\s*$/;

/** The form markers are matched in. */
function normalizeForMarkers(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\u2019/g, "'");
}

/** An English word of the normalised text: a run of [a-z0-9_'] without edge apostrophes. */
interface Word {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const ENGLISH_WORD = /[a-z0-9_']+/g;
const WORD_EDGE_APOSTROPHES = /^'+|'+$/g;

function englishWords(text: string): Word[] {
  const words: Word[] = [];
  ENGLISH_WORD.lastIndex = 0;
  for (let m = ENGLISH_WORD.exec(text); m !== null; m = ENGLISH_WORD.exec(text)) {
    const lead = m[0].length - m[0].replace(/^'+/, "").length;
    const word = m[0].replace(WORD_EDGE_APOSTROPHES, "");
    if (word !== "") words.push({ text: word, start: m.index + lead, end: m.index + lead + word.length });
  }
  return words;
}

/** English phrases indexed by their first word, built once: matching is then one pass over the words. */
let phrasesByFirstWord: Map<string, string[][]> | undefined;

function englishPhraseIndex(): Map<string, string[][]> {
  if (phrasesByFirstWord !== undefined) return phrasesByFirstWord;
  const index = new Map<string, string[][]>();
  for (const list of [STRONG_MARKERS_EN, MEDIUM_MARKERS_EN, NEGATIONS_EN]) {
    for (const phrase of list) {
      const words = phrase.split(" ");
      const first = words[0] as string;
      const bucket = index.get(first) ?? [];
      bucket.push(words);
      index.set(first, bucket);
    }
  }
  phrasesByFirstWord = index;
  return index;
}

/** Every occurrence of each phrase of `phrases`, in text order (overlapping occurrences included). */
function findAll(text: string, words: readonly Word[], phrases: ReadonlySet<string>): Span[] {
  const spans: Span[] = [];
  const hasCjk = CJK_CHAR.test(text);
  for (const phrase of phrases) {
    if (!hasCjk || !CJK_CHAR.test(phrase)) continue;
    for (let i = text.indexOf(phrase); i >= 0; i = text.indexOf(phrase, i + 1)) {
      spans.push({ phrase, start: i, end: i + phrase.length });
    }
  }
  const index = englishPhraseIndex();
  words.forEach((w, i) => {
    for (const phraseWords of index.get(w.text) ?? []) {
      const phrase = phraseWords.join(" ");
      if (!phrases.has(phrase)) continue;
      let ok = true;
      for (let k = 1; k < phraseWords.length && ok; k++) {
        const next = words[i + k];
        const prev = words[i + k - 1] as Word;
        ok = next !== undefined && next.text === phraseWords[k] &&
          WHITESPACE_ONLY.test(text.slice(prev.end, next.start));
      }
      if (ok) {
        const last = words[i + phraseWords.length - 1] as Word;
        spans.push({ phrase, start: w.start, end: last.end });
      }
    }
  });
  return spans.sort((a, b) => a.start - b.start || a.end - b.end || (a.phrase < b.phrase ? -1 : 1));
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
 * "No deploys on Friday." / "No default exports anywhere.": a sentence that opens with "no" and
 * a word (not "no," or "no." — an answer) states a prohibition.
 */
const OPENING_NO = /(?:^|[.!?;:。！？；\n]\s*)(no)\s+[a-z]/g;

/** Every marker occurrence in `text`, with the negation that cancels it, in text order. */
export function findMarkers(text: string): MarkerHit[] {
  const t = normalizeForMarkers(text);
  const words = englishWords(t);
  const negations = findAll(t, words, NEGATION_SET);
  const hits: MarkerHit[] = [];
  OPENING_NO.lastIndex = 0;
  for (let m = OPENING_NO.exec(t); m !== null; m = OPENING_NO.exec(t)) {
    const start = m.index + m[0].indexOf("no");
    hits.push({
      marker: "no …",
      strength: "strong",
      start,
      end: start + 2,
      negatedBy: null,
      inQuestion: inQuestion(t, start + 2),
    });
  }
  const lists: readonly [MarkerStrength, ReadonlySet<string>][] = [["strong", STRONG_SET], [
    "medium",
    MEDIUM_SET,
  ]];
  for (const [strength, phrases] of lists) {
    for (const m of findAll(t, words, phrases)) {
      const neg = negations.find((n) => cancels(t, n, m));
      hits.push({
        marker: m.phrase,
        strength,
        start: m.start,
        end: m.end,
        negatedBy: neg?.phrase ?? null,
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

/** The strongest marker in `text` that no negation cancels and no question holds, or null. */
export function markerStrength(text: string): MarkerStrength | null {
  let best: MarkerStrength | null = null;
  for (const h of findMarkers(text)) {
    if (h.negatedBy !== null || h.inQuestion) continue;
    if (h.strength === "strong") return "strong";
    best = "medium";
  }
  return best;
}
