/**
 * The gate: whether a hint is worth showing. Silence is the default; a quote appears only when a
 * single typed statement of an earlier record is a decision and is about what the prompt asks.
 * Pure: the ranking's result, the candidates' texts and the prompt's shape in; a verdict out,
 * with the rule that decided, so `--explain` and `verdict replay` can say why.
 *
 * Rules before ranking (checked by `preGate`):
 *   persona        hook_personas is set and the session's folder is not listed
 *   machine-made   the prompt is a notification, a command wrapper, or our own injected hint
 *   empty          nothing to search for
 *   paste          the prompt is pasted material only (a log, a table…): it asks nothing itself
 * Rules on each candidate, in rank order. First on the whole record (cheap, from the ranking):
 *   common-only    every matched term is common (stopwords, or used in many conversations)
 *   no-anchor      no matched word is rare enough (ANCHOR_IDF_SHARE of the largest idf, or in
 *                  ANCHOR_MAX_DF records or fewer); a number alone (a year, a count) is never one,
 *                  nor, in an archive under YOUNG_ARCHIVE_RECORDS, an everyday word (canAnchor)
 *   few-terms      fewer than MIN_DISTINCT_THINGS distinct things matched — counted by structure:
 *                  an identifier with its parts is one thing, overlapping CJK n-grams are one
 *                  thing, `npm` and `pnpm` are two — and none of them is an identifier; decision
 *                  words, file extensions and the pieces of the prompt's paths are no topic, and
 *                  the name of a file the prompt names counts only with the file (app.html is
 *                  not the word app)
 *   low-coverage   the record matches less than MIN_COVERAGE of the prompt's informative weight
 *   (a record holding every word of a literal the prompt quotes in backticks — `bun run` — is
 *    judged by its statements, and a statement quoting that literal the same way passes the
 *    anchor and few-terms rules: a literal is one specific thing)
 *   (a record naming a file the prompt names — todo.md, pyproject.toml — passes these three
 *    rules, however many conversations name the file, when it shares one more uncommon word
 *    with the prompt, or the file itself is uncommon: a named file is one specific thing; it is
 *    the topic when the prompt asks to change the file — EDIT_VERB in the sentence naming it —
 *    or when the file, weighed as one rare word, is the share of the prompt a statement needs)
 *   not-a-decision a prompt or commit without a live marker anywhere (the index's marker)
 * Then on its typed statements (statements.ts), the record's text read only now:
 *   repeat         the same text as a candidate already judged (a resend, a template)
 *   paste          most of the record is pasted material
 *   (the topic rules above, now within one statement, and both ways: the statement covers
 *    MIN_COVERAGE of the prompt, PROMPT_MIN_COVERAGE when its decision is soft, and the prompt
 *    MIN_COVERAGE of the statement's rare words; a
 *    decision failing them alone passes when it shares one of the prompt's uncommon words with an
 *    earlier statement of the record that passed them, and is quoted after it: tiedTopic)
 *   not-a-decision no statement that matches is a decision: a prompt's or a commit's statement
 *                  needs a live decision marker (markers.ts: not negated, not in a question), or
 *                  to follow one that announces decisions with a colon ("We decided:") in its
 *                  paragraph; docs and notes are written down on purpose, so their statements count
 *   repeat         the statement is one the prompt says again word for word, or nearly all of
 *                  whose words (RESTATE_SHARE of RESTATE_MIN_TERMS or more, counted with and
 *                  without stopwords) the prompt holds (a template edited a little), or
 *                  already shown in this session (the same text sent again is one thing), or
 *                  the prompt turns down a thing the statement turns down ("commit, no
 *                  co-authors" against "never add co-authors": the person is saying it now)
 *   repeat         the prompt was sent word for word before, after the candidate was said (a
 *                  template: hint.ts REPEAT_MIN_KEY_CHARS key characters or more): it was there to be
 *                  quoted then (lastSending)
 * And between quotes:
 *   weak-tail      a second quote scoring under TAIL_SCORE_SHARE of the first
 */
import { bm25Idf } from "../rank/bm25.ts";
import { durableFact, markerTerms, ruledOut, statementDecision, turnedDown } from "../rank/markers.ts";
import { COMMON_SESSION_SHARE, type SearchHit, type SearchResult } from "../rank/score.ts";
import { isEverydayWord, isStopword } from "../rank/stopwords.ts";
import { isCjkTerm, type TermOrigin, termOrigins } from "../rank/tokenize.ts";
import { analyseRecord, PASTED_SHARE, sameTextKey, type Statement, statementKey } from "./statements.ts";

/**
 * A matched word is an anchor when its idf is at least this share of the largest idf the archive
 * allows (a word in one record): a word in a handful of records in a small archive, in a few
 * hundred of 200,000. A hint needs an anchor: ordinary words together are not a topic.
 */
export const ANCHOR_IDF_SHARE = 0.6;
/**
 * …and a word in this many records or fewer is an anchor in any archive: a decision is said,
 * then written into a rules file and perhaps mentioned once more, and in a young archive of a
 * handful of records that alone would make its words look frequent.
 */
export const ANCHOR_MAX_DF = 3;
/**
 * An archive of fewer records than this is young: one record in it is more than the 1% of the
 * records at which a word is common (score.ts COMMON_SESSION_SHARE), so it cannot show that a
 * person rarely says an everyday word — in thirty-eight records every word is in one or two.
 */
export const YOUNG_ARCHIVE_RECORDS = Math.round(1 / COMMON_SESSION_SHARE);
/**
 * Whether a term can anchor a match in an archive of `docCount` records: an everyday word of
 * English or of programming (stopwords.ts EVERYDAY_WORDS: remove, first, merge, session) cannot
 * in a young archive, where its rarity is no evidence; any other word, and every word in an
 * archive of YOUNG_ARCHIVE_RECORDS or more, can when it is rare enough.
 */
export function canAnchor(term: string, docCount: number): boolean {
  return docCount >= YOUNG_ARCHIVE_RECORDS || !isEverydayWord(term);
}

/** The idf a matched word needs to be an anchor, in an archive of `docCount` records. */
export function anchorIdf(docCount: number): number {
  return Math.min(ANCHOR_IDF_SHARE * bm25Idf(docCount, 1), bm25Idf(docCount, ANCHOR_MAX_DF));
}

/** A verb asking to change a file: "add … to tasks.md", "update @TODO.md", "config.jsonに…を追加して". */
const EDIT_VERB =
  /\b(?:add|adds|adding|update|updating|edit|write|rewrite|change|modify|move|create|remove|delete|rename|clean|fold|insert|append|replace|mark|put|record|reorgani[sz]e|adjust|restructure)\b|追加|更新|編集|修正|変更|移動|作成|削除|書い|書き|記載|添加|加上|修改|编辑|删除|移动|创建|写|替换|добав|обнов|измен|исправ|удал|перемест|созда|напиш|замен|переимен/i;

/** A statement that announces decisions: a decision word or label followed by a colon. */
const DECISION_LABEL =
  /\b(?:decided|decision|decisions|rule|rules|convention|conventions|policy|agreed)\s*:|(?:决定|规则|约定|決定|ルール)\s*[:：]|(?:решили|решение|правила?)\s*:/i;

/** A statement needs this many distinct rare things of the prompt (anchors), unless one is sharp. */
export const MIN_DISTINCT_THINGS = 2;
/**
 * Share of the prompt's informative idf a record, a firm decision and a statement quoting one of
 * the prompt's literals must match: more than a stray word of it. Also the share of a statement's
 * rare words the prompt must hold (a long sentence that shares a word or two with the prompt is
 * about something else).
 */
export const MIN_COVERAGE = 0.25;
/**
 * …and a soft decision (should, let's use): a good third of what the prompt says, not one of its
 * several subjects. Chosen as a new user meets it, leaving one person out (`deno task eval:sweep`:
 * each person's value chosen on the other thirteen).
 */
export const PROMPT_MIN_COVERAGE = 0.35;
/** …and a decision turning down a name the prompt says, half as much: the name is a fair part of the prompt. */
export const RULED_MIN_COVERAGE = MIN_COVERAGE / 2;
/** For --explain: the everyday words that would have anchored but for a young archive. */
function youngNote(terms: readonly string[], facts: ReadonlyMap<string, TermFacts>): string {
  const everyday = terms.filter((t) => facts.get(t)?.canAnchor === false);
  return everyday.length === 0
    ? ""
    : `; ${
      everyday.join(", ")
    }: everyday words, no anchor in an archive under ${YOUNG_ARCHIVE_RECORDS} records`;
}

/** A second quote must score at least this share of the first, or it is noise next to it. */
export const TAIL_SCORE_SHARE = 0.6;
/** Most quotes one hint shows: the person reads one line; more would bury the point. */
export const MAX_HINT_QUOTES = 3;
/** Characters of a quote in the model's context (recall shows longer ones). */
export const HINT_QUOTE_CHARS = 600;
/** Characters of the quote in the person's one-line notice. */
export const HINT_NOTICE_CHARS = 110;

export type GateRule =
  | "persona"
  | "machine-made"
  | "empty"
  | "paste"
  | "no-candidates"
  | "common-only"
  | "no-anchor"
  | "few-terms"
  | "low-coverage"
  | "not-a-decision"
  | "repeat"
  | "spoke";

export interface HitCheck {
  readonly id: string;
  /** The rule that refused this candidate, or "spoke" when it passed. */
  readonly rule: GateRule | "weak-tail";
  readonly detail: string;
}

/** A quote the gate speaks: a record and the statements of it that are the decision. */
export interface GateQuote {
  readonly hit: SearchHit;
  /** The decision statements, in text order (typed text only). */
  readonly statements: readonly Statement[];
  /** Keys of those statements for the cooldown ledger (statementKey). */
  readonly keys: readonly string[];
  /** True when a quoted statement is a rule or a decision ("you decided"); false for a fact said ("you said"). */
  readonly decided: boolean;
  /** The time (epoch ms) of the earlier decision on the same names this one replaced, or null. */
  readonly changedFrom: number | null;
}

