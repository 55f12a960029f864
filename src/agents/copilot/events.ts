/**
 * GitHub Copilot CLI session parser (`<folder>/session-state/<session>/events.jsonl`, 1.0.x): a
 * pure, line-fed, resumable LineParser that yields the prompts a person typed and the
 * memory-file writes that landed. Format: as 1.0.102 writes it (tests/agents/copilot/events_test.ts).
 *
 * Policies (the README lists them):
 * - Every line is an event `{type, data, id, timestamp, parentId}`. A typed prompt is a
 *   `user.message` event; its text is `data.content`, exactly what was typed
 *   (`data.transformedContent` is what the model got: the date, the prompt and hook context).
 *   Machine-made input is never a `user.message`: hook context lives in `transformedContent`
 *   and `hook.end`, a `!` line is `tool.user_requested`, `/compact` is `session.compaction_*`
 *   (its summary in `summaryContent`), `/exit` is `session.shutdown`. Empty text, or text
 *   holding VERDICT_HINT_MARKER, yields nothing.
 * - Headless: Copilot writes the system prompt as a `system.message` event right after the first
 *   prompt of a run, and a `copilot -p` run's says NON_INTERACTIVE_MARK. So a prompt waits in
 *   the carry until the session's mode is known: interactive prompts count, headless ones only
 *   with includeHeadless. A run resumed with `--continue` writes no new system message: its
 *   prompts take the mode last seen in the file. A system message with neither wording (a future
 *   version) counts as interactive, so no typed prompt is lost to a reworded prompt.
 * - Notes: a `create` or `edit` tool request (in `assistant.message` `data.toolRequests`) of a
 *   memory or instruction file (isMemoryPath, plus `.github/copilot-instructions.md` and
 *   `.github/instructions/*.instructions.md`) becomes a note when its `tool.execution_complete`
 *   says `success: true`. Text: `file_text` (create) or `new_str` (edit).
 * - Session = `session.start` `data.sessionId`; project = its `data.context.cwd` (a
 *   `session.resume` context replaces it); time = each event's `timestamp`; id = "copilot:" +
 *   the event's `id` (file + line without one). A prompt or note without a usable time is
 *   skipped and counted in `malformed`, as every reader does.
 * - Malformed lines are counted; unknown events are ignored; nothing throws.
 */
import { type LineParser, type ParserOptions, VERDICT_HINT_MARKER } from "../../record/line_parser.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../../record/record.ts";
import { awaitResult, isMemoryPath, takeAwaited } from "../memory_files.ts";
import { isObject, jsonLineParser } from "../json.ts";

/** Words of the system prompt of `copilot -p` (1.0.102) that the interactive one lacks. */
export const NON_INTERACTIVE_MARK = "You are running in non-interactive mode";

/** Tools that write a file: the argument holding the path and the one holding the new text. */
const WRITE_TOOLS: Readonly<Record<string, { path: string; text: string }>> = {
  create: { path: "path", text: "file_text" },
  edit: { path: "path", text: "new_str" },
};

/** Prompts waiting for the session's mode beyond this many are dropped oldest first. */
const MAX_WAITING = 64;

export interface CopilotPending {
  readonly key: string;
  readonly text: string;
  readonly time: string;
  readonly line: number;
}

export interface CopilotCarry {
  readonly session: string | null;
  readonly project: string;
  /** The mode the last system message showed, or null before one. */
  readonly mode: "interactive" | "headless" | null;
  /** Prompts typed before the mode was known, oldest first. */
  readonly waiting: readonly CopilotPending[];
  /** Memory writes awaiting their tool.execution_complete (key: the tool call id). */
  readonly notes: readonly CopilotPending[];
}

