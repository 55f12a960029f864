/**
 * Replay's figures over time, for the report (pure): per week (weeks start on Monday, UTC), the
 * prompts replayed, those the hint spoke on, and the silent ones by the rule that kept it silent;
 * and the records quoted most often.
 */

/** What the report needs of one replayed prompt. */
export interface ReplayedPrompt {
  readonly time: string;
  readonly fired: boolean;
  /** The gate's rule ("spoke" when it fired). */
  readonly rule: string;
  /** Ids of the records it quoted. */
  readonly quoted: readonly string[];
}

export interface WeekFigures {
  /** The week's Monday, YYYY-MM-DD. */
  readonly week: string;
  readonly prompts: number;
  readonly fired: number;
  /** Silent prompts by rule. */
  readonly silent: Readonly<Record<string, number>>;
}

export interface ReplayFigures {
  readonly weeks: readonly WeekFigures[];
  /** Every silent rule, most frequent first (then by name). */
  readonly rules: readonly string[];
  readonly prompts: number;
  readonly fired: number;
  /** Record id and how often it was quoted, most first (then by id), at most `topQuoted`. */
  readonly mostQuoted: readonly { readonly id: string; readonly count: number }[];
}

const DAY_MS = 86_400_000;

/** The Monday (UTC) of the week holding `time`, as YYYY-MM-DD. */
export function weekOf(time: string): string {
  const ms = Date.parse(time);
  const day = new Date(ms).getUTCDay(); // 0 is Sunday
  const monday = Math.floor(ms / DAY_MS) * DAY_MS - ((day + 6) % 7) * DAY_MS;
  return new Date(monday).toISOString().slice(0, 10);
}

export function replayFigures(prompts: Iterable<ReplayedPrompt>, topQuoted = 10): ReplayFigures {
  const weeks = new Map<string, { prompts: number; fired: number; silent: Record<string, number> }>();
  const rules = new Map<string, number>();
  const quoted = new Map<string, number>();
  let total = 0;
  let fired = 0;
  for (const p of prompts) {
    const key = weekOf(p.time);
    let w = weeks.get(key);
    if (!w) weeks.set(key, w = { prompts: 0, fired: 0, silent: {} });
    w.prompts++;
    total++;
    if (p.fired) {
      w.fired++;
      fired++;
      for (const id of p.quoted) quoted.set(id, (quoted.get(id) ?? 0) + 1);
    } else {
      w.silent[p.rule] = (w.silent[p.rule] ?? 0) + 1;
      rules.set(p.rule, (rules.get(p.rule) ?? 0) + 1);
    }
  }
  // Every week between the first and the last, quiet ones too: a plot over time has no gaps.
  const keys = [...weeks.keys()].sort();
  const filled: WeekFigures[] = [];
  if (keys.length > 0) {
    for (let ms = Date.parse(keys[0]!); ms <= Date.parse(keys.at(-1)!); ms += 7 * DAY_MS) {
      const week = new Date(ms).toISOString().slice(0, 10);
      filled.push({ week, ...(weeks.get(week) ?? { prompts: 0, fired: 0, silent: {} }) });
    }
  }
  const byCount = <T extends string>(m: Map<T, number>) =>
    [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    weeks: filled,
    rules: byCount(rules).map(([r]) => r),
    prompts: total,
    fired,
    mostQuoted: byCount(quoted).slice(0, topQuoted).map(([id, count]) => ({ id, count })),
  };
}
