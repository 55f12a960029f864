/**
 * Splits Markdown into sections for the Documents source (pure). A section starts at an ATX
 * heading (`#` … `######`) and runs to the next one; text before the first heading is a section
 * too. A section's text is its source lines (heading line included; surrounding blank lines and
 * trailing spaces dropped), so a quote re-read from `startLine` matches the stored text. Setext headings are not recognised: they are
 * rare in notes and easily confused with a horizontal rule after a paragraph.
 */

export interface MarkdownSection {
  /** 1-based line of the section's (or chunk's) first non-blank line. */
  readonly startLine: number;
  /** The headings enclosing this section, outermost first (empty for text before any heading). */
  readonly headings: readonly string[];
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
    for (const chunk of chunkLines(all, section.heading, maxChars)) {
      out.push({ startLine: chunk.startLine, headings: section.headings, text: chunk.text });
    }
  }
  return out;
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
    text: lines.slice(start, end).map((l) => l.text.trimEnd()).join("\n"),
  };
}
