/**
 * The HTTP/1.1 server under `verdict serve`: accepts connections on one loopback (or given)
 * address and hands each request to a fetch-style handler (src/serve/http.ts). Our own because
 * Deno.serve has no header, body or idle timeouts: a client that connects and sends nothing, or
 * half a request, holds a connection (and its memory) for as long as it likes. Here every
 * connection is closed when it is slower than:
 *
 *   - HEADER_TIMEOUT_MS to send a request's head (from the connection, or from the first byte
 *     of a request on a kept-alive connection), else 408 and close;
 *   - BODY_TIMEOUT_MS to send its body, else 408 and close;
 *   - IDLE_TIMEOUT_MS between requests on a kept-alive connection (then it is simply closed).
 *
 * What it speaks: request heads up to MAX_HEAD_BYTES (else 431), bodies by Content-Length or
 * chunked transfer coding (both at once, or another coding, is refused: request smuggling),
 * `Expect: 100-continue`, keep-alive. A body longer than `maxBodyBytes` is not read past that:
 * the handler sees `maxBodyBytes + 1` bytes (it answers 413), and the connection is closed after
 * the answer. Responses are streamed (chunked when their length is unknown), so an SSE stream
 * stays open as long as its handler keeps it; a client that goes away aborts the request's
 * signal and cancels the stream.
 */

import { concatBytes, writeAll } from "../fsutil/bytes.ts";

/** A request's head must arrive within this (a real client sends it in one packet). */
export const HEADER_TIMEOUT_MS = 10_000;
/** A request's body must arrive within this: 1 MiB in 10 s is 100 KiB/s, far below loopback. */
export const BODY_TIMEOUT_MS = 10_000;
/**
 * A kept-alive connection with no new request is closed after this: longer than the few
 * seconds clients keep an idle connection, so they close first (a server that closes first
 * races a request the client is sending).
 */
export const IDLE_TIMEOUT_MS = 15_000;
/** Longest request head (request line and headers). MCP requests send a few hundred bytes. */
export const MAX_HEAD_BYTES = 16 * 1024;
/** Connections held at once; past this a new one is closed at once (the old ones time out). */
export const MAX_CONNECTIONS = 1024;

export interface Http1Options {
  readonly hostname: string;
  readonly port: number;
  /** The largest body handed to the handler whole (see the module note). */
  readonly maxBodyBytes: number;
  readonly handler: (req: Request) => Promise<Response>;
  /** An error the handler threw; its answer is sent instead. */
  readonly onError: (err: unknown) => Response;
  /** Aborted: stop accepting, end idle connections, let the requests in flight finish. */
  readonly signal: AbortSignal;
}

export interface Http1Server {
  readonly addr: Deno.NetAddr;
  /** Resolves when the listener is closed and every connection has ended (after `signal`). */
  readonly finished: Promise<void>;
}

