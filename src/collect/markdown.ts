/**
 * Splits Markdown into sections for the Documents source (pure). A section starts at an ATX
 * heading (`#` … `######`) and runs to the next one; text before the first heading is a section
 * too. A section's text is its source lines (heading line included; surrounding blank lines and
 * trailing spaces dropped), so a quote re-read from `startLine` matches the stored text. Setext headings are not recognised: they are
 * rare in notes and easily confused with a horizontal rule after a paragraph.
 */

import { type CredentialRule, credentialSpans } from "../record/secrets.ts";

/** Larger Markdown files are skipped: they are generated dumps, not notes someone wrote. */
export const MAX_DOC_BYTES = 4 * 1024 * 1024;

export interface MarkdownSection {
  /** 1-based line of the section's (or chunk's) first non-blank line. */
  readonly startLine: number;
  /** The headings enclosing this section, outermost first (empty for text before any heading). */
  readonly headings: readonly string[];
  readonly text: string;
  /** 1-based line of the chunk's last line (a long line cut into pieces: its own number). */
  readonly endLine: number;
  /**
   * The whole section the chunk belongs to (one object shared by its chunks): its source lines
   * from `startLine`, heading included. A check that must see text across chunk boundaries,
   * such as a key block longer than a chunk, looks at this.
   */
  readonly section: SectionSource;
}

/** A section's source text, its first line being `startLine`. */
export interface SectionSource {
  readonly startLine: number;
  readonly text: string;
}

/**
 * A section longer than this (in UTF-16 code units) is cut into chunks at paragraph boundaries.
 * About a screen of prose: long enough to keep a decision with its reasons, short enough that
 * BM25 length normalisation does not bury it and a quote stays readable.
 */
export const SECTION_MAX_CHARS = 2000;

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
/** A closing sequence of #s, which CommonMark drops when it follows a space or stands alone. */
const ATX_CLOSING = /(?:^|[ \t]+)#+$/;

interface Line {
  readonly no: number;
  readonly text: string;
  /** Inside a fenced code block (fence lines included): never a heading nor a paragraph break. */
  readonly fenced: boolean;
}

interface RawSection {
  readonly headings: readonly string[];
  /** The heading line itself, when there is one (not counted as body). */
  readonly heading: Line | null;
  readonly body: Line[];
}

export function splitMarkdown(source: string, maxChars: number = SECTION_MAX_CHARS): MarkdownSection[] {
  const lines = markLines(source);
  const out: MarkdownSection[] = [];
  for (const section of groupSections(lines)) {
    if (!section.body.some((l) => l.text.trim() !== "")) continue;
    const all = section.heading ? [section.heading, ...section.body] : section.body;
    const source: SectionSource = { startLine: all[0]!.no, text: all.map((l) => l.text).join("\n") };
    for (const chunk of chunkLines(all, section.heading, maxChars)) {
      out.push({
        startLine: chunk.startLine,
        headings: section.headings,
        text: chunk.text,
        endLine: chunk.endLine,
        section: source,
      });
    }
  }
  return out;
}

/**
 * The chunks of `source` that touch no credential, and how many did. Credentials are looked
 * for in each whole section, so one cut across chunks (a key block longer than a chunk, a
 * token split inside a long line) takes every chunk it touches with it, and nothing else.
 * Collect stores exactly these chunks; recall re-reads a quote through the same function.
 */
export function screenedChunks(
  source: string,
  rules: readonly CredentialRule[],
): { kept: ScreenedChunk[]; dropped: number } {
  const kept: ScreenedChunk[] = [];
  let dropped = 0;
  const spansOf = new Map<SectionSource, Array<readonly [number, number]>>();
  for (const [ordinal, chunk] of splitMarkdown(source).entries()) {
    let spans = spansOf.get(chunk.section);
    if (spans === undefined) {
      spans = credentialLines(chunk.section, rules);
      spansOf.set(chunk.section, spans);
    }
    if (spans.some(([first, last]) => chunk.startLine <= last && first <= chunk.endLine)) dropped++;
    else kept.push({ ordinal, chunk });
  }
  return { kept, dropped };
}

/** A chunk that touches no credential, with its position among all the file's chunks. */
export interface ScreenedChunk {
  readonly ordinal: number;
  readonly chunk: MarkdownSection;
}

/** The [first, last] source lines of each credential in a section. */
function credentialLines(
  section: SectionSource,
  rules: readonly CredentialRule[],
): Array<readonly [number, number]> {
  const text = section.text;
  const lineAt = (offset: number) => {
    let line = section.startLine;
    for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
    return line;
  };
  return credentialSpans(text, rules).map(([start, end]) => {
    let s = start;
    // A match may start with the line break before it; that line holds none of it.
    while (s < end - 1 && (text[s] === "\n" || text[s] === "\r")) s++;
    return [lineAt(s), lineAt(end - 1)] as const;
  });
}

