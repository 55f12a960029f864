/**
 * Every figure of eval:replay per person, macro-averaged (each person counts once) beside the
 * pooled totals, so one prolific or template-heavy person cannot carry the average; and the
 * cross-paired false fires by language pair. Pure: figures in, lines out.
 */
import type { CrossRun, OwnFigures } from "./replay_eval.ts";
import { seededRandom } from "../../scripts/seeded_random.ts";

/** One person's row: own replay and pooled recall, and their prompts against the others' archives. */
export interface PersonRow {
  readonly own: OwnFigures;
  readonly language: string;
  /** Whether the figures have labels for the person (with --blind-only: blind ones); else "no labels yet". */
  readonly labelled: boolean;
  readonly cross: { readonly fired: number; readonly prompts: number };
  /** The others' prompts against this person's archive: the false fires it draws. */
  readonly drawn: { readonly fired: number; readonly prompts: number };
}

/** A mean over the persons for whom a figure is defined. */
export interface Mean {
  /** The mean of the per-person shares, or null when no person has the figure. */
  readonly value: number | null;
  readonly persons: number;
}

export interface Macro {
  readonly fireRate: Mean;
  /** Relevant / labelled shown quotes, over persons with a labelled shown quote. */
  readonly precision: Mean;
  /** Relevant in the pool shown / relevant in the pool, over persons with one relevant in the pool. */
  readonly recall: Mean;
  /** Opportunities / sampled prompts, over labelled persons with a sample. */
  readonly opportunities: Mean;
  /** Their prompts' false fires against the others' archives, over persons with such prompts. */
  readonly crossFires: Mean;
}

/** The shown quotes that have a label. */
export function labelledQuotes(f: OwnFigures): number {
  return f.quotes - f.unlabelledQuotes;
}

function mean(shares: readonly (readonly [number, number])[]): Mean {
  const defined = shares.filter(([, d]) => d > 0);
  if (defined.length === 0) return { value: null, persons: 0 };
  return { value: defined.reduce((s, [n, d]) => s + n / d, 0) / defined.length, persons: defined.length };
}

/** Draws, share of them kept and seed of the intervals (middleOfDraws): the same interval on every run. */
export const INTERVAL_DRAWS = 2_000;
export const INTERVAL_LEVEL = 0.9;
const INTERVAL_SEED = 0x27;

/**
 * Where the macro share of `shares` (n of d per person) would fall for another set of people like
 * these: the people drawn again with replacement, each drawn person's d outcomes drawn again at
 * their own share, the macro share of every draw; the middle `level` of them. A change of the
 * point figure well inside it is no change anyone could tell from these people. Null when no
 * person has the share.
 */
export function macroInterval(
  shares: readonly (readonly [number, number])[],
  draws = INTERVAL_DRAWS,
  level = INTERVAL_LEVEL,
): { low: number; high: number } | null {
  const defined = shares.filter(([, d]) => d > 0);
  if (defined.length === 0) return null;
  return middleOfDraws(
    (next) => {
      let sum = 0;
      for (let i = 0; i < defined.length; i++) {
        const [n, d] = defined[Math.floor(next() * defined.length)]!;
        let hits = 0;
        for (let j = 0; j < d; j++) if (next() < n / d) hits++;
        sum += hits / d;
      }
      return sum / defined.length;
    },
    draws,
    level,
  );
}

/**
 * The middle `level` of `draws` values of `draw`, each drawn from one seeded sequence (`next`):
 * the same interval on every run.
 */
export function middleOfDraws(
  draw: (next: () => number) => number,
  draws = INTERVAL_DRAWS,
  level = INTERVAL_LEVEL,
): { low: number; high: number } {
  const next = seededRandom(INTERVAL_SEED);
  const values = Array.from({ length: draws }, () => draw(next)).sort((a, b) => a - b);
  const cut = Math.floor(draws * (1 - level) / 2);
  return { low: values[cut]!, high: values[draws - 1 - cut]! };
}

