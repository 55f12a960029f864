/**
 * Result text, written exactly as the contract's `results` section says (pure functions). A
 * recalled quote is untrusted text: every line of it is prefixed ("> "), so it can never pass
 * for a header line or break out of its block, and control characters and bidirectional
 * overrides are replaced, so it cannot hide text or move the cursor.
 */
import { normalizeLineBreaks } from "../rank/quote.ts";
import type { RecallAnswer, RecallHit } from "../lookup/recall.ts";
import { sourcePosition } from "../record/record.ts";
import { fill, type JsonFormat, type RecallFormat, type ResultFormats } from "./contract.ts";

/** C0/C1 controls except tab and newline, DEL, and the bidirectional embedding/override/isolate marks. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const REPLACEMENT = "\ufffd";

/** Makes text safe to show on one line: line breaks (any kind) and tabs become spaces, the rest as `quoteText`. */
export function oneLine(text: string): string {
  return quoteText(text).replace(/[\n\t]/g, " ");
}

/**
 * Makes every line break "\n" (whatever kind: src/rank/quote.ts LINE_BREAK, so the prefixing of
 * each line cannot be escaped with U+2028 and the like) and replaces unsafe characters; keeps
 * newlines and tabs.
 */
export function quoteText(text: string): string {
  return normalizeLineBreaks(text).replace(UNSAFE, REPLACEMENT);
}

/** Cuts `text` to at most `max` code points (the mark included), never inside a surrogate pair. */
export function cut(text: string, max: number, mark: string): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  const keep = Math.max(0, max - Array.from(mark).length);
  return points.slice(0, keep).join("").trimEnd() + mark;
}

function hitDate(time: string): string {
  return /^\d{4}-\d{2}-\d{2}/.test(time) ? time.slice(0, 10) : "????-??-??";
}

function hitSource(hit: RecallHit): string {
  // A hit carries no commit: a git record shows its repository.
  return oneLine(sourcePosition({ ...hit, commit: null }));
}

/** The `copies` suffix of a hit line for a text found more than once; empty for one found once. */
function copiesOf(hit: RecallHit, f: RecallFormat): string {
  const { count, first, last, complete } = hit.copies;
  if (count < 2) return "";
  return fill(f.copies, {
    count: complete ? count : fill(f.copies_lower_bound, { count }),
    first: hitDate(first),
    last: hitDate(last),
  });
}

/** The `state` suffix for a record the person marked (retracted, muted, pinned); empty for a live one. */
function stateOf(hit: RecallHit, f: RecallFormat): string {
  const state = hit.state ?? ["live"];
  if (state.length === 1 && state[0] === "live") return "";
  return fill(f.state, { state: state.map(oneLine).join("; ") });
}

function formatHit(hit: RecallHit, rank: number, f: RecallFormat): string[] {
  const header = fill(f.hit, {
    rank,
    date: hitDate(hit.time),
    kind: oneLine(hit.kind),
    project: hit.project === "" ? f.no_project : oneLine(hit.project),
    source: hitSource(hit),
    score: hit.score.toFixed(f.score_decimals),
    matched: hit.matched.length === 0 ? f.no_terms : hit.matched.map(oneLine).join(", "),
  }) + copiesOf(hit, f) + fill(f.id, { id: oneLine(hit.id) }) + stateOf(hit, f);
  const quote = cut(quoteText(hit.quote).trim(), f.quote_max_chars, f.quote_cut_mark);
  const lines = quote.split("\n").map((line) => {
    const l = line.trimEnd();
    return l === "" ? f.quote_blank_line : fill(f.quote_line, { line: l });
  });
  return [header, ...lines];
}

/** The text of a verdict_recall result. */
export function formatRecall(answer: RecallAnswer, f: RecallFormat): string {
  if (answer.hits.length === 0) {
    const reason = answer.reason ? oneLine(answer.reason) : f.no_match_reason;
    return fill(f.no_match, { reason });
  }
  const lines = [fill(f.header, { count: answer.hits.length })];
  answer.hits.forEach((hit, i) => {
    lines.push(f.between_hits, ...formatHit(hit, i + 1, f));
  });
  return lines.join("\n");
}

/** The text of a call whose arguments do not fit the tool's input schema. */
export function formatInvalidArguments(tool: string, problems: readonly string[], f: ResultFormats): string {
  return fill(f.invalid_arguments, { tool, problems: problems.map(oneLine).join("; ") });
}

/** The text of a call that failed, with the error's hint line when it has one. */
export function formatError(message: string, hint: string | null, f: ResultFormats): string {
  const first = fill(f.error, { message: oneLine(message) });
  return hint ? `${first}\n${fill(f.error_hint, { hint: oneLine(hint) })}` : first;
}

/** The text of a JSON answer (the compaction tools). */
export function formatJson(value: unknown, f: JsonFormat): string {
  return JSON.stringify(value, null, f.json_indent);
}
