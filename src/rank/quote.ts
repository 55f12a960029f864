/**
 * Recalled text is untrusted data: it may contain anything a transcript or a document held,
 * including text written to look like instructions. It is shown to the model only as a quote:
 * control characters removed, bidi overrides removed, fences and tags that could close the
 * surrounding block neutralised, length capped.
 */

/**
 * Every character some reader ends a line on: LF, CR and CRLF, VT, FF, the file/group/record
 * separators (Python's splitlines), NEL, and Unicode's line and paragraph separators (JavaScript
 * and many terminals). A quote is shown line by line with a prefix; text that broke a line on
 * any of these where the prefixing did not would start an unprefixed line (a forged header).
 */
// deno-lint-ignore no-control-regex -- matching line-break control characters is the point
export const LINE_BREAK = /\r\n|[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/g;

/** `text` with every line break (LINE_BREAK) written as "\n". */
export function normalizeLineBreaks(text: string): string {
  return text.replace(LINE_BREAK, "\n");
}

/** One line: neutralised, every run of whitespace and line breaks one space, trimmed, never cut. */
export function inline(text: string): string {
  return neutralise(text).replace(/\s+/g, " ").trim();
}

/**
 * JSON text in which the line separators JSON allows raw inside strings (U+2028, U+2029, and
 * NEL) are written as escapes, so no reader of the text can see a line break in a value.
 */
export function jsonWithoutRawBreaks(json: string): string {
  return json.replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Fence around quotes in the model's context; text cannot contain it after neutralise(). */
export const QUOTE_FENCE = "```";

/** C0 controls (except tab and newline), DEL, C1 controls, bidi embeddings/overrides/isolates. */
// deno-lint-ignore no-control-regex
const UNSAFE_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Three or more backticks or tildes could close (or open) a fence. */
const FENCE_RUN = /`{3,}|~{3,}/g;

/** A tag opener such as </system-reminder> or <user-prompt-submit-hook> could end our block. */
const TAG_LIKE = /<(\/?)([A-Za-z][\w-]*)/g;

/** Makes `text` safe to place inside a fenced quote (every line break made "\n" first). */
export function neutralise(text: string): string {
  return normalizeLineBreaks(text)
    .replace(UNSAFE_CHARS, "")
    .replace(FENCE_RUN, (run) => run.split("").join("\u200b"))
    .replace(TAG_LIKE, (_m, slash: string, name: string) => `‹${slash}${name}`);
}

/** Cuts `text` to at most `max` characters at a word boundary when one is near, adding "…". */
export function truncate(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return (space > max * 0.7 ? cut.slice(0, space) : cut).trimEnd() + "…";
}

/** One line: whitespace collapsed, neutralised, cut (for the person's one-line notice). */
export function oneLine(text: string, max: number): string {
  return truncate(neutralise(text).replace(/\s+/g, " "), max);
}

/** A fenced block holding the neutralised, truncated text. */
export function fencedQuote(text: string, max: number): string {
  return `${QUOTE_FENCE}text\n${truncate(neutralise(text), max)}\n${QUOTE_FENCE}`;
}
