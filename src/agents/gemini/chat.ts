/**
 * Gemini CLI chat parser (`~/.gemini/tmp/<project id>/chats/session-*.jsonl`, 0.61 and later):
 * a pure, line-fed, resumable LineParser that yields the prompts a person typed and the
 * memory-file writes that landed.
 *
 * The file is append-only JSON lines of three kinds (as 0.61.0 writes them, tests/agents/gemini/):
 * headers `{sessionId, projectHash, startTime, lastUpdated, kind}` (again on every resume),
 * patches `{"$set": {...}}` (the whole message list at start and on resume, `lastUpdated`,
 * `summary`), and messages `{id, timestamp, type, content, ...}`.
 *
 * Policies (the README lists them):
 * - Only headers with `kind` "main" (or none) open a session; a `subagent` file yields nothing.
 *   `$set` patches never yield (their `messages` are copies of the history, the first one the
 *   injected `<session_context>` block).
 * - A prompt is a `type:"user"` message without `functionResponse` parts (tool results). Its
 *   text is `displayContent` when present (what was typed; `content` then also holds the
 *   BeforeAgent hook context or the files an `@path` pulled in), else `content`'s text parts:
 *   Gemini CLI records `displayContent` only when it differs from `content`.
 * - Leading `<hook_context>…</hook_context>` blocks are removed (in `-p` mode SessionStart
 *   context is prepended to the typed text, even inside `displayContent`); nothing left means
 *   nothing typed (the interactive SessionStart message). Text starting with a MACHINE_PREFIXES
 *   entry, or holding VERDICT_HINT_MARKER, is not a prompt.
 * - Continuations: Gemini CLI sends "Please continue." (next-speaker check), loop-recovery
 *   feedback and AfterAgent retry reasons as new user messages carrying the turn's original
 *   `displayContent`. A message whose `displayContent` repeats the session's previous prompt
 *   while its `content` does not hold that text is one of those, not a second prompt.
 * - Headless: only lines typed into the terminal UI count, unless `includeHeadless`. The chat
 *   file does not say how a session ran; the TUI logs every submitted line to the project's
 *   `logs.json` (sessionId + message), `gemini -p` does not. So a prompt counts when the
 *   project's typed lines (opts.context, see TypedLines) hold its session and text.
 * - Notes: a `gemini` message's `toolCalls` entry with `status:"success"` that wrote a memory
 *   or instruction file (write_file → content, replace → new_string, on a file whose base name
 *   is in GEMINI_MEMORY_FILE_NAMES) or saved a memory (save_memory → fact). The same message line is
 *   written again when its tool calls finish; the record id (the call id) keeps one.
 * - Time = the message's `timestamp` (a message without a valid one is skipped). Project = the
 *   project folder's `.project_root` (opts.context), else "". Session = the header's sessionId.
 *   Id = "gemini:" + session + ":" + message id.
 * - Malformed or non-object lines are counted in `malformed`; unknown types are ignored; nothing
 *   throws.
 */
import {
  type LineParser,
  type ParserOptions,
  stripLeadingBlocks,
  VERDICT_HINT_MARKER,
} from "../../record/line_parser.ts";
import { hasFileName } from "../memory_files.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../../record/record.ts";
import { isObject, jsonLineParser } from "../json.ts";
import { LEADING_BLOCKS } from "./hook_dialect.ts";

/**
 * Base names of memory and instruction files whose writes become notes. Gemini CLI's own list,
 * narrower than the shared one (src/agents/memory_files.ts: CLAUDE.local.md, AGENTS.override.md
 * and any file under a `memory/` directory too). Making it the shared list plus GEMINI.md, as
 * Qwen Code's is, would add notes: a change of policy, to be decided on its own.
 */
export const GEMINI_MEMORY_FILE_NAMES: readonly string[] = [
  "GEMINI.md",
  "AGENTS.md",
  "CLAUDE.md",
  "MEMORY.md",
];

/**
 * Text starts of user-role messages Gemini CLI makes itself (read in the 0.61 bundle): the
 * session context, hook context on its own, `!` shell-mode output, steering hints sent while a
 * turn runs, plan-mode switches and loop-recovery feedback. Extend here.
 */
