/**
 * The contract between the collector and the transcript parsers (Claude Code, Claude history,
 * Codex). A parser is fed one line at a time and can be resumed later from its carry, so a
 * re-collect reads only the bytes a file gained since the last run.
 */
import type { VerdictRecord } from "./record.ts";

/**
 * Marker that starts every hint verdict injects. Text holding it is never a typed prompt:
 * indexing our own output would make recall feed on itself.
 */
export const VERDICT_HINT_MARKER = "[verdict recall]";

export interface ParserOptions {
  /** Real path of the file being parsed (becomes each record's source_file). */
  readonly file: string;
  /** Also count prompts of headless/SDK sessions (config "include_headless"). */
  readonly includeHeadless: boolean;
  /** What the reader's `context` loaded for this file (src/agents/agent.ts), else absent. */
  readonly context?: unknown;
}

/** A resumable, line-fed parser. `Carry` must survive JSON.stringify/parse unchanged. */
export interface LineParser<Carry> {
  /** Feeds one line (without its newline; may be malformed or truncated) and its 1-based number. */
  line(text: string, lineNo: number): void;
  /** Returns the records completed since the last drain, and forgets them. */
  drain(): VerdictRecord[];
  /** State that resumes this file after the last line fed (pending tool calls, session facts). */
  carry(): Carry;
  /** Lines fed so far that were not valid JSON, or would be a record but have no usable time (counted as skipped). */
  readonly malformed: number;
}

/**
 * `text` without the `<tag>…</tag>` blocks (of the given tags) it starts with, trimmed. Agents
 * put context they made before what was typed (Gemini CLI's `<hook_context>` in `-p` mode);
 * an unclosed block is left in place, for the machine-text rules to judge.
 */
export function stripLeadingBlocks(text: string, tags: readonly string[]): string {
  let rest = text.trim();
  for (;;) {
    const tag = tags.find((t) => rest.startsWith(`<${t}>`));
    if (tag === undefined) return rest;
    const close = `</${tag}>`;
    const end = rest.indexOf(close);
    if (end === -1) return rest;
    rest = rest.slice(end + close.length).trim();
  }
}
