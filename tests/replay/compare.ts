/**
 * `deno task eval:compare BEFORE AFTER`: a gate change person by person. BEFORE and AFTER are the
 * figures of two trees, each written by `deno task eval:replay --blind-only --json > FILE` (run the
 * before tree's from a copy of it). For precision and recall it prints each person's share before
 * and after and whether the change helps, hurts or leaves them; how many it helps and hurts; the
 * macro share before and after; and the interval of the macro change over people drawn again with
 * replacement (the same people on both sides: 2,000 draws, a fixed seed, the middle 90%). It calls
 * the change a regression when it hurts more people than it helps on either figure (issue 27: "a
 * change that helps one history and hurts two is a regression"), and says when the after tree
 * shows quotes no blind reader has labelled yet (they count as not relevant until they are).
 */

import { taskArgs } from "../../scripts/task_args.ts";
import { INTERVAL_DRAWS, INTERVAL_LEVEL, middleOfDraws } from "./per_person.ts";

/** A file the comparison cannot read: the message says which and what to do. */
export class CompareInputError extends Error {}

/** One person's two figures as counts: [relevant, labelled] and [shown, relevant in the pool]. */
export interface PersonCounts {
  readonly history: string;
  readonly precision: readonly [number, number];
  readonly recall: readonly [number, number];
  readonly unlabelled: number;
}

/** The figures of one eval:replay --json run that the comparison reads. */
export interface RunFigures {
  readonly blindOnly: boolean;
  readonly people: readonly PersonCounts[];
}

const count = (v: unknown, what: string, file: string): number => {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    throw new CompareInputError(
      `${file}: ${what} is not a count; write it with eval:replay --blind-only --json`,
    );
  }
  return v;
};

/** The figures of an eval:replay --json output (`file` names it in errors). */
export function runFigures(json: unknown, file: string): RunFigures {
  const o = json as { rows?: unknown; blindOnly?: unknown } | null;
  if (o === null || typeof o !== "object" || !Array.isArray(o.rows) || typeof o.blindOnly !== "boolean") {
    throw new CompareInputError(
      `${file}: not the output of eval:replay --json (no rows or blindOnly); write it with deno task eval:replay --blind-only --json > ${file}`,
    );
  }
  const people = o.rows.map((row: { own?: Record<string, unknown> }, i: number) => {
    const own = row?.own;
    if (own === undefined || typeof own.history !== "string") {
      throw new CompareInputError(`${file}: row ${i + 1} has no person; write it with eval:replay --json`);
    }
    const at = (k: string) => count(own[k], `${own.history}'s ${k}`, file);
    const unlabelled = at("unlabelledQuotes");
    return {
      history: own.history,
      precision: [at("relevantQuotes"), at("quotes") - unlabelled] as const,
      recall: [at("poolRelevantShown"), at("poolRelevant")] as const,
      unlabelled,
    };
  });
  return { blindOnly: o.blindOnly, people };
}

/** A person's share before and after, and what the change did to it. */
export interface PersonChange {
  readonly history: string;
  readonly before: number | null;
  readonly after: number | null;
  readonly verdict: "helps" | "hurts" | "same" | "-";
}

const shareOf = ([n, d]: readonly [number, number]) => (d === 0 ? null : n / d);

/** Each person's share of one figure before and after (persons of either run, in BEFORE's order). */
export function changes(
  before: RunFigures,
  after: RunFigures,
  figure: "precision" | "recall",
): PersonChange[] {
  const beforeOf = new Map(before.people.map((p) => [p.history, p]));
  const afterOf = new Map(after.people.map((p) => [p.history, p]));
  return [...new Set([...beforeOf.keys(), ...afterOf.keys()])].map((history) => {
    const b = beforeOf.get(history);
    const a = afterOf.get(history);
    const x = b ? shareOf(b[figure]) : null;
    const y = a ? shareOf(a[figure]) : null;
    // A share that exists on one side only (the first quote shown, the last one gone) is a change
    // with nothing to weigh it against: neither help nor harm is read into it.
    const verdict = x === null || y === null ? "-" : y > x ? "helps" : y < x ? "hurts" : "same";
    return { history, before: x, after: y, verdict };
  });
}

const macroOf = (shares: readonly (number | null)[]) => {
  const defined = shares.filter((s): s is number => s !== null);
  return defined.length === 0 ? null : defined.reduce((s, x) => s + x, 0) / defined.length;
};

