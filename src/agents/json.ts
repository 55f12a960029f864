/**
 * What every agent's readers ask of the JSON their agent writes (session lines, settings, hook
 * files): is this value an object, does this line hold one; and the line-fed parser the session
 * readers share. One home, so the session parsers count a damaged line the same way (a
 * LineParser's `malformed`, src/record/line_parser.ts).
 */

import type { LineParser } from "../record/line_parser.ts";
import type { VerdictRecord } from "../record/record.ts";

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON object a line holds, or null (blank, not JSON, or JSON that is not an object). */
export function parseObjectLine(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Cheap shape test for the lines a parser's prefilter skips without parsing them: a JSON object
 * line starts "{" and ends "}" (a blank line passes). One that fails is counted as damaged.
 */
export function looksLikeObjectLine(line: string): boolean {
  const t = line.trim();
  return t === "" || (t.startsWith("{") && t.endsWith("}"));
}

/** What a JSON-lines session reader gives `jsonLineParser`: its rules and its state. */
export interface JsonLineRules<Carry> {
  /** Every line ignored, none counted: a file read for nothing (its records come from elsewhere). */
  readonly ignore?: boolean;
  /** Reads one object line; a throw (a shape no rule foresaw) costs that line, never the collect. */
  readonly handle: (entry: Record<string, unknown>, lineNo: number) => void;
  /**
   * A cheap look at the raw line before it is parsed: a line it rejects cannot matter, and is
   * only checked to look like an object line (else counted as malformed).
   */
  readonly mayMatter?: (text: string) => boolean;
  /** The records made so far and not yet drained. */
  readonly out: VerdictRecord[];
  readonly carry: () => Carry;
  /** Counts one more line or record skipped; the reader's rules count theirs through it too. */
  readonly skip: () => void;
  readonly skipped: () => number;
}

/**
 * The LineParser every JSON-lines session reader is (Claude Code's transcripts, Gemini CLI's and
 * Qwen Code's chats, Copilot CLI's events): each line parsed as one JSON object and handed to the
 * reader's rules; a line that is not one, or that the rules throw on, is counted as malformed.
 */
export function jsonLineParser<Carry>(rules: JsonLineRules<Carry>): LineParser<Carry> {
  return {
    line(text: string, lineNo: number): void {
      if (rules.ignore) return;
      if (rules.mayMatter && !rules.mayMatter(text)) {
        if (!looksLikeObjectLine(text)) rules.skip();
        return;
      }
      const entry = parseObjectLine(text);
      if (entry === null) {
        if (text.trim() !== "") rules.skip();
        return;
      }
      try {
        rules.handle(entry, lineNo);
      } catch {
        rules.skip();
      }
    },
    drain(): VerdictRecord[] {
      return rules.out.splice(0);
    },
    carry(): Carry {
      return rules.carry();
    },
    get malformed(): number {
      return rules.skipped();
    },
  };
}
