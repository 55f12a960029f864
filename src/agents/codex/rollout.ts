/**
 * Codex rollout parser (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): a pure, line-fed,
 * resumable LineParser that yields the prompts a person typed into the terminal UI, and the
 * memory-file writes (AGENTS.md…) that landed in those sessions.
 *
 * Policies (the README lists them):
 * - Envelope generation (`{timestamp, type, payload}`, first line `session_meta`). A prompt is
 *   an `event_msg` whose payload is either `user_message` (up to 0.16x) or `item_completed` with
 *   an `item` of type `UserMessage` (0.169 writes only these: FORMATS.md §3, the client notes);
 *   its text is the item's `text` parts. Both exist only for real user input. `response_item`
 *   user messages (which also carry injected context, skills and `!` shell output) and
 *   `compacted.replacement_history` (copies of earlier messages) never are. Should a version
 *   write both forms of one prompt, the second with the same text in the same turn (between two
 *   `task_started` events) is not counted again.
 * - Notes: an `item_completed` `FileChange` item with `status: "completed"` (the patch landed),
 *   for each changed path that is a memory file (src/agents/memory_files.ts): an added file's
 *   content, or an update's added lines. Deletions yield nothing.
 * - The file's session is its first `session_meta`; later ones (copied histories, catalogs) are
 *   ignored. It counts only when it is a terminal (TUI) session: `source === "cli"`, or
 *   `source === "vscode"` with originator "codex-tui" (the 0.169 TUI through its app-server
 *   daemon, DAEMON_TUI_ORIGINATOR), or `source` absent and `originator` in TUI_ORIGINATORS. `codex exec` (`source:"exec"`, or no source and
 *   originator "codex_exec") counts only with `includeHeadless`. VS Code / desktop ("vscode", or
 *   no source and "codex_vscode"), subagent threads (object `source`), "mcp" and anything unknown
 *   yield nothing. Lines before the first `session_meta` yield nothing.
 * - A `user_message` with a `kind` other than "plain" (0.4x tagged injected instructions and
 *   environment context that way), an empty message (image only), text starting with an
 *   INJECTED_PREFIXES entry, or text holding VERDICT_HINT_MARKER is not a prompt.
 * - Time = the envelope's `timestamp` (a line without a valid one is skipped). Project = the
 *   session_meta `cwd`, else the latest `turn_context` cwd. Session = session_meta `id`.
 *   Id = "codex:" + session id + ":" + line (a note: + ":" + its index among the item's notes).
 * - Older generations ("direct": first line a bare `{id, timestamp, …}` meta; "legacy": with
 *   `record_type` lines) are recognised and yield nothing: no real sample exists to learn how
 *   they mark TUI sessions or injected input, and a wrong guess would index machine text.
 * - Malformed or non-object lines are counted in `malformed`; unknown types are ignored; nothing
 *   throws.
 *
 * Speed: tool outputs dominate a rollout, so `line()` parses only lines that can matter (the
 * meta, turn contexts while the cwd is unknown, turn starts while a prompt of the turn is
 * remembered, and lines naming "user_message", "UserMessage" or "FileChange").
 */
import { type LineParser, type ParserOptions, VERDICT_HINT_MARKER } from "../../record/line_parser.ts";
import { isMemoryPath } from "../memory_files.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../../record/record.ts";
import { isObject, looksLikeObjectLine, parseObjectLine } from "../json.ts";

/** Originators of the terminal UI, used only when `source` is absent (older files). */
export const TUI_ORIGINATORS: readonly string[] = ["codex_cli_rs", "codex-tui"];
/**
 * Codex 0.169's terminal UI usually talks to an app-server daemon it starts in the background,
 * and the daemon records the TUI's sessions as `source: "vscode"` with this originator (seen
 * with the real binary: only a run with --dangerously-bypass-hook-trust, which stays in-process,
 * wrote "cli"). The VS Code extension's originator is "codex_vscode", the desktop app's "Codex
 * Desktop", so this pair means the terminal.
 */
const DAEMON_TUI_ORIGINATOR = "codex-tui";

/** Originator of `codex exec` when `source` is absent. */
const EXEC_ORIGINATOR = "codex_exec";

/** Text starts of blocks Codex injects into the user role; never typed. Extend here. */
export const INJECTED_PREFIXES: readonly string[] = [
  "<environment_context>",
  "<user_instructions>",
  "# AGENTS.md instructions",
  "<turn_aborted>",
  "<user_shell_command>",
];

/** How the file's lines are framed, sniffed from its first JSON object line. */
export type CodexGeneration = "unknown" | "envelope" | "direct" | "legacy";

