/**
 * `deno task bench:replay [--records N] [--last N]`: `verdict replay` over a synthetic history
 * (default 40,000 records, the 10,000 latest prompts replayed).
 *
 * Measured in one run:
 *   - the replay engine in-process (derive CJK words, grow the index record by record, decide
 *     each replayed prompt) — vs. a baseline of one MemoryIndex build over the same records plus
 *     the same number of hint decisions against it (what replay costs beyond "index once, ask N
 *     times": the price of exact statistics at every prompt);
 *   - `verdict replay --json` end to end as a process (wall time and peak RSS by /usr/bin/time).
 * Goal (issue 12): 10⁴ prompts in well under a minute.
 */
import { recordLine } from "../src/record/record.ts";
import { hintFor } from "../src/gate/hint.ts";
import { buildMemoryIndex } from "../src/rank/memory_index.ts";
import { replayArchive, replayerFor, sortedRecords } from "../src/replay/replay.ts";
import { MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";
import { denoDir } from "../tests/cli_helper.ts";
import { makeRecords } from "./hint_bench_data.ts";
import { taskArgs } from "../scripts/task_args.ts";

taskArgs("bench:replay", import.meta.url, Deno.args, { values: ["--records", "--last"] });

function arg(name: string, fallback: number): number {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}

const N = arg("--records", 40_000);
const LAST = arg("--last", 10_000);
const SETTINGS = { entities: [], personas: [] };

const records = sortedRecords(makeRecords(N));
const prompts = records.filter((r) => r.kind === "prompt");
const targets = new Set(prompts.slice(-LAST).map((r) => r.id));
console.log(
  `bench:replay: ${N} synthetic records, ${prompts.length} prompts, replaying the ${targets.size} latest`,
);

let t = performance.now();
const replayer = replayerFor(records, SETTINGS);
let fired = 0;
let replayed = 0;
for (const e of replayArchive(replayer, records, (r) => targets.has(r.id))) {
  replayed++;
  if (e.quoted.length > 0) fired++;
}
const engineMs = performance.now() - t;

t = performance.now();
const index = buildMemoryIndex(records);
for (const p of prompts.slice(-LAST)) {
  hintFor(index, {
    prompt: p.text,
    session: p.session,
    cwd: p.project,
    nowMs: Date.parse(p.time),
    shown: new Set(),
    entities: [],
    personas: [],
    top: 2,
    textOf: (doc) => records[doc]!.text,
  });
}
const baselineMs = performance.now() - t;

const dir = await Deno.makeTempDir({ prefix: "verdict-bench-replay-" });
let e2e = { ms: 0, rssKb: 0 };
try {
  const path = `${dir}/records.jsonl`;
  await Deno.writeTextFile(path, records.map((r) => recordLine(r) + "\n").join(""));
  const start = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: [
      "-f",
      "maxrss_kb=%M",
      Deno.execPath(),
      "run",
      "--quiet",
      ...verdictRunFlags(),
      MAIN_TS,
      "replay",
      "--records",
      path,
      "--last",
      String(LAST),
      "--json",
    ],
    env: { HOME: dir, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: denoDir() },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`verdict replay failed: ${err}`);
  e2e = { ms: performance.now() - start, rssKb: Number(/maxrss_kb=(\d+)/.exec(err)?.[1] ?? "0") };
} finally {
  await Deno.remove(dir, { recursive: true });
}

const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(`replayed ${replayed} prompts, fired on ${fired}`);
console.log(
  `engine in-process: ${f(engineMs)} (${
    (engineMs / replayed).toFixed(3)
  } ms/prompt) vs. index once + ${replayed} hints: ${f(baselineMs)} → ${(engineMs / baselineMs).toFixed(2)}×`,
);
console.log(
  `verdict replay end to end: ${f(e2e.ms)}, peak RSS ${
    (e2e.rssKb / 1024).toFixed(0)
  } MB (goal: well under 60 s)`,
);
