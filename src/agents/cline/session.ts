/**
 * Cline CLI session parser (`<sessions>/<id>/<id>.messages.json`, seen with 3.0.65; docs/cline.md):
 * the file is one JSON document (`{version, updated_at, agent, sessionId, origin, messages[],
 * system_prompt}`, pretty-printed) that Cline rewrites whole after every message. The collector
 * feeds it line by line like any session file; this parser keeps the lines and reads the document
 * once it is whole (at drain). A rewrite changes the document's first lines (`updated_at`), so the
 * collector re-reads the file from its start and its records replace the earlier ones; record ids
 * are keyed by the session and each message's own id, so a document read again yields the same
 * records, never a second copy.
 *
 * Policies (the README lists them):
 * - A typed prompt is a `user` message whose text is wrapped as Cline stores what was typed:
 *   `<user_input mode="act|plan">…</user_input>`; the prompt is what is inside (a `<mode_notice>`
 *   block Cline puts there when the mode changed is not typed and is dropped). Machine-made user
 *   messages never count: a plugin's or hook's context (`<hook_context …>`, metadata.displayRole
 *   "system"), compaction summaries (metadata.kind), tool results (`tool_result` blocks), and any
 *   text without the `<user_input>` wrapper. Text holding VERDICT_HINT_MARKER yields nothing.
 * - Headless: a `cline "<prompt>"` run is stored like a terminal (TUI) one; the session's meta
 *   file beside it (`<id>.json`) says which (`"interactive": false` for a headless run). The
 *   reader loads it as this parser's context (ClineSessionFacts); prompts of a headless session
 *   count only with include_headless. Without the meta file nothing says the run was headless,
 *   and its prompts count.
 * - Project = the meta's `cwd` (the messages document does not name it); session = the
 *   document's `sessionId`.
 * - Notes: an `editor` tool call (path, new_text) of a memory or instruction file
 *   (isClineMemoryPath) in an assistant message becomes a note when its `tool_result` (same id)
 *   says `"success": true`.
 * - Time = each message's `ts` (epoch ms); line = the line of the message's `"id"` in the file.
 *   A prompt or note without a usable time is skipped and counted in `malformed`.
 * - A document that does not parse (a read that met a writer midway) waits in the carry and is
 *   completed by the lines a later read adds; past MAX_PENDING_BYTES it is dropped and counted.
 *   Cline ends the document with a line break (seen): the collector feeds a last line without one
 *   only when it is complete JSON, which a lone `}` is not, so such a document waits for its end.
 */
import { type LineParser, type ParserOptions, VERDICT_HINT_MARKER } from "../../record/line_parser.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../../record/record.ts";
import { isMemoryPath } from "../memory_files.ts";
import { isObject } from "../json.ts";

/** What the session's meta file (`<id>.json`) says, as the reader's context hands it over. */
export interface ClineSessionFacts {
  /** false for a headless `cline "<prompt>"` run; null when the meta file is missing or silent. */
  readonly interactive: boolean | null;
  /** The session's working directory, or "" when unknown. */
  readonly cwd: string;
}

export const NO_FACTS: ClineSessionFacts = { interactive: null, cwd: "" };

export interface ClineCarry {
  /** Lines of a document that did not parse yet, with their numbers; null once it parsed. */
  readonly pending: readonly (readonly [number, string])[] | null;
}

/** A document waiting for its end is dropped past this size (a writer would have finished). */
export const MAX_PENDING_BYTES = 8 * 1024 * 1024;

/** Cline's own rule files, beside the names every agent shares (isMemoryPath). */
export function isClineMemoryPath(path: string): boolean {
  const p = path.replaceAll("\\", "/");
  if (isMemoryPath(p)) return true;
  if (/(^|\/)\.clinerules$/.test(p)) return true;
  // A rules folder's Markdown or text files (its workflows and hooks folders are not rules).
  return /(^|\/)(\.clinerules|\.cline\/rules|Cline\/Rules)\/(?!(workflows|hooks)\/)(.+\/)?[^/]+\.(md|markdown|txt)$/i
    .test(p);
}

/** The meta file's facts (a parsed `<id>.json`), checked field by field. */
export function sessionFacts(meta: unknown): ClineSessionFacts {
  if (!isObject(meta)) return NO_FACTS;
  return {
    interactive: typeof meta.interactive === "boolean" ? meta.interactive : null,
    cwd: typeof meta.cwd === "string"
      ? meta.cwd
      : typeof meta.workspace_root === "string"
      ? meta.workspace_root
      : "",
  };
}

const USER_INPUT = /^<user_input mode="[^"]*">([\s\S]*)<\/user_input>$/;
const MODE_NOTICE = /<mode_notice>[\s\S]*?<\/mode_notice>/g;

/** The text blocks of a message's content (a string, or a list of blocks). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => isObject(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => (b as { text: string }).text).join("\n");
}

/** What the person typed of a stored user message, or "" when it is not typed input. */
export function typedText(message: Readonly<Record<string, unknown>>): string {
  if (message.role !== "user") return "";
  const meta = isObject(message.metadata) ? message.metadata : {};
  if (meta.kind !== undefined || (meta.displayRole !== undefined && meta.displayRole !== "user")) return "";
  const m = USER_INPUT.exec(textOf(message.content).trim());
  return m ? m[1]!.replace(MODE_NOTICE, "").trim() : "";
}

