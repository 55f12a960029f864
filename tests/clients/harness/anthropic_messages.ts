/**
 * The Anthropic Messages API (`POST /v1/messages`, streamed as server-sent events, or one JSON
 * answer when the request does not ask for a stream), as a WireApi for ModelServer. Enough for
 * Claude Code: text replies, one tool call per reply, token counts, an empty model list.
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

/** A scripted reply: text, or one tool call (`input` is the tool's arguments). */
export type AnthropicReply =
  | { readonly text: string }
  | { readonly tool: string; readonly input: Readonly<Record<string, unknown>>; readonly text?: string };

/** What a turn gets when no rule matched. */
export const DEFAULT_TEXT = "OK.";
/** What a turn whose latest input is a tool result gets when no rule matched. */
export const DEFAULT_AFTER_TOOL_TEXT = "Done.";

/** A message of the request (`role`, `content` as a string or blocks). */
export interface AnthropicMessage {
  readonly role: string;
  readonly content: unknown;
}

/** The request's `messages`, or [] when the body has none. */
export function messagesOf(body: unknown): AnthropicMessage[] {
  if (!isObject(body) || !Array.isArray(body.messages)) return [];
  return body.messages.filter((m): m is AnthropicMessage => isObject(m) && typeof m.role === "string");
}

/** The blocks of a message's content (a string becomes one text block). */
export function blocksOf(message: AnthropicMessage): Record<string, unknown>[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  return Array.isArray(message.content) ? message.content.filter(isObject) : [];
}

/** The names of the tools the request offers the model. */
export function toolNames(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  return body.tools.filter(isObject).map((t) => String(t.name ?? ""));
}

export function latestInput(body: unknown): LatestInput {
  // Claude Code puts hook context in `system`-role messages after the prompt: skip those.
  const messages = messagesOf(body).filter((m) => m.role === "user");
  const last = messages.at(-1);
  if (!last) return { text: "", toolResult: false };
  const blocks = blocksOf(last);
  if (blocks.some((b) => b.type === "tool_result")) return { text: JSON.stringify(blocks), toolResult: true };
  return { text: textOf(blocks.filter((b) => b.type === "text")), toolResult: false };
}

export const anthropicMessages: WireApi<AnthropicReply> = {
  name: "Anthropic Messages",
  isTurn(method, path) {
    return method === "POST" && path.endsWith("/v1/messages");
  },
  latestInput,
  defaultReply(input) {
    return { text: input.toolResult ? DEFAULT_AFTER_TOOL_TEXT : DEFAULT_TEXT };
  },
  // Claude Code's own requests (compaction summaries) are conversation-shaped: the script sees them.
  sideReply: () => null,
  respond(reply, body, n) {
    const model = isObject(body) && typeof body.model === "string" ? body.model : "claude-test";
    const blocks: Record<string, unknown>[] = [];
    if ("tool" in reply) {
      if (reply.text) blocks.push({ type: "text", text: reply.text });
      blocks.push({
        type: "tool_use",
        id: `toolu_${String(n).padStart(6, "0")}`,
        name: reply.tool,
        input: reply.input,
      });
    } else {
      blocks.push({ type: "text", text: reply.text });
    }
    const stop = "tool" in reply ? "tool_use" : "end_turn";
    const usage = {
      input_tokens: 100,
      output_tokens: 10,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    const message = {
      id: `msg_test${String(n).padStart(6, "0")}`,
      type: "message",
      role: "assistant",
      model,
      content: blocks,
      stop_reason: stop,
      stop_sequence: null,
      usage,
    };
    if (!isObject(body) || body.stream !== true) return jsonResponse(message);
    const events = [
      sseEvent(
        { type: "message_start", message: { ...message, content: [], stop_reason: null } },
        "message_start",
      ),
    ];
    blocks.forEach((block, index) => {
      if (block.type === "text") {
        events.push(
          sseEvent(
            { type: "content_block_start", index, content_block: { type: "text", text: "" } },
            "content_block_start",
          ),
          sseEvent(
            { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } },
            "content_block_delta",
          ),
        );
      } else {
        events.push(
          sseEvent(
            { type: "content_block_start", index, content_block: { ...block, input: {} } },
            "content_block_start",
          ),
          sseEvent(
            {
              type: "content_block_delta",
              index,
              delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
            },
            "content_block_delta",
          ),
        );
      }
      events.push(sseEvent({ type: "content_block_stop", index }, "content_block_stop"));
    });
    events.push(
      sseEvent(
        {
          type: "message_delta",
          delta: { stop_reason: stop, stop_sequence: null },
          usage: { output_tokens: 10 },
        },
        "message_delta",
      ),
      sseEvent({ type: "message_stop" }, "message_stop"),
    );
    return sseResponse(events);
  },
  other(method, path) {
    if (path.endsWith("/v1/messages/count_tokens")) return jsonResponse({ input_tokens: 100 });
    if (method === "GET" && path.includes("/models")) return jsonResponse({ data: [], has_more: false });
    return jsonResponse(
      { type: "error", error: { type: "not_found_error", message: `no ${path} here` } },
      404,
    );
  },
};

/** A scripted Anthropic Messages server on 127.0.0.1 (set ANTHROPIC_BASE_URL to its `origin`). */
export function anthropicServer(script: readonly Rule<AnthropicReply>[] = []): ModelServer<AnthropicReply> {
  return new ModelServer(anthropicMessages, script);
}
