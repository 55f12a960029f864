/**
 * Helpers for the MCP tests: a free loopback port, the real `verdict serve` / `verdict mcp`
 * processes (spawned exactly as `deno task verdict` runs them), and the SDK's own clients.
 */
import { denoDir } from "../cli_helper.ts";
import { record as testRecord } from "../_records.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import {
  Client,
  StdioClientTransport,
  StreamableHTTPClientTransport,
} from "../../src/serve/mcp_client_deps.ts";
import { recordLine, type VerdictRecord } from "../../src/record/record.ts";

/** A port on 127.0.0.1 that was free a moment ago (the OS picks it; we close it again). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** The environment a spawned CLI gets: nothing inherited but PATH and Deno's cache. */
export function childEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR: denoDir(),
    HOME: home,
    NO_COLOR: "1",
    TZ: "Pacific/Kiritimati",
    LANG: "tr_TR.UTF-8",
    ...extra,
  };
}

/** deno arguments that run the CLI as the verdict task does. */
export function cliArgs(args: readonly string[]): string[] {
  return ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, ...args];
}

export interface Running {
  readonly child: Deno.ChildProcess;
  readonly pid: number;
  /** stderr so far. */
  stderr(): string;
  /** Sends `signal` and waits for the exit; returns the code and all of stderr. */
  stop(signal?: Deno.Signal): Promise<{ code: number; stderr: string; stdout: string }>;
}

export interface Started extends Running {
  readonly url: string;
  readonly port: number;
}

/** Spawns the CLI with stderr read in the background. */
export function spawnCli(args: readonly string[], env: Record<string, string>): Running & {
  /** Resolves with stderr once `pattern` appears in it, or rejects when the process exits first. */
  waitFor(pattern: RegExp): Promise<string>;
  readonly status: Promise<Deno.CommandStatus>;
} {
  const child = new Deno.Command(Deno.execPath(), {
    args: cliArgs(args),
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let err = "";
  let out = "";
  const waiters: { pattern: RegExp; resolve: (s: string) => void; reject: (e: Error) => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (w.pattern.test(err)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(err);
      }
    }
  };
  const pump = async (stream: ReadableStream<Uint8Array>, onText: (t: string) => void) => {
    const dec = new TextDecoder();
    for await (const chunk of stream) onText(dec.decode(chunk, { stream: true }));
  };
  const readErr = pump(child.stderr, (t) => {
    err += t;
    check();
  });
  const readOut = pump(child.stdout, (t) => (out += t));
  const status = child.status.then(async (s) => {
    await Promise.all([readErr, readOut]);
    for (const w of waiters.splice(0)) {
      w.reject(new Error(`process exited (${s.code}) before /${w.pattern.source}/; stderr:\n${err}`));
    }
    return s;
  });
  return {
    child,
    pid: child.pid,
    status,
    stderr: () => err,
    waitFor(pattern) {
      if (pattern.test(err)) return Promise.resolve(err);
      return new Promise((resolve, reject) => waiters.push({ pattern, resolve, reject }));
    },
    async stop(signal: Deno.Signal = "SIGTERM") {
      try {
        child.kill(signal);
      } catch {
        // already exited
      }
      const s = await status;
      return { code: s.code, stderr: err, stdout: out };
    },
  };
}

/** Starts `verdict serve` on a free port and waits for its "listening on" line. */
export async function startServe(
  home: string,
  args: readonly string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<Started> {
  const port = freePort();
  const p = spawnCli(["serve", "--port", String(port), ...args], childEnv(home, extraEnv));
  const err = await p.waitFor(/listening on (\S+?)[;\s]/);
  const url = /listening on (\S+?)[;\s]/.exec(err)![1]!;
  return { ...p, url, port };
}

/** An SDK client connected over Streamable HTTP. */
export async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "verdict-tests", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** An SDK client that spawns `verdict mcp` over stdio, as Claude Code would. */
export async function stdioClient(
  home: string,
  args: readonly string[] = [],
  extraEnv: Record<string, string> = {},
  cwd?: string,
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: cliArgs(["mcp", ...args]),
    env: childEnv(home, extraEnv),
    stderr: "pipe",
    ...(cwd ? { cwd } : {}),
  });
  const client = new Client({ name: "verdict-tests", version: "0" });
  await client.connect(transport);
  return { client, transport };
}

/** The text of a tools/call result's single text block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  if (content.length !== 1 || content[0]!.type !== "text") {
    throw new Error(`expected one text block, got ${JSON.stringify(result)}`);
  }
  return content[0]!.text ?? "";
}

/** A records file with `records`, in a temp home. */
export async function writeRecords(path: string, records: readonly VerdictRecord[]): Promise<void> {
  await Deno.writeTextFile(path, records.map((r) => recordLine(r) + "\n").join(""));
}

/** A plain record for tests. */
export function record(
  id: string,
  text: string,
  time: string,
  extra: Partial<VerdictRecord> = {},
): VerdictRecord {
  const { text: _, ...rest } = extra;
  return testRecord(extra.text ?? text, {
    id,
    time,
    project: "/src/app",
    session: "s-test",
    source_file: "/nowhere/s-test.jsonl",
  }, rest);
}

/** A raw HTTP request over TCP (for what fetch will not send: chunked bodies, odd headers). */
export async function rawHttp(port: number, head: string, body: Uint8Array | null): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const enc = new TextEncoder();
  try {
    await writeAllConn(conn, enc.encode(head));
    if (body) {
      try {
        await writeAllConn(conn, body);
      } catch {
        // The server may answer and close before it read everything: that is the point.
      }
    }
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(64 * 1024);
    while (true) {
      let n: number | null;
      try {
        n = await conn.read(buf);
      } catch {
        break;
      }
      if (n === null) break;
      chunks.push(buf.slice(0, n));
      const text = new TextDecoder().decode(concat(chunks));
      // One response is enough: stop at the end of a JSON body (these answers are small).
      if (/\r\n\r\n[\s\S]*\}\s*$/.test(text) || /\r\n0\r\n\r\n$/.test(text)) break;
    }
    return new TextDecoder().decode(concat(chunks));
  } finally {
    try {
      conn.close();
    } catch {
      // closed by the peer
    }
  }
}

async function writeAllConn(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}
