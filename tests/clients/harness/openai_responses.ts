/**
 * The OpenAI Responses API (`POST …/responses`, streamed as server-sent events, or one JSON
 * answer without `stream`), as a WireApi for ModelServer. Enough for Codex: text replies,
 * function calls (with a namespace for MCP tools), freeform custom tool calls (`apply_patch`),
 * and raw output items (e.g. a client-executed `tool_search_call`).
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

export type ResponsesReply =
  | { readonly text: string }
  /** A function call; `namespace` for a namespaced tool such as an MCP server's ("mcp__verdict"). */
  | { readonly tool: string; readonly args: Readonly<Record<string, unknown>>; readonly namespace?: string }
  /** A freeform (custom) tool call: `input` is the raw text the tool receives. */
  | { readonly custom: string; readonly input: string }
  /** Any output item, sent as given (ids and status are filled in when absent). */
  | { readonly item: Readonly<Record<string, unknown>> };

export const DEFAULT_TEXT = "OK.";
export const DEFAULT_AFTER_TOOL_TEXT = "Done.";

/** The request's `input` items ([] when it is a plain string or absent). */
export function inputItems(body: unknown): Record<string, unknown>[] {
  if (!isObject(body) || !Array.isArray(body.input)) return [];
  return body.input.filter(isObject);
}

/** Role messages of the input, with their text. */
export function inputMessages(body: unknown): { role: string; text: string }[] {
  return inputItems(body)
    .filter((i) => (i.type === "message" || i.type === undefined) && typeof i.role === "string")
    .map((i) => ({ role: String(i.role), text: textOf(i.content) }));
}

/** The names of the tools offered (namespaced ones as "namespace.name" and the namespace itself). */
export function toolNames(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  const names: string[] = [];
  for (const t of body.tools.filter(isObject)) {
    const name = typeof t.name === "string" ? t.name : String(t.type ?? "");
    names.push(name);
    if (Array.isArray(t.tools)) {
      for (const inner of t.tools.filter(isObject)) names.push(`${name}.${String(inner.name ?? "")}`);
    }
  }
  return names;
}

export function latestInput(body: unknown): LatestInput {
  if (isObject(body) && typeof body.input === "string") return { text: body.input, toolResult: false };
  // Hook context arrives as developer messages after the prompt or the tool output: skip those.
  const items = inputItems(body).filter((i) => !(i.role === "developer" || i.role === "system"));
  const last = items.at(-1);
  if (last && typeof last.type === "string" && last.type.endsWith("_output")) {
    return { text: JSON.stringify(last), toolResult: true };
  }
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.role === "user") return { text: textOf(item.content), toolResult: false };
  }
  return { text: "", toolResult: false };
}

function outputItem(reply: ResponsesReply, n: number): Record<string, unknown> {
  if ("item" in reply) {
    return { id: `item_${n}`, call_id: `call_${n}`, status: "completed", ...reply.item };
  }
  if ("custom" in reply) {
    return {
      type: "custom_tool_call",
      id: `ctc_${n}`,
      call_id: `call_${n}`,
      name: reply.custom,
      input: reply.input,
      status: "completed",
    };
  }
  if ("tool" in reply) {
    return {
      type: "function_call",
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name: reply.tool,
      arguments: JSON.stringify(reply.args),
      status: "completed",
      ...(reply.namespace ? { namespace: reply.namespace } : {}),
    };
  }
  return {
    type: "message",
    id: `msg_${n}`,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: reply.text, annotations: [] }],
  };
}

/** A small value that satisfies a JSON schema's required shape (strings say "test"). */
export function instanceOf(schema: unknown): unknown {
  if (!isObject(schema)) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case "object": {
      const props = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.map(String) : Object.keys(props);
      return Object.fromEntries(required.map((k) => [k, instanceOf(props[k])]));
    }
    case "array":
      return [];
    case "string":
      return "test";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}

export const openaiResponses: WireApi<ResponsesReply> = {
  name: "OpenAI Responses",
  isTurn(method, path) {
    return method === "POST" && path.replace(/\/+$/, "").endsWith("/responses");
  },
  latestInput,
  defaultReply(input) {
    return { text: input.toolResult ? DEFAULT_AFTER_TOOL_TEXT : DEFAULT_TEXT };
  },
  sideReply(body) {
    // A request for structured output (Codex's session title) gets JSON of its schema's shape.
    const format = isObject(body) && isObject(body.text) && isObject(body.text.format)
      ? body.text.format
      : null;
    if (format?.type !== "json_schema") return null;
    return { text: JSON.stringify(instanceOf(format.schema)) };
  },
  respond(reply, body, n) {
    const item = outputItem(reply, n);
    const usage = {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 110,
    };
    const model = isObject(body) && typeof body.model === "string" ? body.model : "test-model";
    const response = {
      id: `resp_${n}`,
      object: "response",
      created_at: 0,
      status: "in_progress",
      model,
      output: [],
    };
    const done = { ...response, status: "completed", output: [item], usage };
    if (!isObject(body) || body.stream !== true) return jsonResponse(done);
    const at = { item_id: item.id, output_index: 0 };
    const added = item.type === "message"
      ? { ...item, status: "in_progress", content: [] }
      : { ...item, status: "in_progress" };
    const events = [
      sseEvent({ type: "response.created", response }, "response.created"),
      sseEvent(
        { type: "response.output_item.added", output_index: 0, item: added },
        "response.output_item.added",
      ),
    ];
    if (item.type === "message") {
      const text = (reply as { text: string }).text;
      const part = { type: "output_text", text: "", annotations: [] };
      events.push(
        sseEvent(
          { type: "response.content_part.added", ...at, content_index: 0, part },
          "response.content_part.added",
        ),
        sseEvent(
          { type: "response.output_text.delta", ...at, content_index: 0, delta: text },
          "response.output_text.delta",
        ),
        sseEvent(
          { type: "response.output_text.done", ...at, content_index: 0, text },
          "response.output_text.done",
        ),
        sseEvent(
          { type: "response.content_part.done", ...at, content_index: 0, part: { ...part, text } },
          "response.content_part.done",
        ),
      );
    } else if (item.type === "function_call") {
      events.push(
        sseEvent(
          { type: "response.function_call_arguments.delta", ...at, delta: item.arguments },
          "response.function_call_arguments.delta",
        ),
        sseEvent(
          { type: "response.function_call_arguments.done", ...at, arguments: item.arguments },
          "response.function_call_arguments.done",
        ),
      );
    }
    events.push(
      sseEvent({ type: "response.output_item.done", output_index: 0, item }, "response.output_item.done"),
      sseEvent({ type: "response.completed", response: done }, "response.completed"),
    );
    return sseResponse(events);
  },
  other(method, path) {
    if (method === "GET" && /\/models(\?|$)/.test(path)) {
      return jsonResponse({ object: "list", data: [], models: [] });
    }
    return jsonResponse({ error: { message: `no ${path} here`, type: "not_found" } }, 404);
  },
};

/** A scripted Responses server on 127.0.0.1 (a provider's base_url is `${origin}/v1`). */
export function responsesServer(script: readonly Rule<ResponsesReply>[] = []): ModelServer<ResponsesReply> {
  return new ModelServer(openaiResponses, script);
}
