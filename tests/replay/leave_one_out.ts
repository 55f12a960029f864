/**
 * Leave one person out: a gate setting is chosen the way it will meet a new user, on the other
 * people, and measured on the one left out, for each person in turn; the left-out figures are
 * the ones reported. Pure: the sweep's measured points in, the choice and the table out.
 *
 * The choice on the others, in order: a point whose cross-paired false fires (the others' pairs
 * only) are at most MAX_CROSS and whose macro precision (labelled persons; an unlabelled quote
 * counts as not relevant, so a new quote cannot flatter a point) is at least MIN_PRECISION, with
 * the highest macro pooled recall; if no point is that good, the highest macro precision among
 * those within MAX_CROSS; if none is, the fewest false fires. Ties go to the higher precision, the
 * lower fire rate, then the earlier point (the baseline is first).
 */

/** The targets of the evaluation protocol, used as the choice's bounds. */
export const MIN_PRECISION = 0.8;
export const MAX_CROSS = 0.005;

/** One person's figures at one point. */
export interface PersonPoint {
  readonly name: string;
  /** Has a label file: precision and recall count for them. */
  readonly labelled: boolean;
  readonly prompts: number;
  readonly fired: number;
  readonly quotes: number;
  readonly relevant: number;
  readonly unlabelledQuotes: number;
  readonly poolRelevant: number;
  readonly poolShown: number;
}

/** One ordered cross pair at one point. */
export interface PairPoint {
  readonly prompts: string;
  readonly archive: string;
  readonly fired: number;
  readonly promptCount: number;
}

/** What the sweep measured at one point. */
export interface PointRun {
  readonly name: string;
  readonly persons: readonly PersonPoint[];
  readonly pairs: readonly PairPoint[];
}

