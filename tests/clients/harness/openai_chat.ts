/**
 * The OpenAI Chat Completions API (`POST …/chat/completions`, streamed as server-sent events, or
 * one JSON answer without `stream`), as a WireApi for ModelServer. Speaks enough for every agent
 * that talks to an "OpenAI-compatible" provider: Qwen Code, GitHub Copilot CLI (offline BYOK),
 * OpenCode, and the like.
 *
 * Using it from a client test:
 *
 *   await using server = chatServer([
 *     { when: "from now on use pnpm", reply: { text: "Understood." } },
 *     { when: "recall tool", reply: { tool: "mcp__verdict__verdict_recall", args: { query: "pnpm" } } },
 *     { afterTool: true, when: "pnpm", reply: { text: "The tool says: pnpm." } },
 *   ], { side: (body) => systemText(body).startsWith("You are a title generator") });
 *   // the agent's base URL is `${server.origin}/v1`
 *
 * - A rule's `when` is matched against the latest input: the text of the trailing run of user
 *   messages (agents put hook context in the prompt's message or in a user message of its own
 *   next to it: both are seen), or, when the last message is a tool result, that `tool` message
 *   as JSON (its `content` holds what the tool returned).
 * - Replies: `{ text }`, or `{ tool, args }` for one function call (`text` may come with it).
 * - Side requests (the agent asking for itself: titles, memory extraction, summaries) never
 *   consume a rule: a request asking for JSON (`response_format`) gets JSON of its schema's
 *   shape, and a request the `side` option recognises gets SIDE_TEXT.
 * - Reading what was recorded: `chatMessages(body)` (role and text of each message),
 *   `systemText(body)`, `toolNames(body)` (the functions offered), `toolCalls(body)` and
 *   `toolResults(body)` (what the conversation holds so far), `lastUserText(body)` and
 *   `userTextsFrom(body, typed)` (the prompt's message and the hook context with it).
 * - Every answer reports `usage.prompt_tokens` = `promptTokens` (default 100): agents decide from it
 *   whether a compaction is worth doing (Qwen Code's `/compress` refuses a history it calls small).
 * - GET …/models lists the model the agent asked for last (or "test-model").
 */
import {
  isObject,
  jsonResponse,
  type LatestInput,
  ModelServer,
  type Rule,
  sseEvent,
  sseResponse,
  textOf,
  type WireApi,
} from "./model_server.ts";
import { instanceOf } from "./openai_responses.ts";

export type ChatReply =
  | { readonly text: string }
  /** One function call; `args` are its arguments (sent as a JSON string). */
  | { readonly tool: string; readonly args: Readonly<Record<string, unknown>>; readonly text?: string };

export const DEFAULT_TEXT = "OK.";
export const DEFAULT_AFTER_TOOL_TEXT = "Done.";
/** The prompt size answers report unless ChatOptions.promptTokens says otherwise. */
export const DEFAULT_PROMPT_TOKENS = 100;
/** What a side request the `side` option recognises gets. */
export const SIDE_TEXT = "(side request answered by the test server)";

/** One message of a request, with its content reduced to text. */
export interface ChatMessage {
  readonly role: string;
  readonly text: string;
  /** The message as sent. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** The request's messages, in order ([] when the body has none). */
export function chatMessages(body: unknown): ChatMessage[] {
  if (!isObject(body) || !Array.isArray(body.messages)) return [];
  return body.messages.filter(isObject).map((m) => ({
    role: String(m.role ?? ""),
    text: textOf(m.content),
    raw: m,
  }));
}

/** The text of the system (and developer) messages, joined. */
export function systemText(body: unknown): string {
  return chatMessages(body).filter((m) => m.role === "system" || m.role === "developer").map((m) => m.text)
    .join("\n");
}

/** The names of the functions the request offers the model. */
export function toolNames(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  return body.tools.filter(isObject).map((t) =>
    isObject(t.function) ? String(t.function.name ?? "") : String(t.name ?? t.type ?? "")
  );
}

/** Every function call the assistant messages of the request hold: name and parsed arguments. */
export function toolCalls(body: unknown): { id: string; name: string; args: unknown }[] {
  const out: { id: string; name: string; args: unknown }[] = [];
  for (const m of chatMessages(body)) {
    if (m.role !== "assistant" || !Array.isArray(m.raw.tool_calls)) continue;
    for (const call of m.raw.tool_calls.filter(isObject)) {
      const fn = isObject(call.function) ? call.function : {};
      let args: unknown = fn.arguments;
      try {
        args = typeof fn.arguments === "string" ? JSON.parse(fn.arguments) : fn.arguments;
      } catch {
        // kept as the raw string
      }
      out.push({ id: String(call.id ?? ""), name: String(fn.name ?? ""), args });
    }
  }
  return out;
}

/** Every tool result the request carries: the call it answers and its text. */
export function toolResults(body: unknown): { id: string; text: string }[] {
  return chatMessages(body).filter((m) => m.role === "tool").map((m) => ({
    id: String(m.raw.tool_call_id ?? ""),
    text: m.text,
  }));
}

/** The texts of the request's user messages, first to last: the conversation the person typed so far. */
export function userTexts(body: unknown): string[] {
  return chatMessages(body).filter((m) => m.role === "user").map((m) => m.text);
}

/** The text of the request's last user message ("" when it has none): where hook context rides with the prompt. */
export function lastUserText(body: unknown): string {
  return userTexts(body).at(-1) ?? "";
}

/**
 * The texts of the request's user messages from the last one holding `typed` on ([] when none
 * does): the prompt, then any hook context sent as messages of its own after it.
 */
export function userTextsFrom(body: unknown, typed: string): string[] {
  const users = userTexts(body);
  const at = users.findLastIndex((t) => t.includes(typed));
  return at < 0 ? [] : users.slice(at);
}

export function latestInput(body: unknown): LatestInput {
  const messages = chatMessages(body).filter((m) => m.role !== "system" && m.role !== "developer");
  const last = messages.at(-1);
  if (!last) return { text: "", toolResult: false };
  if (last.role === "tool") return { text: JSON.stringify(last.raw), toolResult: true };
  const run: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "user"; i--) {
    run.unshift(messages[i]!.text);
  }
  return { text: run.join("\n"), toolResult: false };
}

