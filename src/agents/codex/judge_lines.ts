/**
 * A Codex rollout re-framed, line for line, as the Claude Code transcript lines the compaction
 * judge reads (src/judge/transcript.ts), so `verdict hook pre-compact --agent codex` judges a
 * Codex session with the same rules. Pure: text in, text out. Line numbers are kept (a line the
 * judge has no use for becomes an empty line), so the handoff's sources point into the rollout.
 * What 0.169 writes, seen with the real binary (tests/agents/codex/judge_lines_test.ts and the
 * client tests):
 *
 * - Typed input: an `item_completed` `UserMessage` (or an older `user_message` event), read by
 *   the collector's own rules (rollout.ts: injected blocks, verdict's hint, a second form of one
 *   prompt in a turn) → a `user` entry holding the typed text. `response_item` user messages
 *   (environment, hook context, `!` output, copies) are never typed input.
 * - Assistant `response_item` messages → `assistant` entries of text blocks.
 * - Tool calls (`function_call`, `custom_tool_call`, `tool_search_call`) → `assistant` entries
 *   of one `tool_use` block (id = Codex's `call_id`), named and shaped as the judge knows them
 *   where there is a match: `update_plan` → TodoWrite (`plan[].step` as content, its status);
 *   `exec_command` / `shell_command` / `shell` → Bash (the command line, so `git commit` counts
 *   as a durable write); `request_user_input` → AskUserQuestion, unless Codex refused it (it
 *   does outside Plan mode: the question never reached the person).
 * - Files: Codex reports what a patch did as an `item_completed` `FileChange` whose `id` is the
 *   call's `call_id`. Its call line gets one more block per changed path, Write (an added file,
 *   its content) or Edit (an update, its added lines as `new_string`; a move names the new
 *   path); deletions are not writes. The FileChange line itself becomes their results, failed
 *   unless its status is "completed". A FileChange whose call is not in the file is dropped.
 * - Tool outputs (`function_call_output`, `custom_tool_call_output`, `tool_search_output`) →
 *   `user` entries of one `tool_result`, an error when the call's item (CommandExecution,
 *   McpToolCall…) has status "failed" or "declined", the output says the process exited with a
 *   code other than 0, or an older output object says `success: false`.
 * - `compacted` → a `compact_boundary` (the judge counts earlier compactions); a `turn_aborted`
 *   of a turn that did something → Claude's interrupt marker.
 * - Everything else (session_meta, turn_context, world_state, token counts…) is dropped.
 *
 * The entries form one chain in file order (uuid = "codex:<line>", each parented to the one
 * before), carrying the session_meta id and the latest working directory.
 */
import { isObject, parseObjectLine } from "../json.ts";
import { userMessageItemText, userMessageText } from "./rollout.ts";

type Entry = Record<string, unknown>;
type Block = Record<string, unknown>;

/** Claude Code's interrupt marker (the judge's INTERRUPT, transcript.ts). */
const INTERRUPT_TEXT = "[Request interrupted by user]";

/** Codex's words when it refuses request_user_input (seen: "… is unavailable in Default mode"). */
const REFUSED_INPUT_REQUEST = /^request_user_input is unavailable\b/;

/** The exit status line of a shell tool's output ("Process exited with code 2", "Exit code: 1"). */
const EXIT_CODE = /^(?:Process exited with code|Exit code:)\s*(-?\d+)\s*$/m;

/** Item statuses that mean the call did not do its work. */
const FAILED_STATUSES: ReadonlySet<string> = new Set(["failed", "declined"]);

const SHELL_TOOLS: ReadonlySet<string> = new Set(["exec_command", "shell_command", "shell"]);

const CALL_TYPES: ReadonlySet<string> = new Set(["function_call", "custom_tool_call", "tool_search_call"]);
const OUTPUT_TYPES: ReadonlySet<string> = new Set([
  "function_call_output",
  "custom_tool_call_output",
  "tool_search_output",
]);

interface FileChange {
  readonly line: number;
  readonly ok: boolean;
  readonly writes: readonly Block[];
}

/** What the first pass learns about the calls, by call id. */
interface Calls {
  readonly fileChanges: Map<string, FileChange>;
  /** The status of the item Codex reports for a call (CommandExecution, McpToolCall, FileChange). */
  readonly itemStatus: Map<string, string>;
  /** The (last) output of a call, as text. */
  readonly outputs: Map<string, string>;
  /** Lines holding a call. */
  readonly callLines: Map<string, number>;
}