/** Figures over a set of persons (macro: each person once), null where undefined. */
export interface Scores {
  readonly fireRate: number | null;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly crossFired: number;
  readonly crossPrompts: number;
  readonly unlabelledQuotes: number;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

/**
 * The figures of `run` over `persons`: fire rate, precision (labelled persons with a quote) and
 * pooled recall (labelled persons with a relevant candidate) macro-averaged; the cross pairs
 * whose two sides pass `pairIn`, pooled.
 */
export function scoresOf(
  run: PointRun,
  persons: (name: string) => boolean,
  pairIn: (p: PairPoint) => boolean,
): Scores {
  const ps = run.persons.filter((p) => persons(p.name));
  const pairs = run.pairs.filter(pairIn);
  return {
    fireRate: mean(ps.filter((p) => p.prompts > 0).map((p) => p.fired / p.prompts)),
    precision: mean(ps.filter((p) => p.labelled && p.quotes > 0).map((p) => p.relevant / p.quotes)),
    recall: mean(ps.filter((p) => p.labelled && p.poolRelevant > 0).map((p) => p.poolShown / p.poolRelevant)),
    crossFired: pairs.reduce((s, p) => s + p.fired, 0),
    crossPrompts: pairs.reduce((s, p) => s + p.promptCount, 0),
    unlabelledQuotes: ps.filter((p) => p.labelled).reduce((s, p) => s + p.unlabelledQuotes, 0),
  };
}

/** The others' figures: every person but `out`, the pairs that do not involve `out`. */
export function othersScores(run: PointRun, out: string): Scores {
  return scoresOf(run, (n) => n !== out, (p) => p.prompts !== out && p.archive !== out);
}

/** The left-out person's figures: their own, and every cross pair they are a side of. */
export function leftOutScores(run: PointRun, out: string): Scores {
  return scoresOf(run, (n) => n === out, (p) => p.prompts === out || p.archive === out);
}

const crossShare = (s: Scores) => (s.crossPrompts === 0 ? 0 : s.crossFired / s.crossPrompts);

/** The point chosen on `scores` (one per point, in the sweep's order): its index. */
export function choose(scores: readonly Scores[]): number {
  const p = (s: Scores) => s.precision ?? -1;
  const r = (s: Scores) => s.recall ?? -1;
  const f = (s: Scores) => s.fireRate ?? 0;
  const idx = scores.map((_, i) => i);
  const withinCross = idx.filter((i) => crossShare(scores[i]!) <= MAX_CROSS);
  const good = withinCross.filter((i) => scores[i]!.precision === null || p(scores[i]!) >= MIN_PRECISION);
  const better = (keys: ((s: Scores) => number)[]) => (a: number, b: number) => {
    for (const k of keys) {
      const d = k(scores[b]!) - k(scores[a]!);
      if (d !== 0) return d;
    }
    return a - b;
  };
  if (good.length > 0) return good.sort(better([r, p, (s) => -f(s)]))[0]!;
  if (withinCross.length > 0) return withinCross.sort(better([p, r, (s) => -f(s)]))[0]!;
  return idx.sort(better([(s) => -crossShare(s), p, r]))[0]!;
}

/** One left-out person's row. */
export interface LooRow {
  readonly person: string;
  readonly chosen: string;
  /** The chosen point's figures on the others (why it was chosen). */
  readonly others: Scores;
  /** The left-out person's figures at the chosen point: the reported ones. */
  readonly leftOut: Scores;
  /** The left-out person's figures at the first point (the baseline), beside them. */
  readonly baseline: Scores;
}

/** Leave each person out in turn (the persons of the first point, in its order). */
export function leaveOneOut(runs: readonly PointRun[]): LooRow[] {
  if (runs.length === 0) return [];
  return runs[0]!.persons.map((person) => {
    const others = runs.map((run) => othersScores(run, person.name));
    const at = choose(others);
    return {
      person: person.name,
      chosen: runs[at]!.name,
      others: others[at]!,
      leftOut: leftOutScores(runs[at]!, person.name),
      baseline: leftOutScores(runs[0]!, person.name),
    };
  });
}

const pct = (v: number | null, digits = 1) => (v === null ? "-" : `${(100 * v).toFixed(digits)}%`);

/** The reported figures: one row per left-out person, then their macro-average, chosen and baseline. */
export function looTable(rows: readonly LooRow[]): string {
  const head = [
    "left out",
    "chosen on the others",
    "others: precision / recall / cross",
    "fire rate",
    "precision",
    "recall",
    "cross fires",
    "unlab.",
    "baseline: fire / precision / recall / cross",
  ];
  const cross = (s: Scores) =>
    `${s.crossFired}/${s.crossPrompts} ${pct(s.crossPrompts === 0 ? null : crossShare(s), 2)}`;
  const body = rows.map((r) => [
    r.person,
    r.chosen,
    `${pct(r.others.precision)} / ${pct(r.others.recall)} / ${pct(crossShare(r.others), 2)}`,
    pct(r.leftOut.fireRate),
    pct(r.leftOut.precision),
    pct(r.leftOut.recall),
    cross(r.leftOut),
    `${r.leftOut.unlabelledQuotes}`,
    `${pct(r.baseline.fireRate)} / ${pct(r.baseline.precision)} / ${pct(r.baseline.recall)} / ${
      cross(r.baseline)
    }`,
  ]);
  const m = (get: (s: Scores) => number | null, of: (r: LooRow) => Scores) => {
    const v = rows.map((r) => get(of(r))).filter((x): x is number => x !== null);
    return v.length === 0 ? "-" : `${pct(mean(v))} (${v.length})`;
  };
  const crossAll = (of: (r: LooRow) => Scores) => {
    // Each pair involves two persons: summed over left-out rows it counts twice; the share is unchanged.
    const fired = rows.reduce((s, r) => s + of(r).crossFired, 0);
    const prompts = rows.reduce((s, r) => s + of(r).crossPrompts, 0);
    return pct(prompts === 0 ? null : fired / prompts, 2);
  };
  const macroRow = [
    "macro (left-out figures)",
    "",
    "",
    m((s) => s.fireRate, (r) => r.leftOut),
    m((s) => s.precision, (r) => r.leftOut),
    m((s) => s.recall, (r) => r.leftOut),
    crossAll((r) => r.leftOut),
    `${rows.reduce((s, r) => s + r.leftOut.unlabelledQuotes, 0)}`,
    `${m((s) => s.fireRate, (r) => r.baseline)} / ${m((s) => s.precision, (r) => r.baseline)} / ${
      m((s) => s.recall, (r) => r.baseline)
    } / ${crossAll((r) => r.baseline)}`,
  ];
  const all = [head, ...body, macroRow];
  const widths = head.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  const chosen = new Map<string, number>();
  for (const r of rows) chosen.set(r.chosen, (chosen.get(r.chosen) ?? 0) + 1);
  return [
    line(head),
    ...body.map(line),
    line(macroRow),
    `points chosen: ${
      [...chosen].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k} ×${v}`).join(
        ", ",
      )
    }`,
  ].join("\n") + "\n";
}

/**
 * Each constant on its own: for every family of points (the points that vary one constant, by
 * `familyOf`), the baseline and that family's points only, each person left out in turn. One line
 * per family: the values chosen and the left-out figures' macro-average beside the baseline's.
 */
export function perConstant(runs: readonly PointRun[], familyOf: (point: string) => string | null): string {
  if (runs.length === 0) return "";
  const families = new Map<string, PointRun[]>();
  for (const run of runs.slice(1)) {
    const f = familyOf(run.name);
    if (f !== null) families.set(f, [...(families.get(f) ?? []), run]);
  }
  const macroOf = (rows: readonly LooRow[], of: (r: LooRow) => Scores) => {
    const m = (get: (s: Scores) => number | null) => {
      const v = rows.map((r) => get(of(r))).filter((x): x is number => x !== null);
      return pct(mean(v));
    };
    const fired = rows.reduce((s, r) => s + of(r).crossFired, 0);
    const prompts = rows.reduce((s, r) => s + of(r).crossPrompts, 0);
    return `${m((s) => s.fireRate)} / ${m((s) => s.precision)} / ${m((s) => s.recall)} / ${
      pct(prompts === 0 ? null : fired / prompts, 2)
    }`;
  };
  const lines = ["each constant alone (left-out macro: fire rate / precision / recall / cross fires):"];
  for (const [family, points] of families) {
    const rows = leaveOneOut([runs[0]!, ...points]);
    const chosen = new Map<string, number>();
    for (const r of rows) chosen.set(r.chosen, (chosen.get(r.chosen) ?? 0) + 1);
    lines.push(
      `  ${family}: chosen ${
        [...chosen].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k} ×${v}`).join(
          ", ",
        )
      }; left out ${macroOf(rows, (r) => r.leftOut)} (baseline ${macroOf(rows, (r) => r.baseline)})`,
    );
  }
  return lines.join("\n") + "\n";
}