/** The macro precision and recall's intervals (macroInterval), as eval:replay prints them. */
export function macroIntervals(rows: readonly PersonRow[]): {
  precision: { low: number; high: number } | null;
  recall: { low: number; high: number } | null;
} {
  return {
    precision: macroInterval(rows.map((r) => [r.own.relevantQuotes, labelledQuotes(r.own)])),
    recall: macroInterval(rows.map((r) => [r.own.poolRelevantShown, r.own.poolRelevant])),
  };
}

export function macro(rows: readonly PersonRow[]): Macro {
  return {
    fireRate: mean(rows.map((r) => [r.own.fired, r.own.prompts])),
    precision: mean(rows.map((r) => [r.own.relevantQuotes, labelledQuotes(r.own)])),
    recall: mean(rows.map((r) => [r.own.poolRelevantShown, r.own.poolRelevant])),
    opportunities: mean(rows.filter((r) => r.labelled).map((r) => [r.own.opportunities, r.own.sampled])),
    crossFires: mean(rows.map((r) => [r.cross.fired, r.cross.prompts])),
  };
}

/**
 * The persons the issue calls a finding: relevant earlier decisions in their pool and not one
 * relevant hint (neither a shown quote labelled relevant nor a relevant pool candidate shown).
 */
export function unserved(rows: readonly PersonRow[]): string[] {
  return rows.filter((r) =>
    r.own.poolRelevant > 0 && r.own.relevantQuotes === 0 && r.own.poolRelevantShown === 0
  )
    .map((r) => r.own.history);
}

const pct = (n: number, d: number, digits = 1) => (d === 0 ? "-" : `${(100 * n / d).toFixed(digits)}%`);
const share = (m: Mean, digits = 1) =>
  m.value === null ? "-" : `${(100 * m.value).toFixed(digits)}% (${m.persons})`;

/** The per-person table: a row per person, then the macro-average and the pooled totals. */
export function personTable(rows: readonly PersonRow[]): string[] {
  const head = [
    "person",
    "lang",
    "prompts",
    "fired",
    "fire rate",
    "quotes",
    "labelled",
    "relevant",
    "unlabelled",
    "precision",
    "sampled",
    "opport.",
    "rel. in pool",
    "shown",
    "recall",
    "pool unlab.",
    "cross fires",
    "drawn",
    "",
  ];
  const flagged = new Set(unserved(rows));
  const body = rows.map((r) => {
    const f = r.own;
    return [
      f.history,
      r.language,
      `${f.prompts}`,
      `${f.fired}`,
      pct(f.fired, f.prompts),
      `${f.quotes}`,
      `${labelledQuotes(f)}`,
      `${f.relevantQuotes}`,
      `${f.unlabelledQuotes}`,
      pct(f.relevantQuotes, labelledQuotes(f)),
      `${f.sampled}`,
      `${f.opportunities}`,
      `${f.poolRelevant}`,
      `${f.poolRelevantShown}`,
      pct(f.poolRelevantShown, f.poolRelevant),
      `${f.poolUnlabelled}`,
      `${r.cross.fired}/${r.cross.prompts} ${pct(r.cross.fired, r.cross.prompts, 2)}`,
      `${r.drawn.fired}/${r.drawn.prompts}`,
      [flagged.has(f.history) ? "UNSERVED" : "", r.labelled ? "" : "no labels yet"].filter((s) => s).join(
        ", ",
      ),
    ];
  });
  const m = macro(rows);
  const sum = (g: (r: PersonRow) => number) => rows.reduce((s, r) => s + g(r), 0);
  const t = {
    prompts: sum((r) => r.own.prompts),
    fired: sum((r) => r.own.fired),
    quotes: sum((r) => r.own.quotes),
    labelled: sum((r) => labelledQuotes(r.own)),
    relevant: sum((r) => r.own.relevantQuotes),
    unlabelled: sum((r) => r.own.unlabelledQuotes),
    sampled: sum((r) => r.own.sampled),
    opportunities: sum((r) => r.own.opportunities),
    poolRelevant: sum((r) => r.own.poolRelevant),
    shown: sum((r) => r.own.poolRelevantShown),
    poolUnlabelled: sum((r) => r.own.poolUnlabelled),
    crossFired: sum((r) => r.cross.fired),
    crossPrompts: sum((r) => r.cross.prompts),
  };
  const macroRow = [
    `macro (each person once)`,
    "",
    "",
    "",
    share(m.fireRate),
    "",
    "",
    "",
    "",
    share(m.precision),
    "",
    share(m.opportunities),
    "",
    "",
    share(m.recall),
    "",
    share(m.crossFires, 2),
    "",
    "",
  ];
  const pooledRow = [
    `pooled (all prompts)`,
    "",
    `${t.prompts}`,
    `${t.fired}`,
    pct(t.fired, t.prompts),
    `${t.quotes}`,
    `${t.labelled}`,
    `${t.relevant}`,
    `${t.unlabelled}`,
    pct(t.relevant, t.labelled),
    `${t.sampled}`,
    `${t.opportunities}`,
    `${t.poolRelevant}`,
    `${t.shown}`,
    pct(t.shown, t.poolRelevant),
    `${t.poolUnlabelled}`,
    `${t.crossFired}/${t.crossPrompts} ${pct(t.crossFired, t.crossPrompts, 2)}`,
    "",
    "",
  ];
  const all = [head, ...body, macroRow, pooledRow];
  const widths = head.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i < 2 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ").trimEnd();
  const lines = [line(head), ...body.map(line), line(macroRow), line(pooledRow)];
  lines.push(
    "cross fires: the person's prompts against every other archive; drawn: every other person's prompts against this person's archive",
    "macro: the mean of the per-person shares, over the (n) persons for whom the share is defined (precision: a labelled shown quote; recall: a relevant candidate in the pool; opportunities: any label)",
    intervalLine(rows),
    `persons with relevant earlier decisions in their pool and no relevant hint: ${
      flagged.size === 0 ? "none" : [...flagged].join(", ")
    }`,
  );
  return lines;
}