/**
 * The interval of the macro change (after's macro share minus before's) over the people drawn
 * again with replacement, the same draw on both sides; null when no person has both shares.
 */
export function changeInterval(
  people: readonly PersonChange[],
  draws = INTERVAL_DRAWS,
  level = INTERVAL_LEVEL,
): { low: number; high: number } | null {
  const both = people.filter((p) => p.before !== null && p.after !== null);
  if (both.length === 0) return null;
  return middleOfDraws(
    (next) => {
      let sum = 0;
      for (let i = 0; i < both.length; i++) {
        const p = both[Math.floor(next() * both.length)]!;
        sum += p.after! - p.before!;
      }
      return sum / both.length;
    },
    draws,
    level,
  );
}

const pct = (x: number | null) => (x === null ? "-" : `${(100 * x).toFixed(1)}%`);
const points = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}`;

/** The comparison's lines, and whether it is a regression. */
export function compareReport(
  before: RunFigures,
  after: RunFigures,
): { lines: string[]; regression: boolean } {
  const lines: string[] = [];
  if (before.blindOnly !== after.blindOnly) {
    lines.push(
      `note: BEFORE is ${before.blindOnly ? "" : "not "}blind-only and AFTER is ${
        after.blindOnly ? "" : "not "
      }: the two count different labels; run both with --blind-only`,
    );
  }
  const unlabelled = after.people.reduce((s, p) => s + p.unlabelled, 0);
  if (unlabelled > 0) {
    lines.push(
      `note: AFTER shows ${unlabelled} quote(s) no reader has labelled; precision leaves them out until a blind reader labels them (eval:replay --export-pairs FILE)`,
    );
  }
  let regression = false;
  for (const figure of ["precision", "recall"] as const) {
    const people = changes(before, after, figure);
    const width = Math.max(...people.map((p) => p.history.length), 6);
    lines.push(`${figure} per person: before → after`);
    for (const p of people) {
      lines.push(
        `  ${p.history.padEnd(width)}  ${pct(p.before).padStart(6)} → ${
          pct(p.after).padStart(6)
        }  ${p.verdict}`,
      );
    }
    const helps = people.filter((p) => p.verdict === "helps").length;
    const hurts = people.filter((p) => p.verdict === "hurts").length;
    const b = macroOf(people.map((p) => p.before));
    const a = macroOf(people.map((p) => p.after));
    const interval = changeInterval(people);
    lines.push(
      `  helps ${helps}, hurts ${hurts}, unchanged ${
        people.filter((p) => p.verdict === "same").length
      }; macro ${pct(b)} → ${pct(a)}${
        interval === null
          ? ""
          : `; the change over people drawn again: ${points(interval.low)} to ${
            points(interval.high)
          } points (middle ${INTERVAL_LEVEL * 100}% of ${INTERVAL_DRAWS.toLocaleString("en-US")} draws)`
      }`,
    );
    if (hurts > helps) {
      regression = true;
      lines.push(
        `  a regression: it hurts ${hurts} ${
          hurts === 1 ? "person's" : "people's"
        } ${figure} and helps ${helps}`,
      );
    }
  }
  lines.push(regression ? "verdict: a regression" : "verdict: no person-level regression");
  return { lines, regression };
}

function readRun(file: string): RunFigures {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (e) {
    throw new CompareInputError(`cannot read ${file} (${(e as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CompareInputError(
      `${file} is not JSON; write it with deno task eval:replay --blind-only --json > ${file}`,
    );
  }
  return runFigures(json, file);
}

function main(): void {
  taskArgs("eval:compare", import.meta.url, Deno.args, { positionals: 2 });
  const [beforeFile, afterFile] = Deno.args;
  if (beforeFile === undefined || afterFile === undefined) {
    console.error(
      "eval:compare: give two runs' figures: deno task eval:replay --blind-only --json > before.json (on the old tree), the same > after.json, then deno task eval:compare before.json after.json",
    );
    Deno.exit(2);
  }
  try {
    const { lines, regression } = compareReport(readRun(beforeFile), readRun(afterFile));
    console.log(lines.join("\n"));
    Deno.exit(regression ? 1 : 0);
  } catch (e) {
    if (!(e instanceof CompareInputError)) throw e;
    console.error(`eval:compare: ${e.message}`);
    Deno.exit(2);
  }
}

if (import.meta.main) main();
