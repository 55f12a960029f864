/**
 * A scripted model on 127.0.0.1 for driving a real agent CLI offline: an HTTP server on a free
 * port that records every request (path, headers, decoded JSON body) and answers model turns
 * from a script of rules. What is specific to one wire API (which requests are model turns,
 * what the latest user input is, how a reply is framed) lives in a `WireApi`; this module knows
 * none of it. One wire API per module beside this one: anthropic_messages.ts,
 * openai_responses.ts, openai_chat.ts, gemini_api.ts (others add theirs the same way).
 *
 * A rule answers the first unused request whose latest input contains `when` (case-folded);
 * `afterTool` rules answer only requests whose latest input is a tool result, the others only
 * requests whose latest input is not. Rules fire once unless `once: false`. A request no rule
 * answers gets the wire's default reply, so side requests (titles, summaries) never stall.
 */

/** One request as the agent sent it. */
export interface RecordedRequest {
  /** 1-based arrival order. */
  readonly n: number;
  readonly method: string;
  /** Path and query, e.g. "/v1/messages?beta=true". */
  readonly path: string;
  /** Header names lower-cased; credentials shortened. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body, or null when there was none or it was not JSON. */
  readonly body: unknown;
  /** The decoded body text (after any content encoding). */
  readonly text: string;
  /** Whether the wire API counted it as a model turn (the script answered it). */
  readonly turn: boolean;
  /**
   * A turn the agent makes for itself (a title, a classification), answered by the wire API
   * without the script, so it never consumes a rule meant for the conversation.
   */
  readonly side: boolean;
  /** The latest input the script matched against (turns only). */
  readonly input: LatestInput | null;
  /** Milliseconds since the server started. */
  readonly at: number;
}

/** What a rule is matched against. */
export interface LatestInput {
  /** The latest user text, or the latest tool result serialised as JSON. */
  readonly text: string;
  readonly toolResult: boolean;
}

/** One entry of a script. `R` is the wire API's reply type. */
export interface Rule<R> {
  /** Substring of the latest input (case-insensitive); absent matches any request. */
  readonly when?: string;
  /** Answer requests whose latest input is a tool result (default: only those whose is not). */
  readonly afterTool?: boolean;
  /** Fire once (default) or on every match. */
  readonly once?: boolean;
  readonly reply: R;
}

/** What one wire API contributes to the server. */
export interface WireApi<R> {
  /** Shown in errors, e.g. "Anthropic Messages". */
  readonly name: string;
  /** Is this request a model turn the script should answer? */
  isTurn(method: string, path: string, body: unknown): boolean;
  latestInput(body: unknown): LatestInput;
  /** The reply used when no rule matched. */
  defaultReply(input: LatestInput): R;
  /** The reply to a side request (one the script must not answer), or null for a conversation turn. */
  sideReply(body: unknown): R | null;
  /**
   * Frames `reply` as the HTTP answer to a turn: `n` numbers ids, `path` is the request's path
   * without its query (some APIs frame by endpoint: Gemini streams `:streamGenerateContent` as
   * SSE and answers `:generateContent` with one JSON object).
   */
  respond(reply: R, body: unknown, n: number, path: string): Response;
  /** The answer to any other request (model lists, token counts, probes). */
  other(method: string, path: string, body: unknown): Response;
}

/** Header names whose values are shortened in the record (never logged whole). */
const CREDENTIAL_HEADERS = new Set(["authorization", "x-api-key", "api-key", "x-goog-api-key"]);

export class ModelServer<R> {
  readonly #wire: WireApi<R>;
  readonly #rules: { rule: Rule<R>; used: boolean }[];
  readonly #requests: RecordedRequest[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #started = performance.now();