export function asClaudeTranscript(text: string): string {
  const raw = text.split("\n");
  const parsed = raw.map((line) => parseObjectLine(line) ?? undefined);
  const calls = survey(parsed);
  const out: string[] = [];
  let session: string | null = null;
  let cwd: string | null = null;
  let previous: string | null = null;
  let turnPrompts: string[] = [];
  /** Did the current turn add anything to the chain? (An aborted compaction task did not.) */
  let turnActive = false;

  parsed.forEach((entry, i) => {
    const lineNo = i + 1;
    if (entry === undefined) {
      out.push(raw[i]!.trim() === "" ? "" : raw[i]!); // malformed: the judge counts it
      return;
    }
    const payload = isObject(entry.payload) ? entry.payload : {};
    if (entry.type === "session_meta") {
      if (session === null && typeof payload.id === "string") session = payload.id;
      if (cwd === null && typeof payload.cwd === "string" && payload.cwd !== "") cwd = payload.cwd;
    } else if (entry.type === "turn_context" && typeof payload.cwd === "string" && payload.cwd !== "") {
      cwd = payload.cwd;
    } else if (entry.type === "event_msg" && payload.type === "task_started") {
      turnPrompts = [];
      turnActive = false;
    }
    const converted = convert(entry, payload, lineNo, calls, turnPrompts, turnActive);
    if (converted === null) {
      out.push("");
      return;
    }
    if (converted.prompt !== undefined) turnPrompts = [...turnPrompts, converted.prompt];
    turnActive = true;
    const uuid = `codex:${lineNo}`;
    out.push(JSON.stringify({
      type: converted.type,
      ...(converted.type === "system" ? { subtype: "compact_boundary" } : {}),
      uuid,
      parentUuid: previous,
      sessionId: session,
      cwd,
      timestamp: entry.timestamp,
      message: {
        role: converted.type === "assistant" ? "assistant" : "user",
        content: converted.content,
      },
    }));
    previous = uuid;
  });
  return out.join("\n");
}

interface Converted {
  readonly type: "user" | "assistant" | "system";
  readonly content: unknown;
  /** The typed text, for a prompt (a second form of it in the same turn is not counted). */
  readonly prompt?: string;
}

function convert(
  entry: Entry,
  payload: Entry,
  lineNo: number,
  calls: Calls,
  turnPrompts: readonly string[],
  turnActive: boolean,
): Converted | null {
  if (entry.type === "compacted") return { type: "system", content: "Conversation compacted" };
  if (entry.type === "event_msg") {
    let typed: string | null = null;
    if (payload.type === "user_message") typed = userMessageText(payload);
    else if (payload.type === "item_completed" && isObject(payload.item)) {
      const item = payload.item;
      if (item.type === "UserMessage") typed = userMessageItemText(item);
      else if (item.type === "FileChange") return fileChangeResults(item, lineNo, calls);
    } else if (payload.type === "turn_aborted") {
      return turnActive ? { type: "user", content: INTERRUPT_TEXT } : null;
    }
    if (typed === null || turnPrompts.includes(typed)) return null;
    return { type: "user", content: typed, prompt: typed };
  }
  if (entry.type !== "response_item") return null;
  const kind = typeof payload.type === "string" ? payload.type : "";
  if (kind === "message" && payload.role === "assistant") {
    const texts = contentParts(payload.content)
      .filter((p) => p.type === "output_text" && typeof p.text === "string" && p.text !== "")
      .map((p) => ({ type: "text", text: p.text }));
    return texts.length === 0 ? null : { type: "assistant", content: texts };
  }
  const callId = typeof payload.call_id === "string" ? payload.call_id : null;
  if (callId === null) return null;
  if (CALL_TYPES.has(kind)) {
    const change = calls.fileChanges.get(callId);
    return { type: "assistant", content: [toolUse(kind, payload, callId, calls), ...(change?.writes ?? [])] };
  }
  if (OUTPUT_TYPES.has(kind)) {
    const output = outputText(payload.output);
    return {
      type: "user",
      content: [{
        type: "tool_result",
        tool_use_id: callId,
        is_error: isFailure(callId, payload, output, calls),
        content: output,
      }],
    };
  }
  return null;
}

/** The tool_use block of one call, named and shaped as the judge knows it where it can be. */
function toolUse(kind: string, payload: Entry, callId: string, calls: Calls): Block {
  const name = typeof payload.name === "string" ? payload.name : kind;
  const block = (n: string, input: Record<string, unknown>): Block => ({
    type: "tool_use",
    id: callId,
    name: n,
    input,
  });
  if (kind === "custom_tool_call") {
    return block(name, { input: typeof payload.input === "string" ? payload.input : "" });
  }
  if (kind === "tool_search_call") return block("tool_search", objectOf(payload.arguments));
  const args = objectOf(payload.arguments);
  if (typeof payload.namespace === "string") return block(`${payload.namespace}__${name}`, args);
  if (name === "update_plan") {
    const plan = Array.isArray(args.plan) ? args.plan.filter(isObject) : [];
    return block("TodoWrite", {
      todos: plan.map((p) => ({ content: typeof p.step === "string" ? p.step : "", status: p.status })),
    });
  }
  if (SHELL_TOOLS.has(name)) {
    const command = typeof args.cmd === "string"
      ? args.cmd
      : typeof args.command === "string"
      ? args.command
      : Array.isArray(args.command)
      ? args.command.filter((a) => typeof a === "string").join(" ")
      : "";
    return block("Bash", { command });
  }
  if (name === "request_user_input" && !REFUSED_INPUT_REQUEST.test(calls.outputs.get(callId) ?? "")) {
    const questions = Array.isArray(args.questions) ? args.questions.filter(isObject) : [];
    return block("AskUserQuestion", {
      questions: questions.map((q) => ({ question: typeof q.question === "string" ? q.question : "" })),
    });
  }
  return block(name, args);
}

