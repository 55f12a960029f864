/**
 * A pi session file re-framed, line for line, as the Claude Code transcript lines the compaction
 * judge reads (src/judge/transcript.ts), so `verdict hook pre-compact --agent pi` judges a pi
 * session with the same rules. Pure: text in, text out; line numbers are kept (a line the judge has
 * no use for becomes an empty line), so the handoff's sources point into the real file.
 *
 * - The header gives every line its session id and cwd.
 * - A typed prompt (session.ts `typedText`) → a `user` entry with the typed text as its content.
 * - An assistant message → an `assistant` entry: text blocks kept (thinking dropped), each
 *   `toolCall` as a `tool_use` block, mapped where the judge knows the tool: write → Write
 *   (file_path, content), edit → Edit (file_path, old_string, new_string; several edits joined),
 *   bash → Bash (command).
 * - A toolResult message → a `user` entry with one `tool_result` block, `is_error` as pi says.
 * - Everything else (custom messages such as verdict's hint, `!` lines, compactions, model
 *   changes) is dropped, and the parent chain is relinked past it, so the judge's main chain still
 *   runs through every kept entry.
 */
import { isObject, parseObjectLine } from "../json.ts";
import { typedText } from "./session.ts";

export function asClaudeTranscript(text: string): string {
  /** id of every entry seen → the id of its nearest kept ancestor (itself when kept). */
  const kept = new Map<string, string | null>();
  let sessionId: unknown = null;
  let cwd: unknown = null;
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const entry = parseObjectLine(raw);
    if (entry === null) {
      out.push(raw.trim() === "" ? "" : raw); // still malformed: the judge counts it
      continue;
    }
    if (entry.type === "session") {
      sessionId = entry.id;
      cwd = entry.cwd;
      out.push("");
      continue;
    }
    const id = typeof entry.id === "string" ? entry.id : null;
    const parentRaw = typeof entry.parentId === "string" ? entry.parentId : null;
    const parent = parentRaw === null ? null : kept.has(parentRaw) ? kept.get(parentRaw)! : parentRaw;
    const converted = convert(entry);
    if (converted === null) {
      if (id !== null) kept.set(id, parent);
      out.push("");
      continue;
    }
    if (id !== null) kept.set(id, id);
    out.push(JSON.stringify({
      type: converted.type,
      uuid: id,
      parentUuid: parent,
      sessionId,
      cwd,
      timestamp: entry.timestamp,
      message: { role: converted.type, content: converted.content },
    }));
  }
  return out.join("\n");
}

function convert(entry: Record<string, unknown>): { type: "user" | "assistant"; content: unknown } | null {
  if (entry.type !== "message" || !isObject(entry.message)) return null;
  const message = entry.message;
  if (message.role === "user") {
    const typed = typedText(message.content);
    return typed === "" ? null : { type: "user", content: typed };
  }
  if (message.role === "assistant" && Array.isArray(message.content)) {
    const content: Record<string, unknown>[] = [];
    for (const block of message.content) {
      if (!isObject(block)) continue;
      if (block.type === "text" && typeof block.text === "string") {
        content.push({ type: "text", text: block.text });
      }
      if (block.type === "toolCall" && typeof block.id === "string" && typeof block.name === "string") {
        content.push({
          type: "tool_use",
          id: block.id,
          ...toolUse(block.name, isObject(block.arguments) ? block.arguments : {}),
        });
      }
    }
    return content.length === 0 ? null : { type: "assistant", content };
  }
  if (message.role === "toolResult" && typeof message.toolCallId === "string") {
    const body = Array.isArray(message.content)
      ? message.content.filter((b) => isObject(b) && typeof b.text === "string").map((b) => b.text).join("\n")
      : "";
    return {
      type: "user",
      content: [{
        type: "tool_result",
        tool_use_id: message.toolCallId,
        is_error: message.isError !== false,
        content: body,
      }],
    };
  }
  return null;
}

function toolUse(
  name: string,
  args: Record<string, unknown>,
): { name: string; input: Record<string, unknown> } {
  switch (name) {
    case "write":
      return { name: "Write", input: { file_path: args.path, content: args.content } };
    case "edit": {
      const edits = Array.isArray(args.edits) ? args.edits.filter(isObject) : [args];
      const join = (key: string) => edits.map((e) => typeof e[key] === "string" ? e[key] : "").join("\n");
      return {
        name: "Edit",
        input: { file_path: args.path, old_string: join("oldText"), new_string: join("newText") },
      };
    }
    case "bash":
      return { name: "Bash", input: { command: args.command } };
    default:
      return { name, input: args };
  }
}
