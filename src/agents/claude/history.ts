/**
 * Claude Code prompt history parser (`~/.claude/history.jsonl`): one line per submitted prompt,
 * `{display, pastedContents, timestamp (ms), project, sessionId}`. A pure, line-fed LineParser.
 *
 * Policies (the README lists them):
 * - Each line with a non-empty `display` and a valid `timestamp` is a typed prompt (origin
 *   "claude"), after the same text rules as transcripts: the NOT_TYPED_PREFIXES deny-list and the
 *   hint marker (prompt.ts).
 * - Slash commands appear as "/name args": kept as typed when they have args (the same text the
 *   transcript parser builds from `<command-args>`), dropped when bare ("/clear"). A first word
 *   with another "/" in it is a path, not a command, and the line is an ordinary prompt.
 * - Lines starting with "!" are bash-mode commands, not prompts (the transcript records them as
 *   `<bash-input>`, which is denied too).
 * - Pasted text shows as its placeholder ("[Pasted text #1 +20 lines]"); `pastedContents` is not
 *   indexed.
 * - Id = "claude-history:" + sessionId + ":" + timestamp. The collector drops a history record when
 *   a transcript prompt of the same session has the same `historyDedupKey` (HISTORY_REPEATS), so a
 *   prompt found in both places is kept once, from the transcript (which has its exact line and cwd).
 * - Malformed or non-object lines are counted in `malformed`; nothing throws.
 */
import { basename } from "../../config/paths.ts";
import type { LineParser, ParserOptions } from "../../record/line_parser.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../../record/record.ts";
import type { RepeatRule } from "../agent.ts";
import { parseObjectLine } from "../json.ts";
import { typedText } from "./prompt.ts";

/** History lines are small and each one is a candidate, so there is nothing to carry. */
export type HistoryCarry = Record<string, never>;

/** A bare slash command ("/clear", "/plugin:cmd"): one word starting "/", no other "/" in it. */
const BARE_COMMAND = /^\/[^\s/]+$/;

/**
 * The key under which a history prompt and a transcript prompt are the same prompt: the session
 * plus the text with whitespace runs collapsed (history and transcript differ in line endings
 * and trailing spaces).
 */
export function historyDedupKey(session: string | null, text: string): string {
  return `${session ?? ""}\n${text.replace(/\s+/g, " ").trim()}`;
}

/** The typed text of a history `display` value, or null. */
export function historyPromptText(display: string): string | null {
  const start = display.trim();
  if (start === "" || start.startsWith("!") || BARE_COMMAND.test(start)) return null;
  return typedText(start);
}

export function createHistoryParser(
  opts: ParserOptions,
  _carry: HistoryCarry | null,
): LineParser<HistoryCarry> {
  const out: VerdictRecord[] = [];
  let malformed = 0;

  function handle(entry: Record<string, unknown>, lineNo: number): void {
    if (typeof entry.display !== "string") return;
    const text = historyPromptText(entry.display);
    if (text === null) return;
    const time = toRfc3339(entry.timestamp);
    if (time === null) {
      malformed++; // no usable time: skipped, counted (we never invent one)
      return;
    }
    const session = typeof entry.sessionId === "string" && entry.sessionId !== "" ? entry.sessionId : null;
    out.push({
      id: recordId("prompt", `claude-history:${session ?? ""}:${String(entry.timestamp)}`),
      kind: "prompt",
      origin: "claude",
      text,
      time,
      project: typeof entry.project === "string" ? entry.project : "",
      session,
      source_file: opts.file,
      source_line: lineNo,
      commit: null,
    });
  }

  return {
    line(text: string, lineNo: number): void {
      const entry = parseObjectLine(text);
      if (entry === null) {
        if (text.trim() !== "") malformed++;
        return;
      }
      handle(entry, lineNo);
    },
    drain(): VerdictRecord[] {
      return out.splice(0);
    },
    carry(): HistoryCarry {
      return {};
    },
    get malformed(): number {
      return malformed;
    },
  };
}

/** Is this record from Claude's prompt history (deduplicated against transcripts)? */
export function isHistoryRecord(r: VerdictRecord): boolean {
  return r.origin === "claude" && basename(r.source_file) === "history.jsonl";
}

/** A history prompt is dropped when a transcript prompt of the same session has its key. */
export const HISTORY_REPEATS: RepeatRule = {
  isRepeat: isHistoryRecord,
  isOriginal: (r) => r.kind === "prompt" && r.origin === "claude" && !isHistoryRecord(r),
  key: (r) => historyDedupKey(r.session, r.text),
};