export function createCopilotParser(
  opts: ParserOptions,
  carry: CopilotCarry | null,
): LineParser<CopilotCarry> {
  // A stored carry may be old or hand-edited: every field is checked.
  const c: Record<string, unknown> = isObject(carry) ? carry : {};
  let session = typeof c.session === "string" ? c.session : null;
  let project = typeof c.project === "string" ? c.project : "";
  let mode: CopilotCarry["mode"] = c.mode === "interactive" || c.mode === "headless" ? c.mode : null;
  let waiting: CopilotPending[] = (Array.isArray(c.waiting) ? c.waiting : []).map(restorePending)
    .filter((p): p is CopilotPending => p !== null);
  const notes = new Map<string, CopilotPending>();
  for (const n of Array.isArray(c.notes) ? c.notes : []) {
    const p = restorePending(n);
    if (p) notes.set(p.key, p);
  }
  const out: VerdictRecord[] = [];
  let malformed = 0;

  function emit(kind: "prompt" | "note", p: CopilotPending): void {
    out.push(recordOf(kind, p, { project, session, file: opts.file }));
  }

  function counts(): boolean {
    return mode === "interactive" || opts.includeHeadless;
  }

  function handle(event: Record<string, unknown>, lineNo: number): void {
    const data = isObject(event.data) ? event.data : {};
    const key = typeof event.id === "string" && event.id !== "" ? event.id : `${opts.file}:${lineNo}`;
    switch (event.type) {
      case "session.start":
        if (session === null && typeof data.sessionId === "string") session = data.sessionId;
        if (isObject(data.context) && typeof data.context.cwd === "string") project = data.context.cwd;
        return;
      case "session.resume":
        if (isObject(data.context) && typeof data.context.cwd === "string") project = data.context.cwd;
        return;
      case "system.message": {
        const text = typeof data.content === "string" ? data.content : "";
        mode = text.includes(NON_INTERACTIVE_MARK) ? "headless" : "interactive";
        if (counts()) { for (const p of waiting) emit("prompt", p); }
        waiting = [];
        return;
      }
      case "user.message": {
        const text = typeof data.content === "string" ? data.content.trim() : "";
        const time = toRfc3339(event.timestamp);
        if (text === "" || text.includes(VERDICT_HINT_MARKER)) return;
        if (time === null) {
          malformed++; // a typed prompt without a usable time: skipped and counted
          return;
        }
        const p = { key, text, time, line: lineNo };
        if (mode === null && !opts.includeHeadless) {
          waiting.push(p);
          if (waiting.length > MAX_WAITING) waiting.shift();
        } else if (counts()) emit("prompt", p);
        return;
      }
      case "assistant.message":
        return collectWrites(data, event, lineNo);
      case "tool.execution_complete": {
        const note = typeof data.toolCallId === "string" ? takeAwaited(notes, data.toolCallId) : undefined;
        if (note !== undefined && data.success === true) emit("note", note);
        return;
      }
    }
  }

  function collectWrites(
    data: Record<string, unknown>,
    event: Record<string, unknown>,
    lineNo: number,
  ): void {
    const time = toRfc3339(event.timestamp);
    for (const [id, text] of memoryWritesOf(data)) {
      if (time === null) {
        malformed++; // a memory write without a usable time: skipped and counted
        continue;
      }
      awaitResult(notes, id, { key: id, text, time, line: lineNo });
    }
  }

  return jsonLineParser({
    handle,
    // Cheap: tool output dominates the file; only these events can matter.
    mayMatter: (text) =>
      text.includes('"user.message"') || text.includes('"system.message"') ||
      text.includes('"session.') || text.includes('"toolRequests"') ||
      text.includes('"tool.execution_complete"'),
    out,
    carry: () => ({ session, project, mode, waiting, notes: [...notes.values()] }),
    skip: () => malformed++,
    skipped: () => malformed,
  });
}

/** The record a settled prompt or note becomes, in the session and project the log named. */
function recordOf(
  kind: "prompt" | "note",
  p: CopilotPending,
  at: { readonly project: string; readonly session: string | null; readonly file: string },
): VerdictRecord {
  return {
    id: recordId(kind, `copilot:${p.key}`),
    kind,
    origin: "copilot",
    text: p.text,
    time: p.time,
    project: at.project,
    session: at.session,
    source_file: at.file,
    source_line: p.line,
    commit: null,
  };
}

/** The memory-file writes an assistant message asks for: [tool call id, text] each. */
function memoryWritesOf(data: Record<string, unknown>): [string, string][] {
  if (!Array.isArray(data.toolRequests)) return [];
  const out: [string, string][] = [];
  for (const req of data.toolRequests) {
    if (!isObject(req) || typeof req.toolCallId !== "string") continue;
    const text = memoryWriteText(req);
    if (text !== null) out.push([req.toolCallId, text]);
  }
  return out;
}

/** Copilot's own instruction files, beside the names every agent shares (isMemoryPath). */
export function isCopilotMemoryPath(path: string): boolean {
  const p = path.replaceAll("\\", "/");
  return isMemoryPath(p) || p.endsWith("/.github/copilot-instructions.md") ||
    /\/\.github\/instructions\/[^/]+\.instructions\.md$/.test(p);
}

/** The note text of a tool request that writes a memory file, else null. */
export function memoryWriteText(req: Readonly<Record<string, unknown>>): string | null {
  const tool = typeof req.name === "string" ? WRITE_TOOLS[req.name] : undefined;
  if (tool === undefined || !isObject(req.arguments)) return null;
  const path = req.arguments[tool.path];
  if (typeof path !== "string" || !isCopilotMemoryPath(path)) return null;
  const text = req.arguments[tool.text];
  const trimmed = typeof text === "string" ? text.trim() : "";
  return trimmed === "" ? null : trimmed;
}

function restorePending(p: unknown): CopilotPending | null {
  if (
    !isObject(p) || typeof p.key !== "string" || typeof p.text !== "string" || typeof p.time !== "string" ||
    typeof p.line !== "number"
  ) return null;
  return { key: p.key, text: p.text, time: p.time, line: p.line };
}