/** The note text of an `editor` tool call that writes a memory file, else null. */
export function memoryWriteText(block: Readonly<Record<string, unknown>>): string | null {
  if (block.type !== "tool_use" || block.name !== "editor" || !isObject(block.input)) return null;
  const input = block.input;
  if (typeof input.path !== "string" || !isClineMemoryPath(input.path)) return null;
  const text = typeof input.new_text === "string" ? input.new_text.trim() : "";
  return text === "" ? null : text;
}

/** Did a tool result say its call succeeded? (Its content is the tool's JSON answer.) */
export function resultLanded(block: Readonly<Record<string, unknown>>): boolean {
  if (block.is_error === true) return false;
  const raw = typeof block.content === "string" ? block.content : textOf(block.content);
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) && value.success === true;
  } catch {
    return false;
  }
}

/** Each message id's first `"id": "…"` line in the pretty-printed document. */
function idLines(lines: readonly (readonly [number, string])[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const [n, text] of lines) {
    const m = /^\s*"id": ("(?:[^"\\]|\\.)*"),?$/.exec(text);
    if (!m) continue;
    try {
      const id = JSON.parse(m[1]!) as string;
      if (!out.has(id)) out.set(id, n);
    } catch {
      // Not a plain id line.
    }
  }
  return out;
}

export function createClineParser(opts: ParserOptions, carry: ClineCarry | null): LineParser<ClineCarry> {
  const facts = (opts.context ?? NO_FACTS) as ClineSessionFacts;
  // A stored carry may be old or hand-edited: every field is checked.
  const saved = isObject(carry) && Array.isArray(carry.pending) ? carry.pending : null;
  let lines: [number, string][] | null = saved === null && isObject(carry) && carry.pending === null
    ? null
    : [];
  let bytes = 0;
  for (const l of saved ?? []) {
    if (Array.isArray(l) && typeof l[0] === "number" && typeof l[1] === "string") {
      lines!.push([l[0], l[1]]);
      bytes += l[1].length;
    }
  }
  let malformed = 0;
  const out: VerdictRecord[] = [];

  function records(doc: Record<string, unknown>, at: Map<string, number>): void {
    const session = typeof doc.sessionId === "string" && doc.sessionId !== "" ? doc.sessionId : null;
    const headless = facts.interactive === false;
    const notes = new Map<string, { key: string; text: string; time: string; line: number }>();
    const emit = (kind: "prompt" | "note", key: string, text: string, time: string, line: number) =>
      out.push({
        id: recordId(kind, `cline:${session ?? opts.file}:${key}`),
        kind,
        origin: "cline",
        text,
        time,
        project: facts.cwd,
        session,
        source_file: opts.file,
        source_line: line,
        commit: null,
      });
    const messages = Array.isArray(doc.messages) ? doc.messages : [];
    messages.forEach((message, i) => {
      if (!isObject(message)) return;
      const key = typeof message.id === "string" && message.id !== "" ? message.id : `message-${i}`;
      const line = at.get(key) ?? 0;
      const time = toRfc3339(message.ts);
      if (message.role === "user") {
        const typed = typedText(message);
        if (typed !== "" && !typed.includes(VERDICT_HINT_MARKER) && !(headless && !opts.includeHeadless)) {
          if (time === null) malformed++; // a typed prompt without a usable time: skipped and counted
          else emit("prompt", key, typed, time, line);
        }
        for (const block of Array.isArray(message.content) ? message.content : []) {
          if (!isObject(block) || block.type !== "tool_result" || typeof block.tool_use_id !== "string") {
            continue;
          }
          const note = notes.get(block.tool_use_id);
          notes.delete(block.tool_use_id);
          if (note !== undefined && resultLanded(block)) {
            emit("note", note.key, note.text, note.time, note.line);
          }
        }
      } else if (message.role === "assistant" && Array.isArray(message.content)) {
        for (const block of message.content) {
          if (!isObject(block) || typeof block.id !== "string") continue;
          const text = memoryWriteText(block);
          if (text === null) continue;
          if (time === null) malformed++; // a memory write without a usable time: skipped and counted
          else notes.set(block.id, { key: `${key}:${block.id}`, text, time, line });
        }
      }
    });
  }

  return {
    line(text: string, lineNo: number): void {
      if (lines === null) {
        // The document already parsed: nothing may follow it.
        if (text.trim() !== "") malformed++;
        return;
      }
      bytes += text.length;
      if (bytes > MAX_PENDING_BYTES) {
        malformed++;
        lines = [];
        bytes = 0;
        return;
      }
      lines.push([lineNo, text]);
    },
    drain(): VerdictRecord[] {
      if (lines !== null && lines.length > 0) {
        let doc: unknown;
        try {
          doc = JSON.parse(lines.map(([, t]) => t).join("\n"));
        } catch {
          doc = undefined; // not whole yet: it waits in the carry
        }
        if (doc !== undefined) {
          if (isObject(doc)) records(doc, idLines(lines));
          else malformed++;
          lines = null;
          bytes = 0;
        }
      }
      return out.splice(0);
    },
    carry(): ClineCarry {
      return { pending: lines === null ? null : lines.map(([n, t]) => [n, t] as const) };
    },
    get malformed(): number {
      return malformed;
    },
  };
}
