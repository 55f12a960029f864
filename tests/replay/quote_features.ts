/**
 * `deno task eval:features FILE`: whether anything the gate can see of a shown quote tells a relevant
 * quote from the rest on a person the rule was not fitted to. FILE is the shown quotes with their
 * blind labels, as `deno task eval:replay --blind-only --shown > FILE` writes them (one JSON object a
 * line). For each feature it prints how well it orders one person's quotes (the share of their
 * relevant-and-not pairs it puts the right way round, 0.5 being chance), person by person; then the
 * same for a weighted sum of all features fitted on the other people and scored on the one left out
 * (logistic regression, fixed iterations, no randomness), and the fit's in-sample figure beside it.
 * A feature worth a rule orders most people's quotes the same way; a weighted sum worth shipping keeps
 * its left-out figure near its in-sample one.
 */

import { markerTerms, statementDecision } from "../../src/rank/markers.ts";
import { isStopword } from "../../src/rank/stopwords.ts";
import { tokenize } from "../../src/rank/tokenize.ts";
import { taskArgs } from "../../scripts/task_args.ts";

/** The fields of a shown quote this reads (eval:replay --shown). */
export interface ShownQuote {
  readonly history: string;
  readonly label: string;
  readonly kind: string;
  readonly detail: string;
  readonly prompt: string;
  readonly quoted: string;
  readonly prompted: { readonly time: string; readonly project: string | null };
  readonly said: { readonly time: string; readonly project: string | null };
}

/** A feature: a number for a quote, larger meaning "more of it". */
interface Feature {
  readonly name: string;
  readonly of: (q: ShownQuote) => number;
}

const FILE_NAME = /\.[a-z0-9]{1,5}$/i;

/** The gate's anchors of the quote, as its detail names them ("on anchors a, b; coverage 40%"). */
function anchorsOf(q: ShownQuote): string[] {
  const m = /on anchors (.*?);/.exec(q.detail);
  return m === null ? [] : m[1]!.split(", ");
}

/** The share of the quote's own words (no stopword, no decision word) the prompt holds. */
function quoteWordsHeld(q: ShownQuote): number {
  const markers = markerTerms();
  const prompt = new Set(tokenize(q.prompt));
  const own = new Set(tokenize(q.quoted).filter((t) => !isStopword(t) && !markers.has(t)));
  if (own.size === 0) return 0;
  let held = 0;
  for (const t of own) if (prompt.has(t)) held++;
  return held / own.size;
}

/** Firm as the gate reads it: a doc or note, or a statement whose live marker is strong (markers.ts). */
function firm(q: ShownQuote): number {
  if (q.kind !== "prompt" && q.kind !== "commit") return 1;
  return statementDecision(q.quoted) === "strong" ? 1 : 0;
}

export const FEATURES: readonly Feature[] = [
  { name: "firm decision", of: firm },
  { name: "coverage of the prompt", of: (q) => Number(/coverage (\d+)%/.exec(q.detail)?.[1] ?? 0) / 100 },
  { name: "quote's words the prompt holds", of: quoteWordsHeld },
  {
    name: "anchored on file names only",
    of: (q) => {
      const a = anchorsOf(q);
      return a.length > 0 && a.every((t) => FILE_NAME.test(t) && !/^\d/.test(t)) ? 1 : 0;
    },
  },
  { name: "anchors", of: (q) => Math.min(anchorsOf(q).length, 5) / 5 },
  { name: "quote length", of: (q) => Math.log1p(q.quoted.length) / 8 },
  { name: "prompt length", of: (q) => Math.log1p(q.prompt.length) / 8 },
  { name: "prompt asks (?)", of: (q) => /[?？]/.test(q.prompt) ? 1 : 0 },
  { name: "tied to the sentence before", of: (q) => q.detail.includes("tied") ? 1 : 0 },
  { name: "rules out a name the prompt says", of: (q) => q.detail.includes("ruled-out") ? 1 : 0 },
  {
    name: "age of the quote",
    of: (q) => Math.log1p(Math.max(0, (Date.parse(q.prompted.time) - Date.parse(q.said.time)) / 864e5)) / 5,
  },
  { name: "same project", of: (q) => q.prompted.project === q.said.project ? 1 : 0 },
];

/**
 * The share of one person's (relevant, not relevant) pairs a score orders the right way round (ties
 * count half): 0.5 is chance. Null when the person has no such pair.
 */
