/**
 * Qwen Code chat parser (`<folder>/projects/<encoded cwd>/chats/<session>.jsonl`, 0.24.x): a
 * pure, line-fed, resumable LineParser that yields the prompts a person typed and the
 * memory-file writes that landed. Format: as 0.24.4 writes it (tests/agents/qwen/chat_test.ts).
 *
 * Policies (the README lists them):
 * - A typed prompt is a `type:"user"` record with no `subtype` (or subtype
 *   `mid_turn_user_message`: text typed while a tool ran) whose `provenance` is "real_user" (or
 *   absent, as in files before provenance existed). Other user-role records are machine-made:
 *   `goal_runtime`, `cron`, `notification` (their provenance is not real_user either). Slash
 *   commands are `system`/`slash_command` records and tool results `tool_result` records: never
 *   prompts. Subagent transcripts live under `subagents/`, which the reader does not visit.
 * - Text: `systemPayload.displayText` when present (Qwen writes it when a hook added context:
 *   `message.parts` then hold the prompt AND the hook text); else the text parts of the message,
 *   up to the first machine-added one (`<qwen:` hook wrappers, `--- Content from referenced
 *   files ---` expansions of `@file`). Empty text, or text holding VERDICT_HINT_MARKER, yields
 *   nothing.
 * - Headless: Qwen writes no mode into the file, but an interactive prompt is followed, before
 *   the next user record, by a `system`/`file_history_snapshot` record (file checkpointing is on
 *   only in interactive sessions: `qwen -p` never writes one). So a prompt waits in the carry
 *   until its snapshot arrives (then it counts) or the next user record does (then it was
 *   headless and counts only with includeHeadless; with it, prompts count at once). A
 *   mid-turn prompt can only be typed interactively and counts at once. With
 *   `tools.executionSandbox` on, Qwen keeps no snapshots: such sessions read as headless.
 * - Notes: a `write_file`, `edit` or `save_memory` call (an assistant record's `functionCall`
 *   part) whose target is a memory or instruction file (QWEN.md, AGENTS.md, …: isMemoryPath;
 *   `save_memory` always writes Qwen's memory file) becomes a note when its `tool_result` record
 *   says `toolCallResult.status: "success"`. Until then it waits in the carry.
 * - Time = the record's `timestamp` (none, no record: counted in `malformed`, as every reader
 *   counts a record it cannot date); project = its `cwd`; session =
 *   `sessionId`; id = "qwen:" + uuid (file + line without one).
 * - Malformed lines are counted; unknown shapes are ignored; nothing throws.
 */
import { type LineParser, type ParserOptions, VERDICT_HINT_MARKER } from "../../record/line_parser.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../../record/record.ts";
import { awaitResult, hasFileName, isMemoryPath, takeAwaited } from "../memory_files.ts";
import { isObject, jsonLineParser } from "../json.ts";

/** Starts of text parts Qwen adds to a user message beside what was typed. */
export const MACHINE_PART_PREFIXES: readonly string[] = [
  "<qwen:", // hook context (<qwen:user-prompt-submit-context>) and the like
  "--- Content from referenced files ---", // an @file expansion
  "\n--- Content from referenced files ---",
];

/** Tools that write a file, and the argument holding its path (save_memory: none, always memory). */
const WRITE_TOOLS: Readonly<Record<string, string | null>> = {
  write_file: "file_path",
  edit: "file_path",
  save_memory: null,
};

/** Qwen's own instruction file (its `context.fileName` default), beside the names every agent shares. */
const QWEN_MEMORY_NAMES: readonly string[] = ["QWEN.md"];

export function isQwenMemoryPath(path: string): boolean {
  return isMemoryPath(path) || hasFileName(path, QWEN_MEMORY_NAMES);
}

/** Something seen that waits for a later record to decide it. */
export interface QwenPending {
  /** "prompt": waits for its snapshot; "note": waits for its tool result (keyed by call id). */
  readonly kind: "prompt" | "note";
  readonly key: string;
  readonly text: string;
  readonly time: string;
  readonly project: string;
  readonly session: string | null;
  readonly line: number;
}

export interface QwenCarry {
  /** The prompt waiting for its file_history_snapshot, or null. */
  readonly prompt: QwenPending | null;
  /** Memory writes awaiting their tool_result, oldest first. */
  readonly notes: readonly QwenPending[];
}

