/**
 * The Gemini API v1beta (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse` for the
 * agent's turns, `:generateContent` for one JSON answer), as a WireApi for ModelServer. Enough
 * for Gemini CLI 0.61: text replies, one function call per reply (MCP tools are offered as
 * `mcp_<server>_<tool>`), token counts, and the requests Gemini CLI makes for itself (the model
 * router, the next-speaker check, the session summary), which are answered without the script.
 *
 * A side request is one that offers no tools (every turn of the agent's own loop does) or asks
 * for JSON (`generationConfig.responseMimeType` "application/json" or a response schema): those
 * get JSON shaped by the schema, or a short text.
 */
import {
  isObject,
  jsonResponse,
  type LatestInput,
  ModelServer,
  type Rule,
  sseEvent,
  sseResponse,
  type WireApi,
} from "./model_server.ts";

/** A scripted reply: text, or one function call with its arguments. */
export type GeminiReply =
  | { readonly text: string }
  | { readonly tool: string; readonly args: Readonly<Record<string, unknown>> };

export const DEFAULT_TEXT = "OK.";
export const DEFAULT_AFTER_TOOL_TEXT = "Done.";
/** What a side request that wants text (the session summary) gets. */
export const SIDE_TEXT = "A short session.";

/** One item of `contents`. */
export interface GeminiContent {
  readonly role: string;
  readonly parts: readonly Record<string, unknown>[];
}

export function contentsOf(body: unknown): GeminiContent[] {
  if (!isObject(body) || !Array.isArray(body.contents)) return [];
  return body.contents.filter(isObject).map((c) => ({
    role: typeof c.role === "string" ? c.role : "user",
    parts: Array.isArray(c.parts) ? c.parts.filter(isObject) : [],
  }));
}

/** The text parts of a content, joined with "\n". */
export function textOfContent(content: GeminiContent): string {
  return content.parts.filter((p) => typeof p.text === "string").map((p) => p.text as string).join("\n");
}

/** The names of the functions the request offers the model. */
export function toolNames(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  return body.tools.filter(isObject).flatMap((t) =>
    Array.isArray(t.functionDeclarations)
      ? t.functionDeclarations.filter(isObject).map((f) => String(f.name ?? ""))
      : []
  );
}

export function latestInput(body: unknown): LatestInput {
  const contents = contentsOf(body);
  const last = contents.at(-1);
  if (last && last.parts.some((p) => "functionResponse" in p)) {
    return { text: JSON.stringify(last.parts), toolResult: true };
  }
  for (let i = contents.length - 1; i >= 0; i--) {
    if (contents[i]!.role === "user") return { text: textOfContent(contents[i]!), toolResult: false };
  }
  return { text: "", toolResult: false };
}

/**
 * A small value satisfying a JSON schema (Gemini's own upper-case type names included):
 * enums take "user" when offered (the next-speaker check then hands the turn back), numbers
 * their minimum or 1 (the router's complexity score must be at least 1), strings "test".
 */
export function schemaInstance(schema: unknown): unknown {
  if (!isObject(schema)) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return schema.enum.includes("user") ? "user" : schema.enum[0];
  }
  switch (String(schema.type ?? "object").toLowerCase()) {
    case "object": {
      const props = isObject(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.keys(props).map((k) => [k, schemaInstance(props[k])]));
    }
    case "array":
      return [];
    case "string":
      return "test";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return false;
    default:
      return null;
  }
}

const USAGE = { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 };

export const geminiApi: WireApi<GeminiReply> = {
  name: "Gemini API",
  isTurn(method, path) {
    return method === "POST" && /\/models\/[^/]+:(streamGenerateContent|generateContent)$/.test(path);
  },
  latestInput,
  defaultReply(input) {
    return { text: input.toolResult ? DEFAULT_AFTER_TOOL_TEXT : DEFAULT_TEXT };
  },
  sideReply(body) {
    const config = isObject(body) && isObject(body.generationConfig) ? body.generationConfig : {};
    const schema = config.responseJsonSchema ?? config.responseSchema;
    if (config.responseMimeType === "application/json" || schema !== undefined) {
      return { text: JSON.stringify(schemaInstance(schema)) };
    }
    return toolNames(body).length === 0 ? { text: SIDE_TEXT } : null;
  },
  respond(reply, _body, n, path) {
    const parts = "tool" in reply
      ? [{ functionCall: { name: reply.tool, args: reply.args } }]
      : [{ text: reply.text }];
    const model = /\/models\/([^/:]+):/.exec(path)?.[1] ?? "gemini-test";
    const answer = {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: USAGE,
      modelVersion: model,
      responseId: `resp-${n}`,
    };
    return path.endsWith(":streamGenerateContent") ? sseResponse([sseEvent(answer)]) : jsonResponse(answer);
  },
  other(method, path) {
    if (path.endsWith(":countTokens")) return jsonResponse({ totalTokens: 100 });
    if (method === "GET" && /\/models\/?$/.test(path)) return jsonResponse({ models: [] });
    return jsonResponse({ error: { code: 404, message: `no ${path} here`, status: "NOT_FOUND" } }, 404);
  },
};

/** A scripted Gemini API server on 127.0.0.1 (set GOOGLE_GEMINI_BASE_URL to its `origin`). */
export function geminiServer(script: readonly Rule<GeminiReply>[] = []): ModelServer<GeminiReply> {
  return new ModelServer(geminiApi, script);
}
