/**
 * Bumped when a record's terms, marker or flags could come out differently: tokenizer, stemmer,
 * markers, the CJK word derivation or its basis (analysis.ts). An index built by another version
 * is rebuilt by the next collect and never read as current. Kept apart so the per-prompt path
 * checks it without loading the analysis.
 */
export const ANALYSIS_VERSION = 8;
