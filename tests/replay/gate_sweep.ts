/**
 * `deno task eval:sweep`: the gate's constants chosen the way they will meet a new user. Each
 * point varies the gate's thresholds (one at a time, then a few together) and is measured by the
 * project's own evaluation in a separate process (`eval:replay --json`, per person, over all the
 * people of the shared data). Then, for each person in turn, the point is chosen on the other
 * people and that person's figures at it are reported (tests/replay/leave_one_out.ts): those
 * left-out figures are the sweep's result. `--curve` prints the older pooled operating curve
 * (every point, with the probes of `eval:gate`) instead.
 *
 * A point is a copy of the project in a private temp folder with the constants' declarations
 * rewritten, never a code path of the product: the gate keeps one set of named constants, and
 * the sweep cannot leave a knob behind in it. Every rewrite must match its declaration exactly
 * once, so a renamed constant stops the sweep instead of measuring the baseline twice.
 *
 * A point's new quotes are unlabelled (counted beside the figures, never as relevant): precision
 * here is a lower bound until they are judged. `--unlabelled FILE` (with `--curve`) writes every
 * point's unlabelled pairs, with their texts and the point that showed each, to FILE (outside the
 * repository) for labelling; `--only NAME,NAME` measures only those points; `--jobs N` runs N
 * points at once (default 2, one per core). Prints a progress line per point.
 */

import { people } from "./histories.ts";
import {
  leaveOneOut,
  looTable,
  type PairPoint,
  perConstant,
  type PersonPoint,
  type PointRun,
} from "./leave_one_out.ts";
import { taskArgs } from "../../scripts/task_args.ts";

/** One constant's declaration, rewritten. */
interface Rewrite {
  /** Source file, relative to the project's root. */
  readonly file: string;
  /** The declaration as it stands (matched exactly once). */
  readonly from: string;
  readonly to: string;
}

interface Point {
  readonly name: string;
  readonly rewrites: readonly Rewrite[];
}

const GATE = "src/gate/gate.ts";
const SCORE = "src/rank/score.ts";
const HINT = "src/gate/hint.ts";
const MARKERS = "src/rank/markers.ts";

function constant(file: string, name: string, value: string, was: string): Rewrite {
  return { file, from: `export const ${name} = ${was};`, to: `export const ${name} = ${value};` };
}

/** The prompt-side coverage test, for every statement and record (a statement covers this share of the prompt's weight). */
function forwardCoverage(value: number): Rewrite {
  return { file: GATE, from: "if (coverage < minCoverage) {", to: `if (coverage < ${value}) {` };
}

/** The statement-side coverage test (the prompt covers this share of the statement's rare words). */
function reverseCoverage(value: number): Rewrite {
  return { file: GATE, from: "if (reverse < MIN_COVERAGE) {", to: `if (reverse < ${value}) {` };
}

const point = (name: string, ...rewrites: Rewrite[]): Point => ({ name, rewrites });

