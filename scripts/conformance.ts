/**
 * `deno task conformance`: runs the public MCP conformance suite
 * (npm:@modelcontextprotocol/conformance@0.1.16, which runs under Deno only and tests HTTP
 * servers only) against a real `verdict serve` on a free loopback port, with a small records
 * file in a temp HOME, and the expected-failures baseline beside this script. Extra arguments go
 * to the suite (e.g. `deno task conformance --scenario tools-list`). Exit status: the suite's,
 * or 1 when serve did not stop cleanly.
 */
import { MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";
import { recordLine, type VerdictRecord } from "../src/record/record.ts";

const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";
/** The suite's own lock file: its dependency tree is fetched by this task only, never by verdict's. */
const SUITE_LOCK = new URL("./conformance.lock", import.meta.url).pathname;
const BASELINE = new URL("./conformance_baseline.yml", import.meta.url).pathname;
const REPO = new URL("..", import.meta.url).pathname;

const RECORDS: readonly VerdictRecord[] = [
  {
    id: "p0000000000000001",
    kind: "prompt",
    origin: "claude",
    text: "We decided: nightly pg_dump backups, kept 30 days.",
    time: "2026-03-01T09:30:00.000Z",
    project: "/src/app",
    session: "conformance",
    source_file: "/conformance/session.jsonl",
    source_line: 1,
    commit: null,
  },
];

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Waits until serve reports it listens; returns the MCP URL. Rejects if serve exits first. */
async function listening(stderr: ReadableStream<Uint8Array>, echo: (t: string) => void): Promise<string> {
  const dec = new TextDecoder();
  let seen = "";
  const reader = stderr.getReader();
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`verdict serve exited before listening:\n${seen}`);
    const text = dec.decode(value, { stream: true });
    seen += text;
    echo(text);
    const m = /listening on (\S+?);/.exec(seen);
    if (m) {
      // Keep echoing serve's diagnostics while the suite runs.
      (async () => {
        while (true) {
          const next = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (next.done) break;
          echo(dec.decode(next.value, { stream: true }));
        }
      })();
      return m[1]!;
    }
  }
}

async function main(args: readonly string[]): Promise<number> {
  const home = await Deno.makeTempDir({ prefix: "verdict-conformance-" });
  const dataDir = `${home}/.local/share/verdict`;
  await Deno.mkdir(dataDir, { recursive: true });
  await Deno.writeTextFile(`${dataDir}/records.jsonl`, RECORDS.map((r) => recordLine(r) + "\n").join(""));
  const out = `${home}/results`;
  const port = freePort();
  const denoDir = Deno.env.get("DENO_DIR") ??
    `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/deno`;
  const serve = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, "serve", "--port", String(port)],
    env: { HOME: home, DENO_DIR: denoDir },
    cwd: REPO,
    stdin: "null",
    stdout: "inherit",
    stderr: "piped",
  }).spawn();
  const echo = (t: string) => void Deno.stderr.write(new TextEncoder().encode(t));
  let suiteCode = 1;
  try {
    const url = await listening(serve.stderr, echo);
    const host = `127.0.0.1:${port}`;
    const suite = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        `--lock=${SUITE_LOCK}`,
        "--frozen",
        `--allow-net=${host},localhost:${port}`,
        `--allow-read=${BASELINE},${out}`,
        `--allow-write=${out}`,
        "--allow-env",
        SUITE,
        "server",
        "--url",
        url,
        "--expected-failures",
        BASELINE,
        "-o",
        out,
        ...args,
      ],
      cwd: REPO,
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
    suiteCode = suite.code;
  } finally {
    try {
      serve.kill("SIGTERM");
    } catch {
      // already gone
    }
  }
  const stopped = await serve.status;
  await Deno.remove(home, { recursive: true }).catch(() => {});
  if (stopped.code !== 0) {
    console.error(`conformance: verdict serve exited ${stopped.code} on SIGTERM (expected 0)`);
    return 1;
  }
  return suiteCode;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
