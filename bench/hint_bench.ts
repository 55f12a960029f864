/**
 * `deno task bench:hint [--records N]`: the hint path on 200,000 synthetic records.
 *
 * Measured in one run, each next to a baseline from the same run:
 *   - archive build time (records stored and indexed, as a first collect does) — vs. inserting the
 *     same texts into SQLite FTS5;
 *   - in-process query p50/p95 on the archive's index (300 prompts, each asked for the first time,
 *     after 300 others as a warm-up) — vs. SQLite FTS5 `ORDER BY bm25()` over the same tokens, and
 *     vs. a plain scan of the records as JSONL; and, beside it, each prompt's least time over five
 *     such passes on fresh readers (the cost without the run's preemptions and collector pauses);
 *   - `hint` end to end as the hook runs it (process start to exit) p50/p95 — vs. a Deno
 *     hello-world started the same way, round-robin; in-process, and answered by the warm helper,
 *     each started as an installed hook starts (no lock or deno.json read: binaryLikeRunFlags in
 *     src/task_flags.ts), the helper's also as `deno task verdict` starts it (both read);
 *   - peak RSS of the hint process;
 *   - `hint` end to end on a 4 MB prompt of Chinese (over a million distinct bigrams, just under
 *     the hook's 4 MiB input cap) — vs. the same hello-world: bounded work, inside the deadline.
 * Goals: end-to-end p50 ≤ 1.5× and p95 ≤ 2.5× hello-world; in-process p50 < 0.2 ms, p95 < 1 ms;
 * peak RSS < 100 MB.
 */
