/**
 * The statements of a text: the unit that can be a decision. A record is split into lines; the
 * lines that are pasted material are set aside; each typed line is split into sentences. The
 * gate decides, matches and quotes sentence by sentence, so a rule inside a request ("upload it
 * to GitHub, no secret keys") is found and quoted on its own, and a pasted log, table or review
 * never speaks as the user's decision.
 *
 * Pasted material, line by line (PASTE_RULES below, one reason each): a paste placeholder, a code
 * fence and what it holds, a quoted line (`>`), a markdown heading or table row, box drawing, a
 * diff line, a JSON key line, a log or stack-trace line, a shell or REPL prompt, a line opening
 * with a pictograph or addressed to the user as 您 (an assistant's answer), program output
 * (`TypeError: …`, `error: …`, `file:12: …`), a line of code (ending in `;` or `{`, opening with
 * `}` or `//`), a command a log echoes by its absolute path (`/usr/bin/git …`), a line that is only
 * paths or URLs, a line whose characters are mostly code punctuation, a line indented deeper than
 * the pasted line before it (the paste wrapped), and a hard-wrapped paragraph (hardWrapped: lines
 * broken mid-sentence at a width, as a review bot, an email or a README writes them). A whole record is a paste when its pasted lines hold most of its
 * characters (PASTED_SHARE): what is left is a note on the paste ("why does this fail"), not a
 * decision. A "sentence" over MAX_STATEMENT_CHARS is reading material and skipped.
 *
 * Pure and cheap: the gate runs this on its candidates only (at most GATE_CANDIDATES records per
 * prompt, each read up to MAX_SCANNED_CHARS).
 */

import { fnv1a64 } from "../record/record.ts";

/** One sentence of typed text, with its place in the text it came from. */
export interface Statement {
  readonly text: string;
  /** UTF-16 offsets into the scanned text. */
  readonly start: number;
  readonly end: number;
}

export interface Statements {
  /** The typed sentences, in text order. */
  readonly statements: readonly Statement[];
  /** Share (0…1) of the scanned text's non-blank characters that are pasted material. */
  readonly pastedShare: number;
}

/** Beyond this many characters a record is reading material: decisions are said early and briefly. */
export const MAX_SCANNED_CHARS = 4000;
/**
 * A "sentence" longer than this is reading material, not a statement: a run of words nobody types
 * as one decision (real typed sentences: 99% under 260 characters), and it could not be quoted in
 * full (HINT_QUOTE_CHARS). It is skipped, which also bounds the gate's tokenizing per prompt.
 */
export const MAX_STATEMENT_CHARS = 600;
/** A record whose pasted lines hold more than this share of its characters is a paste. */
export const PASTED_SHARE = 0.5;