function isFailure(callId: string, payload: Entry, output: string, calls: Calls): boolean {
  const status = calls.itemStatus.get(callId);
  if (status !== undefined && FAILED_STATUSES.has(status)) return true;
  if (isObject(payload.output) && payload.output.success === false) return true;
  const exit = EXIT_CODE.exec(output);
  return exit !== null && Number(exit[1]) !== 0;
}

/** The FileChange line: the results of the Write/Edit blocks its call line got. */
function fileChangeResults(item: Entry, lineNo: number, calls: Calls): Converted | null {
  const id = typeof item.id === "string" ? item.id : null;
  const change = id === null ? undefined : calls.fileChanges.get(id);
  if (!change || change.line !== lineNo || change.writes.length === 0 || !calls.callLines.has(id!)) {
    return null;
  }
  return {
    type: "user",
    content: change.writes.map((w) => ({
      type: "tool_result",
      tool_use_id: w.id,
      is_error: !change.ok,
      content: change.ok ? "File changed" : `File change ${String(item.status)}`,
    })),
  };
}

/** First pass: each call's file changes, item status, output and line. */
function survey(parsed: readonly (Entry | undefined)[]): Calls {
  const calls: Calls = {
    fileChanges: new Map(),
    itemStatus: new Map(),
    outputs: new Map(),
    callLines: new Map(),
  };
  parsed.forEach((entry, i) => {
    const payload = entry && isObject(entry.payload) ? entry.payload : null;
    if (payload === null) return;
    const callId = typeof payload.call_id === "string" ? payload.call_id : null;
    if (entry!.type === "response_item" && callId !== null) {
      const kind = String(payload.type);
      if (CALL_TYPES.has(kind) && !calls.callLines.has(callId)) calls.callLines.set(callId, i + 1);
      if (OUTPUT_TYPES.has(kind)) calls.outputs.set(callId, outputText(payload.output));
      return;
    }
    if (entry!.type !== "event_msg" || payload.type !== "item_completed" || !isObject(payload.item)) return;
    const item = payload.item;
    if (typeof item.id !== "string") return;
    if (typeof item.status === "string") calls.itemStatus.set(item.id, item.status);
    if (item.type === "FileChange") {
      calls.fileChanges.set(item.id, {
        line: i + 1,
        ok: item.status === "completed",
        writes: writesOf(item, item.id),
      });
    }
  });
  return calls;
}

/** One Write or Edit block per added or updated path of a FileChange item, in the item's order. */
function writesOf(item: Entry, id: string): Block[] {
  if (!isObject(item.changes)) return [];
  const out: Block[] = [];
  for (const [path, change] of Object.entries(item.changes)) {
    if (!isObject(change)) continue;
    const n = out.length;
    const block = (name: string, input: Record<string, unknown>): Block => ({
      type: "tool_use",
      id: `${id}#${n}`,
      name,
      input,
    });
    if (change.type === "add") {
      out.push(
        block("Write", {
          file_path: path,
          content: typeof change.content === "string" ? change.content : "",
        }),
      );
    } else if (change.type === "update") {
      const diff = typeof change.unified_diff === "string" ? change.unified_diff : "";
      const added = diff.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).map((l) =>
        l.slice(1)
      );
      const target = typeof change.move_path === "string" && change.move_path !== ""
        ? change.move_path
        : path;
      out.push(block("Edit", { file_path: target, old_string: "", new_string: added.join("\n") }));
    }
  }
  return out;
}

/** A tool output as text: a string, the text parts of a content list, or an older `{content}`. */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) {
    return output.filter(isObject).map((p) => (typeof p.text === "string" ? p.text : "")).join("\n");
  }
  if (isObject(output) && typeof output.content === "string") return output.content;
  return output === undefined ? "" : JSON.stringify(output);
}

function contentParts(content: unknown): Entry[] {
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** A call's arguments: an object, or a JSON text of one; {} otherwise. */
function objectOf(args: unknown): Record<string, unknown> {
  if (isObject(args)) return args;
  return typeof args === "string" ? parseObjectLine(args) ?? {} : {};
}
