/**
 * Words of a CJK run by ICU's dictionary (Intl.Segmenter, built into Deno), for telling a word
 * of a prompt from a seam between two words (口的 of 接口|的). Prompt side only: the index keeps
 * its bigrams and corpus-derived words (tokenize.ts), so nothing stored depends on ICU's version.
 *
 * The segmenter is made on first use: ICU loads its CJK dictionary then, tens of milliseconds a
 * process pays once (the warm helper once for all its prompts), and a prompt without CJK never.
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