/** Claude Code's stand-ins for a paste or an image, written where the paste was. */
const PLACEHOLDER = /\[(?:Pasted text|Image|Pasted image) #\d+(?: \+\d+ lines)?\]/g;
const FENCE = /^\s*(```|~~~)/;
/**
 * A file an editor attaches to the prompt (`<context ref="file:///…">` … `</context>`, likewise
 * file, selection, document, attachment): the block is the file's text, not typed.
 */
const ATTACHED_OPEN =
  /^\s*<(context|file|selection|document|attachment|ide_selection|ide_opened_file)\b[^>]*>/i;
/**
 * A record opening with a markdown heading ("# Handoff: …") and holding another is a document
 * pasted in whole (a plan, a handoff, an assistant's answer): nobody types a prompt in sections
 * under a title. One heading line alone may be a note typed after a #.
 */
const OPENS_WITH_HEADING = /^\s*#{1,6}\s+\S/;
const HEADING_LINE = /^\s*#{1,6}\s+\S/gm;

/** Line shapes that are pasted material, each with why. */
const PASTE_RULES: readonly { readonly why: string; readonly test: RegExp }[] = [
  { why: "a quoted line (review text, an earlier answer)", test: /^\s*>/ },
  { why: "a markdown heading: a document or an assistant's answer", test: /^\s*#{1,6}\s/ },
  { why: "a table row", test: /^\s*\|.*\|\s*$/ },
  { why: "box drawing: a terminal table or a rich log", test: /[\u2500-\u257f]/ },
  { why: "a diff header", test: /^(?:(?:\+\+\+|---) \S|@@ )/ },
  { why: "a JSON or YAML key line", test: /^\s*"[^"\n]+"\s*:/ },
  {
    why: "a log line: it starts with a date, a clock time or a log level",
    test:
      /^\s*(?:\[?\d{1,4}[-/.]\d\d?[-/.]\d{1,4}[ T,]+\d\d?:\d\d|\[?\d\d:\d\d:\d\d\b|\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\b[\]:\s])/,
  },
  {
    why: "a stack trace",
    test:
      /^\s*(?:Traceback \(most recent call last\)|File ".*", line \d+|at \S+ \(.*:\d+(?::\d+)?\)|at .+:\d+:\d+$)/,
  },
  {
    why: "a shell or REPL prompt",
    test:
      /^\s*(?:\$ |>>> |\.\.\. |PS [A-Za-z]:\\.*?> |[\w.-]+@[\w.-]+:\S*[#$] |[A-Za-z]:\\[^>]*> |[\w.-]*:~[#$] )/,
  },
  {
    why: "a line opening with a pictograph (✅ ❌ 💡 🚨): program or assistant output",
    test: /^\s*[\u2600-\u27bf\u{1f300}-\u{1faff}]/u,
  },
  { why: "addressed to the user as 您: an assistant's answer pasted in", test: /您/ },
  {
    why:
      "program output: it names an error or warning class, or opens like a compiler, a package manager or a shell message (file:12: …, npm error …)",
    test:
      /\b[A-Z][A-Za-z]*(?:Error|Warning|Exception)\b:|^\s*(?:error|warning|fatal)(?:\[\w+\])?:|^\s*[^\s:]+:(?: line)? ?\d+(?::\d+)?:|^\s*(?:npm|yarn|pnpm|bun|pip|cargo|node|deno|gradle|mvn)\s+(?:error|ERR!|warn|WARN|warning|notice|info|verbose)(?![\w!])/,
  },
  {
    why: "a line of code: it ends with ; or {, or opens with } or a // comment",
    test: /[;{]\s*$|^\s*(?:\}|\/\/)/,
  },
  {
    why: "a command a log echoes, run by its absolute path (/usr/bin/git …)",
    test: /^\s*\/(?:usr\/)?(?:local\/)?s?bin\/\S+\s/,
  },
  {
    why: "only paths or URLs",
    test: /^\s*(?:(?:[A-Za-z]:[\\/]|\/|~\/|\.{1,2}\/|https?:\/\/)\S*\s*)+$/,
  },
];

/** A line is mostly code when code punctuation outnumbers its letters… (1 for each such ASCII unit) */
const CODE_PUNCTUATION = new Uint8Array(128);
for (const c of "{}()[];=<>\"'`$\\|&*/") CODE_PUNCTUATION[c.charCodeAt(0)] = 1;
const LETTER = /\p{L}/u;
/** …and it is long enough for the count to mean something. */
const CODE_LINE_MIN_CHARS = 12;

/** Whether code punctuation outnumbers the letters (code points) of `text`, counted in one pass each. */
function mostlyCodePunctuation(text: string): boolean {
  let punctuation = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80 && CODE_PUNCTUATION[c] === 1) punctuation++;
  }
  if (punctuation === 0) return false;
  let letters = 0;
  for (let i = 0; i < text.length && letters < punctuation; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) letters++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (LETTER.test(String.fromCodePoint(cp))) letters++;
  }
  return punctuation > letters;
}

/** Why a line is pasted material, or null when it is typed. */
export function pastedLineReason(line: string): string | null {
  for (const rule of PASTE_RULES) if (rule.test.test(line)) return rule.why;
  const trimmed = line.trim();
  if (trimmed.length >= CODE_LINE_MIN_CHARS && mostlyCodePunctuation(trimmed)) {
    return "mostly code punctuation";
  }
  return null;
}

/** A line this long or longer that stops mid-sentence was broken by a width, not by its writer… */
export const WRAP_MIN_CHARS = 40;
/** …and this many such breaks in a row make a hard-wrapped paragraph (three lines). */
export const WRAP_MIN_BREAKS = 2;
/** A line's end that closes a sentence, a clause or a list item: the writer broke the line. */
const LINE_CLOSED = /[.!?:;)\]}>"'`*。！？：；）]\s*$/;
const STARTS_LOWER = /^\s*\p{Ll}/u;

