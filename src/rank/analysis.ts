/**
 * What the index stores about a record, in one place: its terms (tokenize.ts, with the
 * corpus-derived CJK words), its marker (markers.ts) and its time. The index stores whatever these
 * give; ranking and the gate read it through `Corpus`. Change any of them and bump
 * ANALYSIS_VERSION: an index built by another analysis is rebuilt from the records by the next
 * collect, and never read as if it were current (tests/rank/build_equivalence_test.ts fails until
 * the version is bumped).
 *
 * The CJK words are the one corpus-wide input (cjk_words.ts derives them from the corpus's own
 * statistics), and deriving them reads every text they come from, in memory that grows with
 * those texts. So that upkeep costs what is new rather than what is old, they come from a
 * *basis*: the records holding CJK text in time order (then by id); up to LEXICON_EXACT_RECORDS of
 * them, all of them (so a small archive is indexed exactly as before); beyond, the newest
 * LEXICON_WINDOW_RECORDS up to the last multiple of LEXICON_STEP_RECORDS. The basis is a function
 * of the records alone, so an index kept up to date by many collects and one built at once from
 * the same records agree exactly; it moves once every LEXICON_STEP_RECORDS new CJK records
 * (amortised O(1) per record), or when a record joins or leaves it (an old one arriving, or one
 * deleted); and deriving from it takes bounded time and memory at any archive size, while the
 * words follow the vocabulary of recent work.
 */
import { compareRecords, type VerdictRecord } from "../record/record.ts";
import { packFlags } from "./bm25.ts";
import { deriveCjkWords, type TextPasses } from "./cjk_words.ts";
import { markerStrength } from "./markers.ts";
import { type CjkLexicon, cjkRunTexts, CjkWordSet, tokenize } from "./tokenize.ts";

export { ANALYSIS_VERSION } from "./analysis_version.ts";

/** Up to this many CJK records, the words come from all of them (a derivation takes ~70 ms here). */
export const LEXICON_EXACT_RECORDS = 4096;
/** Beyond, from at most this many (bounds a derivation: about 0.5 s and 20 MB here). */
export const LEXICON_WINDOW_RECORDS = 32_768;
/** …ending at a multiple of this: the words are derived again once per this many new CJK records. */
export const LEXICON_STEP_RECORDS = 4096;

/** Does this text count for the CJK words (has it a CJK run)? */
export function isBasisText(text: string): boolean {
  return cjkRunTexts(text).length > 0;
}

/** The basis of `n` CJK records (in time order): positions [start, end). */
export function lexiconBasis(n: number): { readonly start: number; readonly end: number } {
  if (n <= LEXICON_EXACT_RECORDS) return { start: 0, end: n };
  const end = Math.floor(n / LEXICON_STEP_RECORDS) * LEXICON_STEP_RECORDS;
  return { start: Math.max(0, end - LEXICON_WINDOW_RECORDS), end };
}

/** The basis of a record set: its CJK records in time order, positions [start, end). */
export function basisRecords(records: readonly VerdictRecord[]): VerdictRecord[] {
  const cjk = records.filter((r) => isBasisText(r.text)).sort(compareRecords);
  const { start, end } = lexiconBasis(cjk.length);
  return cjk.slice(start, end);
}

/** The CJK words of a basis's texts (any order: the result does not depend on it). */
export function deriveLexicon(texts: TextPasses): Set<string> {
  return deriveCjkWords(texts);
}

/** The lexicon a tokenizer takes for a word set (undefined when empty: bigrams only). */
export function lexiconOf(words: ReadonlySet<string>): CjkLexicon | undefined {
  return words.size > 0 ? new CjkWordSet(words) : undefined;
}

/** What the index keeps of one record. */
export interface Analyzed {
  readonly terms: string[];
  readonly timeMs: number;
  readonly flags: number;
}

/** The fields of a record its analysis reads. */
export type AnalyzedFields = Pick<VerdictRecord, "text" | "time" | "kind">;

export function analyze(record: AnalyzedFields, lexicon: CjkLexicon | undefined): Analyzed {
  const ms = Date.parse(record.time);
  return {
    terms: tokenize(record.text, lexicon),
    timeMs: Number.isFinite(ms) ? ms : 0,
    flags: packFlags(record.kind, markerStrength(record.text)),
  };
}