export function createQwenParser(opts: ParserOptions, carry: QwenCarry | null): LineParser<QwenCarry> {
  let waiting: QwenPending | null = restorePending(isObject(carry) ? carry.prompt : null);
  const notes = new Map<string, QwenPending>();
  for (const n of isObject(carry) && Array.isArray(carry.notes) ? carry.notes : []) {
    const p = restorePending(n);
    if (p) notes.set(p.key, p);
  }
  const out: VerdictRecord[] = [];
  let malformed = 0;

  function emit(kind: "prompt" | "note", p: QwenPending): void {
    out.push(recordOf(kind, p, opts.file));
  }

  function handle(entry: Record<string, unknown>, lineNo: number): void {
    if (entry.type === "system" && entry.subtype === "file_history_snapshot") {
      if (waiting) emit("prompt", waiting);
      waiting = null;
      return;
    }
    if (entry.type === "assistant") return collectWrites(entry, lineNo);
    if (entry.type === "tool_result") return settle(entry);
    if (entry.type !== "user") return;
    // A new user record: a prompt still waiting had no snapshot, so it was headless.
    if (waiting && opts.includeHeadless) emit("prompt", waiting);
    waiting = null;
    const text = typedText(entry);
    if (text === null) return;
    const key = typeof entry.uuid === "string" && entry.uuid !== "" ? entry.uuid : `${opts.file}:${lineNo}`;
    const p = pendingOf(entry, lineNo, key, text);
    if (p === null) {
      malformed++; // a typed prompt without a usable time: skipped and counted
      return;
    }
    if (entry.subtype === "mid_turn_user_message" || opts.includeHeadless) emit("prompt", p);
    else waiting = p;
  }

  function collectWrites(entry: Record<string, unknown>, lineNo: number): void {
    for (const part of partsOf(entry)) {
      const call = isObject(part.functionCall) ? part.functionCall : null;
      if (call === null || typeof call.id !== "string") continue;
      const text = memoryWriteText(call);
      if (text === null) continue;
      const p = pendingOf(entry, lineNo, call.id, text);
      if (p === null) {
        malformed++; // a memory write without a usable time: skipped and counted
        continue;
      }
      awaitResult(notes, call.id, { ...p, kind: "note" });
    }
  }

  function settle(entry: Record<string, unknown>): void {
    if (notes.size === 0) return;
    const result = isObject(entry.toolCallResult) ? entry.toolCallResult : {};
    const ids = partsOf(entry)
      .map((p) => (isObject(p.functionResponse) ? p.functionResponse.id : undefined))
      .concat(result.callId)
      .filter((id): id is string => typeof id === "string");
    for (const id of new Set(ids)) {
      const note = takeAwaited(notes, id);
      if (!note) continue;
      if (result.status === "success") emit("note", note);
    }
  }

  return jsonLineParser({
    handle,
    // Cheap: only records of these types can matter (a snapshot settles a waiting prompt).
    mayMatter: (text) =>
      text.includes('"user"') || text.includes('"file_history_snapshot"') ||
      text.includes('"functionCall"') || text.includes('"tool_result"'),
    out,
    carry: () => ({ prompt: waiting, notes: [...notes.values()] }),
    skip: () => malformed++,
    skipped: () => malformed,
  });
}

/** The record a settled prompt or note becomes. */
function recordOf(kind: "prompt" | "note", p: QwenPending, file: string): VerdictRecord {
  return {
    id: recordId(kind, `qwen:${p.key}`),
    kind,
    origin: "qwen",
    text: p.text,
    time: p.time,
    project: p.project,
    session: p.session,
    source_file: file,
    source_line: p.line,
    commit: null,
  };
}

/** A prompt (or, re-kinded, a note) from a chat record's own facts; null without a usable time. */
function pendingOf(
  entry: Record<string, unknown>,
  lineNo: number,
  key: string,
  text: string,
): QwenPending | null {
  const time = toRfc3339(entry.timestamp);
  if (time === null) return null;
  return {
    kind: "prompt",
    key,
    text,
    time,
    project: typeof entry.cwd === "string" ? entry.cwd : "",
    session: typeof entry.sessionId === "string" ? entry.sessionId : null,
    line: lineNo,
  };
}

/** The typed text of a user record (see the policies), or null when it is not a typed prompt. */
export function typedText(entry: Readonly<Record<string, unknown>>): string | null {
  if (entry.type !== "user") return null;
  if (entry.subtype !== undefined && entry.subtype !== "mid_turn_user_message") return null;
  if (entry.provenance !== undefined && entry.provenance !== "real_user") return null;
  const payload = isObject(entry.systemPayload) ? entry.systemPayload : {};
  let text: string;
  if (typeof payload.displayText === "string") text = payload.displayText;
  else {
    const texts: string[] = [];
    for (const part of partsOf(entry)) {
      const t = part.text;
      if (typeof t !== "string") continue;
      if (MACHINE_PART_PREFIXES.some((p) => t.startsWith(p))) break;
      texts.push(t);
    }
    text = texts.join("\n");
  }
  text = text.trim();
  if (text === "" || text.includes(VERDICT_HINT_MARKER)) return null;
  return text;
}

/** The note text of a functionCall that writes a memory file, else null. */
export function memoryWriteText(call: Readonly<Record<string, unknown>>): string | null {
  const name = typeof call.name === "string" ? call.name : "";
  if (!(name in WRITE_TOOLS) || !isObject(call.args)) return null;
  const field = WRITE_TOOLS[name];
  const args = call.args;
  if (field !== null && field !== undefined) {
    const path = args[field];
    if (typeof path !== "string" || !isQwenMemoryPath(path)) return null;
  }
  const text = name === "write_file" ? args.content : name === "edit" ? args.new_string : args.fact;
  const trimmed = typeof text === "string" ? text.trim() : "";
  return trimmed === "" ? null : trimmed;
}

function partsOf(entry: Readonly<Record<string, unknown>>): Record<string, unknown>[] {
  const message = isObject(entry.message) ? entry.message : {};
  return Array.isArray(message.parts) ? message.parts.filter(isObject) : [];
}

function restorePending(p: unknown): QwenPending | null {
  if (
    !isObject(p) || (p.kind !== "prompt" && p.kind !== "note") || typeof p.key !== "string" ||
    typeof p.text !== "string" || typeof p.time !== "string" || typeof p.project !== "string" ||
    !(p.session === null || typeof p.session === "string") || typeof p.line !== "number"
  ) return null;
  return {
    kind: p.kind,
    key: p.key,
    text: p.text,
    time: p.time,
    project: p.project,
    session: p.session,
    line: p.line,
  };
}