/** The curve: the baseline, each threshold one step either way, then a few together. */
export const POINTS: readonly Point[] = [
  point("baseline"),
  point("coverage 0.15", constant(GATE, "MIN_COVERAGE", "0.15", "0.25")),
  point("coverage 0.20", constant(GATE, "MIN_COVERAGE", "0.2", "0.25")),
  point("coverage 0.30", constant(GATE, "MIN_COVERAGE", "0.3", "0.25")),
  point("prompt coverage 0.20", forwardCoverage(0.2)),
  point("prompt coverage 0.25", forwardCoverage(0.25)),
  point("statement coverage 0.15", reverseCoverage(0.15)),
  point("statement coverage 0.10", reverseCoverage(0.1)),
  point("statement coverage 0.35", reverseCoverage(0.35)),
  point("statement coverage 0.45", reverseCoverage(0.45)),
  point("prompt coverage 0.30", forwardCoverage(0.3)),
  point("prompt coverage 0.35", forwardCoverage(0.35)),
  point("soft coverage 0.25", constant(GATE, "PROMPT_MIN_COVERAGE", "0.25", "0.35")),
  point("soft coverage 0.30", constant(GATE, "PROMPT_MIN_COVERAGE", "0.3", "0.35")),
  point("soft coverage 0.40", constant(GATE, "PROMPT_MIN_COVERAGE", "0.4", "0.35")),
  point("soft coverage 0.45", constant(GATE, "PROMPT_MIN_COVERAGE", "0.45", "0.35")),
  point("anchor idf share 0.50", constant(GATE, "ANCHOR_IDF_SHARE", "0.5", "0.6")),
  point("anchor idf share 0.55", constant(GATE, "ANCHOR_IDF_SHARE", "0.55", "0.6")),
  point("anchor idf share 0.70", constant(GATE, "ANCHOR_IDF_SHARE", "0.7", "0.6")),
  point("anchor max df 2", constant(GATE, "ANCHOR_MAX_DF", "2", "3")),
  point("anchor max df 5", constant(GATE, "ANCHOR_MAX_DF", "5", "3")),
  point("distinct things 1", constant(GATE, "MIN_DISTINCT_THINGS", "1", "2")),
  point("common share 0.02", constant(SCORE, "COMMON_SESSION_SHARE", "0.02", "0.01")),
  point("common min sessions 20", constant(SCORE, "COMMON_MIN_SESSIONS", "20", "10")),
  point("common min sessions 5", constant(SCORE, "COMMON_MIN_SESSIONS", "5", "10")),
  point("tail share 0.40", constant(GATE, "TAIL_SCORE_SHARE", "0.4", "0.6")),
  point("candidates 30", constant(HINT, "GATE_CANDIDATES", "30", "15")),
  point("turn-down reach 3", constant(MARKERS, "TURN_DOWN_REACH_WORDS", "3", "5")),
  point("turn-down reach 8", constant(MARKERS, "TURN_DOWN_REACH_WORDS", "8", "5")),
  point(
    "coverage 0.20 + anchor share 0.55",
    constant(GATE, "MIN_COVERAGE", "0.2", "0.25"),
    constant(GATE, "ANCHOR_IDF_SHARE", "0.55", "0.6"),
  ),
  point(
    "coverage 0.20 + anchor share 0.70",
    constant(GATE, "MIN_COVERAGE", "0.2", "0.25"),
    constant(GATE, "ANCHOR_IDF_SHARE", "0.7", "0.6"),
  ),
  point(
    "prompt coverage 0.20 + statement coverage 0.15",
    forwardCoverage(0.2),
    reverseCoverage(0.15),
  ),
];

/**
 * The points the leave-one-person-out run measures: the baseline and each constant one step
 * either way (the combinations are left to the curve). Each point costs about 20 s of one core.
 */
export const LOO_POINTS: readonly string[] = [
  "baseline",
  "coverage 0.20",
  "coverage 0.30",
  "statement coverage 0.35",
  "statement coverage 0.45",
  "soft coverage 0.25",
  "soft coverage 0.30",
  "soft coverage 0.40",
  "anchor idf share 0.50",
  "anchor idf share 0.70",
  "anchor max df 5",
  "distinct things 1",
  "common min sessions 20",
  "tail share 0.40",
  "candidates 30",
  "turn-down reach 3",
  "turn-down reach 8",
];

/** The constant a point varies, by its name ("coverage 0.20" → "coverage"); null for a combination. */
export function familyOf(name: string): string | null {
  const p = POINTS.find((x) => x.name === name);
  if (p === undefined || p.rewrites.length !== 1) return null;
  return name.replace(/ [0-9.]+$/, "");
}

/** Prompts per person in each cross pair of a leave-one-out point (eval:replay's fixed sample). */
export const LOO_CROSS_SAMPLE = 150;

/** What one point measured. */
export interface PointFigures {
  readonly name: string;
  readonly prompts: number;
  readonly fired: number;
  readonly quotes: number;
  readonly relevant: number;
  readonly unlabelledQuotes: number;
  readonly cross: { readonly fired: number; readonly prompts: number };
  readonly transcripts: { readonly fired: number; readonly prompts: number };
  readonly pool: {
    readonly relevant: number;
    readonly shown: number;
    readonly unlabelled: number;
  };
  readonly probes: string;
}

const ROOT = new URL("../../", import.meta.url);
/** What a point's copy needs: the program and its evaluations. */
const COPIED = ["src", "tests", "scripts", "deno.json", "deno.lock", "main.ts"];