import { DatabaseSync } from "node:sqlite";
import { recordLine, type VerdictRecord } from "../src/record/record.ts";
import { makeRecords, queries } from "./hint_bench_data.ts";
import { buildArchive } from "../src/store/build.ts";
import { openArchiveReader } from "../src/store/reader.ts";
import { hintFor } from "../src/gate/hint.ts";
import { HOOK_DEADLINE_MS } from "../src/hint/run.ts";
import { tokenize } from "../src/rank/tokenize.ts";
import { binaryLikeRunFlags, MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";
import { denoDir } from "../tests/cli_helper.ts";
import { untilHelperAnswers } from "./warm_helper.ts";
import { taskArgs } from "../scripts/task_args.ts";

taskArgs("bench:hint", import.meta.url, Deno.args, { values: ["--records"] });

const argN = Deno.args.indexOf("--records");
const N = argN >= 0 ? Number(Deno.args[argN + 1]) : 200_000;
const E2E_RUNS = 30;
/** Runs of the hook on the 4 MB prompt (each one is a few hundred milliseconds at most). */
const HUGE_RUNS = 5;

/** A deterministic prompt of common CJK characters in random order, `bytes` long as UTF-8. */
function hugeCjkPrompt(bytes: number): string {
  let a = 12345;
  const chars: string[] = [];
  for (let i = 0; i < bytes / 3; i++) {
    a = (a * 1103515245 + 12345) & 0x7fffffff;
    chars.push(String.fromCharCode(0x4e00 + (a % 3500)));
  }
  return chars.join("");
}
const QUERIES_IN_PROCESS = 300;
/**
 * Prompts answered before the measured ones, never measured themselves: the in-process figure is
 * the steady state of a process that has answered prompts before (compiled code, the common
 * words' lists kept), as `verdict serve` and `verdict mcp` are; a hook process is cold, and the
 * end-to-end rows measure that. With 20 (the first 20 of the measured prompts, until this
 * round) the first 50 measured prompts' p50 was 2.4× the other 250's (553 / 231 µs): the
 * compiler was still at work. After 300, 1.1-1.5× in loaded runs; each prompt's least time
 * over five passes gives 1.13× (153 / 135 µs), the part that is the first prompts' words being
 * newer to the process (a later prompt shares more words with earlier ones). The line "of which
 * the first 50" shows it each run.
 */
const WARM_UP_QUERIES = 300;
/** In-process passes, each on a fresh reader, for the per-prompt least time (a second figure). */
const MIN_OF_PASSES = 5;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

async function spawnTimed(
  args: string[],
  env: Record<string, string>,
  stdin: string,
): Promise<{ ms: number; rssKb: number }> {
  const t0 = performance.now();
  const child = new Deno.Command("/usr/bin/time", {
    args: ["-f", "maxrss_kb=%M", ...args],
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const out = await child.output();
  const ms = performance.now() - t0;
  const err = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${args.join(" ")} failed: ${err}`);
  return { ms, rssKb: Number(/maxrss_kb=(\d+)/.exec(err)?.[1] ?? "0") };
}

const dir = await Deno.makeTempDir({ prefix: "verdict-bench-hint-" });
try {
  console.log(`bench:hint: ${N} synthetic records in ${dir}`);
  const records = makeRecords(N);
  const recordsPath = `${dir}/records.db`;
  const jsonlPath = `${dir}/records.jsonl`;
  await Deno.writeTextFile(jsonlPath, records.map((r) => recordLine(r) + "\n").join(""));

  let t = performance.now();
  const paths = await buildArchive(recordsPath, records);
  const indexBuild = performance.now() - t;
  let indexBytes = 0;
  for await (const e of Deno.readDir(paths.segments)) {
    indexBytes += (await Deno.stat(`${paths.segments}/${e.name}`)).size;
  }

  // Baseline: SQLite FTS5 over the same tokens (space-joined, so its tokenizer sees our terms).
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='unicode61')");
  t = performance.now();
  db.exec("BEGIN");
  const insert = db.prepare("INSERT INTO docs(rowid, body) VALUES (?, ?)");
  records.forEach((r, i) => insert.run(i, tokenize(r.text).join(" ")));
  db.exec("COMMIT");
  const ftsBuild = performance.now() - t;

  // The measured prompts, and as many others before them for the warm-up (queries() is a
  // deterministic sequence: the first QUERIES_IN_PROCESS are the ones measured).
  const all = queries(QUERIES_IN_PROCESS + WARM_UP_QUERIES);
  const qs = all.slice(0, QUERIES_IN_PROCESS);
  const warmUp = all.slice(QUERIES_IN_PROCESS);
  const nowMs = Date.parse("2026-01-01T00:00:00Z");
  /**
   * One pass as a process answering prompts runs it, on a reader of its own: the warm-up on
   * other prompts, then each measured prompt asked for the first time (its rare words' entries
   * and lists read from the index as a new prompt's are). Each prompt's time, in order.
   */
  const inProcessPass = async (): Promise<number[]> => {
    const reader = (await openArchiveReader(paths))!;
    // As the hook reads a candidate's text: its row of the archive.
    const textOf = (doc: number) => reader.record(doc)!.text;
    // Exactly what the hint path runs: the same options and the gate's decision.
    const hintQuery = (q: string) =>
      hintFor(reader.corpus, {
        prompt: q,
        session: null,
        cwd: "/home/dev/p3",
        nowMs,
        shown: new Set(),
        entities: [],
        personas: [],
        top: 2,
        textOf,
      });
    for (const q of warmUp) hintQuery(q);
    const times: number[] = [];
    for (const q of qs) {
      const s = performance.now();
      hintQuery(q);
      times.push(performance.now() - s);
    }
    reader.close();
    return times;
  };
  const ours = await inProcessPass();
  // Each prompt's least time over MIN_OF_PASSES passes on fresh readers: what the work costs
  // with the scheduler's preemptions and the collector's pauses (which land on other prompts in
  // each pass) left out. On a machine others share, the spread between this and `ours` is the
  // noise of the run; the goal is on `ours`.
  const least = [...ours];
  for (let pass = 1; pass < MIN_OF_PASSES; pass++) {
    (await inProcessPass()).forEach((t, i) => least[i] = Math.min(least[i]!, t));
  }
  const fts: number[] = [];
  const ftsQuery = db.prepare(
    "SELECT rowid, bm25(docs) AS s FROM docs WHERE docs MATCH ? ORDER BY s LIMIT 10",
  );
  for (const q of qs) {
    const terms = [...new Set(tokenize(q))].filter((x) => /^[\p{L}\p{N}]+$/u.test(x)).map((x) => `"${x}"`);
    if (terms.length === 0) continue;
    const s = performance.now();
    ftsQuery.all(terms.join(" OR "));
    fts.push(performance.now() - s);
  }
  const scan: number[] = [];
  for (const q of qs.slice(0, 5)) {
    const words = tokenize(q);
    const s = performance.now();
    const text = await Deno.readTextFile(jsonlPath);
    let hits = 0;
    for (const line of text.split("\n")) {
      if (!line) continue;
      const rec = JSON.parse(line) as VerdictRecord;
      if (words.some((w) => rec.text.includes(w))) hits++;
    }
    scan.push(performance.now() - s + hits * 0);
  }
  db.close();

  // End to end, as the hook runs it: process start to exit, round-robin with a hello-world.
  const hello = `${dir}/hello.ts`;
  await Deno.writeTextFile(hello, 'console.log("hi");\n');
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: dir,
    DENO_DIR: denoDir(),
    VERDICT_RECORDS: recordsPath,
    VERDICT_STATE: `${dir}/state`,
    VERDICT_ASOF: "2026-01-01T00:00:00Z",
    // The in-process hook; the warm rows turn the helper on.
    VERDICT_WARM: "off",
  };
  const warmEnv = { ...env, VERDICT_WARM: "on" };
  const hintArgs = [
    Deno.execPath(),
    "run",
    "--quiet",
    ...binaryLikeRunFlags(),
    MAIN_TS,
    "hook",
    "user-prompt",
  ];
  const taskHintArgs = [
    Deno.execPath(),
    "run",
    "--quiet",
    ...verdictRunFlags(),
    MAIN_TS,
    "hook",
    "user-prompt",
  ];
  const helloArgs = [Deno.execPath(), "run", "--quiet", hello];
  const e2eHint: number[] = [];
  const e2eWarm: number[] = [];
  const e2eTaskWarm: number[] = [];
  const e2eHello: number[] = [];
  let rss = 0;
  // The first prompt with the helper on starts it (answering in-process); then it answers.
  await spawnTimed(
    hintArgs,
    warmEnv,
    JSON.stringify({ session_id: "first", cwd: "/home/dev/p1", prompt: qs[0] }),
  );
  if (Number.isNaN(await untilHelperAnswers(warmEnv))) throw new Error("the warm helper did not start");
  for (let i = 0; i < 3; i++) {
    await spawnTimed(
      hintArgs,
      env,
      JSON.stringify({ session_id: "warm", cwd: "/home/dev/p1", prompt: qs[i] }),
    );
    await spawnTimed(helloArgs, env, "");
  }
  for (let i = 0; i < E2E_RUNS; i++) {
    const h = await spawnTimed(
      hintArgs,
      env,
      JSON.stringify({ session_id: `b${i}`, cwd: "/home/dev/p1", prompt: qs[i % qs.length] }),
    );
    e2eHint.push(h.ms);
    rss = Math.max(rss, h.rssKb);
    const w = await spawnTimed(
      hintArgs,
      warmEnv,
      JSON.stringify({ session_id: `w${i}`, cwd: "/home/dev/p1", prompt: qs[i % qs.length] }),
    );
    e2eWarm.push(w.ms);
    const tw = await spawnTimed(
      taskHintArgs,
      warmEnv,
      JSON.stringify({ session_id: `t${i}`, cwd: "/home/dev/p1", prompt: qs[i % qs.length] }),
    );
    e2eTaskWarm.push(tw.ms);
    e2eHello.push((await spawnTimed(helloArgs, env, "")).ms);
  }

  // The hook on a 4 MB paste: the JSON just under the 4 MiB cap, so the prompt is searched.
  const huge = JSON.stringify({ session_id: "huge", cwd: "/home/dev/p1", prompt: hugeCjkPrompt(4_000_000) });
  const e2eHuge: number[] = [];
  const e2eHelloHuge: number[] = [];
  let hugeRss = 0;
  for (let i = 0; i < HUGE_RUNS; i++) {
    const h = await spawnTimed(hintArgs, env, huge);
    e2eHuge.push(h.ms);
    hugeRss = Math.max(hugeRss, h.rssKb);
    e2eHelloHuge.push((await spawnTimed(helloArgs, env, "")).ms);
  }

  // Two decimals hide a small ratio (0.004× printed as 0.00×): two significant digits below 0.1.
  const ratio = (r: number) => r >= 0.1 ? r.toFixed(2) : r.toPrecision(2);
  const row = (name: string, xs: number[], base?: number[]) =>
    `${name.padEnd(44)} p50 ${fmt(pct(xs, 50)).padStart(9)}  p95 ${fmt(pct(xs, 95)).padStart(9)}` +
    (base
      ? `   (${ratio(pct(xs, 50) / pct(base, 50))}× / ${ratio(pct(xs, 95) / pct(base, 95))}× baseline)`
      : "");
  console.log(
    `archive build (store + index): ${(indexBuild / 1000).toFixed(2)} s, index ${
      (indexBytes / 1024 / 1024).toFixed(1)
    } MiB` +
      `   (SQLite FTS5 insert of the same tokens: ${(ftsBuild / 1000).toFixed(2)} s)`,
  );
  console.log(row("in-process query + gate, archive index", ours, fts));
  console.log(
    `  of which the first 50 measured prompts: p50 ${fmt(pct(ours.slice(0, 50), 50))}, the other ${
      ours.length - 50
    }: p50 ${fmt(pct(ours.slice(50), 50))} (compiling, and newer words: see WARM_UP_QUERIES)`,
  );
  console.log(row(`  each prompt's least of ${MIN_OF_PASSES} passes (fresh readers)`, least));
  console.log(row("baseline: SQLite FTS5 ORDER BY bm25()", fts));
  console.log(row("baseline: plain scan of the JSONL", scan));
  console.log(row("hint end to end (hook user-prompt)", e2eHint, e2eHello));
  console.log(row("hint end to end via the warm helper", e2eWarm, e2eHello));
  console.log(row("  … started as deno task verdict (lock, config)", e2eTaskWarm, e2eHello));
  console.log(row("baseline: deno hello-world end to end", e2eHello));
  console.log(`hint peak RSS: ${(rss / 1024).toFixed(0)} MB (goal < 100 MB)`);
  console.log(row("hint end to end, 4 MB CJK prompt", e2eHuge, e2eHelloHuge));
  console.log(
    `4 MB prompt: p95 ${fmt(pct(e2eHuge, 95))} (goal: under the hook's ${HOOK_DEADLINE_MS} ms deadline), ` +
      `peak RSS ${(hugeRss / 1024).toFixed(0)} MB`,
  );
  console.log(
    `goals: e2e p50 ${(pct(e2eHint, 50) / pct(e2eHello, 50)).toFixed(2)}× (≤ 1.5×), p95 ${
      (pct(e2eHint, 95) / pct(e2eHello, 95)).toFixed(2)
    }× (≤ 2.5×); in-process p50 ${fmt(pct(ours, 50))} (< 0.2 ms), p95 ${fmt(pct(ours, 95))} (< 1 ms)`,
  );
  console.log(
    `warm helper: e2e p50 ${(pct(e2eWarm, 50) / pct(e2eHello, 50)).toFixed(2)}× (≤ 1.5×), p95 ${
      (pct(e2eWarm, 95) / pct(e2eHello, 95)).toFixed(2)
    }× of the hello-world`,
  );
} finally {
  // A helper still running sees its state folder go and ends within a second.
  await Deno.remove(dir, { recursive: true });
}