export const MACHINE_PREFIXES: readonly string[] = [
  "<session_context>",
  "<hook_context>",
  "I ran the following shell command:",
  "User steering update:",
  "User hints:",
  "User has manually exited Plan Mode.",
  "System: Potential loop detected.",
];

/** Tools that write a file, and the argument holding the text written. */
const WRITE_TOOLS: Readonly<Record<string, string>> = {
  write_file: "content",
  replace: "new_string",
};
/** The memory tool: its `fact` is appended to the global GEMINI.md. */
const SAVE_MEMORY_TOOL = "save_memory";

/** The lines typed into the terminal UI of one project folder (from its logs.json), by session. */
export interface TypedLines {
  /** The project's absolute path (its `.project_root`), or "" when unknown. */
  readonly project: string;
  /** session id → the trimmed lines typed in it. */
  readonly typed: ReadonlyMap<string, ReadonlySet<string>>;
}

export const NO_TYPED_LINES: TypedLines = { project: "", typed: new Map() };

/** What a Gemini chat parser needs to resume a file after its last line. */
export interface GeminiCarry {
  /** The header's sessionId, or null before a header. */
  readonly session: string | null;
  /** Whether the file is a main session (null before a header). */
  readonly main: boolean | null;
  /** The text of the session's latest prompt (counted or not), for the continuation rule. */
  readonly lastPrompt: string | null;
}

export function createGeminiParser(opts: ParserOptions, carry: GeminiCarry | null): LineParser<GeminiCarry> {
  let state = restoreCarry(carry);
  const lines = isTypedLines(opts.context) ? opts.context : NO_TYPED_LINES;
  const out: VerdictRecord[] = [];
  let malformed = 0;

  function handle(entry: Record<string, unknown>, lineNo: number): void {
    if ("$set" in entry) return;
    if (typeof entry.sessionId === "string" && entry.type === undefined) {
      // A header: the first one opens the session; a resume repeats it.
      if (state.main === null || state.session !== entry.sessionId) {
        state = {
          session: entry.sessionId,
          main: entry.kind === undefined || entry.kind === "main",
          lastPrompt: state.session === entry.sessionId ? state.lastPrompt : null,
        };
      }
      return;
    }
    if (state.main !== true || state.session === null) return;
    if (entry.type === "user") userMessage(entry, lineNo, state.session);
    else if (entry.type === "gemini") modelMessage(entry, lineNo, state.session);
  }

  function userMessage(entry: Record<string, unknown>, lineNo: number, session: string): void {
    const text = promptText(entry, state.lastPrompt);
    if (text === null) return;
    const continuation = text === CONTINUATION;
    if (continuation) return;
    state = { ...state, lastPrompt: text };
    const time = toRfc3339(entry.timestamp);
    if (typeof entry.id !== "string") return;
    if (time === null) {
      malformed++; // a prompt with no usable time: skipped, counted (we never invent one)
      return;
    }
    if (!opts.includeHeadless && !(lines.typed.get(session)?.has(text) ?? false)) return;
    out.push({
      id: recordId("prompt", `gemini:${session}:${entry.id}`),
      kind: "prompt",
      origin: "gemini",
      text,
      time,
      project: lines.project,
      session,
      source_file: opts.file,
      source_line: lineNo,
      commit: null,
    });
  }

  function modelMessage(entry: Record<string, unknown>, lineNo: number, session: string): void {
    const notes = notesOf(entry, { file: opts.file, project: lines.project, session, lineNo });
    if (notes === null) malformed++;
    else out.push(...notes);
  }

  return jsonLineParser({
    handle,
    out,
    carry: () => state,
    skip: () => malformed++,
    skipped: () => malformed,
  });
}

/**
 * The notes of a model message: one per memory-file write that succeeded. Null when it has such
 * a write but no usable time (skipped, counted: we never invent one).
 */