const CRLF = new Uint8Array([0x0d, 0x0a]);
const encoder = new TextEncoder();
const REASONS: Readonly<Record<number, string>> = {
  100: "Continue",
  200: "OK",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/** A read that did not finish in time. */
class Timeout extends Error {}

/** A request that cannot be served: its status, then the connection is closed. */
class Refusal extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Buffered reads from a connection, with a deadline per wait; one read in flight at most. */
class ConnReader {
  private buf = new Uint8Array(0);
  private inFlight: Promise<boolean> | null = null;
  eof = false;

  constructor(private readonly conn: Deno.Conn) {}

  get buffered(): number {
    return this.buf.length;
  }

  /**
   * Starts (or joins) the one read in flight; its bytes are appended once, for whoever takes
   * them next. Resolves false on EOF (or a failed read).
   */
  private more(): Promise<boolean> {
    if (this.inFlight === null) {
      const chunk = new Uint8Array(64 * 1024);
      this.inFlight = this.conn.read(chunk).then(
        (n) => (n === null ? null : chunk.subarray(0, n)),
        () => null,
      ).then((got) => {
        this.inFlight = null;
        if (got === null) {
          this.eof = true;
          return false;
        }
        const next = new Uint8Array(this.buf.length + got.length);
        next.set(this.buf);
        next.set(got, this.buf.length);
        this.buf = next;
        return true;
      });
    }
    return this.inFlight;
  }

  /** Reads more, or throws Timeout at `deadline` (performance.now() ms). */
  private async moreBy(deadline: number): Promise<boolean> {
    const left = deadline - performance.now();
    if (left <= 0) throw new Timeout();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Timeout()), left);
    });
    try {
      return await Promise.race([this.more(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits until a byte is buffered (true) or the peer closed (false). */
  async waitForData(deadline: number): Promise<boolean> {
    while (this.buf.length === 0) {
      if (this.eof || !(await this.moreBy(deadline))) return false;
    }
    return true;
  }

  /** The bytes up to and including the first CRLF CRLF; null on EOF first. Refuses a long head. */
  async head(deadline: number): Promise<Uint8Array | null> {
    let from = 0;
    while (true) {
      const end = indexOfHeadEnd(this.buf, from);
      if (end !== -1) return this.take(end + 4);
      if (this.buf.length > MAX_HEAD_BYTES) throw new Refusal(431, "the request head is too long");
      from = Math.max(0, this.buf.length - 3);
      if (this.eof || !(await this.moreBy(deadline))) return null;
    }
  }

  /** Exactly `n` bytes; throws Refusal(400) on EOF first. */
  async exactly(n: number, deadline: number): Promise<Uint8Array> {
    while (this.buf.length < n) {
      if (this.eof || !(await this.moreBy(deadline))) throw new Refusal(400, "the body ended early");
    }
    return this.take(n);
  }

  /** One CRLF-ended line (without it), at most `max` bytes. */
  async line(max: number, deadline: number): Promise<string> {
    while (true) {
      const at = indexOfCrlf(this.buf);
      if (at !== -1) {
        const line = this.take(at + 2).subarray(0, at);
        return new TextDecoder().decode(line);
      }
      if (this.buf.length > max) throw new Refusal(400, "a chunk line is too long");
      if (this.eof || !(await this.moreBy(deadline))) throw new Refusal(400, "the body ended early");
    }
  }

  private take(n: number): Uint8Array {
    const out = this.buf.slice(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /**
   * Resolves when the peer closes (EOF or error), reading and keeping what it sends meanwhile
   * (a next request sent early), up to a head's worth; stops watching when `stop` resolves.
   */
  async watchClose(stop: Promise<void>): Promise<boolean> {
    let stopped = false;
    stop.then(() => (stopped = true));
    while (!stopped && !this.eof && this.buf.length <= MAX_HEAD_BYTES) {
      const open = await Promise.race([this.more(), stop.then(() => true)]);
      if (!open) return true;
    }
    return this.eof;
  }
}

function indexOfHeadEnd(buf: Uint8Array, from: number): number {
  for (let i = buf.indexOf(0x0d, from); i !== -1 && i + 3 < buf.length; i = buf.indexOf(0x0d, i + 1)) {
    if (buf[i + 1] === 0x0a && buf[i + 2] === 0x0d && buf[i + 3] === 0x0a) return i;
  }
  return -1;
}

function indexOfCrlf(buf: Uint8Array): number {
  for (let i = buf.indexOf(0x0d); i !== -1 && i + 1 < buf.length; i = buf.indexOf(0x0d, i + 1)) {
    if (buf[i + 1] === 0x0a) return i;
  }
  return -1;
}

interface Head {
  readonly method: string;
  readonly target: string;
  readonly version: "1.0" | "1.1";
  readonly headers: Headers;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses a request head (request line and header fields), or throws Refusal(400). */
function parseHead(bytes: Uint8Array): Head {
  // Header values are bytes: latin1 keeps each one as it is (fetch's Headers accepts 0x00-0xFF).
  const text = new TextDecoder("latin1").decode(bytes.subarray(0, bytes.length - 4));
  const lines = text.split("\r\n");
  const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.([01])$/.exec(lines[0] ?? "");
  if (!m) throw new Refusal(400, "not an HTTP/1.x request line");
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon);
    if (colon <= 0 || !TOKEN.test(name)) throw new Refusal(400, "a malformed header field");
    try {
      headers.append(name, line.slice(colon + 1).trim());
    } catch {
      throw new Refusal(400, "a malformed header value");
    }
  }
  return { method: m[1]!, target: m[2]!, version: m[3] === "0" ? "1.0" : "1.1", headers };
}

/** How the request's body is framed. */
function bodyFraming(
  head: Head,
): { kind: "none" } | { kind: "length"; length: number } | { kind: "chunked" } {
  const te = head.headers.get("transfer-encoding");
  const cl = head.headers.get("content-length");
  if (te !== null) {
    if (cl !== null) throw new Refusal(400, "both Content-Length and Transfer-Encoding");
    if (te.trim().toLowerCase() !== "chunked") throw new Refusal(501, "a transfer coding other than chunked");
    return { kind: "chunked" };
  }
  if (cl === null) return { kind: "none" };
  // "5, 5" is one value repeated; anything else with a comma is two lengths.
  const values = [...new Set(cl.split(",").map((v) => v.trim()))];
  if (values.length !== 1 || !/^\d{1,15}$/.test(values[0]!)) {
    throw new Refusal(400, "a malformed Content-Length");
  }
  return { kind: "length", length: Number(values[0]) };
}

/** Reads a chunked body, keeping at most `keep` bytes; `over` says it was longer. */
async function readChunked(
  reader: ConnReader,
  keep: number,
  deadline: number,
): Promise<{ body: Uint8Array; over: boolean }> {
  const parts: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const sizeLine = await reader.line(1024, deadline);
    const size = /^([0-9A-Fa-f]{1,8})(?:;.*)?$/.exec(sizeLine.trim());
    if (!size) throw new Refusal(400, "a malformed chunk size");
    const n = parseInt(size[1]!, 16);
    if (n === 0) {
      // Trailer fields, then the empty line.
      while ((await reader.line(MAX_HEAD_BYTES, deadline)) !== "");
      return { body: concatBytes(parts), over: false };
    }
    if (total + n > keep) {
      // Keep what fits; the rest is never read (the connection is closed after the answer).
      const fits = keep - total;
      if (fits > 0) parts.push(await reader.exactly(fits, deadline));
      return { body: concatBytes(parts), over: true };
    }
    parts.push(await reader.exactly(n, deadline));
    total += n;
    await reader.exactly(2, deadline); // the chunk's CRLF
  }
}

function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${REASONS[status] ?? "Status"}\r\n`;
}

/** A short plain answer, then the connection is closed. */
async function refuse(conn: Deno.Conn, status: number, message: string): Promise<void> {
  const body = encoder.encode(JSON.stringify({ error: message }));
  const head = statusLine(status) +
    `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
  await writeAll(conn, concatBytes([encoder.encode(head), body])).catch(() => {});
}

/** Writes `res` (streamed), and says whether the connection may carry another request. */
async function respond(
  conn: Deno.Conn,
  req: Request,
  res: Response,
  keepAlive: boolean,
  gone: Promise<boolean>,
): Promise<boolean> {
  const noBody = req.method === "HEAD" || res.status === 204 || res.status === 304 || res.body === null;
  const headers = new Headers(res.headers);
  headers.delete("connection");
  headers.delete("transfer-encoding");
  headers.delete("keep-alive");
  const length = headers.get("content-length");
  const chunked = !noBody && length === null;
  if (chunked) headers.set("transfer-encoding", "chunked");
  if (noBody && res.body === null && req.method !== "HEAD" && res.status !== 204 && res.status !== 304) {
    headers.set("content-length", "0");
  }
  if (!keepAlive) headers.set("connection", "close");
  let head = statusLine(res.status);
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  await writeAll(conn, encoder.encode(head + "\r\n"));
  if (noBody || res.body === null) {
    await res.body?.cancel().catch(() => {});
    return keepAlive;
  }
  const reader = res.body.getReader();
  // A client that goes away mid-stream: cancel the stream so its producer lets go.
  let closed = false;
  gone.then((yes) => {
    if (yes) {
      closed = true;
      reader.cancel().catch(() => {});
    }
  });
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (closed) return false;
      if (value.length === 0) continue;
      if (chunked) {
        await writeAll(conn, concatBytes([encoder.encode(value.length.toString(16)), CRLF, value, CRLF]));
      } else await writeAll(conn, value);
    }
    if (chunked) await writeAll(conn, encoder.encode("0\r\n\r\n"));
  } catch {
    await reader.cancel().catch(() => {});
    return false;
  }
  return keepAlive && !closed;
}

