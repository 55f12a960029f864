/**
 * `deno task bench:scale [--sizes 1000,100000,1000000] [--cache DIR] [--runs N]`: what collect and
 * the hook cost as the archive grows, in one run, as ratios against the smallest archive and
 * against a Deno hello-world started the same way.
 *
 * For each size, on a synthetic Claude Code history of that many typed prompts (bench/scale_history.ts,
 * generated once into the cache directory, default `$XDG_CACHE_HOME/verdict-bench`, and reused):
 *   - first full collect into an empty archive: wall time and peak RSS (GNU time's maximum
 *     resident set size) of the real CLI, as the scheduler runs it;
 *   - collect that adds one prompt (one line appended to the newest session), --runs times: the
 *     median wall time and the largest peak RSS;
 *   - the hook end to end (`hook user-prompt`, process start to exit), round-robin with a
 *     hello-world and with a process that imports the hook's modules and runs nothing (the floor
 *     module loading puts under the hook): the medians. In the same round-robin, the hook's entry
 *     as one bundled module, and the compiled binary against a compiled hello-world, the user's
 *     ratio (bench/hook_variants.ts; skipped with the reason printed where `deno compile` cannot
 *     build a runnable binary, as on a machine without Deno's runtime for it); and the hook
 *     answered by the warm helper (src/warm/), which the first prompt with the helper on starts
 *     (that prompt's cost, and how long until the helper answers, are rows of their own).
 *   - the same first full collect under Deno's default heap sizes (the verdict task's flags less
 *     its --v8-flags, src/task_flags.ts): the baseline the task's heap flags are measured
 *     against, in the same run;
 * Goals (issue 10): one-prompt collect at 10⁶ within 2× of 10³ and under 150 MB; full collect of
 * 10⁶ under 300 MB; hook at 10⁶ within 1.5× of 10³, and within 1.5× of hello-world.
 */