export function pairOrder(
  scores: readonly number[],
  relevant: readonly boolean[],
): { share: number; pairs: number } | null {
  let right = 0;
  let pairs = 0;
  for (let i = 0; i < scores.length; i++) {
    if (!relevant[i]) continue;
    for (let j = 0; j < scores.length; j++) {
      if (relevant[j]) continue;
      pairs++;
      if (scores[i]! > scores[j]!) right++;
      else if (scores[i] === scores[j]) right += 0.5;
    }
  }
  return pairs === 0 ? null : { share: right / pairs, pairs };
}

/** Logistic regression by plain gradient descent (fixed steps, small L2): the same rows give the same weights. */
export function fitLogistic(rows: readonly number[][], labels: readonly boolean[]): number[] {
  const width = rows[0]?.length ?? 0;
  const w = new Array<number>(width + 1).fill(0);
  for (let step = 0; step < 3000; step++) {
    const grad = new Array<number>(width + 1).fill(0);
    rows.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-score(w, x)));
      const err = p - (labels[i] ? 1 : 0);
      grad[0]! += err;
      x.forEach((v, j) => grad[j + 1]! += err * v);
    });
    for (let j = 0; j <= width; j++) w[j]! -= 0.05 * (grad[j]! / rows.length + 0.01 * w[j]!);
  }
  return w;
}

function score(w: readonly number[], x: readonly number[]): number {
  let z = w[0]!;
  x.forEach((v, j) => z += v * w[j + 1]!);
  return z;
}

/** Per-person orderings, pooled by pairs and each person once, and the people on each side of chance. */
function summary(per: Map<string, { share: number; pairs: number }>): string {
  let right = 0;
  let pairs = 0;
  let above = 0;
  let below = 0;
  for (const o of per.values()) {
    right += o.share * o.pairs;
    pairs += o.pairs;
    if (o.share > 0.5) above++;
    if (o.share < 0.5) below++;
  }
  const shares = [...per.values()].map((o) => o.share);
  const mean = shares.length === 0 ? "-" : (shares.reduce((s, x) => s + x, 0) / shares.length).toFixed(2);
  const pooled = pairs === 0 ? "-" : (right / pairs).toFixed(2);
  return `${pooled} over ${pairs} pairs, ${mean} each person once; ${above} people above chance, ${below} below`;
}

function main(): void {
  taskArgs("eval:features", import.meta.url, Deno.args, { positionals: 1 });
  const file = Deno.args[0];
  if (file === undefined) {
    console.error(
      "eval:features: give the shown quotes: deno task eval:replay --blind-only --shown > shown.jsonl, then deno task eval:features shown.jsonl",
    );
    Deno.exit(2);
  }
  let quotes: ShownQuote[];
  try {
    quotes = Deno.readTextFileSync(file).split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  } catch (e) {
    console.error(
      `eval:features: cannot read ${file} as JSON lines (${
        (e as Error).message
      }); write it with eval:replay --shown`,
    );
    Deno.exit(2);
  }
  const people = [...new Set(quotes.map((q) => q.history))].sort();
  const relevant = quotes.map((q) => q.label === "relevant");
  const rows = quotes.map((q) => FEATURES.map((f) => f.of(q)));
  console.log(
    `eval:features: ${quotes.length} shown quotes, ${
      relevant.filter(Boolean).length
    } relevant, ${people.length} people; per person, the share of relevant-and-not pairs each feature orders right (0.5 = chance)`,
  );
  const perPerson = (scores: readonly number[]) => {
    const out = new Map<string, { share: number; pairs: number }>();
    for (const p of people) {
      const idx = quotes.flatMap((q, i) => q.history === p ? [i] : []);
      const o = pairOrder(idx.map((i) => scores[i]!), idx.map((i) => relevant[i]!));
      if (o !== null) out.set(p, o);
    }
    return out;
  };
  const line = (name: string, per: Map<string, { share: number; pairs: number }>) =>
    `  ${name.padEnd(34)} ${summary(per)}\n    ${
      [...per].map(([p, o]) => `${p.slice(0, 10)} ${o.share.toFixed(2)}`).join("  ")
    }`;
  FEATURES.forEach((f, j) => console.log(line(f.name, perPerson(rows.map((r) => r[j]!)))));
  const inSample = fitLogistic(rows, relevant);
  console.log(line("all features, fitted on everyone", perPerson(rows.map((r) => score(inSample, r)))));
  const leftOut = new Array<number>(quotes.length).fill(0);
  for (const p of people) {
    const train = quotes.flatMap((q, i) => q.history === p ? [] : [i]);
    const w = fitLogistic(train.map((i) => rows[i]!), train.map((i) => relevant[i]!));
    quotes.forEach((q, i) => {
      if (q.history === p) leftOut[i] = score(w, rows[i]!);
    });
  }
  console.log(line("all features, person left out", perPerson(leftOut)));
}

if (import.meta.main) main();