/** The JSON a `response_format` asks for, or null when the request asks for none. */
function formatReply(body: unknown): ChatReply | null {
  const format = isObject(body) && isObject(body.response_format) ? body.response_format : null;
  if (format?.type === "json_schema") {
    const schema = isObject(format.json_schema) ? format.json_schema.schema : null;
    return { text: JSON.stringify(instanceOf(schema) ?? {}) };
  }
  if (format?.type === "json_object") return { text: "{}" };
  return null;
}

function toolCallOf(reply: ChatReply, n: number) {
  if (!("tool" in reply)) return null;
  return {
    id: `call_${n}`,
    type: "function",
    function: { name: reply.tool, arguments: JSON.stringify(reply.args) },
  };
}

export interface ChatOptions {
  /** Recognises a side request by its body (e.g. by its system prompt): answered with SIDE_TEXT. */
  readonly side?: (body: unknown) => boolean;
  /**
   * The prompt size every answer reports (`usage.prompt_tokens`, default 100). Agents decide from
   * it whether a compaction is worth it: Qwen Code refuses to compact a history the usage calls
   * small ("not beneficial"), so a compaction test reports a large one.
   */
  readonly promptTokens?: number;
}

/** The Chat Completions wire, with the agent's own way of telling its side requests apart. */
export function openaiChat(opts: ChatOptions = {}): WireApi<ChatReply> {
  let lastModel = "test-model";
  return {
    name: "OpenAI Chat Completions",
    isTurn(method, path) {
      return method === "POST" && path.replace(/\/+$/, "").endsWith("/chat/completions");
    },
    latestInput,
    defaultReply(input) {
      return { text: input.toolResult ? DEFAULT_AFTER_TOOL_TEXT : DEFAULT_TEXT };
    },
    sideReply(body) {
      return formatReply(body) ?? (opts.side?.(body) ? { text: SIDE_TEXT } : null);
    },
    respond(reply, body, n) {
      const model = isObject(body) && typeof body.model === "string" ? body.model : "test-model";
      lastModel = model;
      const call = toolCallOf(reply, n);
      const text = "text" in reply && reply.text !== undefined ? reply.text : null;
      const finish = call ? "tool_calls" : "stop";
      const prompt = opts.promptTokens ?? DEFAULT_PROMPT_TOKENS;
      const usage = { prompt_tokens: prompt, completion_tokens: 10, total_tokens: prompt + 10 };
      const base = { id: `chatcmpl-${n}`, created: 0, model };
      if (!isObject(body) || body.stream !== true) {
        const message = { role: "assistant", content: text, ...(call ? { tool_calls: [call] } : {}) };
        return jsonResponse({
          ...base,
          object: "chat.completion",
          choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
          usage,
        });
      }
      const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
        sseEvent({
          ...base,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
        });
      const events = [chunk({ role: "assistant", content: "" }, null)];
      if (text !== null && text !== "") events.push(chunk({ content: text }, null));
      if (call) events.push(chunk({ tool_calls: [{ index: 0, ...call }] }, null));
      events.push(chunk({}, finish));
      // The usage chunk the agents ask for with stream_options.include_usage.
      events.push(sseEvent({ ...base, object: "chat.completion.chunk", choices: [], usage }));
      events.push(sseEvent("[DONE]"));
      return sseResponse(events);
    },
    other(method, path) {
      if (method === "GET" && /\/models\/?$/.test(path)) {
        return jsonResponse({
          object: "list",
          data: [{ id: lastModel, object: "model", created: 0, owned_by: "test" }],
        });
      }
      return jsonResponse({ error: { message: `no ${path} here`, type: "not_found" } }, 404);
    },
  };
}

/** A scripted Chat Completions server on 127.0.0.1 (the agent's base URL is `${origin}/v1`). */
export function chatServer(
  script: readonly Rule<ChatReply>[] = [],
  opts: ChatOptions = {},
): ModelServer<ChatReply> {
  return new ModelServer(openaiChat(opts), script);
}
