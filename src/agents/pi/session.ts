/**
 * pi session parser (`<folder>/sessions/--<cwd>--/<time>_<id>.jsonl`, session format version 3,
 * seen with 0.73.1; docs/pi.md): a pure, line-fed, resumable LineParser that yields the prompts a
 * person typed and the memory-file writes that landed.
 *
 * Policies (the README lists them):
 * - Line 1 is the header `{"type":"session","id","cwd"}`: session = its id, project = its cwd. Every
 *   other line is an entry `{type, id, parentId, timestamp}` of a tree; a file holds every branch,
 *   and every branch's prompts were typed, so entries are read in file order, not along one branch.
 * - A typed prompt is a `message` entry whose `message.role` is "user": the text blocks of its
 *   content. Machine-made input never is: an extension's message (verdict's hint) is a
 *   `custom_message` entry, a `!` line a `bashExecution` message, `/compact` a `compaction` entry
 *   (its summary in `summary`), and slash commands are not stored. A skill command
 *   (`/skill:name args`) is stored expanded, `<skill name=… location=…>…</skill>` then the args:
 *   only the args were typed, so only they count (nothing when there are none). Empty text, or
 *   text holding VERDICT_HINT_MARKER, yields nothing.
 * - Headless: pi writes a `pi -p` session exactly as a terminal one (same header, same entries).
 *   verdict's extension says which it is: at each session start it appends a custom entry
 *   `{"type":"custom","customType":"verdict","data":{"mode":"headless"|"interactive"}}` (pi keeps
 *   it out of the model's context), and each later prompt takes the mode last seen. Prompts
 *   before any such entry (sessions from before the install) count as typed: nothing in the file
 *   says otherwise.
 * - Notes: a `write` (path, content) or `edit` (path, edits[].newText; older: newText) tool call in
 *   an assistant message, of a memory or instruction file (isPiMemoryPath), becomes a note when its
 *   `toolResult` message (same toolCallId) has `isError` false.
 * - Time = each entry's `timestamp`; id = "pi:" + session + ":" + entry id (entry ids are unique
 *   within a session only). A prompt or note without a usable time is skipped and counted in
 *   `malformed`, as every reader does. Unknown entries are ignored; nothing throws.
 */
import { type LineParser, type ParserOptions, VERDICT_HINT_MARKER } from "../../record/line_parser.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../../record/record.ts";
import { awaitResult, isMemoryPath, takeAwaited } from "../memory_files.ts";
import { isObject, looksLikeObjectLine, parseObjectLine } from "../json.ts";

/** The customType of the entries verdict's extension appends (extension.ts). */
export const PI_MODE_ENTRY = "verdict";

export interface PiPending {
  readonly key: string;
  readonly text: string;
  readonly time: string;
  readonly line: number;
}

export interface PiCarry {
  readonly session: string | null;
  readonly project: string;
  /** The mode verdict's extension last recorded, or null before any. */
  readonly mode: "interactive" | "headless" | null;
  /** Memory writes awaiting their tool result, with their tool call id. */
  readonly notes: readonly { readonly call: string; readonly note: PiPending }[];
}

/** pi's own instruction files, beside the names every agent shares (isMemoryPath). */
export function isPiMemoryPath(path: string): boolean {
  const p = path.replaceAll("\\", "/");
  return isMemoryPath(p) || /(^|\/)\.pi\/(agent\/)?(APPEND_)?SYSTEM\.md$/.test(p);
}

/** The text blocks of a message's content (a string, or a list of blocks). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => isObject(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => (b as { text: string }).text).join("\n");
}

const SKILL_BLOCK = /^<skill name="[^"]*" location="[^"]*">\n[\s\S]*?\n<\/skill>(?:\n\n([\s\S]*))?$/;

/** What the person typed of a user message: its text, or a skill command's arguments. */
export function typedText(content: unknown): string {
  const text = textOf(content);
  const skill = SKILL_BLOCK.exec(text);
  return (skill ? skill[1] ?? "" : text).trim();
}

/** The note text of a tool call that writes a memory file, else null. */
export function memoryWriteText(call: Readonly<Record<string, unknown>>): string | null {
  if (!isObject(call.arguments)) return null;
  const args = call.arguments;
  if (typeof args.path !== "string" || !isPiMemoryPath(args.path)) return null;
  let text = "";
  if (call.name === "write" && typeof args.content === "string") text = args.content;
  else if (call.name === "edit") {
    const edits = Array.isArray(args.edits) ? args.edits.filter(isObject) : [args];
    text = edits.map((e) => typeof e.newText === "string" ? e.newText : "").filter((t) => t !== "").join(
      "\n",
    );
  } else return null;
  const trimmed = text.trim();
  return trimmed === "" ? null : trimmed;
}