import { binaryLikeRunFlags, MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";
import { denoDir } from "../tests/cli_helper.ts";
import { queries } from "./hint_bench_data.ts";
import { bundledHook, compiledHook, type Variant } from "./hook_variants.ts";
import { ensureHistory, type History, promptLine } from "./scale_history.ts";
import { stopHelper, untilHelperAnswers } from "./warm_helper.ts";
import { taskArgs } from "../scripts/task_args.ts";

taskArgs("bench:scale", import.meta.url, Deno.args, { values: ["--sizes", "--runs", "--cache"] });

function option(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

/** Imports what the hook runs and does nothing: module loading without the hint. */
const HOOK_IMPORTS = new URL("./hook_imports.ts", import.meta.url).pathname;

const SIZES = (option("--sizes") ?? "1000,100000,1000000").split(",").map((s) =>
  Number(s.replaceAll("_", ""))
);
const RUNS = Number(option("--runs") ?? "3");
const HOOK_RUNS = 15;
const CACHE = option("--cache") ?? Deno.env.get("VERDICT_BENCH_CACHE") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/verdict-bench`;
const AS_OF = "2026-06-15T00:00:00Z";
/** Longer than the change-time resolution a collect trusts (one second), after copying the history. */
const SETTLE_MS = 1500;

interface Timed {
  readonly seconds: number;
  readonly rssMb: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A run that failed: its last stderr line, shown in the table instead of a figure. */
class RunFailed extends Error {}

async function timed(args: string[], env: Record<string, string>, stdin = ""): Promise<Timed> {
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
  const seconds = (performance.now() - t0) / 1000;
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success) {
    const why = stderr.split("\n").filter((l) =>
      l && !l.startsWith("maxrss_kb=") && !l.startsWith("Command exited")
    );
    throw new RunFailed(`exit ${out.code}: ${why.at(-1) ?? "no message"}`);
  }
  const stdout = new TextDecoder().decode(out.stdout);
  return { seconds, rssMb: Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? "0") / 1024, stdout, stderr };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Row {
  readonly size: number;
  readonly fullWall: number;
  readonly fullRss: number;
  /** The same first collect under Deno's default heap sizes (no --v8-flags). */
  readonly defaultHeapWall: number;
  readonly defaultHeapRss: number;
  /** Bytes of everything collect wrote (archive, index, state). */
  readonly storeBytes: number;
  readonly oneWall: number;
  readonly oneRss: number;
  readonly hookMs: number;
  /** The hook answered by the warm helper (src/warm/), and the first prompt's cost. */
  readonly warmMs: number;
  /** The same, started with the verdict task's flags (the lock and deno.json read at start). */
  readonly taskWarmMs: number;
  readonly firstPromptMs: number;
  /** From the first prompt's start until the helper it started answers. */
  readonly helperReadyMs: number;
  readonly helloMs: number;
  /** A process that imports the hook's modules and runs nothing (bench/hook_imports.ts). */
  readonly importsMs: number;
  /** The hook's entry as one bundled module (NaN when it could not be built). */
  readonly bundledMs: number;
  /** The compiled hook and a compiled hello-world (NaN when they could not be built). */
  readonly compiledMs: number;
  readonly compiledHelloMs: number;
  /** Why a figure is missing (NaN): the failing run's message. */
  readonly failures: string[];
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for await (const e of Deno.readDir(dir)) {
    const info = await Deno.stat(`${dir}/${e.name}`);
    total += e.isDirectory ? await bytesUnder(`${dir}/${e.name}`) : info.size;
  }
  return total;
}

interface Variants {
  readonly bundled: Variant | null;
  readonly compiled: Variant | null;
}

async function measure(history: History, size: number, hello: string, variants: Variants): Promise<Row> {
  const work = await Deno.makeTempDir({ prefix: `verdict-bench-scale-${size}-` });
  try {
    // A real copy, not hard links: linking or unlinking a file changes its change time, and the
    // cache's files are shared by every run (another bench run's `cp -al` or clean-up in between
    // made the next collect distrust every file and re-read its prefix: a "one-prompt" collect at
    // 10^6 then took 0.6 to 9 s and 126 to 339 MB depending on what else ran).
    const home = `${work}/home`;
    const cp = await new Deno.Command("cp", { args: ["-a", history.home, home] }).output();
    if (!cp.success) throw new Error(`cp -a failed: ${new TextDecoder().decode(cp.stderr)}`);
    const live = history.liveFile.replace(history.home, home);
    // A collect distrusts the identity of a file changed within a second of its look
    // (src/fsutil/identity.ts: "racy"): the copy is let settle, as a user's old sessions are.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

    const env = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      DENO_DIR: denoDir(),
      VERDICT_STATE: `${work}/state`,
      VERDICT_ASOF: AS_OF,
      // Every row but the warm ones is the in-process hook.
      VERDICT_WARM: "off",
    };
    const warmEnv = { ...env, VERDICT_WARM: "on" };
    const verdict = [Deno.execPath(), "run", "--quiet", ...verdictRunFlags(), MAIN_TS];
    const failures: string[] = [];
    const full = await timed([...verdict, "collect"], env);
    const storeBytes = await bytesUnder(`${home}/.local/share/verdict`);
    console.log(
      `  ${size}: full collect ${full.seconds.toFixed(2)} s, ${full.rssMb.toFixed(0)} MB; ` +
        `${(storeBytes / 1024 / 1024).toFixed(0)} MiB written`,
    );

    // The baseline for the task's V8 heap flags: the same collect without them, into an archive
    // of its own (removed before the one-prompt runs, so they find the page cache as before).
    const defaultHeap = await timed(
      [...verdict.filter((w) => !w.startsWith("--v8-flags=")), "collect"],
      { ...env, VERDICT_RECORDS: `${work}/default-heap/records.db` },
    );
    await Deno.remove(`${work}/default-heap`, { recursive: true });
    console.log(
      `  ${size}: the same under Deno's default heap ${defaultHeap.seconds.toFixed(2)} s, ` +
        `${defaultHeap.rssMb.toFixed(0)} MB`,
    );

    const walls: number[] = [];
    let rss = 0;
    try {
      for (let i = 0; i < RUNS; i++) {
        const ms = history.lastMs + (i + 1) * 60_000;
        const text = `We decided to keep step ${i} small`;
        const line = promptLine(history.liveSession, history.liveProject, `live-${i}`, ms, text);
        await Deno.writeTextFile(live, line + "\n", { append: true });
        const one = await timed([...verdict, "collect"], env);
        if (!/1 new/.test(one.stderr)) {
          throw new Error(`the one-prompt collect did not add one record: ${one.stderr}`);
        }
        walls.push(one.seconds);
        rss = Math.max(rss, one.rssMb);
      }
      console.log(`  ${size}: one-prompt collect ${median(walls).toFixed(3)} s, ${rss.toFixed(0)} MB`);
    } catch (err) {
      if (!(err instanceof RunFailed)) throw err;
      failures.push(`one-prompt collect at ${size}: ${err.message}`);
      console.log(`  ${size}: one-prompt collect failed: ${err.message}`);
      walls.length = 0;
    }

    const qs = queries(HOOK_RUNS + 3);
    // The hook as an installed one starts: no lock or config read (src/task_flags.ts,
    // binaryLikeRunFlags); the task's way, which reads both, is a row of its own.
    const hookStart = [Deno.execPath(), "run", "--quiet", ...binaryLikeRunFlags(), MAIN_TS];
    const hookArgs = [...hookStart, "hook", "user-prompt"];
    const taskHookArgs = [...verdict, "hook", "user-prompt"];
    const helloArgs = [Deno.execPath(), "run", "--quiet", hello];
    // The floor under the hook: the same process loading the hook's modules and running nothing.
    const importsArgs = [Deno.execPath(), "run", "--quiet", ...binaryLikeRunFlags(), HOOK_IMPORTS];
    const hook: number[] = [];
    const base: number[] = [];
    const imports: number[] = [];
    const bundled: number[] = [];
    const compiled: number[] = [];
    const compiledHello: number[] = [];
    // The hook is silent on any failure (exit 0), so a way of starting it that broke would look
    // fast: each must print what main.ts's hook prints for the same prompt in a fresh session.
    let expected: string | null = null;
    const broken = new Set<string>();
    const ms = async (args: readonly string[] | undefined | null, input = "", way = "", runEnv = env) => {
      if (!args || broken.has(way)) return NaN;
      const run = await timed([...args], runEnv, input);
      if (way === "run") expected = run.stdout;
      else if (way !== "" && run.stdout !== expected) {
        broken.add(way);
        failures.push(
          `the ${way} hook at ${size} printed ${JSON.stringify(run.stdout.slice(0, 80))}, main.ts's hook ${
            JSON.stringify((expected ?? "").slice(0, 80))
          }`,
        );
        return NaN;
      }
      return run.seconds * 1000;
    };
    const warm: number[] = [];
    const taskWarm: number[] = [];
    // The first prompt with the helper on: no helper yet, so it answers in-process and starts one.
    const firstInput = JSON.stringify({ session_id: "bench-first", cwd: history.liveProject, prompt: qs[0] });
    const t0 = performance.now();
    const firstPromptMs = await ms(hookArgs, firstInput, "", warmEnv);
    // NaN when the helper it started never answered (the warm rows then fail, said below the table).
    const waited = await untilHelperAnswers(warmEnv);
    const helperReadyMs = Number.isNaN(waited) ? NaN : performance.now() - t0;
    for (let i = 0; i < HOOK_RUNS + 2; i++) {
      // A session of its own for each way of starting the hook: the cooldown ledger of one must
      // not silence the next (a silenced hook does less).
      const input = (way: string) =>
        JSON.stringify({ session_id: `bench-${i}-${way}`, cwd: history.liveProject, prompt: qs[i] });
      const h = await ms(hookArgs, input("run"), "run");
      const w = await ms(hookArgs, input("warm"), "warm", warmEnv);
      const tw = await ms(taskHookArgs, input("task-warm"), "task-warm", warmEnv);
      const b = await ms(helloArgs);
      const m = await ms(importsArgs);
      const u = await ms(
        variants.bundled && [...variants.bundled.hook, "hook", "user-prompt"],
        input("bundled"),
        "bundled",
      );
      const c = await ms(
        variants.compiled && [...variants.compiled.hook, "hook", "user-prompt"],
        input("compiled"),
        "compiled",
      );
      const ch = await ms(variants.compiled?.hello);
      if (i < 2) continue; // warm-up
      hook.push(h);
      warm.push(w);
      taskWarm.push(tw);
      base.push(b);
      imports.push(m);
      bundled.push(u);
      compiled.push(c);
      compiledHello.push(ch);
    }
    await stopHelper(verdict, warmEnv);
    return {
      size,
      fullWall: full.seconds,
      fullRss: full.rssMb,
      defaultHeapWall: defaultHeap.seconds,
      defaultHeapRss: defaultHeap.rssMb,
      storeBytes,
      oneWall: walls.length > 0 ? median(walls) : NaN,
      oneRss: walls.length > 0 ? rss : NaN,
      hookMs: median(hook),
      warmMs: median(warm),
      taskWarmMs: median(taskWarm),
      firstPromptMs,
      helperReadyMs,
      helloMs: median(base),
      importsMs: median(imports),
      bundledMs: median(bundled),
      compiledMs: median(compiled),
      compiledHelloMs: median(compiledHello),
      failures,
    };
  } finally {
    // A helper left running sees its state folder go and ends within a second.
    await Deno.remove(work, { recursive: true });
  }
}

