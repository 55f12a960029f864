/**
 * Recalled text is untrusted data: it may contain anything a transcript or a document held,
 * including text written to look like instructions. It is shown to the model only as a quote:
 * control characters removed, bidi overrides removed, fences and tags that could close the
 * surrounding block neutralised, length capped.
 */

/** Fence around quotes in the model's context; text cannot contain it after neutralise(). */
export const QUOTE_FENCE = "```";

/** C0 controls (except tab and newline), DEL, C1 controls, bidi embeddings/overrides/isolates. */
// deno-lint-ignore no-control-regex
const UNSAFE_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Three or more backticks or tildes could close (or open) a fence. */
const FENCE_RUN = /`{3,}|~{3,}/g;

/** A tag opener such as </system-reminder> or <user-prompt-submit-hook> could end our block. */
const TAG_LIKE = /<(\/?)([A-Za-z][\w-]*)/g;

/** Makes `text` safe to place inside a fenced quote. */
export function neutralise(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
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