/** The intervals' line of the per-person table. */
function intervalLine(rows: readonly PersonRow[]): string {
  const { precision, recall } = macroIntervals(rows);
  const range = (i: { low: number; high: number } | null) =>
    i === null ? "-" : `${(100 * i.low).toFixed(1)}%–${(100 * i.high).toFixed(1)}%`;
  return `macro precision ${range(precision)}, macro recall ${range(recall)}: the middle ${
    INTERVAL_LEVEL * 100
  }% of ${
    INTERVAL_DRAWS.toLocaleString("en-US")
  } draws of these people again, and of each one's quotes (a fixed seed)`;
}

/** The cross pairs summed by (prompts' language → archive's language), sorted. */
export function byLanguagePair(
  cross: readonly CrossRun[],
  language: (person: string) => string,
): [string, { fired: number; prompts: number; pairs: number }][] {
  const by = new Map<string, { fired: number; prompts: number; pairs: number }>();
  for (const c of cross) {
    const k = `${language(c.prompts)}→${language(c.archive)}`;
    const v = by.get(k) ?? { fired: 0, prompts: 0, pairs: 0 };
    v.fired += c.fired;
    v.prompts += c.promptCount;
    v.pairs += 1;
    by.set(k, v);
  }
  return [...by].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** The language-pair table, then the same-language and cross-language sums. */
export function languageTable(cross: readonly CrossRun[], language: (person: string) => string): string[] {
  const rows = byLanguagePair(cross, language);
  const lines = ["  by language pair (prompts → archive):"];
  for (const [k, v] of rows) {
    lines.push(
      `    ${k.padEnd(8)} ${String(v.pairs).padStart(4)} pairs ${`${v.fired}/${v.prompts}`.padStart(12)}  ${
        pct(v.fired, v.prompts, 2)
      }`,
    );
  }
  const same = cross.filter((c) => language(c.prompts) === language(c.archive));
  const across = cross.filter((c) => language(c.prompts) !== language(c.archive));
  const sum = (list: readonly CrossRun[]) => {
    const fired = list.reduce((s, c) => s + c.fired, 0);
    const prompts = list.reduce((s, c) => s + c.promptCount, 0);
    return `${fired}/${prompts} = ${pct(fired, prompts, 2)} (${list.length} pairs)`;
  };
  lines.push(`  same language: ${sum(same)}`, `  across languages: ${sum(across)}`);
  return lines;
}