const builds = await Deno.makeTempDir({ prefix: "verdict-bench-builds-" });
const hello = `${builds}/hello.ts`;
await Deno.writeTextFile(hello, 'console.log("hi");\n');
try {
  console.log(`bench:scale: sizes ${SIZES.join(", ")}; one-prompt runs ${RUNS}; cache ${CACHE}`);
  const variant = async (name: string, made: Promise<Variant | string>) => {
    const v = await made;
    if (typeof v === "string") console.log(`  ${name}: skipped: ${v}`);
    return typeof v === "string" ? null : v;
  };
  const variants = {
    bundled: await variant("bundled hook", bundledHook(builds)),
    compiled: await variant("compiled hook", compiledHook(builds, hello)),
  };
  const rows: Row[] = [];
  for (const size of SIZES) {
    const history = await ensureHistory(CACHE, size, (s) => console.log(s));
    rows.push(await measure(history, size, hello, variants));
  }
  const first = rows[0]!;
  const fmtSize = (n: number) => n >= 1000 && Math.log10(n) % 1 === 0 ? `10^${Math.log10(n)}` : String(n);
  const head = [
    "",
    ...rows.map((r) => fmtSize(r.size)),
    `${fmtSize(rows.at(-1)!.size)} / ${fmtSize(first.size)}`,
  ];
  const cell = (v: number, unit: string, digits: number, missing = "fails") =>
    Number.isNaN(v) ? missing : `${v.toFixed(digits)} ${unit}`;
  const ratio = (a: number, b: number) => Number.isNaN(a / b) ? "—" : `${(a / b).toFixed(2)}×`;
  const line = (name: string, values: number[], unit: string, digits: number, missing = "fails") => [
    name,
    ...values.map((v) => cell(v, unit, digits, missing)),
    ratio(values.at(-1)!, values[0]!),
  ];
  // A variant that could not be built says so (its reason is printed above the table).
  const bundledMissing = variants.bundled ? "fails" : "skipped";
  const compiledMissing = variants.compiled ? "fails" : "skipped";
  const table = [
    head,
    line("collect adding one prompt: wall", rows.map((r) => r.oneWall), "s", 3),
    line("collect adding one prompt: peak RSS", rows.map((r) => r.oneRss), "MB", 0),
    line("first full collect: wall", rows.map((r) => r.fullWall), "s", 2),
    line("first full collect: peak RSS", rows.map((r) => r.fullRss), "MB", 0),
    line("… under Deno's default heap (no --v8-flags): wall", rows.map((r) => r.defaultHeapWall), "s", 2),
    line("… under Deno's default heap: peak RSS", rows.map((r) => r.defaultHeapRss), "MB", 0),
    line("first full collect / default heap: wall", rows.map((r) => r.fullWall / r.defaultHeapWall), "×", 2),
    line(
      "first full collect / default heap: peak RSS",
      rows.map((r) => r.fullRss / r.defaultHeapRss),
      "×",
      2,
    ),
    line("archive on disk after it", rows.map((r) => r.storeBytes / 1024 / 1024), "MiB", 0),
    line("hook end to end (median)", rows.map((r) => r.hookMs), "ms", 1),
    line("deno hello-world (median, same run)", rows.map((r) => r.helloMs), "ms", 1),
    line("hook / hello-world", rows.map((r) => r.hookMs / r.helloMs), "×", 2),
    line("hook via the warm helper (median)", rows.map((r) => r.warmMs), "ms", 1),
    line("hook via the warm helper / hello-world", rows.map((r) => r.warmMs / r.helloMs), "×", 2),
    line(
      "… started as deno task verdict (lock + deno.json read)",
      rows.map((r) => r.taskWarmMs),
      "ms",
      1,
    ),
    line("… / hello-world", rows.map((r) => r.taskWarmMs / r.helloMs), "×", 2),
    line("first prompt with the helper on (none yet: starts one)", rows.map((r) => r.firstPromptMs), "ms", 1),
    line("… until the helper it started answers", rows.map((r) => r.helperReadyMs), "ms", 0),
    line("hook's modules imported, nothing run (median)", rows.map((r) => r.importsMs), "ms", 1),
    line("… / hello-world (the floor under the hook)", rows.map((r) => r.importsMs / r.helloMs), "×", 2),
    line(
      "hook as one bundled module (not shipped, median)",
      rows.map((r) => r.bundledMs),
      "ms",
      1,
      bundledMissing,
    ),
    line("… / hello-world", rows.map((r) => r.bundledMs / r.helloMs), "×", 2, bundledMissing),
    line("compiled hook (median)", rows.map((r) => r.compiledMs), "ms", 1, compiledMissing),
    line(
      "compiled hello-world (median, same run)",
      rows.map((r) => r.compiledHelloMs),
      "ms",
      1,
      compiledMissing,
    ),
    line(
      "compiled hook / compiled hello-world (the user's ratio)",
      rows.map((r) => r.compiledMs / r.compiledHelloMs),
      "×",
      2,
      compiledMissing,
    ),
  ];
  const widths = head.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  console.log("");
  for (const [i, row] of table.entries()) {
    console.log(
      "| " + row.map((cell, c) => c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)).join(" | ") +
        " |",
    );
    if (i === 0) {
      console.log(
        "| " + widths.map((w, c) => c === 0 ? "-".repeat(w) : "-".repeat(w - 1) + ":").join(" | ") + " |",
      );
    }
  }
  const last = rows.at(-1)!;
  for (const f of rows.flatMap((r) => r.failures)) console.log(`failed: ${f}`);
  console.log(
    `\ngoals: one-prompt collect ${ratio(last.oneWall, first.oneWall)} of ${fmtSize(first.size)} (≤ 2×), ` +
      `${cell(last.oneRss, "MB", 0)} (< 150 MB); full collect ${cell(last.fullRss, "MB", 0)} (< 300 MB); ` +
      `hook ${ratio(last.hookMs, first.hookMs)} of ${fmtSize(first.size)} (≤ 1.5×); ` +
      `hook / hello-world (≤ 1.5×) via the warm helper ${
        rows.map((r) => ratio(r.warmMs, r.helloMs)).join(" / ")
      } at ${rows.map((r) => fmtSize(r.size)).join(" / ")} (started as deno task verdict: ${
        rows.map((r) => ratio(r.taskWarmMs, r.helloMs)).join(" / ")
      }), in-process ${ratio(last.hookMs, last.helloMs)}, compiled ` +
      `${variants.compiled ? ratio(last.compiledMs, last.compiledHelloMs) : "skipped"}`,
  );
} finally {
  await Deno.remove(builds, { recursive: true });
}