/** Listens until `signal` aborts. Throws Deno's error when the address cannot be bound. */
export function serveHttp1(options: Http1Options): Http1Server {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port, transport: "tcp" });
  const addr = listener.addr as Deno.NetAddr;
  const open = new Set<Deno.Conn>();
  /** Connections waiting for a request (none in flight): ended at once on stop. */
  const idle = new Set<Deno.Conn>();
  const tasks = new Set<Promise<void>>();

  const connection = async (conn: Deno.Conn) => {
    const reader = new ConnReader(conn);
    let first = true;
    try {
      while (!options.signal.aborted) {
        idle.add(conn);
        const waitStart = performance.now();
        // A new connection must send its head in time; a kept-alive one may first be idle.
        const firstByteBy = waitStart + (first ? HEADER_TIMEOUT_MS : IDLE_TIMEOUT_MS);
        let head: Uint8Array | null;
        try {
          if (!(await reader.waitForData(firstByteBy))) return;
          head = await reader.head((first ? waitStart : performance.now()) + HEADER_TIMEOUT_MS);
        } catch (err) {
          if (err instanceof Timeout) {
            // Idle between requests: just close. Half a head: say why.
            if (reader.buffered > 0 || first) await refuse(conn, 408, "the request head took too long");
            return;
          }
          throw err;
        } finally {
          idle.delete(conn);
        }
        first = false;
        if (head === null) return;
        const parsed = parseHead(head);
        const framing = bodyFraming(parsed);
        let body: Uint8Array | null = null;
        let unread = false;
        const bodyBy = performance.now() + BODY_TIMEOUT_MS;
        try {
          const expect = parsed.headers.get("expect")?.toLowerCase();
          if (framing.kind === "length" && framing.length > options.maxBodyBytes) {
            unread = true; // the handler answers 413 from the declared length
          } else if (framing.kind !== "none") {
            if (expect === "100-continue") {
              await writeAll(conn, encoder.encode("HTTP/1.1 100 Continue\r\n\r\n"));
            }
            if (framing.kind === "length") body = await reader.exactly(framing.length, bodyBy);
            else {
              const read = await readChunked(reader, options.maxBodyBytes + 1, bodyBy);
              body = read.body;
              unread = read.over;
            }
          }
        } catch (err) {
          if (err instanceof Timeout) {
            await refuse(conn, 408, "the request body took too long");
            return;
          }
          throw err;
        }
        const host = parsed.headers.get("host") ?? `${options.hostname}:${addr.port}`;
        if (!parsed.target.startsWith("/")) {
          throw new Refusal(400, "only origin-form request targets are served");
        }
        let url: URL;
        try {
          url = new URL(`http://${/^[^\s/@?#]+$/.test(host) ? host : "invalid.invalid"}${parsed.target}`);
        } catch {
          throw new Refusal(400, "a malformed request target");
        }
        const abort = new AbortController();
        const hasBody = parsed.method !== "GET" && parsed.method !== "HEAD";
        const req = new Request(url, {
          method: parsed.method,
          headers: parsed.headers,
          ...(hasBody && body !== null ? { body: body as Uint8Array<ArrayBuffer> } : {}),
          signal: abort.signal,
        });
        let res: Response;
        try {
          res = await options.handler(req);
        } catch (err) {
          res = options.onError(err);
        }
        const connectionHeader = parsed.headers.get("connection")?.toLowerCase() ?? "";
        const keepAlive = !unread && !options.signal.aborted &&
          (parsed.version === "1.1"
            ? !connectionHeader.includes("close")
            : connectionHeader.includes("keep-alive"));
        // While the answer streams, watch for the client going away (and keep what it sends).
        let stopWatching: () => void = () => {};
        const stop = new Promise<void>((resolve) => (stopWatching = resolve));
        const gone = reader.watchClose(stop).then((closed) => {
          if (closed) abort.abort();
          return closed;
        });
        let again: boolean;
        try {
          again = await respond(conn, req, res, keepAlive, gone);
        } finally {
          stopWatching();
        }
        if (!again || (await gone)) return;
      }
    } catch (err) {
      if (err instanceof Refusal) await refuse(conn, err.status, err.message);
      // Anything else (a reset connection): nothing to answer.
    } finally {
      idle.delete(conn);
      open.delete(conn);
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
  };

  const accepting = (async () => {
    while (true) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch {
        return; // the listener was closed (stop)
      }
      if (open.size >= MAX_CONNECTIONS || options.signal.aborted) {
        conn.close();
        continue;
      }
      open.add(conn);
      const task = connection(conn);
      tasks.add(task);
      task.finally(() => tasks.delete(task));
    }
  })();

  const finished = (async () => {
    if (!options.signal.aborted) {
      await new Promise<void>((resolve) =>
        options.signal.addEventListener("abort", () => resolve(), { once: true })
      );
    }
    listener.close();
    await accepting;
    for (const conn of idle) {
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
    await Promise.all([...tasks]);
  })();
  return { addr, finished };
}