export interface GateVerdict {
  readonly speak: boolean;
  /** For silence: the rule that kept the best candidate (or the prompt) out. */
  readonly rule: GateRule;
  readonly detail: string;
  /** The hits to show, best first (empty when silent). */
  readonly hits: readonly SearchHit[];
  /** What to quote of each hit, in the same order. */
  readonly quotes: readonly GateQuote[];
  /** What the gate said about each candidate it looked at. */
  readonly checks: readonly HitCheck[];
}

/** What the gate needs beside the ranking: the prompt's shape and the candidates' texts. */
export interface GateContext {
  /** The stored text of a candidate; read only for candidates that pass the record-level rules. */
  readonly textOf: (doc: number) => string;
  /** Tokenizes a statement exactly as the index does (the corpus's CJK words). */
  readonly tokenize: (text: string) => readonly string[];
  /** A statement term's idf and commonness in the corpus (for the statement's own weight). */
  readonly termIdf: (term: string) => number;
  /** Whether a statement term is common in the corpus (asked only of rare ones: it may read a posting list). */
  readonly isCommon: (term: string) => boolean;
  /** The searched text's terms with their origins (tokenize.ts termOrigins). */
  readonly origins: readonly TermOrigin[];
  /** statementKey of each of the prompt's own typed statements, and of its whole typed text. */
  readonly promptKeys: ReadonlySet<string>;
  /** Record ids and statement keys already shown in this session (the cooldown ledger). */
  readonly shownKeys: ReadonlySet<string>;
  /** Whether the prompt holds this statement word for word within more words (a template resent). */
  readonly repeats: (statement: string) => boolean;
  /** The literals the prompt quotes in backticks (literalsOf). */
  readonly literals: readonly Literal[];
  /** The prompt's typed text (its statements, pasted material left out). */
  readonly typed: string;
  /**
   * The prompt's typed statements, one sentence each (typed is them joined by newlines). Split
   * again, the joined text can read as a hard-wrapped paste and lose its first sentences.
   */
  readonly sentences: readonly string[];
  /**
   * Whether record `doc` is this prompt word for word: a template the person sent before. False,
   * without reading the record, for a prompt too short to be a template.
   */
  readonly sendsAgain: (doc: number) => boolean;
}

/**
 * A literal the prompt quotes in backticks or double quotes (`bun run`, "uv pip"): one specific thing
 * the person marked as a name or a command. `key` is the sameTextKey of its text, `terms` its
 * searched words.
 */
export interface Literal {
  readonly key: string;
  readonly terms: readonly string[];
}

/** A quoted span longer than this is a piece of code or a sentence, not a name or a command. */
export const MAX_LITERAL_CHARS = 40;
/**
 * A span in backticks, or in straight or curly double quotes: people mark a command or a name
 * with either ("USE "uv pip"!" for "Don't use `pip`, use `uv pip`"), and a decision and a prompt
 * about it need not mark it the same way.
 */