/** What a Codex rollout parser needs to resume a file after its last line. */
export interface CodexCarry {
  readonly generation: CodexGeneration;
  /** session_meta id, or null before the meta was seen. */
  readonly session: string | null;
  /** Whether prompts of this file count (decided by the session_meta); null before it. */
  readonly counts: boolean | null;
  /** session_meta cwd ("" when absent). */
  readonly metaCwd: string;
  /** Latest turn_context cwd, the project when the meta has none. */
  readonly turnCwd: string;
  /** Prompt texts counted since the turn began (a second form of one of them is not counted). */
  readonly turnPrompts: readonly string[];
}

/** Test seam: `prefilter: false` parses every line (the reference path the fast path must match). */
export interface CodexParserTuning {
  readonly prefilter: boolean;
}

export function createCodexParser(
  opts: ParserOptions,
  carry: CodexCarry | null,
  tuning: CodexParserTuning = { prefilter: true },
): LineParser<CodexCarry> {
  let state: CodexCarry = restoreCarry(carry);
  const out: VerdictRecord[] = [];
  let malformed = 0;

  function handle(entry: Record<string, unknown>, lineNo: number): void {
    if (state.generation === "unknown") state = { ...state, generation: sniffGeneration(entry) };
    // A legacy file starts like a direct one; its `record_type` lines tell them apart.
    else if (state.generation === "direct" && "record_type" in entry) {
      state = { ...state, generation: "legacy" };
    }
    if (state.generation !== "envelope") return;
    const payload = isObject(entry.payload) ? entry.payload : null;
    if (payload === null) return;
    if (entry.type === "session_meta") {
      if (state.counts === null) {
        state = {
          ...state,
          session: typeof payload.id === "string" ? payload.id : null,
          counts: sessionCounts(payload, opts.includeHeadless),
          metaCwd: typeof payload.cwd === "string" ? payload.cwd : "",
        };
      }
    } else if (entry.type === "turn_context") {
      if (typeof payload.cwd === "string") state = { ...state, turnCwd: payload.cwd };
    } else if (entry.type === "event_msg" && state.counts === true) {
      if (payload.type === "task_started") {
        if (state.turnPrompts.length > 0) state = { ...state, turnPrompts: [] };
      } else if (payload.type === "user_message") {
        prompt(userMessageText(payload), entry.timestamp, lineNo);
      } else if (payload.type === "item_completed" && isObject(payload.item)) {
        const item = payload.item;
        if (item.type === "UserMessage") prompt(userMessageItemText(item), entry.timestamp, lineNo);
        else if (item.type === "FileChange") notes(item, entry.timestamp, lineNo);
      }
    }
  }

  function project(): string {
    return state.metaCwd !== "" ? state.metaCwd : state.turnCwd;
  }

  function prompt(text: string | null, timestamp: unknown, lineNo: number): void {
    if (text === null || state.session === null) return;
    const time = toRfc3339(timestamp);
    if (time === null) {
      malformed++; // a typed prompt with no usable time: skipped, counted (we never invent one)
      return;
    }
    if (state.turnPrompts.includes(text)) return;
    state = { ...state, turnPrompts: [...state.turnPrompts, text] };
    out.push({
      id: recordId("prompt", `codex:${state.session}:${lineNo}`),
      kind: "prompt",
      origin: "codex",
      text,
      time,
      project: project(),
      session: state.session,
      source_file: opts.file,
      source_line: lineNo,
      commit: null,
    });
  }

  function notes(item: Readonly<Record<string, unknown>>, timestamp: unknown, lineNo: number): void {
    if (state.session === null) return;
    const time = toRfc3339(timestamp);
    if (time === null) {
      if (memoryChanges(item).length > 0) malformed++; // no usable time: skipped, counted
      return;
    }
    memoryChanges(item).forEach((text, i) => {
      out.push({
        id: recordId("note", `codex:${state.session}:${lineNo}:${i}`),
        kind: "note",
        origin: "codex",
        text,
        time,
        project: project(),
        session: state.session,
        source_file: opts.file,
        source_line: lineNo,
        commit: null,
      });
    });
  }

  /** Cheap check: can this raw line change the state or yield a record? */
  function mayMatter(line: string): boolean {
    if (state.generation === "unknown" || state.counts === null) return true;
    if (state.generation === "direct") return line.includes('"record_type"');
    if (state.generation !== "envelope" || state.counts === false) return false;
    if (line.includes('"user_message"')) return true;
    if (
      line.includes('"item_completed"') && (line.includes('"UserMessage"') || line.includes('"FileChange"'))
    ) {
      return true;
    }
    if (state.turnPrompts.length > 0 && line.includes('"task_started"')) return true;
    return state.metaCwd === "" && line.includes('"turn_context"');
  }

  return {
    line(text: string, lineNo: number): void {
      if (tuning.prefilter && !mayMatter(text)) {
        if (!looksLikeObjectLine(text)) malformed++;
        return;
      }
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
    carry(): CodexCarry {
      return state;
    },
    get malformed(): number {
      return malformed;
    },
  };
}

const GENERATIONS: readonly CodexGeneration[] = ["unknown", "envelope", "direct", "legacy"];

/** The carry as stored, checked field by field (a state file may be old or hand-edited). */
function restoreCarry(carry: unknown): CodexCarry {
  const c = isObject(carry) ? carry : {};
  return {
    generation: GENERATIONS.includes(c.generation as CodexGeneration)
      ? c.generation as CodexGeneration
      : "unknown",
    session: typeof c.session === "string" ? c.session : null,
    counts: typeof c.counts === "boolean" ? c.counts : null,
    metaCwd: typeof c.metaCwd === "string" ? c.metaCwd : "",
    turnCwd: typeof c.turnCwd === "string" ? c.turnCwd : "",
    turnPrompts: Array.isArray(c.turnPrompts) ? c.turnPrompts.filter((t) => typeof t === "string") : [],
  };
}

/** The framing of a rollout, from its first JSON object line (FORMATS.md §3.2). */
export function sniffGeneration(first: Readonly<Record<string, unknown>>): CodexGeneration {
  if (typeof first.type === "string" && "payload" in first) return "envelope";
  if ("record_type" in first) return "legacy";
  if (typeof first.id === "string" && "timestamp" in first && !("type" in first)) return "direct";
  // Neither shape: an envelope file whose meta line was lost still frames its lines this way,
  // and without a session_meta nothing is emitted, so "envelope" is the safe reading.
  return "envelope";
}

/** Whether a session_meta payload marks a session whose user messages were typed. */
export function sessionCounts(meta: Readonly<Record<string, unknown>>, includeHeadless: boolean): boolean {
  const source = meta.source;
  const originator = typeof meta.originator === "string" ? meta.originator : "";
  if (typeof source === "string") {
    if (source === "cli") return true;
    if (source === "exec") return includeHeadless;
    return source === "vscode" && originator === DAEMON_TUI_ORIGINATOR;
  }
  if (source !== undefined && source !== null) return false; // subagent threads: an object
  return TUI_ORIGINATORS.includes(originator) || (includeHeadless && originator === EXEC_ORIGINATOR);
}

/** The typed text of a user_message payload (trimmed), or null. */
export function userMessageText(payload: Readonly<Record<string, unknown>>): string | null {
  if (payload.kind !== undefined && payload.kind !== null && payload.kind !== "plain") return null;
  if (typeof payload.message !== "string") return null;
  return typedText(payload.message);
}

/** The typed text of a `UserMessage` item (its `text` parts, trimmed), or null. */
export function userMessageItemText(item: Readonly<Record<string, unknown>>): string | null {
  if (!Array.isArray(item.content)) return null;
  const parts = item.content
    .filter(isObject)
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string);
  return typedText(parts.join("\n"));
}

/** `text` trimmed, or null when it is empty, injected by Codex, or verdict's own hint. */
function typedText(raw: string): string | null {
  const text = raw.trim();
  if (text === "" || text.includes(VERDICT_HINT_MARKER)) return null;
  if (INJECTED_PREFIXES.some((p) => text.startsWith(p))) return null;
  return text;
}

/**
 * The note texts of a landed FileChange item: for each memory-file path (in the item's order),
 * an added file's content or an update's added lines. Empty for a change that did not complete.
 */
export function memoryChanges(item: Readonly<Record<string, unknown>>): string[] {
  if (item.status !== "completed" || !isObject(item.changes)) return [];
  const out: string[] = [];
  for (const [path, change] of Object.entries(item.changes)) {
    if (!isMemoryPath(path) || !isObject(change)) continue;
    let text = "";
    if (change.type === "add" && typeof change.content === "string") text = change.content;
    else if (change.type === "update" && typeof change.unified_diff === "string") {
      text = change.unified_diff.split("\n")
        .filter((l) => l.startsWith("+") && !l.startsWith("+++"))
        .map((l) => l.slice(1))
        .join("\n");
    }
    if (text.trim() !== "") out.push(text.trim());
  }
  return out;
}
