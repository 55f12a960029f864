/**
 * MCP over Streamable HTTP (our HTTP/1.1 server with timeouts, ./http1.ts): POST/GET/DELETE /mcp as the SDK's
 * WebStandardStreamableHTTPServerTransport speaks it (one session per initialize), and GET
 * /healthz. Before any work, in this order, every request must pass:
 *
 *  1. no Origin header (a browser page never gets an answer)          → else 403
 *  2. a Host header naming the listen address (DNS rebinding)         → else 403
 *  3. the bearer token, when one is configured (constant-time check)  → else 401
 *
 * Then a POST body is read up to MAX_BODY_BYTES (the declared Content-Length and the bytes
 * actually streamed are both counted) → else 413, and must be JSON-RPC → else a JSON-RPC error.
 */
import { isInitializeRequest, type Server, WebStandardStreamableHTTPServerTransport } from "./mcp_deps.ts";
import { allowedHosts, hostPort, type ListenSettings, mcpUrl } from "./listen.ts";
import { createMcpServer, type ServerIdentity } from "./server.ts";
import { serveHttp1 } from "./http1.ts";
import { bearerToken, sameDigest, tokenDigest } from "./token.ts";
import type { ToolSet } from "./tools.ts";

/** Largest request body accepted: a tools/call for recall is under 10 kB; 1 MiB leaves room for snapshots. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Sessions kept at once; past this the least recently used one is closed. */
export const MAX_SESSIONS = 256;

/** A session unused this long is closed when the next one opens. */
export const SESSION_IDLE_MS = 60 * 60 * 1000;

export interface HttpOptions {
  readonly tools: ToolSet;
  readonly identity: ServerIdentity;
  readonly listen: ListenSettings;
  /** SHA-256 of the bearer token, or null when no token is required. */
  readonly tokenDigest: Uint8Array | null;
  /** Diagnostics (stderr). */
  readonly log: (line: string) => void;
  /** Monotonic clock in ms, for session idleness. */
  readonly now?: () => number;
}

export interface HttpHandler {
  handle(req: Request): Promise<Response>;
  /** Closes every session (their open streams end). */
  closeAll(): Promise<void>;
  sessionCount(): number;
}

interface Session {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
}

const JSON_HEADERS = { "content-type": "application/json", "cache-control": "no-store" };

/** A JSON-RPC error response (id null: the request's id is unknown or untrusted). */
function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { ...JSON_HEADERS, ...headers },
  });
}

/** Reads a body of at most `max` bytes; null when it is longer (declared or streamed). */
export async function readBodyCapped(req: Request, max: number): Promise<Uint8Array | null> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > max) return null;
  if (req.body === null) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

function isRpcMessage(v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const m = v as Record<string, unknown>;
  return m.jsonrpc === "2.0" && (typeof m.method === "string" || "id" in m);
}

function isRpcBody(v: unknown): boolean {
  return isRpcMessage(v) || (Array.isArray(v) && v.length > 0 && v.every(isRpcMessage));
}

function isJsonContentType(value: string | null): boolean {
  return value !== null && value.split(";")[0]!.trim().toLowerCase() === "application/json";
}