/** Splits into lines (LF or CRLF), skips YAML front matter, and marks fenced code. */
function markLines(source: string): Line[] {
  const text = source.startsWith("\uFEFF") ? source.slice(1) : source;
  const raw = text.split(/\r?\n/);
  let first = 0;
  // Front matter (a `---` block on line 1) is metadata, and its `#` comments are not headings.
  if (raw[0]?.trimEnd() === "---") {
    const end = raw.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
    if (end > 0) first = end + 1;
  }
  const lines: Line[] = [];
  let fence: { char: string; length: number } | null = null;
  for (let i = first; i < raw.length; i++) {
    const line = raw[i] ?? "";
    if (fence) {
      lines.push({ no: i + 1, text: line, fenced: true });
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    const marker = open?.[1];
    // A backtick fence's info string may not contain a backtick (CommonMark), else it is code span.
    if (marker && !(marker[0] === "`" && (open[2] ?? "").includes("`"))) {
      fence = { char: marker[0] ?? "`", length: marker.length };
      lines.push({ no: i + 1, text: line, fenced: true });
      continue;
    }
    lines.push({ no: i + 1, text: line, fenced: false });
  }
  return lines;
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const m = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  const run = m?.[1];
  return run !== undefined && run[0] === fence.char && run.length >= fence.length;
}

/** The heading's level and text when `line` is an ATX heading, else null. */
export function parseAtxHeading(line: string): { level: number; text: string } | null {
  const m = ATX_HEADING.exec(line);
  if (!m) return null;
  const level = (m[1] ?? "").length;
  const text = (m[2] ?? "").replace(ATX_CLOSING, "").trim();
  return { level, text };
}

function groupSections(lines: readonly Line[]): RawSection[] {
  const sections: RawSection[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: RawSection = { headings: [], heading: null, body: [] };
  for (const line of lines) {
    const h = line.fenced ? null : parseAtxHeading(line.text);
    if (!h) {
      current.body.push(line);
      continue;
    }
    sections.push(current);
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= h.level) stack.pop();
    stack.push(h);
    current = { headings: stack.map((s) => s.text), heading: line, body: [] };
  }
  sections.push(current);
  return sections;
}

interface Chunk {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

/**
 * Cuts a section into chunks of at most `maxChars`, at blank lines outside code fences; a
 * paragraph longer than that is cut at line ends, and a single longer line at `maxChars`.
 */
function chunkLines(lines: readonly Line[], heading: Line | null, maxChars: number): Chunk[] {
  const paragraphs = toParagraphs(lines);
  const chunks: Chunk[] = [];
  let pending: Line[] = [];
  let pendingLength = 0;
  const flush = () => {
    // A heading alone is not a chunk: it stays to lead the text that follows it.
    if (pending.every((l) => l === heading || l.text.trim() === "")) return;
    const chunk = toChunk(pending);
    if (chunk) chunks.push(chunk);
    pending = [];
    pendingLength = 0;
  };
  for (const para of paragraphs) {
    const length = textLength(para);
    if (pending.length > 0 && pendingLength + length > maxChars) flush();
    if (length <= maxChars) {
      pending.push(...para);
      pendingLength += length;
      continue;
    }
    flush();
    for (const line of para) {
      for (const piece of splitLongLine(line, maxChars)) {
        if (pending.length > 0 && pendingLength + piece.text.length + 1 > maxChars) flush();
        pending.push(piece);
        pendingLength += piece.text.length + 1;
      }
    }
  }
  const last = toChunk(pending);
  if (last && pending.some((l) => l !== heading && l.text.trim() !== "")) chunks.push(last);
  return chunks;
}

/** Groups lines into paragraphs, each keeping the blank lines that follow it. */
function toParagraphs(lines: readonly Line[]): Line[][] {
  const paragraphs: Line[][] = [];
  let current: Line[] = [];
  let sawText = false;
  for (const line of lines) {
    const blank = !line.fenced && line.text.trim() === "";
    if (!blank && sawText && current.length > 0 && isBlankLine(current[current.length - 1])) {
      paragraphs.push(current);
      current = [];
    }
    current.push(line);
    if (!blank) sawText = true;
  }
  if (current.length > 0) paragraphs.push(current);
  return paragraphs;
}

function isBlankLine(line: Line | undefined): boolean {
  return line !== undefined && !line.fenced && line.text.trim() === "";
}

function textLength(lines: readonly Line[]): number {
  return lines.reduce((sum, l) => sum + l.text.length + 1, 0);
}

function splitLongLine(line: Line, maxChars: number): Line[] {
  if (line.text.length <= maxChars) return [line];
  const pieces: Line[] = [];
  let rest = line.text;
  while (rest.length > maxChars) {
    let cut = maxChars;
    // Never split a surrogate pair.
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    pieces.push({ ...line, text: rest.slice(0, cut) });
    rest = rest.slice(cut);
  }
  if (rest !== "") pieces.push({ ...line, text: rest });
  return pieces;
}

/** The chunk's text without surrounding blank lines, starting at its first non-blank line. */
function toChunk(lines: readonly Line[]): Chunk | null {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start]?.text.trim() ?? "") === "") start++;
  while (end > start && (lines[end - 1]?.text.trim() ?? "") === "") end--;
  const first = lines[start];
  if (!first) return null;
  return {
    startLine: first.no,
    endLine: lines[end - 1]!.no,
    text: lines.slice(start, end).map((l) => l.text.trimEnd()).join("\n"),
  };
}