async function run(cmd: string, args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(
      `Cannot run "${cmd} ${args.join(" ")}": exit ${out.code}\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return text;
}

/** Applies a point's rewrites to a copy; throws unless each declaration is there exactly once. */
export function rewrite(source: string, r: Rewrite): string {
  const at = source.indexOf(r.from);
  if (at < 0 || source.indexOf(r.from, at + 1) >= 0) {
    throw new Error(
      `Cannot rewrite "${r.file}": "${r.from}" is there ${at < 0 ? "no" : "more than one"} time`,
    );
  }
  return source.slice(0, at) + r.to + source.slice(at + r.from.length);
}

interface ReplayJson {
  total: {
    prompts: number;
    fired: number;
    quotes: number;
    relevantQuotes: number;
    unlabelledQuotes: number;
    poolRelevant: number;
    poolRelevantShown: number;
    poolUnlabelled: number;
  };
  cross: { prompts: string; archive: string; promptCount: number; fired: number }[];
  transcriptCross: { promptCount: number; fired: number }[];
  rows: {
    labelled: boolean;
    own: {
      history: string;
      prompts: number;
      fired: number;
      quotes: number;
      relevantQuotes: number;
      unlabelledQuotes: number;
      poolRelevant: number;
      poolRelevantShown: number;
    };
  }[];
}

/** A copy of the project at `dir` with the point's rewrites, and the shared data beside it. */
async function copyFor(p: Point, dir: string): Promise<string> {
  const copy = `${dir}/verdict`;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir);
  // The copy finds the evaluation data where the project does: in the folder beside it.
  await Deno.symlink(decodeURIComponent(new URL("../shared/", ROOT).pathname), `${dir}/shared`);
  await Deno.mkdir(copy);
  const root = decodeURIComponent(ROOT.pathname);
  await run("cp", ["-r", ...COPIED.map((c) => `${root}${c}`), copy]);
  for (const r of p.rewrites) {
    const path = `${copy}/${r.file}`;
    await Deno.writeTextFile(path, rewrite(await Deno.readTextFile(path), r));
  }
  return copy;
}

/** One point per person and per cross pair, for the leave-one-out choice. */
async function measurePerPerson(p: Point, dir: string): Promise<PointRun> {
  const copy = await copyFor(p, dir);
  const replay = JSON.parse(
    await run("deno", [
      "run",
      "--allow-read",
      "tests/replay/replay_eval.ts",
      "--json",
      "--blind-only",
      "--no-fresh",
      "--cross-sample",
      String(LOO_CROSS_SAMPLE),
    ], copy),
  ) as ReplayJson;
  const persons: PersonPoint[] = replay.rows.map((r) => ({
    name: r.own.history,
    labelled: r.labelled,
    prompts: r.own.prompts,
    fired: r.own.fired,
    quotes: r.own.quotes,
    relevant: r.own.relevantQuotes,
    unlabelledQuotes: r.own.unlabelledQuotes,
    poolRelevant: r.own.poolRelevant,
    poolShown: r.own.poolRelevantShown,
  }));
  const pairs: PairPoint[] = replay.cross.map((c) => ({
    prompts: c.prompts,
    archive: c.archive,
    fired: c.fired,
    promptCount: c.promptCount,
  }));
  return { name: p.name, persons, pairs };
}

/** Runs `work` over `items`, at most `jobs` at once, results in the items' order. */
async function pooled<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  // The first failure stops new work; the points already running finish before it is thrown, so
  // the caller's cleanup never races a job still writing into the temp folder.
  let failed: { error: unknown } | null = null;
  const worker = async () => {
    while (next < items.length && failed === null) {
      const i = next++;
      try {
        out[i] = await work(items[i]!, i);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  if (failed !== null) throw (failed as { error: unknown }).error;
  return out;
}

async function measure(p: Point, dir: string, unlabelled: string[] | null): Promise<PointFigures> {
  const copy = await copyFor(p, dir);
  const replay = JSON.parse(
    await run("deno", ["run", "--allow-read", "tests/replay/replay_eval.ts", "--json", "--blind-only"], copy),
  ) as ReplayJson;
  const gate = await run("deno", ["run", "--allow-read", "tests/gate/gate_eval.ts"], copy);
  const probes = gate.trim().split("\n").at(-1)?.replace(/^gate on \d+ probes: /, "") ?? "";
  if (unlabelled !== null && (replay.total.unlabelledQuotes > 0 || replay.total.poolUnlabelled > 0)) {
    const lines = await run(
      "deno",
      ["run", "--allow-read", "tests/replay/replay_eval.ts", "--unlabelled"],
      copy,
    );
    // Each pair with the point that showed it (a pair several points show is listed once per point).
    for (const l of lines.split("\n")) {
      if (l.trim() !== "") unlabelled.push(JSON.stringify({ point: p.name, ...JSON.parse(l) }));
    }
  }
  const sum = (rows: { promptCount: number; fired: number }[]) => ({
    fired: rows.reduce((n, r) => n + r.fired, 0),
    prompts: rows.reduce((n, r) => n + r.promptCount, 0),
  });
  const t = replay.total;
  return {
    name: p.name,
    prompts: t.prompts,
    fired: t.fired,
    quotes: t.quotes,
    relevant: t.relevantQuotes,
    unlabelledQuotes: t.unlabelledQuotes,
    cross: sum(replay.cross),
    transcripts: sum(replay.transcriptCross),
    pool: { relevant: t.poolRelevant, shown: t.poolRelevantShown, unlabelled: t.poolUnlabelled },
    probes,
  };
}

const pct = (n: number, of: number, digits = 1) => (of === 0 ? "-" : `${((100 * n) / of).toFixed(digits)}%`);

/** The curve as a table: one row per point; precision counts an unlabelled quote as not relevant. */
export function table(rows: readonly PointFigures[]): string {
  const head = [
    "point",
    "fired",
    "relevant/quotes",
    "unlab.",
    "cross-paired",
    "transcripts",
    "pooled recall",
    "pool unlab.",
    "probes",
  ];
  const body = rows.map((r) => [
    r.name,
    `${r.fired} (${pct(r.fired, r.prompts)})`,
    `${r.relevant}/${r.quotes} = ${pct(r.relevant, r.quotes)}`,
    `${r.unlabelledQuotes}`,
    `${r.cross.fired}/${r.cross.prompts} = ${pct(r.cross.fired, r.cross.prompts, 2)}`,
    `${r.transcripts.fired}/${r.transcripts.prompts}`,
    `${r.pool.shown}/${r.pool.relevant} = ${pct(r.pool.shown, r.pool.relevant)}`,
    `${r.pool.unlabelled}`,
    r.probes,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(head), ...body.map(line)].join("\n") + "\n";
}

if (import.meta.main) {
  taskArgs("eval:sweep", import.meta.url, Deno.args, {
    values: ["--only", "--unlabelled", "--jobs"],
    switches: ["--curve"],
  });
  const onlyAt = Deno.args.indexOf("--only");
  const only = onlyAt >= 0 ? new Set(Deno.args[onlyAt + 1]!.split(",")) : null;
  const outAt = Deno.args.indexOf("--unlabelled");
  const outFile = outAt >= 0 ? Deno.args[outAt + 1]! : null;
  const jobsAt = Deno.args.indexOf("--jobs");
  const jobs = jobsAt >= 0 ? Number(Deno.args[jobsAt + 1]) : 2;
  const curve = Deno.args.includes("--curve");
  const points = POINTS.filter((
    p,
  ) => (only === null ? curve || LOO_POINTS.includes(p.name) : only.has(p.name)));
  if (points.length === 0 || !Number.isInteger(jobs) || jobs < 1) {
    console.error(
      points.length === 0
        ? `Cannot sweep "${[...(only ?? [])].join(",")}": no such point`
        : `Cannot run --jobs ${Deno.args[jobsAt + 1]}: a whole number of processes, 1 or more`,
    );
    console.error(`hint: the points are ${POINTS.map((p) => `"${p.name}"`).join(", ")}`);
    Deno.exit(3);
  }
  const found = people();
  if (found.people.length === 0) {
    console.log(`eval:sweep: skipped: no histories (${found.skipped.join("; ")})`);
    Deno.exit(0);
  }
  if (!curve && points[0]!.name !== "baseline") {
    console.error('Cannot leave one person out without the "baseline" point first (or run --curve)');
    Deno.exit(3);
  }
  const base = await Deno.makeTempDir({ prefix: "verdict-sweep-" });
  const started = performance.now();
  const progress = (i: number, name: string, t0: number) =>
    console.error(`[${i + 1}/${points.length}] ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  try {
    if (curve) {
      const unlabelled: string[] | null = outFile === null ? null : [];
      const rows = await pooled(points, jobs, async (p, i) => {
        const t0 = performance.now();
        const r = await measure(p, `${base}/p${i}`, unlabelled);
        progress(i, p.name, t0);
        return r;
      });
      await Deno.stdout.write(new TextEncoder().encode(table(rows)));
      if (outFile !== null && unlabelled !== null) {
        const unique = [...new Set(unlabelled)];
        await Deno.writeTextFile(`${outFile}.tmp`, unique.map((l) => l + "\n").join(""));
        await Deno.rename(`${outFile}.tmp`, outFile);
        console.error(`${unique.length} unlabelled pairs written to ${outFile}`);
      }
    } else {
      const runs = await pooled(points, jobs, async (p, i) => {
        const t0 = performance.now();
        const r = await measurePerPerson(p, `${base}/p${i}`);
        progress(i, p.name, t0);
        return r;
      });
      const persons = runs[0]!.persons.length;
      await Deno.stdout.write(
        new TextEncoder().encode(
          `eval:sweep: leave one person out over ${persons} people and ${points.length} points (cross pairs: ${LOO_CROSS_SAMPLE} sampled prompts per person); each point chosen on the others (precision ≥ 80% and cross-paired false fires ≤ 0.5%, then the highest pooled recall), the left-out person's figures reported; precision counts an unlabelled quote as not relevant, and only people with labels\n` +
            looTable(leaveOneOut(runs)) + perConstant(runs, familyOf),
        ),
      );
    }
    console.error(`eval:sweep: ${((performance.now() - started) / 1000).toFixed(0)} s, ${jobs} at once`);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}