/**
 * Which lines belong to a hard-wrapped paragraph: WRAP_MIN_BREAKS or more lines in a row that stop
 * mid-sentence (WRAP_MIN_CHARS or longer, no closing punctuation) with the next line going on in
 * lowercase. Nobody types line breaks inside their sentences; a review bot, an email, a README or
 * a program's advice wraps at a width, so such a paragraph was written elsewhere and pasted.
 */
export function hardWrapped(lines: readonly string[]): boolean[] {
  const out = new Array<boolean>(lines.length).fill(false);
  const breaksAfter = (j: number) =>
    j + 1 < lines.length && lines[j]!.trim().length >= WRAP_MIN_CHARS && !LINE_CLOSED.test(lines[j]!) &&
    STARTS_LOWER.test(lines[j + 1]!);
  for (let j = 0; j < lines.length;) {
    let k = j;
    while (breaksAfter(k)) k++;
    if (k - j >= WRAP_MIN_BREAKS) { for (let m = j; m <= k; m++) out[m] = true; }
    j = k + 1;
  }
  return out;
}

/** Whether a UTF-16 unit is white space as \s is (the line terminators and the Zs spaces). */
function isSpaceUnit(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The UTF-16 units of `text` that are not white space (a line's weight). */
function weightOf(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (!isSpaceUnit(text.charCodeAt(i))) n++;
  return n;
}

/**
 * Sentence ends inside a typed line: CJK full stops always; . ! ? when a space or the end
 * follows; a Chinese question particle (吗, 呢) before a space, as users type questions without
 * a question mark.
 */
const SENTENCE_END = /[。！？]+|[.!?]+(?=\s|$)|[吗呢](?=\s)/g;

/** Words whose full stop is an abbreviation's (vs., e.g., i.e., cf.), not a sentence's end. */
const ABBREVIATION = /(?:^|[^\p{L}])(?:vs|e\.g|i\.e|eg|ie|cf|approx|incl|resp)$/iu;

function splitSentences(line: string, offset: number, out: Statement[], maxStatement: number): void {
  let start = 0;
  SENTENCE_END.lastIndex = 0;
  const push = (end: number) => {
    const raw = line.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text !== "" && text.length <= maxStatement) {
      out.push({ text, start: offset + start + lead, end: offset + start + lead + text.length });
    }
  };
  for (let m = SENTENCE_END.exec(line); m !== null; m = SENTENCE_END.exec(line)) {
    // "a vs. b", "e.g. this": an abbreviation's full stop ends no sentence.
    if (m[0] === "." && ABBREVIATION.test(line.slice(Math.max(0, m.index - 8), m.index))) continue;
    push(m.index + m[0].length);
    start = m.index + m[0].length;
  }
  push(line.length);
}

/** How much of a text statementsOf reads, and the longest sentence it keeps. */
export interface ScanLimits {
  readonly maxChars: number;
  readonly maxStatementChars: number;
}

/** A record's limits: MAX_SCANNED_CHARS of it, sentences up to MAX_STATEMENT_CHARS. */
export const RECORD_LIMITS: ScanLimits = {
  maxChars: MAX_SCANNED_CHARS,
  maxStatementChars: MAX_STATEMENT_CHARS,
};

/** The typed statements of `text` (within `limits`), and how much of it is pasted. */
export function statementsOf(text: string, limits: ScanLimits = RECORD_LIMITS): Statements {
  const scanned = text.length > limits.maxChars ? text.slice(0, limits.maxChars) : text;
  const out: Statement[] = [];
  let pasted = 0;
  let total = 0;
  let inFence = false;
  let offset = 0;
  /** The indent of the last non-blank line when it was pasted material, else null. */
  let pastedIndent: number | null = null;
  const lines = scanned.split("\n");
  const wrapped = hardWrapped(lines);
  if (OPENS_WITH_HEADING.test(scanned) && (scanned.match(HEADING_LINE)?.length ?? 0) >= 2) {
    for (const line of lines) total += weightOf(line);
    return { statements: out, pastedShare: total === 0 ? 0 : 1 };
  }
  /** The closing tag of the attached block the line is in, else null. */
  let attachedUntil: string | null = null;
  for (const [i, rawLine] of lines.entries()) {
    const lineStart = offset;
    offset += rawLine.length + 1;
    const weight = weightOf(rawLine);
    total += weight;
    if (attachedUntil === null) {
      const open = ATTACHED_OPEN.exec(rawLine);
      if (open !== null) {
        const close = `</${open[1]!.toLowerCase()}>`;
        // A block closed on its own line is attached whole; an opener closed on the same line is one line.
        if (!rawLine.toLowerCase().includes(close)) attachedUntil = close;
        pasted += weight;
        continue;
      }
    } else {
      if (rawLine.toLowerCase().includes(attachedUntil)) attachedUntil = null;
      pasted += weight;
      continue;
    }
    if (FENCE.test(rawLine)) {
      inFence = !inFence;
      pasted += weight;
      continue;
    }
    const indent = rawLine.length - rawLine.trimStart().length;
    // A line indented deeper than the pasted line just before it is that paste wrapped (a log
    // message's second line, a trace's next frame).
    const continues = pastedIndent !== null && weight > 0 && indent > pastedIndent;
    if (inFence || continues || wrapped[i] === true || pastedLineReason(rawLine) !== null) {
      pasted += weight;
      if (weight > 0 && !continues) pastedIndent = indent;
      continue;
    }
    if (weight > 0) pastedIndent = null;
    // A placeholder is the paste itself: it counts as pasted and is cut out of the typed line.
    const line = !rawLine.includes("[") ? rawLine : rawLine.replace(PLACEHOLDER, (p) => {
      pasted += weightOf(p);
      return " ".repeat(p.length);
    });
    splitSentences(line, lineStart, out, limits.maxStatementChars);
  }
  return { statements: out, pastedShare: total === 0 ? 0 : pasted / total };
}

/** The typed part of a text as one string (statements joined by newlines): what a prompt is about. */
export function typedText(text: string): string {
  return statementsOf(text).statements.map((s) => s.text).join("\n");
}

/**
 * The same words, whatever the spacing, punctuation, case and numbers: two sends of a template
 * ("continue with task 002" / "… task 011") compare equal. This is the definition; the gate asks it
 * of every candidate's whole text, so `sameTextKey` computes it in one pass when it can.
 */
export function sameTextKeyByRules(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, "").replace(/\p{N}+/gu, "0");
}