const QUOTED = new RegExp(
  `\`([^\`\n]{1,${MAX_LITERAL_CHARS}})\`|"([^"\n]{1,${MAX_LITERAL_CHARS}})"|\u201c([^\u201c\u201d\n]{1,${MAX_LITERAL_CHARS}})\u201d`,
  "g",
);
/** Words a span in double quotes needs to be a literal (backticks mark code, and need one). */
export const MIN_QUOTED_WORDS = 2;
const QUOTE_MARK = /[`"\u201c]/;

/** The quoted spans of a text, by their sameTextKey. */
function quotedKeys(text: string): string[] {
  if (!QUOTE_MARK.test(text)) return [];
  return [...text.matchAll(QUOTED)].map((m) => sameTextKey(m[1] ?? m[2] ?? m[3]!)).filter((k) => k !== "");
}

/**
 * The literals of a prompt's typed text: each quoted span with the words it is searched by
 * (stopwords left out). A statement quoting the same literal (in backticks or quotes) is about the
 * same thing.
 */
export function literalsOf(typed: string, tokenize: (text: string) => readonly string[]): Literal[] {
  if (!QUOTE_MARK.test(typed)) return [];
  const out: Literal[] = [];
  for (const m of typed.matchAll(QUOTED)) {
    const span = m[1] ?? m[2] ?? m[3]!;
    const key = sameTextKey(span);
    const terms = [...new Set(tokenize(span))].filter((t) => !isStopword(t));
    // One word in double quotes is as often an emphasis or a scare quote ("manual") as a name,
    // and a rare word is matched as a word anyway; a quoted phrase is a command or a name.
    if (m[1] === undefined && span.trim().split(/\s+/).length < MIN_QUOTED_WORDS) continue;
    if (key !== "" && terms.length > 0 && !out.some((l) => l.key === key)) out.push({ key, terms });
  }
  return out;
}

/** Single letters joined by dots are an abbreviation of writing (e.g, i.e, a.k.a), not a name. */
const LETTER_ABBREVIATION = /^(?:\p{L}\.)+\p{L}\.?$/u;

/** A number or an ordinal (2026, 3rd): a value, never a name. */
const VALUE_TERM = /^\d+(?:st|nd|rd|th)?$/;

/** Whether a term is a value (VALUE_TERM): two records sharing a count or a day share no topic. */
export function isValueTerm(term: string): boolean {
  return VALUE_TERM.test(term);
}

/**
 * The local machine, with or without a port (localhost:8008, 127.0.0.1:3000): where every page of
 * a project is served, so it says where, not what.
 */
const LOCAL_HOST = /^(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::\d+)?$/;

/** Folders every project of a kind has (node_modules, .venv): a place, as a path's pieces are. */
const EVERYONES_FOLDERS = /^(?:node_modules|\.?venv|__pycache__|\.git|\.github|\.vscode|\.idea)$/;

/**
 * A term sharp enough to carry a match alone: an identifier or a version (pg_dump, v2.3, gen-itgc).
 * It holds a letter: a date or a bare number (2026-01-05, 8.0) is a value, not a name; an
 * abbreviation of writing (e.g, i.e) is no name either.
 */
export function isSharpTerm(term: string): boolean {
  if (isCjkTerm(term) || !/[a-z]/i.test(term) || LETTER_ABBREVIATION.test(term) || isValueTerm(term)) {
    return false;
  }
  if (LOCAL_HOST.test(term) || EVERYONES_FOLDERS.test(term)) return false;
  return /[_\-.:]/.test(term) || /\d/.test(term);
}

/**
 * The distinct things among `matched` terms, by the prompt's structure. The prompt's units are
 * its Latin runs (an identifier with its parts, a camelCase word with its parts), its paths (all
 * the runs of one token holding / or \\), and its CJK words by ICU's dictionary (the bigrams of one
 * word are one thing; a bigram across two words, 口的 of 接口|的, is a seam and none). A unit is a
 * thing when it holds a matched term no earlier unit did (the same word twice is one thing; two
 * identifiers sharing a part are two). Never by substring: `npm` is not part of `pnpm`.
 */
export function distinctThings(matched: ReadonlySet<string>, origins: readonly TermOrigin[]): number {
  return countThings(matched, promptShape(origins));
}

/** A CJK term opening or closing in hiragana: grammar glued to a word (の履歴, 設定を). */
const GLUED_PARTICLE = /^[\u3041-\u309f]|[\u3041-\u309f]$/;

/** distinctThings on a prompt's shape, worked out once per prompt. */
function countThings(matched: ReadonlySet<string>, shape: PromptShape): number {
  // Units in prompt order: Latin units by their run id, then CJK words.
  const units: { terms: Set<string>; counts: boolean }[] = [];
  const latin = new Map<number, { terms: Set<string>; counts: boolean }>();
  for (const o of shape.latin) {
    if (!matched.has(o.term)) continue;
    let u = latin.get(o.run);
    if (u === undefined) {
      u = { terms: new Set(), counts: true };
      latin.set(o.run, u);
      units.push(u);
    }
    u.terms.add(o.term);
  }
  // CJK units by ICU's words (tokenize.ts termOrigins): the word holding a matched term whole; a
  // corpus-derived word across ICU's words, one of its own; bigrams of one-character words (超时
  // of 超|时, a word ICU lacks) taken left to right without overlap; a seam (口的 of 接口|的) none.
  const cjk = new Map<string, { terms: Set<string>; counts: boolean }>();
  let looseEnd = -1;
  for (const o of shape.cjkBySpan) {
    if (!matched.has(o.term) || o.seam) continue;
    let key: string;
    if (o.unit >= 0) key = `w${o.unit}`;
    else if (o.word) {
      // A corpus-derived word opening or closing in hiragana (の履歴) is a particle glued to a
      // word: the word is the thing, not this.
      if (GLUED_PARTICLE.test(o.term)) continue;
      key = `s${o.start}:${o.end}`;
    } else if (o.loose && o.start >= looseEnd) {
      looseEnd = o.end;
      key = `l${o.start}`;
    } else continue;
    let u = cjk.get(key);
    if (u === undefined) {
      u = { terms: new Set(), counts: true };
      cjk.set(key, u);
      units.push(u);
    }
    u.terms.add(o.term);
  }
  const used = new Set<string>();
  let things = 0;
  for (const u of units) {
    const fresh = [...u.terms].some((t) => !used.has(t));
    for (const t of u.terms) used.add(t);
    if (fresh && u.counts) things++;
  }
  // A matched term the prompt does not hold (an entity alias) is one thing of its own.
  for (const t of matched) if (!shape.terms.has(t)) things++;
  return things;
}

/** The facts of a prompt's terms the gate asks of every candidate and statement, worked out once. */
export interface PromptShape {
  /** Every term of the prompt. */
  readonly terms: ReadonlySet<string>;
  /** The Latin origins, in prompt order. */
  readonly latin: readonly TermOrigin[];
  /** The CJK origins by span (start, then end; prompt order among equals). */
  readonly cjkBySpan: readonly TermOrigin[];
  /** Terms that only ever occur as a file extension or inside a path. */
  readonly places: ReadonlySet<string>;
  /** The prompt's identifiers and versions outside a path (isSharpTerm). */
  readonly sharp: ReadonlySet<string>;
  /** The parts of each identifier outside a path that has two or more parts. */
  readonly sharpRuns: readonly (readonly string[])[];
  /** notTopic: marker words and places. */
  readonly notTopic: TermSet;
  /** The files the prompt names outside a path (a name with an extension: todo.md, pyproject.toml). */
  readonly files: ReadonlySet<string>;
  /** Terms the prompt holds only inside the names of files it names (app of app.html), with those files. */
  readonly fileNameParts: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What notTopic answers: a set of terms by membership. */
export interface TermSet {
  has(term: string): boolean;
}

/**
 * A Japanese n-gram of hiragana only is grammar — a particle, a verb's ending, an auxiliary
 * (から, なっ, った, てく) — not a subject: Japanese writes its content words in kanji and
 * katakana, and these grams are in every sentence of every person.
 */
const HIRAGANA_ONLY = /^[\u3041-\u309f]+$/;

/**
 * A word written in camelCase with this many parts is a name in code (getUserName,
 * TestBehaviorsNo), sharp as one with _ or - is; with two it is as often a product's name
 * (JavaScript, GitHub, OpenAI), which any two people share.
 */
export const CAMEL_IDENTIFIER_PARTS = 3;

/**
 * Files every project has (the agents' instruction files, the readme): naming one says which
 * file, not what about it, and any two people name them. They are words, neither files nor
 * identifiers, for the topic rules.
 */
const EVERYONES_FILES = /^(?:claude|agents|gemini|copilot-instructions|readme)\.md$/;

/**
 * The shape of a prompt (its origins, which are never changed once made): the gate asks it of
 * every candidate and statement, so a PromptGate works it out once per prompt.
 */
export function promptShape(origins: readonly TermOrigin[]): PromptShape {
  const byTerm = new Map<string, boolean>();
  // A folder named by an identifier (export_to_audit) is a thing, not a place (TermOrigin.pathName).
  for (const o of origins) {
    byTerm.set(o.term, (byTerm.get(o.term) ?? true) && (o.extension || o.inPath) && !o.pathName);
  }
  const places = new Set<string>();
  for (const [t, placeOnly] of byTerm) {
    if (placeOnly || LOCAL_HOST.test(t) || EVERYONES_FOLDERS.test(t)) places.add(t);
  }
  // A CJK bigram that is a seam wherever the prompt has it (口的 of 接口|的) is no subject.
  const seamOnly = new Map<string, boolean>();
  for (const o of origins) seamOnly.set(o.term, (seamOnly.get(o.term) ?? true) && o.seam);
  const seams = new Set<string>();
  for (const [t, seam] of seamOnly) if (seam) seams.add(t);
  const markers = markerTerms();
  const sharp = new Set<string>();
  const byRun = new Map<number, TermOrigin[]>();
  for (const o of origins) {
    if (o.pathName) sharp.add(o.term);
    if (o.run < 0 || o.inPath) continue;
    if (isSharpTerm(o.term) && !EVERYONES_FILES.test(o.term)) sharp.add(o.term);
    const list = byRun.get(o.run) ?? [];
    list.push(o);
    byRun.set(o.run, list);
  }
  const sharpRuns: string[][] = [];
  for (const run of byRun.values()) {
    // A run's first term is the whole identifier; its parts follow.
    const [whole, ...parts] = run;
    if (whole === undefined) continue;
    // A camelCase word of CAMEL_IDENTIFIER_PARTS parts or more is a name in code (TestBehaviorsNo).
    const camel = parts.length >= CAMEL_IDENTIFIER_PARTS && /^[a-z]+$/.test(whole.term);
    if (camel) sharp.add(whole.term);
    if ((camel || isSharpTerm(whole.term)) && parts.length >= 2) sharpRuns.push(parts.map((p) => p.term));
  }
  const files = new Set<string>();
  const fileNameParts = new Map<string, Set<string>>();
  const elsewhere = new Set<string>();
  for (const run of byRun.values()) {
    const [whole, ...parts] = run;
    if (whole === undefined) continue;
    if (!whole.term.includes(".") || !run.some((o) => o.extension)) {
      for (const o of run) elsewhere.add(o.term);
      continue;
    }
    if (EVERYONES_FILES.test(whole.term) || LETTER_ABBREVIATION.test(whole.term)) {
      for (const o of run) elsewhere.add(o.term);
      continue;
    }
    files.add(whole.term);
    for (const p of parts) {
      if (p.extension) continue;
      const wholes = fileNameParts.get(p.term) ?? new Set<string>();
      wholes.add(whole.term);
      fileNameParts.set(p.term, wholes);
    }
  }
  for (const o of origins) if (o.run < 0 || o.inPath) elsewhere.add(o.term);
  for (const t of elsewhere) fileNameParts.delete(t);
  const shape: PromptShape = {
    files,
    fileNameParts,
    terms: new Set(byTerm.keys()),
    latin: origins.filter((o) => o.run >= 0),
    cjkBySpan: origins.filter((o) => o.run < 0).sort((a, b) => a.start - b.start || a.end - b.end),
    places,
    sharp,
    sharpRuns,
    notTopic: { has: (t) => markers.has(t) || places.has(t) || seams.has(t) || HIRAGANA_ONLY.test(t) },
  };
  return shape;
}

/**
 * The files the prompt names (a name with an extension, outside a path: todo.md, pyproject.toml):
 * the search starts candidates from them however many conversations name them.
 */
export function promptFiles(origins: readonly TermOrigin[]): ReadonlySet<string> {
  return promptShape(origins).files;
}

/**
 * Terms that never count toward a topic: the words decisions are made of (markers.ts
 * markerTerms: always, never, instead, 必须…), file extensions (md, ts), the pieces of the
 * prompt's paths (a folder is a place, not a topic: two prompts about files in one folder share
 * a path, not a subject), and CJK seams (口的 of 接口|的: no word of the prompt).
 */
export function notTopic(origins: readonly TermOrigin[]): TermSet {
  return promptShape(origins).notTopic;
}

/**
 * Whether the match holds something sharp enough to stand alone: one of the prompt's identifiers
 * or versions (pg_dump, v2.3, gen-itgc) outside a path, matched whole or by two or more of its
 * parts (state_referenced_locally for state_reference_locally). A folder name is a place, not a
 * topic, so a path's pieces are never sharp.
 */
function hasSharpMatch(matched: readonly string[], shape: PromptShape): boolean {
  if (matched.some((t) => shape.sharp.has(t))) return true;
  if (shape.sharpRuns.length === 0) return false;
  const hit = new Set(matched);
  for (const parts of shape.sharpRuns) {
    if (new Set(parts.filter((p) => hit.has(p))).size >= 2) return true;
  }
  return false;
}

interface Verdict {
  readonly rule: GateRule;
  readonly detail: string;
}

/** The topic rules on a set of matched terms: a refusal, or how well they cover the prompt. */
type TopicCheck =
  | { readonly pass: false; readonly rule: GateRule; readonly detail: string; readonly coverage: number }
  | { readonly pass: true; readonly coverage: number; readonly anchors: readonly string[] };

/** What the gate knows of each searched term. */
interface TermFacts {
  readonly idf: number;
  /** Whether it may anchor a match at all (canAnchor: not an everyday word in a young archive). */
  readonly canAnchor: boolean;
  readonly common: boolean;
  readonly entity: boolean;
}

/** A statement of this many distinct terms or more… */
export const RESTATE_MIN_TERMS = 8;
/** …whose terms the prompt holds this share of is said again by the prompt (a template edited a little). */
export const RESTATE_SHARE = 0.9;

/**
 * Whether the prompt holds nearly all the words of a long statement: it says the statement again.
 * Counted on all its words, and again on those that are not stopwords: "Before you do any changes,
 * run X" is said again by "Run X" whatever function words the person put around it this time.
 */
function restates(statementTerms: ReadonlySet<string>, promptTerms: ReadonlySet<string>): boolean {
  let held = 0;
  let content = 0;
  let contentHeld = 0;
  for (const t of statementTerms) {
    const has = promptTerms.has(t);
    if (has) held++;
    if (isStopword(t)) continue;
    content++;
    if (has) contentHeld++;
  }
  const says = (n: number, of: number) => of >= RESTATE_MIN_TERMS && n >= RESTATE_SHARE * of;
  return says(held, statementTerms.size) || says(contentHeld, content);
}

const NO_LITERALS: readonly Literal[] = [];
const NO_SEAMS: ReadonlySet<string> = new Set();

/** The whole term of each Latin word of a text (MySQL's mysql, not my or sql; pg_dump's pg_dump). */
function wholeTerms(text: string): string[] {
  const out: string[] = [];
  const origins = termOrigins(text);
  origins.forEach((o, i) => {
    if (o.run >= 0 && origins[i - 1]?.run !== o.run) out.push(o.term);
  });
  return out;
}

/** A sentence pointing back at the one before it: that, this, these, those, it, them, 这/那, それ/その, это/этот. */
const POINTS_BACK =
  /\b(?:that|this|these|those|it|them|such)\b|这个|这样|这种|那个|那样|それ|その|この|こう|\b(?:это|этот|эта|эти|так)\b/i;

/** A rule the prompt states itself, or a file it names by @, with the terms of each. */
interface PromptRule {
  readonly text: string;
  readonly terms: ReadonlySet<string>;
  /** True for an @-named file (the prompt invokes the rule it holds), false for a sentence stating one. */
  readonly invoked: boolean;
  /** The terms the sentence turns down (markers.ts ruledOut). */
  readonly out: readonly string[];
}

/** Share of a decision's rare-word weight a rule of the prompt must hold to be that rule said again. */
export const SAYS_RULE_SHARE = 0.6;
/** Words a sentence opening with a verb of choice may have and still be one choice said ("USE "uv pip"!"). */
export const CHOICE_SENTENCE_WORDS = 5;
const CHOICE_OPENING =
  /^\s*(?:(?:only|always|just)\s+)?(?:use|using|stick\s+with|go\s+with|prefer)\b|^\s*(?:只用|统一用|改用|用)/i;
/** "commit them without co-authors", "w/o co-authors", "不要…": a request carrying its rule along. */
const WITHOUT = /\bwithout\b|\bw\/o\b|\bsem\b|\bsin\b|\bне\s+\S+|不要|不用|なしで|せずに/i;
const AT_NAME = /(?:^|\s)@([\w.\-/]+\w)/g;
/**
 * A file of rules: a Cursor rule (.mdc), the agents' instruction files, or a name that says rules,
 * preferences, conventions or guidelines. A prompt naming one by @ invokes its rules; naming any
 * other file (@tasks.md) is work on that file.
 */
const RULES_FILE =
  /\.mdc$|(?:^|\/)(?:claude|agents|gemini)\.md$|rule|preference|convention|guideline|instruction|style-?guide/i;

/**
 * The prompt's own rules: its sentences that are decisions (a live marker, not a question), short
 * ones opening with a verb of choice ("use uv pip"), and requests carrying a rule along ("commit
 * them without co-authors"), and the files it names by @
 * (@dont-ignore-errors.mdc), each with its terms.
 */
function promptRules(
  sentences: readonly string[],
  typed: string,
  tokenize: (text: string) => readonly string[],
): PromptRule[] {
  const out: PromptRule[] = [];
  for (const text of sentences) {
    const choice = CHOICE_OPENING.test(text) && text.trim().split(/\s+/).length <= CHOICE_SENTENCE_WORDS;
    if (choice || WITHOUT.test(text) || statementDecision(text) !== null) {
      const turnedDown = ruledOut(text).flatMap((c) => tokenize(c));
      out.push({ text, terms: new Set(tokenize(text)), invoked: false, out: turnedDown });
    }
  }
  for (const m of typed.matchAll(AT_NAME)) {
    if (!RULES_FILE.test(m[1]!)) continue;
    out.push({ text: `@${m[1]}`, terms: new Set(tokenize(m[1]!)), invoked: true, out: [] });
  }
  return out;
}

/** The CJK bigrams of a text that are seams wherever it has them (口的 of 接口|的: tokenize.ts termOrigins). */
function seamsOf(text: string): ReadonlySet<string> {
  const seam = new Map<string, boolean>();
  for (const o of termOrigins(text)) if (o.run < 0) seam.set(o.term, (seam.get(o.term) ?? true) && o.seam);
  const out = new Set<string>();
  for (const [t, is] of seam) if (is) out.add(t);
  return out;
}

/** A word of letters and digits, joined by the joiners of a name (moment.js, date-fns), perhaps quoted (`pip`). */
const SURFACE_WORD = /[`'"]?[\p{L}\p{N}]+(?:[_.\-@/][\p{L}\p{N}]+)*[`'"]?/gu;
const CJK_LETTER = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3]/;
/** A text of this many words or more, this share of them capitalised, is in title case: its capitals name nothing. */
const TITLE_CASE_MIN_WORDS = 4;
const TITLE_CASE_SHARE = 0.7;
/** A sentence's first word: its capital says nothing. */
const SENTENCE_START = /(?:^|[.!?。！？:]\s+|\n)\s*[#*>\-\d.)\s]*$/;

/**
 * The words of a text written as names: capitalised other than as a sentence's first word
 * (Redis, PostgreSQL), holding a digit or a joiner (moment.js, date-fns, v2), quoted (`pip`), or
 * without a vowel (npm, pnpm). An ordinary word (match, local, data) is none, nor an acronym in
 * capitals (MCP, IP, CSS: any two developers say them), nor any word of a text in title case;
 * CJK text has no such mark, and its nouns are no names here.
 */
export function nameWords(text: string): string[] {
  const words = [...text.matchAll(SURFACE_WORD)].filter((m) => !CJK_LETTER.test(m[0]));
  const capitals = words.filter((m) => /^[`'"]?\p{Lu}/u.test(m[0])).length;
  const titleCase = words.length >= TITLE_CASE_MIN_WORDS && capitals >= TITLE_CASE_SHARE * words.length;
  const out: string[] = [];
  for (const m of words) {
    const w = m[0];
    const core = w.replace(/^[`'"]|[`'"]$/g, "");
    const quoted = core.length + 2 === w.length && w[0] === w.at(-1);
    const shouted = /^\p{Lu}+$/u.test(core);
    const first = SENTENCE_START.test(text.slice(0, m.index));
    const capital = !titleCase && !first && !shouted && /\p{Lu}/u.test(core);
    const name = quoted || /[\d_.\-@/]/.test(core) || capital ||
      (/^[a-z]{2,}$/.test(core) && !/[aeiouy]/.test(core));
    if (name) out.push(core);
  }
  return out;
}

/** A candidate's verdict: refused by a rule, or its decision statements. */
type HitVerdict = Verdict | { quote: GateQuote; detail: string; names: readonly string[] };

/**
 * One prompt being judged: everything the gate works out once per prompt (its shape, its terms'
 * facts, its informative weight, the literals' weights) and what it remembers between candidates
 * (the texts judged, the record-level answers). Made by `decide`, dropped with its verdict.
 */
class PromptGate {
  readonly shape: PromptShape;
  readonly facts: ReadonlyMap<string, TermFacts>;
  /** The idf of each informative term of the prompt (its topic, marker words and places left out). */
  readonly topicIdf: ReadonlyMap<string, number>;
  /** The sum of topicIdf: the prompt's informative weight. */
  readonly topicMass: number;
  /** The literals' common words, weighed only for a statement quoting the literal (literalWeights). */
  readonly literalWeight: ReadonlyMap<string, number>;
  /** The idf a matched word needs to be an anchor. */
  readonly anchor: number;
  /** The whole terms of the words the prompt writes as names (promptNameTerms). */
  #promptNames: ReadonlySet<string> | undefined;
  /** The prompt's own rules and @-named files (promptRules), worked out when a decision first passes. */
  #promptRules: readonly PromptRule[] | undefined;
  /** The things the prompt turns down (turnedDownTerms), worked out when a decision first passes. */
  #promptTurnsDown: ReadonlySet<string> | undefined;
  /** The files the prompt names and asks to change (filesActedOn), worked out when a named file first matches. */
  #filesActedOn: ReadonlySet<string> | undefined;
  readonly docCount: number;
  /** The scanned texts of the candidates read so far, by the hash of their sameTextKey. */
  readonly #judged = new Map<string, readonly string[]>();
  /** The record-level topic rules' answer by the matched terms (checkHit). */
  readonly #recordTopics = new Map<string | readonly string[], TopicCheck>();

  constructor(result: SearchResult, readonly ctx: GateContext) {
    this.docCount = result.docCount;
    this.facts = new Map<string, TermFacts>(
      result.terms.map((t) => [
        t.term,
        {
          idf: t.idf,
          canAnchor: canAnchor(t.term, result.docCount),
          common: t.common,
          entity: t.fromEntity !== null,
        },
      ]),
    );
    this.shape = promptShape(ctx.origins);
    const ignored = this.shape.notTopic;
    const topic = result.topic.filter((t) => !ignored.has(t.term));
    this.topicIdf = new Map(topic.map((t) => [t.term, t.idf]));
    let mass = 0;
    for (const idf of this.topicIdf.values()) mass += idf;
    this.topicMass = mass;
    this.literalWeight = literalWeights(ctx.literals, this.facts, this.topicIdf, ignored);
    this.anchor = anchorIdf(result.docCount);
  }

  /**
   * Anchor, distinct things and coverage, on the terms some text (`where`) matched. With `ownMass`
   * (a statement's own rare-word idf, weighed on demand), coverage is checked both ways: the statement must cover
   * `minCoverage` of the prompt and the prompt MIN_COVERAGE of the statement — a long sentence that
   * shares a word or two is not about the prompt.
   */
  topicRule(
    matched: readonly string[],
    where: string,
    ownMass?: () => number,
    fileAlone = false,
    minCoverage = MIN_COVERAGE,
  ): TopicCheck {
    const { shape, facts } = this;
    // A file the prompt names is the topic of a record that names it, however many conversations
    // name it: "When you edit TODO.md, …" is for "update TODO.md" (a person's habits are theirs in
    // every project).
    const named = matched.filter((t) => shape.files.has(t));
    const ignored = shape.notTopic;
    const informative = matched.filter((t) => {
      if (facts.get(t)?.common !== false || ignored.has(t)) return false;
      // A file's name counts with the file: app of app.html is not the word app.
      const wholes = shape.fileNameParts.get(t);
      return wholes === undefined || matched.some((m) => wholes.has(m));
    });
    // A file many conversations name needs one more uncommon word of the prompt in the record.
    // The file is the topic when the prompt asks to change it ("add task … to @tasks.md"), or when
    // it is a fair part of what the prompt says; named in passing ("we've just completed week 6 of
    // @PLAN.md; now the dark mode…"), it is one word of the prompt among the others.
    if (named.length > 0 && (fileAlone || matched.some((t) => facts.get(t)?.common === false))) {
      if (named.some((f) => this.filesActedOn.has(f))) return { pass: true, coverage: 1, anchors: named };
      const share = this.namedFileCoverage(named, matched);
      if (share >= minCoverage) return { pass: true, coverage: share, anchors: named };
      const byWords = this.wordTopic(informative, where, ownMass, minCoverage);
      if (byWords.pass) return byWords;
      return {
        pass: false,
        rule: "low-coverage",
        detail: `${where} names ${named.join(", ")}, ${
          (share * 100).toFixed(0)
        }% of the prompt's informative weight, and the prompt does not ask to change it (needs ${
          Math.round(minCoverage * 100)
        }%${minCoverage > MIN_COVERAGE ? ": a softer decision, with no always, never or must" : ""})`,
        coverage: share,
      };
    }
    return this.wordTopic(informative, where, ownMass, minCoverage);
  }

  /** topicRule on the matched words, a named file among them weighed as a word. */
  wordTopic(
    informative: readonly string[],
    where: string,
    ownMass: (() => number) | undefined,
    minCoverage: number,
  ): TopicCheck {
    const { shape, facts } = this;
    if (informative.length === 0) {
      return { pass: false, rule: "common-only", detail: `${where} matched only common words`, coverage: 0 };
    }
    let covered = 0;
    for (const t of new Set(informative)) covered += this.topicIdf.get(t) ?? 0;
    const coverage = this.topicMass > 0 ? Math.min(1, covered / this.topicMass) : 0;
    // A record naming an entity the prompt names is about the same thing, whatever else it says.
    if (informative.some((t) => facts.get(t)?.entity === true)) {
      return { pass: true, coverage, anchors: informative };
    }
    // A number alone (a year, a day, a count) is a value, never an anchor: two records sharing a
    // date share no topic.
    const anchors = informative.filter((t) => {
      const f = facts.get(t);
      return f !== undefined && f.canAnchor && f.idf >= this.anchor && !isValueTerm(t);
    });
    if (anchors.length === 0) {
      return {
        pass: false,
        rule: "no-anchor",
        detail: `${where}: no rare word matched (${informative.join(", ")})${youngNote(informative, facts)}`,
        coverage,
      };
    }
    const things = countThings(new Set(anchors), shape);
    const sharp = hasSharpMatch(informative, shape);
    if (things < MIN_DISTINCT_THINGS && !sharp) {
      return {
        pass: false,
        rule: "few-terms",
        detail: `${where}: ${things} distinct rare thing matched (${anchors.join(", ")}), not an identifier`,
        coverage,
      };
    }
    if (coverage < minCoverage) {
      return {
        pass: false,
        rule: "low-coverage",
        detail: `${where} matches ${(coverage * 100).toFixed(0)}% of the prompt's informative weight (needs ${
          Math.round(minCoverage * 100)
        }%${minCoverage > MIN_COVERAGE ? ": a softer decision, with no always, never or must" : ""})`,
        coverage,
      };
    }
    // An identifier both name is the topic however much else the statement says.
    const mass = ownMass !== undefined && !sharp ? ownMass() : 0;
    if (mass > 0) {
      let shared = 0;
      for (const t of new Set(anchors)) shared += facts.get(t)?.idf ?? 0;
      const reverse = Math.min(1, shared / mass);
      if (reverse < MIN_COVERAGE) {
        return {
          pass: false,
          rule: "low-coverage",
          detail: `${where}: the prompt matches ${(reverse * 100).toFixed(0)}% of the statement (needs ${
            MIN_COVERAGE * 100
          }%)`,
          coverage,
        };
      }
    }
    return { pass: true, coverage, anchors };
  }

  /** The named files the prompt asks to change: a sentence naming the file holds an edit verb. */
  get filesActedOn(): ReadonlySet<string> {
    if (this.#filesActedOn !== undefined) return this.#filesActedOn;
    const out = new Set<string>();
    if (this.shape.files.size > 0) {
      for (const sentence of this.ctx.sentences) {
        if (!EDIT_VERB.test(sentence)) continue;
        for (const t of this.ctx.tokenize(sentence)) if (this.shape.files.has(t)) out.add(t);
      }
    }
    return this.#filesActedOn = out;
  }

  /**
   * The share of the prompt a text naming `named` (files the prompt names) covers, each named file
   * weighed as a rare thing (at least the anchor idf, however many conversations name it) and the
   * other matched words at their idf: a file named in passing in a long prompt is not its topic.
   */
  namedFileCoverage(named: readonly string[], matched: readonly string[]): number {
    const { shape } = this;
    const isFilePart = (t: string) => {
      const wholes = shape.fileNameParts.get(t);
      return wholes !== undefined && named.some((f) => wholes.has(f));
    };
    let fileWeight = 0;
    let fileTopic = 0;
    for (const f of new Set(named)) {
      fileWeight += Math.max(this.topicIdf.get(f) ?? 0, this.anchor);
      fileTopic += this.topicIdf.get(f) ?? 0;
    }
    for (const [t, idf] of this.topicIdf) if (isFilePart(t)) fileTopic += idf;
    let covered = fileWeight;
    for (const t of new Set(matched)) {
      if (shape.files.has(t) || isFilePart(t)) continue;
      covered += this.topicIdf.get(t) ?? 0;
    }
    const whole = this.topicMass - fileTopic + fileWeight;
    return whole > 0 ? Math.min(1, covered / whole) : 1;
  }

  /** A candidate's verdict: refused by a rule, or its decision statements. */
  checkHit(hit: SearchHit): HitVerdict {
    const ctx = this.ctx;
    // Record level: its statements hold no more than the record, so a record that fails fails all.
    // A record holding every word of a literal the prompt quotes is judged by its statements: the
    // literal may be there, quoted the same way, however common its words.
    const literals = ctx.literals.length === 0
      ? NO_LITERALS
      : ctx.literals.filter((l) => l.terms.every((t) => hit.matched.includes(t)));
    if (hit.commonOnly && literals.length === 0) {
      return { rule: "common-only", detail: `matched only common words: ${hit.matched.join(", ")}` };
    }
    // The record-level rules read nothing of the record but its matched terms: candidates matching
    // the same terms (most of the fifteen, often) share one answer, worked out once per prompt.
    // By the matched array itself first (search gives hits of one mask one array), else by its terms.
    let whole = this.#recordTopics.get(hit.matched);
    if (whole === undefined) {
      const matchedKey = hit.matched.join("\u0000");
      whole = this.#recordTopics.get(matchedKey);
      if (whole === undefined) {
        whole = this.topicRule(hit.matched, "the record");
        this.#recordTopics.set(matchedKey, whole);
      }
      this.#recordTopics.set(hit.matched, whole);
    }

    const decides = hit.meta.kind !== "prompt" && hit.meta.kind !== "commit";
    // A record with a decision that shares one of the prompt's names, too few or too light for the
    // topic rules, is read for a rule on that name (ruledOn).
    // (Its statements match no more than it does: a record under RULED_MIN_COVERAGE is not read.)
    const ruled = !whole.pass && (whole.rule === "few-terms" || whole.rule === "low-coverage") &&
      whole.coverage >= RULED_MIN_COVERAGE && (decides || hit.meta.marker !== null) &&
      hit.matched.some((t) => this.promptNameTerms.has(t) && this.isName(t));
    if (!whole.pass && literals.length === 0 && !ruled) return whole;

    // A prompt or commit with no live marker anywhere (the index's marker, markers.ts) has no
    // decision statement either: refused without reading its text, unless it is on the topic as a
    // whole and may state a fact (durableFact).
    if (!decides && hit.meta.marker === null && !whole.pass) {
      return { rule: "not-a-decision", detail: "it holds no decision marker" };
    }
    return this.checkStatements(hit, literals);
  }

  /**
   * Whether the prompt itself states or invokes the rule a statement matched by `anchors`: one of
   * its own sentences is a rule (a live marker, or a short "use X") holding every anchor ("we
   * always use pnpm, never npm"; `USE "uv pip"!`) and turns down nothing the statement chose, or
   * it names by @ a rules file holding them all (`@dont-ignore-errors.mdc`: the agent reads the
   * rule there). The quote would add nothing.
   */
  promptSays(anchors: readonly string[], terms: ReadonlySet<string>, text: string): string | null {
    if (anchors.length === 0) return null;
    this.#promptRules ??= promptRules(this.ctx.sentences, this.ctx.typed, this.ctx.tokenize);
    for (const r of this.#promptRules) {
      if (!anchors.every((a) => r.terms.has(a))) continue;
      if (r.invoked) return `the prompt invokes this rule by name (${clip(r.text)})`;
      // A rule of the prompt turning down what the decision chose is a change of mind, not the
      // rule said again ("use `bun run` instead of `minsky`" against "run using `minsky`, not
      // `bun run`"): the reminder is for it.
      const mine = new Set(ruledOut(text).flatMap((c) => this.ctx.tokenize(c)));
      if (r.out.some((t) => terms.has(t) && !mine.has(t))) continue;
      // The very rule: the prompt's sentence holds nearly all the statement's rare words (a rule
      // of the prompt on the same thing that says something else is what a reminder is for).
      // Counted by the rare words' weight, or, when every word of it is common here (a rule said in
      // every session: uv pip), by its words that are not stopwords.
      // Its decision words (don't, always, 不要) say how, not what: left out.
      const markers = markerTerms();
      const what = new Set([...terms].filter((t) => !markers.has(t)));
      const kept = new Set([...what].filter((t) => r.terms.has(t)));
      let all = this.statementMass(what, text);
      let held = this.statementMass(kept, text);
      if (all === 0) {
        all = [...what].filter((t) => !isStopword(t)).length;
        held = [...kept].filter((t) => !isStopword(t)).length;
      }
      if (all > 0 && held >= SAYS_RULE_SHARE * all) {
        return `the prompt states this rule itself: "${clip(r.text)}"`;
      }
    }
    return null;
  }

  /**
   * A thing both the prompt and a statement turn down ("ok, commit, no co-author" against "never
   * add co-authors"; "コメントは入れない" against "コメントは入れないでください"), or null: the
   * person is saying the rule now, so the quote adds nothing. Acting on the thing without turning
   * it down ("add zod with npm" against "never npm") is walking into the rule, and not this.
   */
  turnsDownToo(statement: string): string | null {
    this.#promptTurnsDown ??= turnedDownTerms(this.ctx.typed, this.ctx.tokenize);
    if (this.#promptTurnsDown.size === 0) return null;
    for (const t of turnedDownTerms(statement, this.ctx.tokenize)) {
      if (this.#promptTurnsDown.has(t)) return t;
    }
    return null;
  }

  /** Whether a statement is a decision where it stands: a live marker, a doc's or a note's, or under "We decided:". */
  isPassingDecision(s: Statement, decides: boolean, governed: boolean): boolean {
    return decides || governed || statementDecision(s.text) !== null;
  }

  /**
   * The prompt's names as whole terms: the words it writes as names (nameWords: "a Redis lock",
   * "add zod with npm"), worked out when a candidate first asks.
   */
  get promptNameTerms(): ReadonlySet<string> {
    return this.#promptNames ??= new Set(nameWords(this.ctx.typed).flatMap((w) => wholeTerms(w).slice(0, 1)));
  }

  /**
   * Whether a matched term is one of the prompt's names: an anchor (rare, not common) that is no
   * everyday word, no stopword, no number and no place, marker word or seam (notTopic).
   */
  isName(term: string): boolean {
    const f = this.facts.get(term);
    return f !== undefined && f.canAnchor && f.idf >= this.anchor && !f.common && !isValueTerm(term) &&
      !this.shape.notTopic.has(term) && !isEverydayWord(term) && !isStopword(term);
  }

  /**
   * The prompt's names a decision statement rules out: those its live marker of prohibition or
   * contrast reaches (markers.ts ruledOut: "never npm", "不要再用 Redis 锁", "Tailwind is off the
   * table").
   */
  ruledOn(statement: string, matched: readonly string[]): string[] {
    const names = matched.filter((t) => this.promptNameTerms.has(t) && this.isName(t));
    if (names.length === 0) return names;
    const spans = ruledOut(statement);
    if (spans.length === 0) return [];
    // Names are matched whole, on both sides: MySQL is not SQL, .env is not env-var.
    const ruled = new Set(spans.flatMap((c) => wholeTerms(c)));
    return names.filter((t) => ruled.has(t));
  }

  /**
   * A statement's weight: its anchor-rare words. Ordinary words do not make it about something
   * else (and the commonness of a frequent word need not be counted out).
   */
  statementMass(terms: ReadonlySet<string>, text: string): number {
    let mass = 0;
    const seams = CJK_LETTER.test(text) ? seamsOf(text) : NO_SEAMS;
    for (const t of terms) {
      // Grammar kana and CJK seams are no subject on this side either.
      if (HIRAGANA_ONLY.test(t) || seams.has(t)) continue;
      const f = this.facts.get(t);
      const idf = f?.idf ?? this.ctx.termIdf(t);
      // An everyday word in a young archive is no rare word of it, as it is no anchor (canAnchor).
      if (!(f?.canAnchor ?? canAnchor(t, this.docCount))) continue;
      if (idf >= this.anchor && !(f?.common ?? this.ctx.isCommon(t))) mass += idf;
    }
    return mass;
  }

  /**
   * A candidate the record-level rules let through, judged by its text: its statements, each by
   * the topic rules. Apart from checkHit, not inside it: most candidates stop at the record-level
   * rules, and V8 tiers a function up by the bytecode it runs against its size, so one function
   * holding both ran un-optimized through the first thousand prompts of a process (deno run
   * --v8-flags=--trace-opt: checkHit reached Maglev only after ~600 prompts).
   */
  checkStatements(hit: SearchHit, literals: readonly Literal[]): HitVerdict {
    const { ctx, facts, shape } = this;
    const decides = hit.meta.kind !== "prompt" && hit.meta.kind !== "commit";
    const text = ctx.textOf(hit.doc);
    // The same text sent again (a resend, a template) is one thing: judged once, it cannot crowd
    // the candidates, and a decision further down the ranking still gets its turn.
    // Compared by the hash of their sameTextKey, and the keys themselves only when two hashes meet.
    const { scanned, hash, statements, pastedShare } = analyseRecord(text);
    const earlier = this.#judged.get(hash);
    if (
      earlier !== undefined && earlier.some((t) => t === scanned || sameTextKey(t) === sameTextKey(scanned))
    ) {
      return { rule: "repeat", detail: "the same text as a candidate already judged" };
    }
    this.#judged.set(hash, [...(earlier ?? []), scanned]);
    if (pastedShare > PASTED_SHARE) {
      return { rule: "paste", detail: `${(pastedShare * 100).toFixed(0)}% of it is pasted material` };
    }
    const searched = new Set(facts.keys());
    const passing: Statement[] = [];
    let best: Verdict & { coverage: number } | null = null;
    let bestCoverage = 0;
    const anchorsUsed = new Set<string>();
    // A statement announcing decisions with a colon ("We decided:", "Rules:") makes the rest of its
    // paragraph (up to a blank line) decisions too: what follows the colon is what was decided.
    let governor: Statement | null = null;
    // The statements of this record that passed the topic rules so far, with the prompt's
    // uncommon words each matched: a later decision can be tied to one (tiedTopic).
    const onTopic: { statement: Statement; ties: ReadonlySet<string>; check: TopicCheck & { pass: true } }[] =
      [];
    let tiedVia: Statement | null = null;
    const ruledVia: string[] = [];
    /** The quoted statements that are decisions (the others are facts said). */
    const decided = new Set<Statement>();
    let previousEnd = 0;
    /** The statement just before, when it passed the topic rules (for a decision pointing back at it). */
    let previous: (typeof onTopic)[number] | null = null;
    for (const s of statements) {
      const paragraph = /\n\s*\n/.test(text.slice(previousEnd, s.start));
      if (paragraph) governor = null;
      previousEnd = s.end;
      const before = paragraph ? null : previous;
      previous = null;
      const governedHere = governor !== null;
      if (DECISION_LABEL.test(s.text) && statementDecision(s.text) !== null) governor = s;
      const terms = new Set(ctx.tokenize(s.text));
      const matched = [...terms].filter((t) => searched.has(t));
      if (matched.length === 0) {
        // "We always use that pattern": a decision pointing back at the sentence before it, which
        // is on the topic, is a decision on that topic, quoted with it.
        if (before !== null && POINTS_BACK.test(s.text) && this.isPassingDecision(s, decides, governedHere)) {
          const key = statementKey(s.text);
          if (!ctx.shownKeys.has(key) && !ctx.promptKeys.has(key)) {
            if (!passing.includes(before.statement)) passing.push(before.statement);
            passing.push(s);
            decided.add(s);
            tiedVia = before.statement;
            bestCoverage = Math.max(bestCoverage, before.check.coverage);
            for (const a of before.check.anchors) anchorsUsed.add(a);
          }
        }
        continue;
      }
      // The statement's weight is weighed only when the other topic rules have passed: it looks up
      // every word of the statement.
      // A firm rule (always, never, must, 必须; under "We decided:"; in a doc, written down on
      // purpose) is quoted on a quarter of what the prompt says: a prompt walks into it while asking
      // about much else. A softer one (should, let's use) needs a third: it is as often a one-off
      // request as a standing choice.
      const firm = decides || governedHere || statementDecision(s.text) === "strong";
      let v = this.topicRule(
        matched,
        "no statement",
        () => this.statementMass(terms, s.text),
        true,
        firm ? MIN_COVERAGE : PROMPT_MIN_COVERAGE,
      );
      // A prompt whose every word is common, or a record matching only its common words, speaks
      // only through a literal the prompt quotes.
      if (v.pass && (this.topicMass === 0 || hit.commonOnly)) {
        v = {
          pass: false,
          rule: "common-only",
          detail: "no statement matched an uncommon word",
          coverage: 0,
        };
      }
      // A statement quoting a literal of the prompt (`bun run`, "uv pip") is about that one thing:
      // no anchor or second thing needed, only the quarter of the prompt's weight, the literal's
      // common words weighed in it (a command a person names in every session is still that command).
      if (!v.pass && literals.length > 0) {
        const keys = quotedKeys(s.text);
        const same = literals.find((l) => keys.includes(l.key));
        if (same !== undefined) {
          const coverage = literalCoverage(v.coverage, this.topicMass, same, this.literalWeight);
          if (coverage >= MIN_COVERAGE) v = { pass: true, coverage, anchors: same.terms };
        }
      }
      // A decision that rules on a name the prompt says ("add zod with npm" for "use pnpm, never
      // npm"; "a Redis lock?" for "不要再用 Redis 锁") is on its topic whatever else the prompt says:
      // walking into a rule is when the reminder is worth most.
      // The name must be a fair part of what the prompt says (RULED_MIN_COVERAGE): python or docker
      // in passing, in a long paste, is not walking into a rule about them.
      if (!v.pass && this.topicMass > 0 && !hit.commonOnly && v.coverage >= RULED_MIN_COVERAGE) {
        const on = this.ruledOn(s.text, matched);
        if (on.length > 0) {
          v = { pass: true, coverage: v.coverage, anchors: on };
          ruledVia.push(...on.filter((t) => !ruledVia.includes(t)));
        }
      }
      // A decision said in a sentence after the one naming the topic ("We are going to fix the X
      // warnings. … those on a `$state` line should be solved like …") is on that topic when it
      // shares one of the prompt's uncommon words with that sentence.
      let tied: (typeof onTopic)[number] | null = null;
      if (!v.pass && onTopic.length > 0 && statementDecision(s.text) !== null) {
        tied = tiedTopic(matched, onTopic);
        if (tied !== null) v = tied.check;
      }
      if (!v.pass) {
        if (best === null || v.coverage > best.coverage) best = v;
        continue;
      }
      // A statement turning down what the prompt turns down is said by the prompt: no topic for a
      // later decision to be quoted on (the quote would bring it back).
      const echoed = this.turnsDownToo(s.text);
      if (tied === null && echoed === null) {
        const ties = new Set(
          matched.filter((t) => facts.get(t)?.common === false && !shape.notTopic.has(t)),
        );
        onTopic.push({ statement: s, ties, check: v });
        previous = onTopic.at(-1)!;
      }
      const isDecision = decides || governedHere || recordDecision(s.text);
      // A durable fact said inside a request ("thumbnails are 320×180 WebP, can you regenerate
      // them") is worth quoting on its topic, as what the person said, not as a decision.
      if (!isDecision && !durableFact(s.text)) {
        if (best === null || best.rule !== "not-a-decision" || v.coverage > best.coverage) {
          best = {
            rule: "not-a-decision",
            detail: `its statement on the topic is not a decision: "${clip(s.text)}"`,
            coverage: v.coverage,
          };
        }
        continue;
      }
      const key = statementKey(s.text);
      if (
        ctx.promptKeys.has(key) || ctx.shownKeys.has(key) || ctx.repeats(s.text) ||
        restates(terms, shape.terms)
      ) {
        best = {
          rule: "repeat",
          detail: ctx.shownKeys.has(key)
            ? "this statement was shown in this session"
            : "the prompt says this statement again",
          coverage: v.coverage,
        };
        continue;
      }
      let said = this.promptSays(v.anchors, terms, s.text);
      if (said === null && echoed !== null) said = `the prompt turns down ${echoed} itself`;
      if (said !== null) {
        best = { rule: "repeat", detail: said, coverage: v.coverage };
        // What the prompt says itself is no topic a later decision of the record is quoted on
        // either: the quote would bring it back.
        if (onTopic.at(-1)?.statement === s) {
          onTopic.pop();
          previous = null;
        }
        continue;
      }
      // A statement decided under an announcement is quoted with it ("We decided: …").
      if (governedHere && governor !== null && !passing.includes(governor)) passing.push(governor);
      // A decision tied to the statement naming the topic is quoted with it: alone it would not say
      // what it is about.
      if (tied !== null && !passing.includes(tied.statement)) {
        passing.push(tied.statement);
        tiedVia = tied.statement;
      }
      passing.push(s);
      if (isDecision) decided.add(s);
      bestCoverage = Math.max(bestCoverage, v.coverage);
      for (const a of v.anchors) anchorsUsed.add(a);
    }
    // In text order: a statement naming the topic joins the quote after the decisions before it.
    passing.sort((a, b) => a.start - b.start);
    if (passing.length === 0) {
      return best ?? { rule: "not-a-decision", detail: "no typed statement of it matches the prompt" };
    }
    if (ctx.promptKeys.has(statementKey(statements.map((s) => s.text).join("\n")))) {
      return { rule: "repeat", detail: "the prompt is this record sent again" };
    }
    return {
      quote: {
        hit,
        statements: passing,
        keys: passing.map((s) => statementKey(s.text)),
        decided: passing.some((s) => decided.has(s)),
        changedFrom: null,
      },
      names: [...anchorsUsed].filter((t) => this.isName(t)),
      detail: `decision statement${passing.length > 1 ? "s" : ""} on anchors ${
        [...anchorsUsed].join(", ")
      }; coverage ${(bestCoverage * 100).toFixed(0)}%${
        tiedVia === null
          ? ""
          : `; a decision tied to the statement on the topic before it: "${clip(tiedVia.text)}"`
      }${
        ruledVia.length === 0
          ? ""
          : `; ruled-out: the decision rules out ${ruledVia.join(", ")}, which the prompt names`
      }`,
    };
  }
}

/**
 * Verbs that say how a thing is turned down ("don't add", "w/o referencing", "never use"), not
 * what: two texts turning down different things with the same verb do not say the same.
 */
const TURN_DOWN_VERBS: ReadonlySet<string> = new Set([
  "add",
  "use",
  "run",
  "includ",
  "mention",
  "referenc",
  "instal",
  "creat",
  "touch",
  "chang",
  "modifi",
  "let",
  "need",
  "want",
  "put",
  "make",
  "ask",
  "do",
]);

/**
 * The terms of what a text turns down (markers.ts turnedDown) that can name a thing: no
 * stopword, everyday word, marker word, number or verb of TURN_DOWN_VERBS.
 */
function turnedDownTerms(text: string, tokenize: (text: string) => readonly string[]): ReadonlySet<string> {
  const spans = turnedDown(text);
  if (spans.length === 0) return NO_SEAMS;
  const markers = markerTerms();
  return new Set(
    spans.flatMap((s) => tokenize(s)).filter((t) =>
      !isStopword(t) && !isEverydayWord(t) && !markers.has(t) && !TURN_DOWN_VERBS.has(t) && !isValueTerm(t) &&
      !HIRAGANA_ONLY.test(t)
    ),
  );
}

/**
 * The common words of the prompt's literals, with their idf: they weigh in the prompt's weight
 * only for a statement quoting the literal (literalCoverage), never for any other match.
 */
function literalWeights(
  literals: readonly Literal[],
  facts: ReadonlyMap<string, TermFacts>,
  topicIdf: ReadonlyMap<string, number>,
  ignored: TermSet,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of literals) {
    for (const t of l.terms) {
      const f = facts.get(t);
      if (f !== undefined && !topicIdf.has(t) && !ignored.has(t)) out.set(t, f.idf);
    }
  }
  return out;
}

/**
 * A statement's coverage of the prompt when it quotes `literal`: its share of the prompt's
 * informative weight plus the literal's common words, of that weight plus all the literals'
 * common words.
 */
function literalCoverage(
  coverage: number,
  topicMass: number,
  literal: Literal,
  weights: ReadonlyMap<string, number>,
): number {
  let all = 0;
  for (const w of weights.values()) all += w;
  let own = 0;
  for (const t of new Set(literal.terms)) own += weights.get(t) ?? 0;
  const mass = topicMass + all;
  return mass > 0 ? Math.min(1, (coverage * topicMass + own) / mass) : 0;
}

/**
 * The latest earlier statement on the topic that a decision statement (with `matched`, its words
 * of the prompt) shares one of the prompt's uncommon words with, or null. Shared word, not
 * adjacency: a record naming the topic and then deciding something else says nothing on it
 * (quoting any next sentence fired on 16 more prompts of the development set and reached no more
 * pooled decision, with four more cross-paired false fires).
 */
function tiedTopic<T extends { readonly ties: ReadonlySet<string> }>(
  matched: readonly string[],
  onTopic: readonly T[],
): T | null {
  for (let i = onTopic.length - 1; i >= 0; i--) {
    const t = onTopic[i]!;
    if (matched.some((m) => t.ties.has(m))) return t;
  }
  return null;
}

/** The values a text states: numbers with their unit (15 秒, 320x180, 30s), not inside a name (dia-1000, v2). */
const VALUE = /(?<![\p{L}\d_\-./])\d+(?:[.,]\d+)?(?:\s*[x×]\s*\d+)?\s*[\p{L}%]*/gu;

/**
 * Whether a later decision says otherwise than an earlier one: it states a value the earlier did
 * not (15 秒 then 20 秒), both stating values, or it turns down a name the earlier one holds and
 * did not turn down ("use pnpm" then "use bun, never pnpm"). The same rule said again in other
 * words, or written down in a note, is no change.
 */
function saysOtherwise(earlier: GateQuote, later: GateQuote): boolean {
  const text = (q: GateQuote) => q.statements.map((st) => st.text).join("\n");
  const values = (q: GateQuote) =>
    new Set(
      [...text(q).normalize("NFKC").toLowerCase().matchAll(VALUE)].map((m) => m[0].replace(/\s+/g, "")),
    );
  const a = values(earlier);
  const b = values(later);
  if (a.size > 0 && b.size > 0 && [...b].some((v) => !a.has(v))) return true;
  const out = (q: GateQuote) =>
    new Set(q.statements.flatMap((st) => ruledOut(st.text)).flatMap((c) => wholeTerms(c)));
  const held = new Set(wholeTerms(text(earlier)));
  const wasOut = out(earlier);
  return [...out(later)].some((t) => held.has(t) && !wasOut.has(t));
}

/**
 * A statement that asks for a piece of work ("update it so that…", "can you…", "I want you to…",
 * "add a command that…") is a one-off task: a decision only with a strong marker.
 */
const ONE_OFF_TASK = new RegExp(
  String.raw`^[\s"'(*-]*(?:(?:ok|okay|so|and|also|then|now|please|pls|hey|great|cool|yes|no)\b[,.!\s]*)*` +
    String
      .raw`(?:(?:can|could|would|will)\s+(?:you|we)\b|(?:i|we)\s+(?:want|need|would\s+like|'d\s+like)\s+(?:you|to)\b|let'?s\b|help\s+me\b|` +
    String
      .raw`(?:update|add|create|make|fix|implement|write|do|check|investigate|switch|move|change|remove|run|build|refactor|rename|analy[sz]e|adjust|use|put|set|show|give)\b)`,
  "i",
);

/**
 * A should or a need said of what we or you do next ("we should verify…", "you should also
 * fetch…", "we need to find…"): the work at hand, not a standing rule. A choice of tool or of
 * how the product behaves ("we should use X", "we should show a badge when…") is a decision still.
 */
const WORK_AT_HAND = new RegExp(
  String
    .raw`\b(?:we|you)\s+(?:should|need\s+to|have\s+to|gotta)\s+(?:(?:also|now|first|probably|just|then|still|really)\s+)*` +
    String
      .raw`(?:verify|check|fetch|find|fix|update|add|create|make|look|test|run|build|move|remove|delete|rename|implement|write|do|map|validate|assess|investigate|review|try|start|get|put|set|change|replace|refactor|clean|commit|push|deploy|install|migrate|figure)\b`,
  "i",
);

/**
 * A should or a need said of it, this or they ("it should be 1", "It should output a csv with…"):
 * its subject is in the conversation it was typed in, so quoted in another it says how about
 * nothing named. A statement naming its subject ("the export should…") is a decision still.
 */
const SAID_OF_A_PRONOUN =
  /(?:^|[^\p{L}\p{N}_])(?:it|this|that|these|they|those)\s+(?:(?:also|still|just|really|probably|now|then|actually|only)\s+)?(?:should|shouldn'?t|needs?\s+to|need\s+to\s+be)(?![\p{L}])/iu;
/** The first should or need of a statement, with what comes before it. */
const FIRST_SHOULD = /(?:^|[^\p{L}\p{N}_])(?:should|shouldn'?t|needs?\s+to)(?![\p{L}])/iu;

function saidOfAPronoun(text: string): boolean {
  const first = FIRST_SHOULD.exec(text);
  if (first === null) return false;
  // The first should decides: "Each module should try X (this should support Y)" names its subject.
  const upTo = text.slice(0, first.index + first[0].length);
  return SAID_OF_A_PRONOUN.test(upTo);
}

function recordDecision(text: string): boolean {
  const strength = statementDecision(text);
  if (strength === null) return false;
  return strength === "strong" ||
    !(ONE_OFF_TASK.test(text) || WORK_AT_HAND.test(text) || saidOfAPronoun(text));
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * A check names its hit's id only when asked (explain): the disk index reads ids from its file.
 * A class, not an object literal with a getter, which V8 builds through a slow path.
 */
class CandidateCheck implements HitCheck {
  readonly #hit: SearchHit;
  constructor(hit: SearchHit, readonly rule: HitCheck["rule"], readonly detail: string) {
    this.#hit = hit;
  }

  get id(): string {
    return this.#hit.id;
  }
}

/**
 * A later decision on the same names replaces an earlier one: for each quote, the youngest
 * candidate younger than it that passes the gate and matched one of its names takes its place,
 * marked with the earlier one's time (the earlier alone is never shown as current). Candidates
 * the ranking put below the quotes are read for it, only when the hint speaks; two quotes on the
 * same names keep the younger.
 */
function supersede(
  gate: PromptGate,
  hits: readonly SearchHit[],
  read: Set<SearchHit>,
  spoken: GateQuote[],
  namesOf: Map<GateQuote, readonly string[]>,
  spokenKeys: Set<string>,
  note: (hit: SearchHit, detail: string) => void,
): void {
  const byAge = [...hits].sort((a, b) => b.meta.timeMs - a.meta.timeMs);
  /** The quote a candidate gives (already spoken, or judged now), on one of `names`; null if none. */
  const onNames = (hit: SearchHit, names: readonly string[]) => {
    const other = spoken.find((q) => q.hit === hit);
    let quote = other;
    let its = other === undefined ? [] : namesOf.get(other) ?? [];
    if (quote === undefined) {
      if (read.has(hit)) return null;
      read.add(hit);
      const v = gate.checkHit(hit);
      if ("rule" in v || v.quote.keys.every((k) => spokenKeys.has(k))) return null;
      quote = v.quote;
      its = v.names;
    }
    return its.some((n) => names.includes(n))
      ? { quote, names: its, spokenAlready: other !== undefined }
      : null;
  };
  for (let i = 0; i < spoken.length; i++) {
    const q = spoken[i]!;
    const names = namesOf.get(q) ?? [];
    if (names.length === 0) continue;
    // A younger decision on the same names takes this one's place.
    let latest = q;
    for (const hit of byAge) {
      if (hit.meta.timeMs <= q.hit.meta.timeMs) break;
      const c = onNames(hit, names);
      if (c === null) continue;
      // Saying the same (the rule again, the note that wrote it down): the earlier stays as it is.
      if (!saysOtherwise(q, c.quote)) continue;
      latest = c.quote;
      namesOf.set(latest, c.names);
      if (c.spokenAlready) {
        // Both were to be shown and the younger says otherwise: it stays and the older goes.
        spoken.splice(i, 1);
        i--;
      } else {
        spoken[i] = latest;
        for (const k of latest.keys) spokenKeys.add(k);
        note(
          hit,
          `a later decision on ${c.names.filter((n) => names.includes(n)).join(", ")} replaces the one of ${
            isoDay(q.hit.meta.timeMs)
          }`,
        );
      }
      break;
    }
    if (latest !== q && spoken.indexOf(latest) < 0) continue;
    // The latest says when it changed: the day of the decision before it on the same names, when
    // that one said something else (not the same rule said again).
    let previous: GateQuote | null = latest === q ? null : q;
    for (const hit of byAge) {
      if (previous !== null) break;
      if (hit.meta.timeMs < latest.hit.meta.timeMs) previous = onNames(hit, names)?.quote ?? null;
    }
    if (previous === null) continue;
    if (!saysOtherwise(previous, latest)) continue;
    const marked: GateQuote = { ...latest, changedFrom: previous.hit.meta.timeMs };
    namesOf.set(marked, namesOf.get(latest) ?? []);
    spoken[spoken.indexOf(latest)] = marked;
  }
}

/**
 * When the person sent this prompt before, word for word (a template they keep), the time of the
 * latest sending among the candidates, else -Infinity. Only a prompt record holding every word of
 * the prompt can be it, so only those are compared.
 */
function lastSending(hits: readonly SearchHit[], ctx: GateContext): number {
  let latest = -Infinity;
  for (const hit of hits) {
    if (hit.meta.kind !== "prompt" || hit.coverage < 1 - 1e-9 || hit.meta.timeMs <= latest) continue;
    if (ctx.sendsAgain(hit.doc)) latest = hit.meta.timeMs;
  }
  return latest;
}

/** Decides from a search result; `top` caps the quotes (≤ MAX_HINT_QUOTES). */
export function decide(result: SearchResult, top: number, ctx: GateContext): GateVerdict {
  const limit = Math.max(1, Math.min(top, MAX_HINT_QUOTES));
  const silent = (rule: GateRule, detail: string, checks: HitCheck[] = []): GateVerdict => ({
    speak: false,
    rule,
    detail,
    hits: [],
    quotes: [],
    checks,
  });
  if (result.terms.length === 0) return silent("empty", "no word of the prompt is in any record");
  if (result.hits.length === 0) {
    return silent("no-candidates", "no record outside this session (and not already shown) matches");
  }
  const gate = new PromptGate(result, ctx);
  if (gate.topicMass === 0 && gate.literalWeight.size === 0) {
    return silent(
      "empty",
      "the prompt names nothing but places, decision words and words common in this archive",
    );
  }
  const checks: HitCheck[] = [];
  const spoken: GateQuote[] = [];
  const spokenKeys = new Set<string>();
  let firstRefusal: Verdict | null = null;
  const checkOf = (hit: SearchHit, c: { rule: HitCheck["rule"]; detail: string }): HitCheck =>
    new CandidateCheck(hit, c.rule, c.detail);
  /** The names each spoken quote matched, by quote (for a later decision replacing it). */
  const namesOf = new Map<GateQuote, readonly string[]>();
  const read = new Set<SearchHit>();
  const sentBefore = lastSending(result.hits, ctx);
  for (const hit of result.hits) {
    if (spoken.length >= limit) break;
    // Hits come best first: once one scores under TAIL_SCORE_SHARE of the first quote, so do all
    // that follow, and none of them is read.
    if (spoken.length > 0 && hit.score < spoken[0]!.hit.score * TAIL_SCORE_SHARE) {
      checks.push(
        checkOf(hit, {
          rule: "weak-tail",
          detail: `score under ${TAIL_SCORE_SHARE * 100}% of the first quote's`,
        }),
      );
      continue;
    }
    if (hit.meta.timeMs < sentBefore) {
      checks.push(checkOf(hit, {
        rule: "repeat",
        detail: `the prompt was sent word for word on ${
          isoDay(sentBefore)
        }, after this was said: it was there to be quoted then`,
      }));
      continue;
    }
    const c = gate.checkHit(hit);
    read.add(hit);
    if ("rule" in c) {
      checks.push(checkOf(hit, c));
      firstRefusal ??= c;
      continue;
    }
    if (c.quote.keys.every((k) => spokenKeys.has(k))) {
      checks.push(checkOf(hit, { rule: "repeat", detail: "the same statement as a quote already shown" }));
      continue;
    }
    checks.push(checkOf(hit, { rule: "spoke", detail: c.detail }));
    spoken.push(c.quote);
    namesOf.set(c.quote, c.names);
    for (const k of c.quote.keys) spokenKeys.add(k);
  }
  supersede(gate, result.hits, read, spoken, namesOf, spokenKeys, (hit, detail) => {
    checks.push(checkOf(hit, { rule: "spoke", detail }));
  });
  if (spoken.length === 0) {
    const r = firstRefusal ?? { rule: "not-a-decision" as const, detail: "no candidate holds a decision" };
    return silent(r.rule, r.detail, checks);
  }
  return {
    speak: true,
    rule: "spoke",
    detail: `${spoken.length} quote(s)`,
    hits: spoken.map((q) => q.hit),
    quotes: spoken,
    checks,
  };
}

/** The pre-ranking rules; null when the prompt may be searched. */
export function preGate(input: {
  readonly prompt: string;
  /** The prompt's typed text (pasted material left out): what it asks. */
  readonly typed: string;
  readonly cwd: string | null;
  readonly personas: readonly string[];
  readonly machineMade: (prompt: string) => boolean;
}): { rule: GateRule; detail: string } | null {
  if (input.personas.length > 0) {
    const base = input.cwd ? input.cwd.replace(/\/+$/, "").split("/").pop() ?? "" : "";
    if (!input.personas.includes(base)) {
      return { rule: "persona", detail: `"${base}" is not in hook_personas (${input.personas.join(", ")})` };
    }
  }
  if (input.prompt.trim() === "") return { rule: "empty", detail: "the prompt is empty" };
  if (input.machineMade(input.prompt)) {
    return {
      rule: "machine-made",
      detail: "the prompt is machine-made (notification, command output or our own hint)",
    };
  }
  if (input.typed.trim() === "") {
    return { rule: "paste", detail: "the prompt is pasted material only: it asks nothing of its own" };
  }
  return null;
}
