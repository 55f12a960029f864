/**
 * OpenCode's typed-prompt and memory-write rules, on rows already decoded from its database
 * (pure; store.ts does the reading). Seen in OpenCode 1.18.33 (tests/clients/opencode/):
 *
 * 1. A prompt is the first text part of a `role:"user"` message that is not `synthetic` (nor
 *    `ignored`). Machine-made input is marked: text a plugin adds in `chat.message` (our hint
 *    among it) is a synthetic part; a `!cmd` shell escape is a user message whose only part is
 *    the synthetic "The following tool was executed by the user"; `/compact` is a user message
 *    with a `compaction` part and no text; tool results live in assistant messages.
 * 2. Subagent sessions (`parent_id` set) hold prompts the parent agent wrote: nothing there was
 *    typed.
 * 3. Headless: `opencode run` creates its session with the permission rules question, plan_enter
 *    and plan_exit denied (nobody is there to answer); such a session counts only with
 *    `include_headless`, like Claude Code's `-p` and Codex's `exec`. Its prompts are stored with
 *    each argument that holds a space wrapped in double quotes (`"\"use pnpm\""`): the quoting
 *    is undone. A `run --continue` into a session the TUI created is not told apart (nothing in
 *    the row says so) and keeps its quotes.
 * 4. Text holding VERDICT_HINT_MARKER is our own hint, never a prompt.
 * 5. Memory notes: a completed `write`/`edit`/`multiedit` tool part whose file is AGENTS.md or
 *    CLAUDE.md (OpenCode reads both as instructions); a tool that failed or never finished
 *    yields nothing.
 */
import { VERDICT_HINT_MARKER } from "../../record/line_parser.ts";
import { hasFileName } from "../memory_files.ts";
import { isObject } from "../json.ts";

/**
 * Instruction files OpenCode loads, whose landed writes become notes: OpenCode's own list, the
 * two files it reads as instructions, narrower than the shared one (src/agents/memory_files.ts).
 */
export const OPENCODE_MEMORY_FILE_NAMES: readonly string[] = ["AGENTS.md", "CLAUDE.md"];

/** The permission rules `opencode run` gives the sessions it creates (all three denied). */
const RUN_MODE_DENIES: readonly string[] = ["question", "plan_enter", "plan_exit"];

export interface SessionFacts {
  readonly id: string;
  readonly directory: string;
  /** A subagent session's parent; null for a top-level session. */
  readonly parentId: string | null;
  /** Created by `opencode run` (headless). */
  readonly headless: boolean;
}

/** Does a session's `permission` column hold the rule set `opencode run` creates sessions with? */
export function isRunModePermission(permission: unknown): boolean {
  let rules: unknown = permission;
  if (typeof permission === "string") {
    try {
      rules = JSON.parse(permission);
    } catch {
      return false;
    }
  }
  if (!Array.isArray(rules)) return false;
  return RUN_MODE_DENIES.every((name) =>
    rules.some((r) =>
      isObject(r) && r.permission === name && r.action === "deny" &&
      (r.pattern === "*" || r.pattern === undefined)
    )
  );
}

export interface PartFacts {
  readonly type: string;
  readonly text: string | null;
  readonly synthetic: boolean;
  readonly ignored: boolean;
}

/** The fields of a part's `data` JSON the prompt rule reads. */
export function partFacts(data: unknown): PartFacts {
  const o = isObject(data) ? data : {};
  return {
    type: typeof o.type === "string" ? o.type : "",
    text: typeof o.text === "string" ? o.text : null,
    synthetic: o.synthetic === true,
    ignored: o.ignored === true,
  };
}

/**
 * The typed text of a user message with these parts (in part order), or null when nobody typed
 * it or it is not to be counted (see the rules above).
 */
export function typedPromptText(
  parts: readonly PartFacts[],
  session: SessionFacts,
  includeHeadless: boolean,
): string | null {
  if (session.parentId !== null) return null;
  if (session.headless && !includeHeadless) return null;
  const typed = parts.find((p) => p.type === "text" && !p.synthetic && !p.ignored && p.text !== null);
  if (!typed) return null;
  const raw = session.headless ? undoRunQuoting(typed.text!) : typed.text!;
  const text = raw.trim();
  if (text === "" || text.includes(VERDICT_HINT_MARKER)) return null;
  return text;
}

/**
 * The words `opencode run` was given, from the message it stored: it joins its arguments with
 * spaces, wrapping each one that holds a space in double quotes (inner quotes as \"). Text that
 * is not of that shape is returned as it is. Piped input follows the arguments after a newline.
 */
export function undoRunQuoting(stored: string): string {
  const whole = unquoteArgs(stored);
  if (whole !== null) return whole;
  const nl = stored.indexOf("\n");
  if (nl === -1) return stored;
  const head = unquoteArgs(stored.slice(0, nl));
  return head === null ? stored : `${head}\n${stored.slice(nl + 1)}`;
}

function unquoteArgs(s: string): string | null {
  const args: string[] = [];
  let i = 0;
  let sawQuoted = false;
  while (i < s.length) {
    if (s[i] === '"') {
      let arg = "";
      let j = i + 1;
      for (; j < s.length; j++) {
        if (s[j] === "\\" && s[j + 1] === '"') {
          arg += '"';
          j++;
        } else if (s[j] === '"') break;
        else arg += s[j];
      }
      if (j >= s.length) return null; // unterminated
      if (j + 1 < s.length && s[j + 1] !== " ") return null;
      // Only arguments holding a space were quoted.
      if (!arg.includes(" ")) return null;
      args.push(arg);
      sawQuoted = true;
      i = j + 2;
    } else {
      const end = s.indexOf(" ", i);
      const arg = end === -1 ? s.slice(i) : s.slice(i, end);
      if (arg === "") return null;
      args.push(arg);
      i = end === -1 ? s.length : end + 1;
    }
  }
  return sawQuoted ? args.join(" ") : null;
}

export interface MemoryWrite {
  readonly text: string;
  /** "done": the tool finished; "waiting": it may still finish; "failed": it never will. */
  readonly status: "done" | "waiting" | "failed";
}

/** Tools that write a file, and how the written text is found in their input. */
const WRITE_TOOLS: Readonly<Record<string, (input: Record<string, unknown>) => string | null>> = {
  write: (input) => str(input.content),
  edit: (input) => str(input.newString),
  multiedit: (input) => {
    const edits = Array.isArray(input.edits) ? input.edits : [];
    const parts = edits.map((e) => (isObject(e) ? str(e.newString) : null)).filter((t): t is string =>
      t !== null
    );
    return parts.length === 0 ? null : parts.join("\n\n");
  },
};

/** A tool part that writes an instruction file: its text and whether the write landed; else null. */
export function memoryWrite(data: unknown): MemoryWrite | null {
  if (!isObject(data) || data.type !== "tool" || typeof data.tool !== "string") return null;
  const textOf = WRITE_TOOLS[data.tool];
  const state = isObject(data.state) ? data.state : null;
  if (!textOf || !state || !isObject(state.input)) return null;
  const path = str(state.input.filePath);
  if (path === null || !isOpenCodeMemoryPath(path)) return null;
  const text = textOf(state.input)?.trim() ?? "";
  if (text === "") return null;
  const status = state.status === "completed"
    ? "done"
    : state.status === "pending" || state.status === "running"
    ? "waiting"
    : "failed";
  return { text, status };
}

export function isOpenCodeMemoryPath(path: string): boolean {
  return hasFileName(path, OPENCODE_MEMORY_FILE_NAMES);
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
