/**
 * `deno task bench:serve [--records N] [--clients N] [--seconds N]`: verdict_recall over HTTP
 * under load, next to the same look-ups made in-process.
 *
 * Writes N synthetic records (default 200,000; deterministic) and their index to a temp dir,
 * then measures in the same run:
 *   - baseline: the Recaller called directly in this process, the same queries one after
 *     another (first load timed apart);
 *   - served: the real `verdict serve` (spawned with the verdict task's flags) on a free
 *     loopback port, with C concurrent SDK clients (default 32) calling verdict_recall in a
 *     loop for S seconds (default 20, at most 30);
 * and reports throughput, p50/p99 latency, errors (must be 0), whether the served text equals
 * the in-process answer written by the contract's formatter, and the server's peak RSS
 * (/proc/<pid>/status VmHWM). A benchmark, not a test: it asserts nothing about time.
 */
import { compareRecords, type VerdictRecord } from "../src/record/record.ts";
import { makeRecords, queries as benchQueries } from "./hint_bench_data.ts";
import { buildArchive } from "../src/store/build.ts";
import { compileCredentialRules } from "../src/record/secrets.ts";
import { openRecaller } from "../src/lookup/recall.ts";
import { CONTRACT } from "../src/serve/contract.ts";
import { formatRecall } from "../src/serve/format.ts";
import { Client, StreamableHTTPClientTransport } from "../src/serve/mcp_client_deps.ts";
import { MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";
import { denoDir } from "../tests/cli_helper.ts";
import { taskArgs } from "../scripts/task_args.ts";

function arg(name: string, fallback: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  const v = i === -1 ? NaN : Number(Deno.args[i + 1]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const RECORDS = arg("records", 200_000);
const CLIENTS = arg("clients", 32);
/** Bounded: the load phase never runs longer than 30 s. */
const SECONDS = Math.min(arg("seconds", 20), 30);
const TOP = 5;
const AS_OF = "2026-11-29T12:00:00.000Z";

/** The benches share one synthetic corpus (Zipf English, Chinese, identifiers; bench/hint_bench_data.ts). */
function syntheticRecords(n: number): VerdictRecord[] {
  return makeRecords(n).sort(compareRecords);
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function ms(n: number): string {
  return `${n.toFixed(2)} ms`;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

function vmHwmKiB(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "verdict-serve-bench-" });
  const recordsPath = `${dir}/records.db`;
  const qs = benchQueries(64);
  console.log(`bench:serve — ${RECORDS.toLocaleString("en")} records, ${CLIENTS} clients, ${SECONDS} s`);

  let t = performance.now();
  const records = syntheticRecords(RECORDS);
  await buildArchive(recordsPath, records);
  const size = (await Deno.stat(recordsPath)).size;
  console.log(
    `  records written and indexed in ${((performance.now() - t) / 1000).toFixed(1)} s ` +
      `(${(size / 1024 / 1024).toFixed(1)} MiB archive database)`,
  );

  // Baseline: the Recaller in this process, the same queries, one at a time.
  const recaller = openRecaller({
    recordsPath,
    quoteRoots: [],
    entitiesPath: null,
    credentialRules: compileCredentialRules([]),
  });
  const asOfMs = Date.parse(AS_OF);
  t = performance.now();
  await recaller.recall(qs[0]!, { top: TOP, asOfMs });
  const firstLoad = performance.now() - t;
  const expected = new Map<string, string>();
  const local: number[] = [];
  const localStart = performance.now();
  // Every query once (their answers are what the server must serve), then round-robin until
  // the baseline's time is up.
  for (let i = 0; i < qs.length || performance.now() - localStart < Math.min(SECONDS, 10) * 1000; i++) {
    const q = qs[i % qs.length]!;
    const s = performance.now();
    const answer = await recaller.recall(q, { top: TOP, asOfMs });
    local.push(performance.now() - s);
    if (!expected.has(q)) expected.set(q, formatRecall(answer, CONTRACT.results.verdict_recall));
  }
  const localSecs = (performance.now() - localStart) / 1000;
  recaller.close();
  local.sort((a, b) => a - b);

  // Served: the real CLI on a free loopback port.
  const port = freePort();
  const serve = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...verdictRunFlags(),
      MAIN_TS,
      "serve",
      "--port",
      String(port),
      "--records",
      recordsPath,
    ],
    env: {
      HOME: dir,
      DENO_DIR: denoDir(),
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      VERDICT_ASOF: AS_OF,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = serve.stderr.getReader();
  let err = "";
  while (!/listening on (\S+?);/.test(err)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`verdict serve exited before listening:\n${err}`);
    err += new TextDecoder().decode(value);
  }
  const url = /listening on (\S+?);/.exec(err)![1]!;
  const drain = (async () => {
    while (!(await reader.read()).done) { /* keep the pipe flowing */ }
  })();

  const clients: Client[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const c = new Client({ name: `bench-${i}`, version: "0" });
    await c.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(c);
  }
  // One warm-up call loads the corpus in the server (timed apart, like the baseline's first load).
  t = performance.now();
  await clients[0]!.callTool({ name: "verdict_recall", arguments: { query: qs[0]!, top: TOP } });
  const servedFirst = performance.now() - t;
  const rssAfterLoad = vmHwmKiB(serve.pid);

  const latencies: number[] = [];
  let errors = 0;
  let mismatches = 0;
  const firstError: string[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  const loadStart = performance.now();
  await Promise.all(clients.map(async (client, ci) => {
    let i = ci;
    while (performance.now() < deadline) {
      const q = qs[i++ % qs.length]!;
      const s = performance.now();
      try {
        const r = await client.callTool({ name: "verdict_recall", arguments: { query: q, top: TOP } });
        latencies.push(performance.now() - s);
        const text = (r.content as { type: string; text: string }[])[0]?.text;
        if (r.isError) {
          errors++;
          if (firstError.length === 0) firstError.push(text ?? "");
        } else if (text !== expected.get(q)) mismatches++;
      } catch (e) {
        errors++;
        if (firstError.length === 0) firstError.push(String(e));
      }
    }
  }));
  const loadSecs = (performance.now() - loadStart) / 1000;
  const peak = vmHwmKiB(serve.pid);
  for (const c of clients) await c.close();
  serve.kill("SIGTERM");
  const status = await serve.status;
  await drain;
  await Deno.remove(dir, { recursive: true });
  latencies.sort((a, b) => a - b);

  const mib = (kib: number | null) => (kib === null ? "n/a" : `${(kib / 1024).toFixed(0)} MiB`);
  console.log("");
  console.log("  in-process Recaller (baseline, sequential)");
  console.log(`    first call (loads the index): ${ms(firstLoad)}`);
  console.log(
    `    ${local.length} calls in ${localSecs.toFixed(1)} s: ${
      (local.length / localSecs).toFixed(0)
    } calls/s, ` +
      `p50 ${ms(percentile(local, 0.5))}, p99 ${ms(percentile(local, 0.99))}`,
  );
  console.log(`  verdict serve over HTTP (${CLIENTS} concurrent SDK clients on loopback)`);
  console.log(`    first call (loads the index): ${ms(servedFirst)}`);
  console.log(
    `    ${latencies.length} calls in ${loadSecs.toFixed(1)} s: ` +
      `${(latencies.length / loadSecs).toFixed(0)} calls/s, p50 ${ms(percentile(latencies, 0.5))}, ` +
      `p99 ${ms(percentile(latencies, 0.99))}`,
  );
  console.log(`    errors: ${errors}${firstError.length ? ` (first: ${firstError[0]!.slice(0, 200)})` : ""}`);
  console.log(`    answers differing from the in-process answer: ${mismatches}`);
  console.log(`    server peak RSS (VmHWM): ${mib(peak)} (after the first load: ${mib(rssAfterLoad)})`);
  console.log(`    server exit on SIGTERM: ${status.code}`);
  if (errors > 0 || mismatches > 0 || status.code !== 0) Deno.exitCode = 1;
}

if (import.meta.main) {
  taskArgs("bench:serve", import.meta.url, Deno.args, { values: ["--records", "--clients", "--seconds"] });
  await main();
}
