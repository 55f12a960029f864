/**
 * `deno task bench:gate [--records N] [--rounds R] [--against DIR]`: what the gate adds to the
 * hook's per-prompt work, in process, beside the search it judges.
 *
 * For each prompt, in rounds that alternate the order, the same process times (a) the hook's
 * search alone (the typed part, the hook's options) and (b) the hook's whole decision
 * (`hintFor`: typed part, search, gate); each prompt's figure is its median over the rounds, so
 * a machine shared with other work moves both alike. Two sets of prompts:
 *   - synthetic: bench:hint's 300 queries over its records (default 200,000) in a MemoryIndex;
 *   - real: every typed prompt of the development histories (../shared/data/histories; skipped
 *     with a printed reason when absent), each against its own whole history.
 * Printed: p50/p95 of (a), of (b), and of (b) − (a), the gate's own part, with (b)/(a).
 * `--against DIR`: a checkout of another commit (e.g. `git archive <rev> | tar -x -C DIR`), its
 * `hintFor` timed the same way, interleaved with this one's over the same records (each tree its
 * own index): a before/after in one run. Goal (issue 10): search + gate p50 ≤ 0.2 ms, p95 ≤ 1 ms
 * at 2·10⁵ records.
 */
import type { VerdictRecord } from "../src/record/record.ts";
import { GATE_CANDIDATES, hintFor, type HintRequest, searchOptions, typedPrompt } from "../src/gate/hint.ts";
import { buildMemoryIndex } from "../src/rank/memory_index.ts";
import { corpusLexicon, search } from "../src/rank/score.ts";
import { termOrigins } from "../src/rank/tokenize.ts";
import type { Corpus } from "../src/rank/bm25.ts";
import { makeRecords, queries } from "./hint_bench_data.ts";
import { historiesMissing, historyNames, loadHistory } from "../tests/replay/histories.ts";
import { taskArgs } from "../scripts/task_args.ts";

taskArgs("bench:gate", import.meta.url, Deno.args, { values: ["--records", "--rounds", "--against"] });

function arg(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}
const N = Number(arg("--records") ?? 200_000);
const ROUNDS = Number(arg("--rounds") ?? 7);
const AGAINST = arg("--against");
/** Rounds run before timing starts (JIT warm-up, posting lists first read). */
const WARM_ROUNDS = 2;

type HintFn = (corpus: Corpus, req: HintRequest) => unknown;
interface Side {
  readonly name: string;
  readonly hint: HintFn;
  readonly index: (records: readonly VerdictRecord[]) => Corpus;
}

const sides: Side[] = [{ name: "this tree", hint: hintFor, index: (r) => buildMemoryIndex(r) }];
if (AGAINST !== undefined) {
  const dir = AGAINST.replace(/\/+$/, "");
  const other = await import(`file://${dir}/src/gate/hint.ts`);
  const mem = await import(`file://${dir}/src/rank/memory_index.ts`);
  sides.push({ name: dir, hint: other.hintFor, index: (r) => mem.buildMemoryIndex(r) });
}

function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const median = (xs: readonly number[]) => pct(xs, 50);
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

interface Case {
  readonly records: readonly VerdictRecord[];
  readonly prompts: readonly { text: string; session: string | null; cwd: string | null; nowMs: number }[];
}

/** Times every prompt of `c`: search alone and each side's whole decision, interleaved. */
function measure(label: string, c: Case): void {
  const corpora = sides.map((s) => s.index(c.records));
  const textOf = (doc: number) => c.records[doc]!.text;
  const req = (p: Case["prompts"][number]): HintRequest => ({
    prompt: p.text,
    session: p.session,
    cwd: p.cwd,
    nowMs: p.nowMs,
    shown: new Set(),
    entities: [],
    personas: [],
    top: 2,
    textOf,
  });
  const searchMs: number[][] = c.prompts.map(() => []);
  const hintMs: number[][][] = sides.map(() => c.prompts.map(() => []));
  for (let round = 0; round < WARM_ROUNDS + ROUNDS; round++) {
    c.prompts.forEach((p, i) => {
      const r = req(p);
      const jobs: (() => void)[] = [() => {
        const typed = typedPrompt(r.prompt).text;
        const t = performance.now();
        if (typed !== "") {
          const origins = termOrigins(typed, corpusLexicon(corpora[0]!));
          search(corpora[0]!, typed, searchOptions(corpora[0]!, r, GATE_CANDIDATES, origins));
        }
        if (round >= WARM_ROUNDS) searchMs[i]!.push(performance.now() - t);
      }];
      sides.forEach((s, k) =>
        jobs.push(() => {
          const t = performance.now();
          s.hint(corpora[k]!, r);
          if (round >= WARM_ROUNDS) hintMs[k]![i]!.push(performance.now() - t);
        })
      );
      // Alternate the order, so neither always runs with the other's caches warm.
      if ((round + i) % 2 === 1) jobs.reverse();
      for (const job of jobs) job();
    });
  }
  const s = searchMs.map(median);
  console.log(
    `${label}: ${c.records.length} records, ${c.prompts.length} prompts, median of ${ROUNDS} rounds each`,
  );
  console.log(
    `  search alone (the hook's options)          p50 ${fmt(pct(s, 50)).padStart(8)}  p95 ${
      fmt(pct(s, 95)).padStart(8)
    }`,
  );
  sides.forEach((side, k) => {
    const h = hintMs[k]!.map(median);
    const gate = h.map((x, i) => Math.max(0, x - s[i]!));
    console.log(
      `  hintFor, ${side.name.padEnd(33)} p50 ${fmt(pct(h, 50)).padStart(8)}  p95 ${
        fmt(pct(h, 95)).padStart(8)
      }` +
        `   (${(pct(h, 50) / pct(s, 50)).toFixed(2)}× / ${
          (pct(h, 95) / pct(s, 95)).toFixed(2)
        }× search alone)`,
    );
    console.log(
      `    of which beside the search               p50 ${fmt(pct(gate, 50)).padStart(8)}  p95 ${
        fmt(pct(gate, 95)).padStart(8)
      }`,
    );
  });
}

const nowMs = Date.parse("2026-01-01T00:00:00Z");
measure("synthetic (bench:hint's records and queries)", {
  records: makeRecords(N),
  prompts: queries(300).map((text) => ({ text, session: null, cwd: "/home/dev/p3", nowMs })),
});

const missing = historiesMissing();
if (missing !== null) console.log(`real histories: skipped: ${missing}`);
else {
  for (const name of historyNames()) {
    const records = loadHistory(name).records;
    measure(`real: ${name}`, {
      records,
      prompts: records.filter((r) => r.kind === "prompt").map((r) => ({
        text: r.text,
        session: r.session,
        cwd: r.project === "" ? null : r.project,
        nowMs: Date.parse(r.time),
      })),
    });
  }
}
