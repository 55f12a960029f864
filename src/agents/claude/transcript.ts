/**
 * Claude Code transcript parser (`~/.claude/projects/<project>/<session>.jsonl`): a pure,
 * line-fed, resumable LineParser that yields typed prompts and memory-file notes.
 *
 * Policies (the README lists them):
 * - Prompts: `typedPromptText` (prompt.ts) decides; see its policies. Files named
 *   `agent-*.jsonl` or under a `/subagents/` directory are subagent transcripts and yield nothing.
 * - A prompt needs a valid `timestamp`: an entry without one is skipped (a record's time orders
 *   the archive and drives recency; inventing one would be false). Id = "claude:" + uuid, so the
 *   same entry copied into a resumed or forked file gets the same id and the collector keeps one
 *   (an entry without uuid falls back to file + line).
 * - Queued prompts count once, from their `type:"user"` entry; `queue-operation` and
 *   `attachment`/`queued_command` copies are not `type:"user"` and are ignored.
 * - Notes: a main-chain (not sidechain) Write / Edit / MultiEdit / NotebookEdit whose target's
 *   base name is in MEMORY_FILE_NAMES (src/agents/memory_files.ts) or whose path has a
 *   `memory` directory segment. The note is emitted only when its tool_result arrives and is not
 *   an error (`is_error: true`, or a string `toolUseResult` starting "Error"). Until then it
 *   waits in the carry, so a later collect that resumes the grown file still emits it; if the
 *   result never comes, there is no note. Text:
 *   Write → content, Edit → new_string, MultiEdit → each new_string joined with "\n\n",
 *   NotebookEdit → new_source. Time, project and line are the tool_use entry's.
 * - Robustness: malformed or non-object lines are counted in `malformed`; unknown types and
 *   missing fields are ignored; nothing throws.
 *
 * Speed: most bytes of a transcript are tool results, so `line()` decides from cheap substring
 * checks whether a line can matter before parsing it (see `mayMatter`).
 */
import type { LineParser, ParserOptions } from "../../record/line_parser.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../../record/record.ts";
import { awaitResult, isMemoryPath, takeAwaited } from "../memory_files.ts";
import { isObject, jsonLineParser } from "../json.ts";
import { typedPromptText } from "./prompt.ts";

/** Tools that write a file, and the input field holding its path. */
const WRITE_TOOLS: Readonly<Record<string, string>> = {
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/**
 * Substrings one of which every raw line holding a memory-file write contains: each base name
 * holds "CLAUDE.", "AGENTS." or "MEMORY.md", and a memory directory holds "memory".
 */
const MEMORY_HINTS: readonly string[] = ["CLAUDE.", "AGENTS.", "MEMORY.md", "memory"];

/** A memory-file write seen in the transcript whose tool_result has not arrived yet. */
export interface PendingNote {
  readonly toolUseId: string;
  readonly text: string;
  readonly time: string;
  readonly project: string;
  readonly session: string | null;
  readonly line: number;
}

/** What a Claude transcript parser needs to resume a file after its last line. */
export interface ClaudeCarry {
  /** Memory writes awaiting their tool_result, oldest first. */
  readonly pending: readonly PendingNote[];
}

/** Test seam: `prefilter: false` parses every line (the reference path the fast path must match). */
export interface ClaudeParserTuning {
  readonly prefilter: boolean;
}

export function createClaudeParser(
  opts: ParserOptions,
  carry: ClaudeCarry | null,
  tuning: ClaudeParserTuning = { prefilter: true },
): LineParser<ClaudeCarry> {
  const pending = restorePending(carry);
  const silent = isSubagentFile(opts.file);
  const out: VerdictRecord[] = [];
  let malformed = 0;

  function handle(entry: Record<string, unknown>, lineNo: number): void {
    if (entry.type === "assistant") collectWrites(entry, lineNo);
    else if (entry.type === "user") {
      settleResults(entry);
      const text = typedPromptText(entry, opts);
      if (text !== null) pushPrompt(entry, text, lineNo);
    }
  }

  function pushPrompt(entry: Record<string, unknown>, text: string, lineNo: number): void {
    const time = toRfc3339(entry.timestamp);
    if (time === null) {
      malformed++; // a prompt with no usable time: skipped, counted (we never invent one)
      return;
    }
    out.push(promptRecord(entry, text, time, { file: opts.file, lineNo }));
  }

  function collectWrites(entry: Record<string, unknown>, lineNo: number): void {
    if (entry.isSidechain === true) return;
    const content = isObject(entry.message) ? entry.message.content : undefined;
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isObject(block) || block.type !== "tool_use" || typeof block.id !== "string") continue;
      const text = memoryWriteText(block);
      if (text === null) continue;
      const time = toRfc3339(entry.timestamp);
      if (time === null) {
        malformed++;
        continue;
      }
      awaitResult(pending, block.id, {
        toolUseId: block.id,
        text,
        time,
        project: typeof entry.cwd === "string" ? entry.cwd : "",
        session: typeof entry.sessionId === "string" ? entry.sessionId : null,
        line: lineNo,
      });
    }
  }

  function settleResults(entry: Record<string, unknown>): void {
    if (pending.size === 0) return;
    const content = isObject(entry.message) ? entry.message.content : undefined;
    if (!Array.isArray(content)) return;
    const failedEntry = typeof entry.toolUseResult === "string" && entry.toolUseResult.startsWith("Error");
    for (const block of content) {
      if (!isObject(block) || block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      const note = takeAwaited(pending, block.tool_use_id);
      if (note === undefined) continue;
      if (block.is_error === true || failedEntry) continue;
      out.push(noteRecord(note, opts.file));
    }
  }

  return jsonLineParser({
    ignore: silent,
    handle,
    mayMatter: tuning.prefilter ? (text: string) => mayMatter(text, pending) : undefined,
    out,
    carry: () => ({ pending: [...pending.values()] }),
    skip: () => malformed++,
    skipped: () => malformed,
  });
}

