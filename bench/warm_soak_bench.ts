/**
 * `deno task bench:soak [--sizes 100000,1000000] [--prompts 5000] [--cache DIR]`: what a
 * long-lived warm helper (src/warm/) holds after thousands of distinct prompts, now that it keeps
 * the archive open between them (src/warm/kept_archive.ts).
 *
 * For each size, on bench:scale's synthetic Claude Code history (bench/scale_history.ts, cached):
 * one collect, then a real `verdict warm serve` answering --prompts distinct prompts (the hint
 * benchmark's Zipf queries, English and Chinese, each sent once, as the hook client sends them:
 * one frame per connection). Printed per block of prompts: the helper's resident memory
 * (/proc/<pid>/status VmRSS) as a ratio against the same after the first 100 prompts of the same
 * run (the baseline), its open files, the answer's round trip p50 / p95 seen from this client, and
 * how often the helper opened the archive. Bounded memory shows as a ratio that levels off.
 */
import { MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";
import { denoDir } from "../tests/cli_helper.ts";
import { buildIdentity, encodeFrame, readFrame, WARM_PRINTED, WARM_PROTOCOL } from "../src/warm/wire.ts";
import { writeAll } from "../src/fsutil/bytes.ts";
import { queries } from "./hint_bench_data.ts";
import { ensureHistory } from "./scale_history.ts";
import { helperConn, stopHelper, untilHelperAnswers } from "./warm_helper.ts";
import { taskArgs } from "../scripts/task_args.ts";

taskArgs("bench:soak", import.meta.url, Deno.args, { values: ["--sizes", "--prompts", "--cache"] });

function option(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const SIZES = (option("--sizes") ?? "100000,1000000").split(",").map((s) => Number(s.replaceAll("_", "")));
const PROMPTS = Number(option("--prompts") ?? "5000");
/** The baseline: the helper after this many prompts (its archive opened, its first lists read). */
const BASELINE_PROMPTS = 100;
/** Rows printed: one per this many prompts. */
const BLOCK = 1000;
const CACHE = option("--cache") ?? Deno.env.get("VERDICT_BENCH_CACHE") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/verdict-bench`;
const BUILD = buildIdentity(Deno.execPath());

/** `count` distinct prompts (queries() repeats a few; the rest of a longer draw fills in). */
function distinctPrompts(count: number): string[] {
  for (let draw = count * 2;; draw *= 2) {
    const unique = [...new Set(queries(draw))];
    if (unique.length >= count) return unique.slice(0, count);
  }
}

function procStatus(pid: number): { rssMb: number; hwmMb: number } {
  const text = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024 };
}

function openFiles(pid: number): number {
  let n = 0;
  for (const _ of Deno.readDirSync(`/proc/${pid}/fd`)) n++;
  return n;
}

async function ask(env: Record<string, string>, header: Record<string, unknown>, body: Uint8Array) {
  const conn = await helperConn(env);
  if (conn === null) throw new Error("no helper to ask");
  try {
    await writeAll(
      conn,
      encodeFrame({ protocol: WARM_PROTOCOL, build: BUILD, ...header, bodyBytes: body.length }, body),
    );
    const answer = await readFrame(conn, 8 * 1024 * 1024);
    // As the hook's client: a hint it printed is acknowledged (only then is it recorded as shown).
    if (answer.body.length > 0) await writeAll(conn, Uint8Array.of(WARM_PRINTED));
    return answer;
  } finally {
    conn.close();
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function soak(size: number, prompts: string[]): Promise<string[]> {
  const history = await ensureHistory(CACHE, size, (s) => console.log(s));
  const work = await Deno.makeTempDir({ prefix: `verdict-bench-soak-${size}-` });
  const rows: string[] = [];
  let helper: Deno.ChildProcess | null = null;
  const verdict = [Deno.execPath(), "run", "--quiet", ...verdictRunFlags(), MAIN_TS];
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: `${work}/home`,
    DENO_DIR: denoDir(),
    VERDICT_STATE: `${work}/state`,
    VERDICT_WARM: "on",
  };
  try {
    const cp = await new Deno.Command("cp", { args: ["-a", history.home, env.HOME] }).output();
    if (!cp.success) throw new Error(`cp -a failed: ${new TextDecoder().decode(cp.stderr)}`);
    const t0 = performance.now();
    const collect = await new Deno.Command(verdict[0]!, {
      args: [...verdict.slice(1), "collect"],
      env,
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!collect.success) throw new Error(`collect failed: ${new TextDecoder().decode(collect.stderr)}`);
    console.log(`  ${size}: collected in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    helper = new Deno.Command(verdict[0]!, {
      args: [...verdict.slice(1), "warm", "serve"],
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    if (Number.isNaN(await untilHelperAnswers(env))) throw new Error("the helper did not start");
    const pid = helper.pid;
    const before = procStatus(pid);
    rows.push(
      `| ${size} | started, nothing asked | ${before.rssMb.toFixed(0)} MB | — | ${
        openFiles(pid)
      } | — | — | 0 |`,
    );
    const header = {
      op: "hint",
      argv: ["hook", "user-prompt"],
      env: { HOME: env.HOME, VERDICT_STATE: env.VERDICT_STATE },
      cwd: "/home/dev/p1",
      elapsedMs: 0,
    };
    let baseline = NaN;
    let block: number[] = [];
    let fired = 0;
    for (const [i, prompt] of prompts.entries()) {
      const body = new TextEncoder().encode(
        JSON.stringify({ session_id: `soak-${i % 50}`, cwd: "/home/dev/p1", prompt }),
      );
      const t = performance.now();
      const answer = await ask(env, header, body);
      block.push(performance.now() - t);
      if (answer.header.refused) throw new Error(`refused: ${answer.header.refused}`);
      if (answer.body.length > 0) fired++;
      const n = i + 1;
      if (n === BASELINE_PROMPTS || n % BLOCK === 0) {
        const status = (await ask(env, { op: "status" }, new Uint8Array())).header.status as {
          archiveOpens?: number;
        };
        const mem = procStatus(pid);
        if (n === BASELINE_PROMPTS) baseline = mem.rssMb;
        rows.push(
          `| ${size} | after ${n} prompts | ${mem.rssMb.toFixed(0)} MB | ${
            (mem.rssMb / baseline).toFixed(2)
          }× | ${openFiles(pid)} | ${pct(block, 50).toFixed(2)} / ${pct(block, 95).toFixed(2)} ms | ${
            mem.hwmMb.toFixed(0)
          } MB | ${status.archiveOpens ?? "?"} |`,
        );
        block = [];
      }
    }
    console.log(`  ${size}: ${prompts.length} prompts answered, ${fired} with a hint`);
    return rows;
  } finally {
    if (helper !== null) {
      await stopHelper(verdict, env);
      await helper.status;
    }
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

const prompts = distinctPrompts(PROMPTS);
console.log(`bench:soak: ${prompts.length} distinct prompts at sizes ${SIZES.join(", ")}`);
const table = [
  "| records | when | helper RSS | / RSS after 100 prompts | open files | round trip p50 / p95 (this block) | peak RSS | archive opens |",
  "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
];
for (const size of SIZES) table.push(...await soak(size, prompts));
console.log("\n" + table.join("\n"));