/** What sameTextKeyByRules does to a UTF-16 unit in one pass: drop it, a digit, or keep its code. */
const DROP = -1;
const DIGIT = -2;
/** Fallback: a unit the one pass cannot map (NFKC might change it, or join it with a neighbour). */
const UNMAPPED = -3;

/** Each non-ASCII unit's mapping (0: not worked out yet), filled as units are met. */
const UNIT_KEYS = new Int32Array(0x10000);
const SPACE_PUNCTUATION_SYMBOL = /^[\s\p{P}\p{S}]$/u;
const NUMBER = /^\p{N}$/u;
const MARK = /^\p{M}$/u;

/**
 * The one-pass mapping of a unit, where it is the same in any text: a unit NFKC leaves alone is
 * dropped (white space, punctuation, symbol), a digit (a number), or kept lower-cased (one unit,
 * never the context-cased Σ); a unit whose NFKC form is one ASCII character maps as that
 * character (full-width forms, the ideographic space). Marks and conjoining jamo (which NFKC may
 * join with their neighbours) and surrogates send the whole text to the rules.
 */
function unitKey(c: number): number {
  if (c < 0x80) {
    if (c >= 0x61 && c <= 0x7a) return c;
    if (c >= 0x41 && c <= 0x5a) return c + 0x20;
    if (c >= 0x30 && c <= 0x39) return DIGIT;
    if (
      (c >= 0x09 && c <= 0x0d) || (c >= 0x20 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) ||
      (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e)
    ) return DROP;
    return c;
  }
  const known = UNIT_KEYS[c]!;
  if (known !== 0) return known;
  const mapped = workOutUnitKey(c);
  UNIT_KEYS[c] = mapped;
  return mapped;
}

function workOutUnitKey(c: number): number {
  const jamo = (c >= 0x1100 && c <= 0x11ff) || (c >= 0xa960 && c <= 0xa97f) || (c >= 0xd7b0 && c <= 0xd7ff);
  if (jamo || (c >= 0xd800 && c <= 0xdfff) || c === 0x03a3) return UNMAPPED;
  const unit = String.fromCharCode(c);
  const nfkc = unit.normalize("NFKC");
  if (nfkc !== unit) {
    return nfkc.length === 1 && nfkc.charCodeAt(0) < 0x80 ? unitKey(nfkc.charCodeAt(0)) : UNMAPPED;
  }
  if (MARK.test(unit)) return UNMAPPED;
  if (SPACE_PUNCTUATION_SYMBOL.test(unit)) return DROP;
  if (NUMBER.test(unit)) return DIGIT;
  const lower = unit.toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : UNMAPPED;
}