  /** Starts listening on 127.0.0.1 at a free port. */
  constructor(wire: WireApi<R>, script: readonly Rule<R>[]) {
    this.#wire = wire;
    this.#rules = script.map((rule) => ({ rule, used: false }));
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => this.#handle(req),
    );
  }

  get port(): number {
    return this.#server.addr.port;
  }

  /** e.g. "http://127.0.0.1:40123" (no trailing slash). */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Every request so far, in arrival order. */
  get requests(): readonly RecordedRequest[] {
    return this.#requests;
  }

  /** The conversation turns so far (model requests that were not side requests). */
  get turns(): readonly RecordedRequest[] {
    return this.#requests.filter((r) => r.turn && !r.side);
  }

  /** Adds rules to the end of the script (e.g. between two sessions). */
  addRules(rules: readonly Rule<R>[]): void {
    for (const rule of rules) this.#rules.push({ rule, used: false });
  }

  /**
   * The first request from index `from` on that satisfies `pred`, waiting for it up to
   * `timeoutMs`. Rejects with `what` and the paths seen when none arrives in time.
   */
  async waitFor(
    what: string,
    pred: (r: RecordedRequest) => boolean,
    opts: { from?: number; timeoutMs?: number } = {},
  ): Promise<RecordedRequest> {
    const from = opts.from ?? 0;
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const deadline = performance.now() + timeoutMs;
    while (true) {
      const hit = this.#requests.slice(from).find(pred);
      if (hit) return hit;
      const left = deadline - performance.now();
      if (left <= 0) {
        const seen = this.#requests.slice(from).map((r) => `${r.method} ${r.path}`).join(", ") || "none";
        throw new Error(
          `No model request "${what}" within ${timeoutMs} ms (requests since #${from}: ${seen})`,
        );
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }

  async close(): Promise<void> {
    for (const wake of [...this.#waiters]) wake();
    await this.#server.shutdown();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname + url.search;
    const text = await decodedBody(req);
    let body: unknown = null;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    const turn = this.#wire.isTurn(req.method, url.pathname, body);
    const input = turn ? this.#wire.latestInput(body) : null;
    const side = turn ? this.#wire.sideReply(body) : null;
    const recorded: RecordedRequest = {
      n: this.#requests.length + 1,
      method: req.method,
      path,
      headers: keptHeaders(req.headers),
      body,
      text,
      turn,
      side: side !== null,
      input,
      at: Math.round(performance.now() - this.#started),
    };
    this.#requests.push(recorded);
    for (const wake of [...this.#waiters]) wake();
    if (!turn || input === null) return this.#wire.other(req.method, url.pathname, body);
    return this.#wire.respond(side ?? this.#pick(input), body, recorded.n, url.pathname);
  }

  #pick(input: LatestInput): R {
    const folded = input.text.toLowerCase();
    for (const entry of this.#rules) {
      const { rule } = entry;
      if (entry.used || (rule.afterTool ?? false) !== input.toolResult) continue;
      if (rule.when !== undefined && !folded.includes(rule.when.toLowerCase())) continue;
      if (rule.once ?? true) entry.used = true;
      return rule.reply;
    }
    return this.#wire.defaultReply(input);
  }
}

function keptHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) out[k] = CREDENTIAL_HEADERS.has(k) ? `${v.slice(0, 12)}…` : v;
  return out;
}

/** The request body as text, undoing a gzip or deflate Content-Encoding. */
async function decodedBody(req: Request): Promise<string> {
  if (req.body === null) return "";
  const encoding = (req.headers.get("content-encoding") ?? "").toLowerCase();
  let stream: ReadableStream<Uint8Array> = req.body;
  if (encoding === "gzip" || encoding === "deflate") {
    stream = stream.pipeThrough(new DecompressionStream(encoding) as TransformStream<Uint8Array, Uint8Array>);
  } else if (encoding !== "" && encoding !== "identity") {
    throw new Error(`Cannot decode a request body: content-encoding "${encoding}" is not handled`);
  }
  return await new Response(stream).text();
}

// ---- framing helpers for the wire modules

const encoder = new TextEncoder();

/** One server-sent event (`event:` line only when `event` is given). */
export function sseEvent(data: unknown, event?: string): string {
  const head = event ? `event: ${event}\n` : "";
  return `${head}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** A complete event stream as one response (the agent reads it as it arrives). */
export function sseResponse(events: readonly string[]): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const e of events) controller.enqueue(encoder.encode(e));
      controller.close();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

export function jsonResponse(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

/** The text of one content item of any of the wire shapes: a string, or `{text}` parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string"
        ? (part as { text: string }).text
        : ""
    )
    .filter((t) => t !== "")
    .join("\n");
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