function notesOf(
  entry: Record<string, unknown>,
  at: { readonly file: string; readonly project: string; readonly session: string; readonly lineNo: number },
): VerdictRecord[] | null {
  if (!Array.isArray(entry.toolCalls)) return [];
  const time = toRfc3339(entry.timestamp);
  if (time === null) {
    const landed = entry.toolCalls.some((c) =>
      isObject(c) && c.status === "success" && memoryWriteText(c) !== null
    );
    return landed ? null : [];
  }
  const notes: VerdictRecord[] = [];
  for (const call of entry.toolCalls) {
    if (!isObject(call) || call.status !== "success" || typeof call.id !== "string") continue;
    const text = memoryWriteText(call);
    if (text === null) continue;
    notes.push({
      id: recordId("note", `gemini:${at.session}:${call.id}`),
      kind: "note",
      origin: "gemini",
      text,
      time,
      project: at.project,
      session: at.session,
      source_file: at.file,
      source_line: at.lineNo,
      commit: null,
    });
  }
  return notes;
}

/** Stands for "a continuation of the previous prompt" in promptText's answer. */
const CONTINUATION = "\u0000continuation";

/**
 * The typed text of a user message (trimmed), CONTINUATION for a machine continuation of the
 * previous prompt `last`, or null when nobody typed it.
 */
export function promptText(entry: Readonly<Record<string, unknown>>, last: string | null): string | null {
  if (entry.type !== "user") return null;
  const content = partsOf(entry.content);
  if (content.some((p) => "functionResponse" in p)) return null;
  const display = entry.displayContent === undefined ? null : partsOf(entry.displayContent);
  const raw = textOfParts(display ?? content);
  if (raw === null) return null;
  const text = typedText(raw);
  if (text === null) return null;
  if (display !== null && text === last && !(textOfParts(content) ?? "").includes(text)) return CONTINUATION;
  return text;
}

/** Removes leading hook context, then applies the machine-text rules; null when nothing typed is left. */
export function typedText(raw: string): string | null {
  const text = stripHookContext(raw);
  if (text === "" || text.includes(VERDICT_HINT_MARKER)) return null;
  if (MACHINE_PREFIXES.some((p) => text.startsWith(p))) return null;
  return text;
}

/** The blocks Gemini CLI puts before typed text (its hook dialect strips the same from hook input). */
export { LEADING_BLOCKS };

/** `text` without the `<hook_context>…</hook_context>` blocks it starts with, trimmed. */
export function stripHookContext(text: string): string {
  return stripLeadingBlocks(text, LEADING_BLOCKS);
}

/** The note text of a finished tool call that wrote a memory file, else null. */
export function memoryWriteText(call: Readonly<Record<string, unknown>>): string | null {
  const args = isObject(call.args) ? call.args : null;
  if (args === null || typeof call.name !== "string") return null;
  let text: unknown = null;
  if (call.name === SAVE_MEMORY_TOOL) text = args.fact;
  else {
    const field = WRITE_TOOLS[call.name];
    if (field === undefined || typeof args.file_path !== "string" || !isGeminiMemoryPath(args.file_path)) {
      return null;
    }
    text = args[field];
  }
  const trimmed = typeof text === "string" ? text.trim() : "";
  return trimmed === "" ? null : trimmed;
}

export function isGeminiMemoryPath(path: string): boolean {
  return hasFileName(path, GEMINI_MEMORY_FILE_NAMES);
}

/** Content as a list of part objects (a string is one text part). */
function partsOf(content: unknown): Record<string, unknown>[] {
  if (typeof content === "string") return [{ text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** The text parts joined with "\n", or null when there is none. */
function textOfParts(parts: readonly Record<string, unknown>[]): string | null {
  const texts = parts.filter((p) => typeof p.text === "string" && p.thought !== true).map((p) =>
    p.text as string
  );
  return texts.length === 0 ? null : texts.join("\n");
}

function restoreCarry(carry: unknown): GeminiCarry {
  const c = isObject(carry) ? carry : {};
  return {
    session: typeof c.session === "string" ? c.session : null,
    main: typeof c.main === "boolean" ? c.main : null,
    lastPrompt: typeof c.lastPrompt === "string" ? c.lastPrompt : null,
  };
}

function isTypedLines(value: unknown): value is TypedLines {
  return isObject(value) && typeof value.project === "string" && value.typed instanceof Map;
}