/** sameTextKeyByRules, in one pass over the text when it can. */
export function sameTextKey(text: string): string {
  const codes: number[] = [];
  let digits = false;
  for (let i = 0; i < text.length; i++) {
    const k = unitKey(text.charCodeAt(i));
    if (k === DROP) continue;
    if (k === UNMAPPED) return sameTextKeyByRules(text);
    if (k === DIGIT) {
      // A run of digits, joined across what is dropped between them, is one "0".
      if (!digits) codes.push(0x30);
      digits = true;
      continue;
    }
    digits = false;
    codes.push(k);
  }
  let out = "";
  for (let i = 0; i < codes.length; i += KEY_CHUNK) {
    out += String.fromCharCode(...codes.slice(i, i + KEY_CHUNK));
  }
  return out;
}
/** Units per String.fromCharCode call (a bound on its argument count). */
const KEY_CHUNK = 4096;

/**
 * fnv1a64(sameTextKey(text)), the key's units hashed as they are found (the same two FNV-1a
 * streams as record.ts fnv1a64): no key string is built for a candidate's whole text.
 */
export function sameTextHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  let digits = false;
  for (let i = 0; i < text.length; i++) {
    let k = unitKey(text.charCodeAt(i));
    if (k === DROP) continue;
    if (k === UNMAPPED) return fnv1a64(sameTextKeyByRules(text));
    if (k === DIGIT) {
      if (digits) continue;
      digits = true;
      k = 0x30;
    } else digits = false;
    h1 = Math.imul(h1 ^ (k & 0xff), 0x01000193);
    h1 = Math.imul(h1 ^ (k >>> 8), 0x01000193);
    h2 = Math.imul(h2 ^ (k >>> 8), 0x01000193);
    h2 = Math.imul(h2 ^ (k & 0xff), 0x01000193);
  }
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}

/**
 * A statement's key in the cooldown ledger and among quotes: "s" and the FNV-1a hash of its
 * sameTextKey (no record id starts with "s", and the ledger holds no text).
 */
export function statementKey(text: string): string {
  return `s${sameTextHash(text)}`;
}

/** What the gate reads of a candidate record's text before it weighs the statements. */
export interface RecordAnalysis extends Statements {
  /** The text within RECORD_LIMITS (its first MAX_SCANNED_CHARS). */
  readonly scanned: string;
  /** sameTextHash(scanned): a resend of the same text is judged once (gate.ts "repeat"). */
  readonly hash: string;
}

/**
 * The scanned texts analysed most recently, up to this many characters in all (about 4 MB of
 * text and as much again of statements). The warm helper judges the same candidates prompt after
 * prompt (a topic's records come back while a person works on it): splitting and hashing a
 * candidate's text was a quarter of its time per prompt (docs/notes/2026-11-hook-startup-rounds.md).
 */
export const ANALYSED_MAX_CHARS = 2_000_000;

/** Most recently used last; every analysis is a pure function of its key. */
const analysed = new Map<string, RecordAnalysis>();
let analysedChars = 0;

/**
 * The statements, pasted share and same-text hash of a record's text, as statementsOf and
 * sameTextHash give them; remembered by the scanned text (the result depends on nothing else),
 * so a text judged again costs a look-up. Callers must not change what it returns (it is shared).
 */
export function analyseRecord(text: string): RecordAnalysis {
  const scanned = text.length > MAX_SCANNED_CHARS ? text.slice(0, MAX_SCANNED_CHARS) : text;
  const known = analysed.get(scanned);
  if (known !== undefined) {
    analysed.delete(scanned);
    analysed.set(scanned, known);
    return known;
  }
  const { statements, pastedShare } = statementsOf(scanned);
  const analysis: RecordAnalysis = Object.freeze({
    scanned,
    hash: sameTextHash(scanned),
    statements: Object.freeze(statements.map((s) => Object.freeze(s))),
    pastedShare,
  });
  analysed.set(scanned, analysis);
  analysedChars += scanned.length;
  for (const [key] of analysed) {
    if (analysedChars <= ANALYSED_MAX_CHARS) break;
    analysed.delete(key);
    analysedChars -= key.length;
  }
  return analysis;
}