/** Normalises a Host header to "host:port" (lower case; IPv6 in brackets), or null. */
function normalizeHostHeader(value: string | null): string | null {
  if (value === null || value === "" || /[\s/@?#]/.test(value)) return null;
  try {
    const u = new URL(`http://${value}/`);
    return u.port === "" ? u.hostname : `${u.hostname}:${u.port}`;
  } catch {
    return null;
  }
}

/** The request handler (no socket): tests and the listener share it. */
export function createHttpHandler(options: HttpOptions): HttpHandler {
  const now = options.now ?? (() => performance.now());
  const hosts = allowedHosts(options.listen);
  const sessions = new Map<string, Session>();

  async function closeSession(id: string): Promise<void> {
    const s = sessions.get(id);
    sessions.delete(id);
    if (s) await s.server.close().catch(() => {});
  }

  async function makeRoom(): Promise<void> {
    const t = now();
    for (const [id, s] of sessions) {
      if (t - s.lastUsed > SESSION_IDLE_MS) await closeSession(id);
    }
    while (sessions.size >= MAX_SESSIONS) {
      const oldest = sessions.keys().next().value;
      if (oldest === undefined) break;
      options.log(`serve: closing session ${oldest}: more than ${MAX_SESSIONS} sessions open`);
      await closeSession(oldest);
    }
  }

  async function newSession(req: Request, body: unknown): Promise<Response> {
    await makeRoom();
    const server = createMcpServer(options.tools, options.identity);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport, lastUsed: now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    server.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    server.onerror = () => {
      // Protocol errors are answered to the client; nothing to add on stderr.
    };
    await server.connect(transport);
    return await transport.handleRequest(req, { parsedBody: body });
  }

  async function handleMcp(req: Request): Promise<Response> {
    const id = req.headers.get("mcp-session-id");
    const session = id === null ? undefined : sessions.get(id);
    if (id !== null && !session) return rpcError(404, -32001, "Session not found");
    if (session && id !== null) {
      // Most recently used last: the Map's order is the eviction order.
      sessions.delete(id);
      sessions.set(id, session);
      session.lastUsed = now();
    }
    if (req.method === "GET" || req.method === "DELETE") {
      if (!session) return rpcError(400, -32000, "Bad Request: No valid session ID provided");
      return await session.transport.handleRequest(req);
    }
    if (req.method !== "POST") {
      return rpcError(405, -32000, "Method not allowed", { allow: "GET, POST, DELETE" });
    }
    if (!isJsonContentType(req.headers.get("content-type"))) {
      return rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    const bytes = await readBodyCapped(req, MAX_BODY_BYTES);
    if (bytes === null) {
      return rpcError(
        413,
        -32000,
        `Payload Too Large: request bodies are limited to ${MAX_BODY_BYTES} bytes`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      return rpcError(400, -32700, "Parse error: the body is not valid JSON");
    }
    if (!isRpcBody(body)) {
      return rpcError(400, -32600, "Invalid Request: the body is not a JSON-RPC 2.0 message");
    }
    if (session) return await session.transport.handleRequest(req, { parsedBody: body });
    if (isInitializeRequest(body)) return await newSession(req, body);
    return rpcError(400, -32000, "Bad Request: No valid session ID provided");
  }

  async function authorized(req: Request): Promise<boolean> {
    if (options.tokenDigest === null) return true;
    const given = bearerToken(req.headers.get("authorization"));
    // Hash even a missing token, so both paths cost the same.
    const digest = await tokenDigest(given ?? "");
    return sameDigest(digest, options.tokenDigest) && given !== null;
  }

  return {
    async handle(req) {
      if (req.headers.has("origin")) {
        return rpcError(403, -32000, "Forbidden: requests with an Origin header are refused");
      }
      const host = normalizeHostHeader(req.headers.get("host"));
      if (hosts !== null && (host === null || !hosts.has(host))) {
        return rpcError(
          403,
          -32000,
          `Forbidden: Host must be ${hostPort(options.listen.host, options.listen.port)}`,
        );
      }
      if (!(await authorized(req))) {
        return rpcError(401, -32000, "Unauthorized: a valid bearer token is required", {
          "www-authenticate": 'Bearer realm="verdict"',
        });
      }
      const path = new URL(req.url).pathname;
      if (path === "/healthz") {
        if (req.method !== "GET" && req.method !== "HEAD") {
          return rpcError(405, -32000, "Method not allowed", { allow: "GET, HEAD" });
        }
        const body = JSON.stringify({ status: "ok", name: options.tools.contract.server.name });
        return new Response(req.method === "HEAD" ? null : body, { status: 200, headers: JSON_HEADERS });
      }
      if (path === "/mcp") return await handleMcp(req);
      return rpcError(404, -32000, "Not Found: the MCP endpoint is /mcp");
    },
    async closeAll() {
      await Promise.all([...sessions.keys()].map(closeSession));
    },
    sessionCount: () => sessions.size,
  };
}

export interface HttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:8933/mcp. */
  readonly url: string;
  /** Resolves when the server has stopped (after `signal` aborted). */
  readonly finished: Promise<void>;
}

/**
 * Listens on the settings' address until `signal` aborts, then closes every session and waits
 * for requests in flight. Throws Deno's error when the address cannot be bound (in use,
 * refused by the sandbox).
 */
export function serveHttp(options: HttpOptions & { readonly signal: AbortSignal }): HttpServer {
  const handler = createHttpHandler(options);
  // The listener stops when the sessions are closed, so their open streams end first.
  const stopListener = new AbortController();
  const server = serveHttp1({
    hostname: options.listen.host,
    port: options.listen.port,
    maxBodyBytes: MAX_BODY_BYTES,
    handler: (req) => handler.handle(req),
    onError: (err) => {
      options.log(`serve: ${err instanceof Error ? err.message : String(err)}`);
      return rpcError(500, -32603, "Internal error");
    },
    signal: stopListener.signal,
  });
  const finished = (async () => {
    if (!options.signal.aborted) {
      await new Promise<void>((resolve) =>
        options.signal.addEventListener("abort", () => resolve(), { once: true })
      );
    }
    await handler.closeAll();
    stopListener.abort();
    await server.finished;
  })();
  return { url: mcpUrl(options.listen), finished };
}
