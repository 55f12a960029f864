/**
 * The optional service (gate G2: three values plus one scale): an OpenAI-compatible
 * chat-completions endpoint on loopback (llama.cpp server, Ollama and the like), asked only in
 * the band between safe_max and wait_min. The request is ONE choice question with exactly the
 * three verdicts as options and asks for one score in [0, 1]; a request with any other option
 * list is refused before anything is sent. The answer must be exactly
 * `{"choice": <one of the three>, "score": <number in [0, 1]>}`; anything else is an invalid
 * answer, which the judge turns into `wait`.
 */
import { isLoopbackUrl } from "../config/config.ts";
import { DuplicateKeyError, parseJsonc } from "../config/jsonc.ts";
import { directClient } from "./direct.ts";
import { assertNoForbiddenKeys, ForbiddenKeyError } from "./forbidden.ts";
import { isVerdict, type Verdict, VERDICTS } from "./rules.ts";

export interface ChatMessage {
  readonly role: "system" | "user";
  readonly content: string;
}

export interface ServiceRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly response_format: { readonly type: "json_object" };
  readonly temperature: 0;
}

/** The question, fixed: one question about the whole session. */
export const SERVICE_QUESTION =
  "Is there unlanded work in this session that a context compaction would lose?";

/** What the score means, told to the service. */
const SCORE_MEANING = "score is your confidence in the choice, from 0 (none) to 1 (certain)";

/** Largest service response body read (bytes); a longer one is an invalid answer. */
export const MAX_SERVICE_RESPONSE_BYTES = 1024 * 1024;

/**
 * Builds the chat-completions request. `options` must be exactly the three verdicts in their
 * fixed order; any other list (four options, two, a renamed one) throws RangeError and nothing is
 * sent. The parameter exists so that refusal can be tested.
 */
export function buildServiceRequest(
  state: string,
  options: readonly string[],
  model: string,
): ServiceRequest {
  const exact = options.length === VERDICTS.length && options.every((o, i) => o === VERDICTS[i]);
  if (!exact) {
    throw new RangeError(
      `refusing to build a service request with ${options.length} option(s) [${options.join(", ")}]: ` +
        `the question has exactly three: ${VERDICTS.join(", ")}`,
    );
  }
  const list = options.map((o) => `"${o}"`).join(", ");
  const request: ServiceRequest = {
    model,
    temperature: 0,
    response_format: { type: "json_object" },
    messages: [
      {
        role: "system",
        content:
          "You answer one question about a whole coding session, right before its context is compacted. " +
          `Choose exactly one option: ${list}. safe_to_compact: nothing recorded is unlanded. ` +
          "wait: the record does not settle it. preserve_first: recorded work exists nowhere durable and must " +
          `be written down first. Reply with one JSON object and nothing else: {"choice": <one of ${list}>, ` +
          `"score": <number from 0 to 1>}, where ${SCORE_MEANING}. No other keys.`,
      },
      {
        role: "user",
        content: `Session state:\n${state}\nQuestion: ${SERVICE_QUESTION}\nOptions: ${options.join(", ")}`,
      },
    ],
  };
  assertNoForbiddenKeys(request, "service request");
  return request;
}

export type ServiceResult =
  | { readonly kind: "answer"; readonly choice: Verdict; readonly score: number }
  | { readonly kind: "unreachable"; readonly note: string }
  | { readonly kind: "invalid"; readonly note: string };

/**
 * Validates the service's reply body (the chat-completions envelope). Pure. A forbidden key in
 * the envelope or the answer, a key given twice (JSON.parse keeps the last, so
 * `{"choice":"preserve_first","choice":"safe_to_compact"}` would read as safe), a choice that is
 * not exactly one of the three, a missing or out-of-range score, or any other key makes it
 * invalid; nothing is stripped.
 */
export function parseServiceReply(body: string): ServiceResult {
  const invalid = (note: string): ServiceResult => ({ kind: "invalid", note });
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch {
    return invalid("the reply is not JSON");
  }
  const twice = repeatedKey(body);
  if (twice !== null) return invalid(`the reply repeats the key ${JSON.stringify(twice)}`);
  try {
    assertNoForbiddenKeys(envelope, "service answer");
  } catch (err) {
    if (err instanceof ForbiddenKeyError) return invalid(err.message);
    throw err;
  }
  const content = (envelope as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]
    ?.message
    ?.content;
  if (typeof content !== "string") return invalid("the reply has no choices[0].message.content string");
  let answer: unknown;
  try {
    answer = JSON.parse(content);
  } catch {
    return invalid("the answer is not a JSON object");
  }
  const again = repeatedKey(content);
  if (again !== null) return invalid(`the answer repeats the key ${JSON.stringify(again)}`);
  try {
    assertNoForbiddenKeys(answer, "service answer");
  } catch (err) {
    if (err instanceof ForbiddenKeyError) return invalid(err.message);
    throw err;
  }
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    return invalid("the answer is not a JSON object");
  }
  const obj = answer as Record<string, unknown>;
  const extra = Object.keys(obj).filter((k) => k !== "choice" && k !== "score");
  if (extra.length > 0) {
    return invalid(`the answer has keys other than choice and score: ${extra.join(", ")}`);
  }
  if (!isVerdict(obj.choice)) {
    return invalid(`the choice ${JSON.stringify(obj.choice)} is not exactly one of ${VERDICTS.join(", ")}`);
  }
  const score = obj.score;
  if (typeof score !== "number" || !Number.isFinite(score) || score < 0 || score > 1) {
    return invalid(`the score ${JSON.stringify(score)} is not a number in [0, 1]`);
  }
  return { kind: "answer", choice: obj.choice, score };
}

/** A key some object of `json` (valid JSON) holds twice, escapes decoded; null when none does. */
function repeatedKey(json: string): string | null {
  try {
    parseJsonc(json);
  } catch (err) {
    if (err instanceof DuplicateKeyError) return err.key;
  }
  return null;
}

/**
 * Sends a request; never throws. Unreachable covers refused connections, timeouts and HTTP errors.
 * The request goes straight to the URL's loopback host and port, never through a proxy the
 * environment names (direct.ts).
 */
export async function askService(
  url: string,
  request: ServiceRequest,
  timeoutMs: number,
): Promise<ServiceResult> {
  if (!isLoopbackUrl(url)) {
    return { kind: "unreachable", note: `refusing to send to ${url}: not a loopback URL` };
  }
  const signal = AbortSignal.timeout(timeoutMs);
  let client: Deno.HttpClient;
  try {
    client = directClient(new URL(url));
  } catch (err) {
    return { kind: "unreachable", note: fetchFailure(err, timeoutMs) };
  }
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
        signal,
        client,
      });
    } catch (err) {
      return { kind: "unreachable", note: fetchFailure(err, timeoutMs) };
    }
    let body: string;
    try {
      body = await readCapped(response, MAX_SERVICE_RESPONSE_BYTES);
    } catch (err) {
      if (err instanceof RangeError) return { kind: "invalid", note: err.message };
      return { kind: "unreachable", note: fetchFailure(err, timeoutMs) };
    }
    if (!response.ok) return { kind: "unreachable", note: `the service answered HTTP ${response.status}` };
    return parseServiceReply(body);
  } finally {
    client.close();
  }
}

function fetchFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof DOMException && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return `timed out after ${timeoutMs} ms`;
  }
  const msg = err instanceof Error ? err.message : String(err);
  if (/refused/i.test(msg)) return "connection refused";
  return `request failed: ${msg}`;
}

async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw new RangeError(`the reply is longer than ${max} bytes`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  return new TextDecoder().decode(all);
}
