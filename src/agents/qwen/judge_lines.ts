/**
 * A Qwen Code chat file re-framed, line for line, as the Claude Code transcript lines the
 * compaction judge reads (src/judge/transcript.ts), so `verdict hook pre-compact --agent qwen`
 * judges a Qwen session with the same rules. Pure: text in, text out; line numbers are kept (a
 * line the judge has no use for becomes an empty line), so the handoff's sources point into the
 * real file.
 *
 * - A typed prompt (chat.ts `typedText`) → a `user` entry with the typed text as its content.
 * - An assistant record → an `assistant` entry: text parts as text blocks (thoughts dropped),
 *   each `functionCall` as a `tool_use` block, its name and arguments mapped where the judge
 *   knows the tool: write_file → Write, edit → Edit (file_path, old_string, new_string),
 *   todo_write → TodoWrite (todos: content, status), run_shell_command → Bash.
 * - A tool_result record → a `user` entry of `tool_result` blocks, `is_error` unless
 *   `toolCallResult.status` is "success".
 * - Everything else (system records, machine-made user records) is dropped, and the parent
 *   chain is relinked past it, so the judge's main chain still runs through every kept entry.
 */
import { typedText } from "./chat.ts";
import { isObject, parseObjectLine } from "../json.ts";

const TOOL_NAMES: Readonly<Record<string, string>> = {
  write_file: "Write",
  edit: "Edit",
  todo_write: "TodoWrite",
  run_shell_command: "Bash",
};

export function asClaudeTranscript(text: string): string {
  /** uuid of every record seen → the uuid of its nearest kept ancestor (itself when kept). */
  const kept = new Map<string, string | null>();
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const entry = parseObjectLine(raw);
    if (entry === null) {
      out.push(raw.trim() === "" ? "" : raw); // still malformed: the judge counts it
      continue;
    }
    const parentRaw = typeof entry.parentUuid === "string" ? entry.parentUuid : null;
    const parent = parentRaw === null ? null : kept.has(parentRaw) ? kept.get(parentRaw)! : parentRaw;
    const converted = convert(entry);
    const uuid = typeof entry.uuid === "string" ? entry.uuid : null;
    if (converted === null) {
      if (uuid !== null) kept.set(uuid, parent);
      out.push("");
      continue;
    }
    if (uuid !== null) kept.set(uuid, uuid);
    out.push(JSON.stringify({
      type: converted.type,
      uuid,
      parentUuid: parent,
      sessionId: entry.sessionId,
      cwd: entry.cwd,
      timestamp: entry.timestamp,
      message: { role: converted.type === "assistant" ? "assistant" : "user", content: converted.content },
    }));
  }
  return out.join("\n");
}

function convert(entry: Record<string, unknown>): { type: string; content: unknown } | null {
  if (entry.type === "user") {
    const typed = typedText(entry);
    return typed === null ? null : { type: "user", content: typed };
  }
  const parts = isObject(entry.message) && Array.isArray(entry.message.parts)
    ? entry.message.parts.filter(isObject)
    : [];
  if (entry.type === "assistant") {
    const content: Record<string, unknown>[] = [];
    for (const part of parts) {
      if (typeof part.text === "string" && part.thought !== true) {
        content.push({ type: "text", text: part.text });
      }
      const call = isObject(part.functionCall) ? part.functionCall : null;
      if (call && typeof call.id === "string" && typeof call.name === "string") {
        content.push({
          type: "tool_use",
          id: call.id,
          ...toolUse(call.name, isObject(call.args) ? call.args : {}),
        });
      }
    }
    return content.length === 0 ? null : { type: "assistant", content };
  }
  if (entry.type === "tool_result") {
    const result = isObject(entry.toolCallResult) ? entry.toolCallResult : {};
    const content = parts.filter((p) => isObject(p.functionResponse)).map((p) => {
      const r = p.functionResponse as Record<string, unknown>;
      const response = isObject(r.response) ? r.response : {};
      return {
        type: "tool_result",
        tool_use_id: r.id,
        is_error: result.status !== "success",
        content: typeof response.output === "string" ? response.output : JSON.stringify(response),
      };
    });
    return content.length === 0 ? null : { type: "user", content };
  }
  return null;
}

function toolUse(
  name: string,
  args: Record<string, unknown>,
): { name: string; input: Record<string, unknown> } {
  const mapped = TOOL_NAMES[name];
  if (mapped === "TodoWrite") {
    const todos = Array.isArray(args.todos) ? args.todos.filter(isObject) : [];
    return {
      name: mapped,
      input: { todos: todos.map((t) => ({ content: t.content ?? t.description ?? "", status: t.status })) },
    };
  }
  return { name: mapped ?? name, input: args };
}