/** A typed prompt's record: its identity is the entry's uuid, else its file and line. */
function promptRecord(
  entry: Record<string, unknown>,
  text: string,
  time: string,
  at: { readonly file: string; readonly lineNo: number },
): VerdictRecord {
  const identity = typeof entry.uuid === "string" && entry.uuid !== ""
    ? `claude:${entry.uuid}`
    : `claude:${at.file}:${at.lineNo}`;
  return {
    id: recordId("prompt", identity),
    kind: "prompt",
    origin: "claude",
    text,
    time,
    project: typeof entry.cwd === "string" ? entry.cwd : "",
    session: typeof entry.sessionId === "string" ? entry.sessionId : null,
    source_file: at.file,
    source_line: at.lineNo,
    commit: null,
  };
}

/** A memory write's record, once its result says it landed. */
function noteRecord(note: PendingNote, file: string): VerdictRecord {
  return {
    id: recordId("note", `claude:${note.toolUseId}`),
    kind: "note",
    origin: "claude",
    text: note.text,
    time: note.time,
    project: note.project,
    session: note.session,
    source_file: file,
    source_line: note.line,
    commit: null,
  };
}

/** The pending writes of a stored carry, each checked (a state file may be old or hand-edited). */
function restorePending(carry: unknown): Map<string, PendingNote> {
  const pending = new Map<string, PendingNote>();
  const list = isObject(carry) && Array.isArray(carry.pending) ? carry.pending : [];
  for (const p of list) {
    if (
      isObject(p) && typeof p.toolUseId === "string" && typeof p.text === "string" &&
      typeof p.time === "string" && typeof p.project === "string" &&
      (p.session === null || typeof p.session === "string") && typeof p.line === "number"
    ) {
      pending.set(p.toolUseId, {
        toolUseId: p.toolUseId,
        text: p.text,
        time: p.time,
        project: p.project,
        session: p.session,
        line: p.line,
      });
    }
  }
  return pending;
}

/**
 * Whether a raw line can yield anything, decided without parsing it. Must never say false for a
 * line the full parse would use:
 * - an assistant write to a memory file holds the block type value `"tool_use"` and one of
 *   MEMORY_HINTS (paths are plain ASCII in the JSON, never escaped);
 * - a user entry holds the string `"user"` (its type). A user entry with a `toolUseResult` or
 *   `tool_use_id` key is a tool result (never a typed prompt), so it matters only when it names a
 *   write we are waiting for. JSON escapes quotes inside strings, so `"tool_use_id"` followed by
 *   ":" only occurs as a real key, not inside typed text.
 */
export function mayMatter(line: string, pending: ReadonlyMap<string, unknown>): boolean {
  if (line.includes('"tool_use"') && MEMORY_HINTS.some((h) => line.includes(h))) return true;
  if (!line.includes('"user"')) return false;
  if (hasKey(line, "tool_use_id") || hasKey(line, "toolUseResult")) {
    for (const id of pending.keys()) if (line.includes(id)) return true;
    return false;
  }
  return true;
}

/** Whether `"key"` occurs followed (after optional whitespace) by ":" — i.e. as an object key. */
function hasKey(line: string, key: string): boolean {
  const quoted = `"${key}"`;
  let from = line.indexOf(quoted);
  while (from !== -1) {
    let i = from + quoted.length;
    while (i < line.length && isJsonSpace(line.charCodeAt(i))) i++;
    if (line.charCodeAt(i) === 0x3a) return true;
    from = line.indexOf(quoted, i);
  }
  return false;
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * The note text of a tool_use block when it writes a memory or instruction file, else null.
 * An empty text (a deletion) has nothing to recall and yields no note.
 */
export function memoryWriteText(block: Readonly<Record<string, unknown>>): string | null {
  const name = typeof block.name === "string" ? block.name : "";
  const pathField = WRITE_TOOLS[name];
  if (pathField === undefined || !isObject(block.input)) return null;
  const input = block.input;
  const path = input[pathField];
  if (typeof path !== "string" || !isMemoryPath(path)) return null;
  let text: string | null = null;
  if (name === "Write") text = asString(input.content);
  else if (name === "Edit") text = asString(input.new_string);
  else if (name === "NotebookEdit") text = asString(input.new_source);
  else if (Array.isArray(input.edits)) {
    const parts = input.edits.map((e) => (isObject(e) ? asString(e.new_string) : null))
      .filter((s): s is string => s !== null);
    text = parts.length === 0 ? null : parts.join("\n\n");
  }
  const trimmed = text?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

/** Subagent transcripts: `agent-*.jsonl` files and anything under a `subagents` directory. */
export function isSubagentFile(file: string): boolean {
  const segments = file.replaceAll("\\", "/").split("/");
  const base = segments[segments.length - 1] ?? "";
  return (base.startsWith("agent-") && base.endsWith(".jsonl")) ||
    segments.slice(0, -1).includes("subagents");
}

function asString(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