export function createPiParser(opts: ParserOptions, carry: PiCarry | null): LineParser<PiCarry> {
  // A stored carry may be old or hand-edited: every field is checked.
  const c: Record<string, unknown> = isObject(carry) ? carry : {};
  let session = typeof c.session === "string" ? c.session : null;
  let project = typeof c.project === "string" ? c.project : "";
  let mode: PiCarry["mode"] = c.mode === "interactive" || c.mode === "headless" ? c.mode : null;
  const notes = new Map<string, PiPending>();
  for (const n of Array.isArray(c.notes) ? c.notes : []) {
    const p = isObject(n) && typeof n.call === "string" ? restorePending(n.note) : null;
    if (p) notes.set((n as { call: string }).call, p);
  }
  const out: VerdictRecord[] = [];
  let malformed = 0;

  function emit(kind: "prompt" | "note", p: PiPending): void {
    out.push({
      id: recordId(kind, `pi:${session ?? opts.file}:${p.key}`),
      kind,
      origin: "pi",
      text: p.text,
      time: p.time,
      project,
      session,
      source_file: opts.file,
      source_line: p.line,
      commit: null,
    });
  }

  function handle(entry: Record<string, unknown>, lineNo: number): void {
    const key = typeof entry.id === "string" && entry.id !== "" ? entry.id : `line-${lineNo}`;
    switch (entry.type) {
      case "session":
        if (typeof entry.id === "string") session = entry.id;
        if (typeof entry.cwd === "string") project = entry.cwd;
        return;
      case "custom": {
        const data = isObject(entry.data) ? entry.data : {};
        if (entry.customType === PI_MODE_ENTRY && (data.mode === "headless" || data.mode === "interactive")) {
          mode = data.mode;
        }
        return;
      }
      case "message":
        break;
      default:
        return;
    }
    const message = isObject(entry.message) ? entry.message : {};
    const time = toRfc3339(entry.timestamp);
    if (message.role === "user") {
      const text = typedText(message.content);
      if (text === "" || text.includes(VERDICT_HINT_MARKER)) return;
      if (mode === "headless" && !opts.includeHeadless) return;
      if (time === null) {
        malformed++; // a typed prompt without a usable time: skipped and counted
        return;
      }
      emit("prompt", { key, text, time, line: lineNo });
    } else if (message.role === "assistant" && Array.isArray(message.content)) {
      for (const call of message.content) {
        if (!isObject(call) || call.type !== "toolCall" || typeof call.id !== "string") continue;
        const text = memoryWriteText(call);
        if (text === null) continue;
        if (time === null) {
          malformed++; // a memory write without a usable time: skipped and counted
          continue;
        }
        awaitResult(notes, call.id, { key, text, time, line: lineNo });
      }
    } else if (message.role === "toolResult" && typeof message.toolCallId === "string") {
      const note = takeAwaited(notes, message.toolCallId);
      if (note !== undefined && message.isError === false) emit("note", note);
    }
  }

  return {
    line(text: string, lineNo: number): void {
      // Cheap: tool output dominates the file; only these entries can matter.
      if (
        !text.includes('"user"') && !text.includes('"toolCall"') && !text.includes('"toolResult"') &&
        !text.includes('"session"') && !text.includes('"custom"')
      ) {
        if (!looksLikeObjectLine(text)) malformed++;
        return;
      }
      const entry = parseObjectLine(text);
      if (entry === null) {
        if (text.trim() !== "") malformed++;
        return;
      }
      try {
        handle(entry, lineNo);
      } catch {
        malformed++;
      }
    },
    drain(): VerdictRecord[] {
      return out.splice(0);
    },
    carry(): PiCarry {
      return { session, project, mode, notes: [...notes].map(([call, note]) => ({ call, note })) };
    },
    get malformed(): number {
      return malformed;
    },
  };
}

function restorePending(p: unknown): PiPending | null {
  if (
    !isObject(p) || typeof p.key !== "string" || typeof p.text !== "string" || typeof p.time !== "string" ||
    typeof p.line !== "number"
  ) return null;
  return { key: p.key, text: p.text, time: p.time, line: p.line };
}
