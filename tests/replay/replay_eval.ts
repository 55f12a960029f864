/**
 * `deno task eval:replay`: the hint measured on real histories (../shared/EVAL.md), in three modes,
 * over the development set in ../shared/data/histories/ (read in place; absent → a printed skip).
 *
 * 1. Own replay: each history through `verdict replay`'s engine; every quote shown is a pair
 *    (prompt, quoted text), judged by a label in tests/fixtures/replay/<history>.jsonl.
 * 2. Cross-paired: every history's prompts against every other history's whole archive; every
 *    hint that fires is false (no labels needed).
 * 3. Pooled recall: a fixed sample of each history's prompts; the pool is what the hint quoted
 *    plus the top 3 of an ungated recall over the same older records (own session left out);
 *    every candidate labelled.
 *
 * Labels are keys and verdicts only: fnv1a64(prompt text, NUL, quoted text), the label, a one-line
 * reason. The texts stay in ../shared. A pair without a label is **unlabelled**, counted beside
 * the figures and never as relevant; `--unlabelled` prints them (with their texts, for the
 * labeller, to a file outside the repository).
 *
 * Flags: --json (the figures as JSON), --unlabelled (JSONL of unlabelled pairs), --misses (JSONL
 * of the relevant pooled candidates the hint did not show, with the rule that refused each, and of
 * the shown quotes labelled irrelevant), --fires (JSONL of every cross-paired false fire, development
 * and transcripts, with the texts and the rule's detail), --digest (a hash of every replayed decision per history
 * and per cross pair: tests/fixtures/replay/decisions.json), --only NAME (one history, own replay and pooled recall only).
 */
import { fnv1a64, type VerdictRecord } from "../../src/record/record.ts";
import { searchDistinct } from "../../src/lookup/recall.ts";
import { deriveCjkWords } from "../../src/rank/cjk_words.ts";
import {
  decisionKey,
  freshIndexAgreement,
  replayArchive,
  Replayer,
  replayerFor,
  type ReplayEvent,
  type ReplaySettings,
  sortedRecords,
  whyNotAgainst,
} from "../../src/replay/replay.ts";
import { historiesMissing, type History, historyNames, loadHistory } from "./histories.ts";
import { sameTextKey, statementKey, statementsOf } from "../../src/gate/statements.ts";
import { loadTranscriptPeople, transcriptsMissing } from "./transcripts.ts";

export const LABELS_DIR = new URL("../fixtures/replay/", import.meta.url);

/** The labels a pair can get (../shared/EVAL.md's rubric). */
export const LABELS = ["relevant", "not-decision", "off-topic", "paste", "repeat", "other"] as const;
export type Label = typeof LABELS[number];

/** Prompts per history in the pooled-recall sample: enough to find a few dozen opportunities. */
export const POOL_SAMPLE = 40;
/** Recall candidates pooled per sampled prompt (EVAL.md: the top 3 of an ungated recall). */
export const POOL_RECALL_TOP = 3;
/** Sampled prompts per history at which replay is checked against a from-scratch index. */
export const FRESH_CHECKS = 25;

/** The language of each development history (for the cross-pair table). */
export const LANGUAGE: Readonly<Record<string, string>> = {
  "addeuz-dfmain": "en",
  "minsky-specstory": "en",
  "twardoch-twat-specstory": "en",
  "data-agent-zh": "zh",
  "autofor-ja": "ja",
};

const SETTINGS: ReplaySettings = { entities: [], personas: [] };

/** The key of a (prompt, quoted text) pair. */
export function pairKey(prompt: string, quote: string): string {
  return fnv1a64(`${prompt}\u0000${quote}`);
}

export interface LabelEntry {
  readonly key: string;
  readonly label: Label;
  readonly reason: string;
}

/** A history's labels by key. Throws on a malformed line, an unknown label or a key given twice. */
export function loadLabels(history: string): Map<string, LabelEntry> {
  const labels = new Map<string, LabelEntry>();
  let text = "";
  try {
    text = Deno.readTextFileSync(new URL(`${history}.jsonl`, LABELS_DIR));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const v = JSON.parse(line) as LabelEntry;
    const where = `${history}.jsonl:${i + 1}`;
    if (typeof v.key !== "string" || !/^[0-9a-f]{16}$/.test(v.key)) throw new Error(`${where}: bad key`);
    if (!LABELS.includes(v.label)) throw new Error(`${where}: unknown label "${v.label}"`);
    if (typeof v.reason !== "string" || v.reason.trim() === "") throw new Error(`${where}: no reason`);
    if (labels.has(v.key)) throw new Error(`${where}: key ${v.key} labelled twice`);
    labels.set(v.key, v);
  });
  return labels;
}

/** One (prompt, quoted text) pair to judge. */
export interface Pair {
  readonly key: string;
  readonly history: string;
  /** "shown": a quote the hint showed; "pool": a recall candidate in the pooled sample. */
  readonly mode: "shown" | "pool";
  readonly prompt: VerdictRecord;
  readonly quoted: VerdictRecord;
  readonly quote: string;
  /** Rank of the quote in its hint (1 = the one-line notice), or in the recall list. */
  readonly rank: number;
}

/** The texts a fired event quotes, as the hint renders them, with their records. */
export function shownQuotes(event: ReplayEvent): { record: VerdictRecord; text: string }[] {
  return event.quotes.map((q) => ({ record: q.record, text: q.text }));
}

/** Whether a pool candidate was shown: at this prompt, earlier in its session, or not. */
type Shown = "now" | "earlier" | null;

export interface PoolItem {
  readonly prompt: VerdictRecord;
  /** Each candidate text once: shown by the hint, or among the recall top 3 (or both). */
  readonly candidates: readonly {
    readonly pair: Pair;
    readonly shown: boolean;
    /** Shown earlier in the prompt's session (the cooldown keeps it from being said again), not now. */
    readonly earlier: boolean;
    /** For a candidate the hint did not show: why (whyNotQuoted), when asked for. */
    readonly why?: ReturnType<typeof whyNotAgainst>;
  }[];
}

export interface OwnRun {
  readonly history: string;
  readonly prompts: number;
  readonly events: readonly ReplayEvent[];
  readonly shown: readonly Pair[];
  readonly pool: readonly PoolItem[];
  readonly fresh: {
    agree: number;
    total: number;
    differ: { prompt: string; replay: string; fresh: string }[];
  };
}

/** Whether a prompt is in the history's fixed sample: the POOL_SAMPLE smallest fnv1a64(id). */
function sampleOf(records: readonly VerdictRecord[], size: number): Set<string> {
  return new Set(
    records.filter((r) => r.kind === "prompt").map((r) => ({ id: r.id, h: fnv1a64(`pool:${r.id}`) }))
      .sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0)).slice(0, size).map((x) => x.id),
  );
}

/** A pool candidate before labelling: its record (the first with its text), how it was shown, its rank. */
export interface PoolCandidate {
  readonly record: VerdictRecord;
  readonly shown: Shown;
  readonly rank: number;
}

/**
 * One prompt's pool: the records the hint quoted, then the recall top 3, **one candidate per
 * text**. The same text sent again (a resend, a template) is one decision, as its label is one
 * (pairs are keyed by text) and the gate shows it once from whichever record; counted per record,
 * a decision resent three times weighed three in recall. The same statement is one thing, and what
 * the hint showed earlier in this session is in the agent's context already (the cooldown keeps it
 * from being said twice): a recall candidate counts as shown when the hint quoted it or one of its
 * statements (`nowKeys`: the quotes' statement keys), now or earlier in the session (`before`:
 * the ledger's record ids and statement keys) — the two counted apart.
 */
export function poolCandidates(
  promptText: string,
  quoted: readonly VerdictRecord[],
  recall: readonly VerdictRecord[],
  nowKeys: ReadonlySet<string>,
  before: ReadonlySet<string>,
): Map<string, PoolCandidate> {
  const byText = new Map<string, PoolCandidate>();
  quoted.forEach((r, i) => {
    const key = pairKey(promptText, r.text);
    if (!byText.has(key)) byText.set(key, { record: r, shown: "now", rank: i + 1 });
  });
  const order = (s: Shown) => (s === "now" ? 2 : s === "earlier" ? 1 : 0);
  recall.forEach((r, i) => {
    const key = pairKey(promptText, r.text);
    const keys = [r.id, ...statementsOf(r.text).statements.map((st) => statementKey(st.text))];
    const said: Shown = keys.some((k) => nowKeys.has(k))
      ? "now"
      : keys.some((k) => before.has(k))
      ? "earlier"
      : null;
    const known = byText.get(key);
    if (known === undefined) byText.set(key, { record: r, shown: said, rank: i + 1 });
    else if (order(said) > order(known.shown)) byText.set(key, { ...known, shown: said });
  });
  return byText;
}

/** Own replay of one history, with the pooled-recall sample drawn as it goes. */
export function runOwn(history: History, explainMisses = false): OwnRun {
  const sample = sampleOf(history.records, POOL_SAMPLE);
  const freshSample = sampleOf(history.records, FRESH_CHECKS);
  const events: ReplayEvent[] = [];
  const shown: Pair[] = [];
  const pool: PoolItem[] = [];
  const freshEvents: ReplayEvent[] = [];
  const replayer = replayerFor(history.records, SETTINGS);
  for (const event of replayArchive(replayer, history.records, () => true)) {
    events.push(event);
    const quotes = shownQuotes(event);
    quotes.forEach((q, i) => {
      shown.push({
        key: pairKey(event.prompt.text, q.text),
        history: history.name,
        mode: "shown",
        prompt: event.prompt,
        quoted: q.record,
        quote: q.text,
        rank: i + 1,
      });
    });
    if (freshSample.has(event.prompt.id)) freshEvents.push(event);
    if (!sample.has(event.prompt.id)) continue;
    // The replay has not yet added this prompt: the index holds exactly its older records.
    // Recall as `verdict recall` lists it: the top 3 distinct texts (copies of one are one result).
    const recall = searchDistinct(replayer.index, event.prompt.text, {
      mode: "recall",
      nowMs: Date.parse(event.prompt.time),
      excludeSession: event.prompt.session,
      top: POOL_RECALL_TOP,
    }, (h) => {
      const r = replayer.records[h.doc]!;
      return { key: sameTextKey(r.text), time: r.time };
    }).hits.map((h) => replayer.records[h.best.doc]!);
    const byText = poolCandidates(
      event.prompt.text,
      event.quoted,
      recall,
      new Set(event.outcome.verdict.quotes.flatMap((q) => q.keys)),
      new Set(event.shownBefore),
    );
    const docOf = new Map(replayer.records.map((r, doc) => [r.id, doc]));
    const textOf = (doc: number) => replayer.records[doc]!.text;
    pool.push({
      prompt: event.prompt,
      candidates: [...byText.values()].map((c) => ({
        shown: c.shown !== null,
        earlier: c.shown === "earlier",
        ...(explainMisses && c.shown === null
          ? {
            why: whyNotAgainst(
              replayer.index,
              textOf,
              event.prompt,
              event.shownBefore,
              SETTINGS,
              docOf.get(c.record.id)!,
            ),
          }
          : {}),
        pair: {
          key: pairKey(event.prompt.text, c.record.text),
          history: history.name,
          mode: "pool",
          prompt: event.prompt,
          quoted: c.record,
          quote: c.record.text,
          rank: c.rank,
        },
      })),
    });
  }
  const fresh = freshIndexAgreement(freshEvents, replayer.records, SETTINGS);
  return { history: history.name, prompts: events.length, events, shown, pool, fresh };
}

export interface CrossRun {
  readonly prompts: string;
  readonly archive: string;
  readonly promptCount: number;
  readonly fired: number;
  /** fnv1a64 over every prompt's decision (decisionOf), in order. */
  readonly digest: string;
  /** Each false fire: the prompt, what was quoted and the rule's detail (for --fires). */
  readonly fires: readonly {
    readonly prompt: string;
    readonly quotes: readonly string[];
    readonly detail: string;
  }[];
}

/**
 * What the gate decided for one prompt, as `--explain` names it: the rule that spoke or kept it
 * silent, and the records and statements quoted. Two gates decide alike when these are equal.
 */
export function decisionOf(event: ReplayEvent): string {
  return `${event.outcome.verdict.rule} ${decisionKey(event.outcome)}`;
}

/** fnv1a64 over the decisions of a run, in order. */
function digestOf(decisions: readonly string[]): string {
  return fnv1a64(decisions.join("\n"));
}

/** A's prompts, in time order, each against B's whole archive (every hint is false). */
export function runCross(a: History, b: History): CrossRun {
  const archive = sortedRecords(b.records);
  const replayer = new Replayer(deriveCjkWords(archive.map((r) => r.text)), SETTINGS);
  for (const r of archive) replayer.add(r);
  const fires: CrossRun["fires"][number][] = [];
  const decisions: string[] = [];
  const prompts = sortedRecords(a.records).filter((r) => r.kind === "prompt");
  for (const p of prompts) {
    const event = replayer.replay(p);
    decisions.push(decisionOf(event));
    if (event.quoted.length === 0) continue;
    fires.push({
      prompt: p.text,
      quotes: event.quotes.map((q) => q.text),
      detail: event.outcome.verdict.checks.filter((c) => c.rule === "spoke").map((c) => c.detail).join(" | "),
    });
  }
  return {
    prompts: a.name,
    archive: b.name,
    promptCount: prompts.length,
    fired: fires.length,
    digest: digestOf(decisions),
    fires,
  };
}

// --- figures --------------------------------------------------------------------------------

export interface OwnFigures {
  readonly history: string;
  readonly prompts: number;
  readonly fired: number;
  /** Quotes shown (a hint shows one or two). */
  readonly quotes: number;
  readonly relevantQuotes: number;
  /** Fired hints whose first quote (the one-line notice) is relevant. */
  readonly relevantFirst: number;
  readonly unlabelledQuotes: number;
  readonly irrelevant: Readonly<Record<string, number>>;
  readonly sampled: number;
  readonly opportunities: number;
  readonly poolRelevant: number;
  readonly poolRelevantShown: number;
  /** Of poolRelevantShown: shown earlier in the prompt's session, not at the prompt. */
  readonly poolRelevantShownEarlier: number;
  readonly poolUnlabelled: number;
  readonly freshAgree: number;
  readonly freshTotal: number;
}

export function ownFigures(run: OwnRun, labels: ReadonlyMap<string, LabelEntry>): OwnFigures {
  const irrelevant: Record<string, number> = {};
  let relevantQuotes = 0;
  let unlabelledQuotes = 0;
  let relevantFirst = 0;
  for (const p of run.shown) {
    const l = labels.get(p.key);
    if (!l) unlabelledQuotes++;
    else if (l.label === "relevant") {
      relevantQuotes++;
      if (p.rank === 1) relevantFirst++;
    } else irrelevant[l.label] = (irrelevant[l.label] ?? 0) + 1;
  }
  let opportunities = 0;
  let poolRelevant = 0;
  let poolRelevantShown = 0;
  let poolRelevantShownEarlier = 0;
  let poolUnlabelled = 0;
  for (const item of run.pool) {
    let any = false;
    for (const c of item.candidates) {
      const l = labels.get(c.pair.key);
      if (!l) poolUnlabelled++;
      else if (l.label === "relevant") {
        any = true;
        poolRelevant++;
        if (c.shown) poolRelevantShown++;
        if (c.earlier) poolRelevantShownEarlier++;
      }
    }
    if (any) opportunities++;
  }
  return {
    history: run.history,
    prompts: run.prompts,
    fired: run.events.filter((e) => e.quoted.length > 0).length,
    quotes: run.shown.length,
    relevantQuotes,
    relevantFirst,
    unlabelledQuotes,
    irrelevant,
    sampled: run.pool.length,
    opportunities,
    poolRelevant,
    poolRelevantShown,
    poolRelevantShownEarlier,
    poolUnlabelled,
    freshAgree: run.fresh.agree,
    freshTotal: run.fresh.total,
  };
}

/** fnv1a64 over every replayed prompt's decision (decisionOf) of an own run, in order. */
export function ownDigest(run: OwnRun): string {
  return digestOf(run.events.map(decisionOf));
}

/** Sums figures over histories. */
export function totalFigures(all: readonly OwnFigures[]): OwnFigures {
  const sum = (f: (x: OwnFigures) => number) => all.reduce((s, x) => s + f(x), 0);
  const irrelevant: Record<string, number> = {};
  for (const x of all) {
    for (const [k, v] of Object.entries(x.irrelevant)) irrelevant[k] = (irrelevant[k] ?? 0) + v;
  }
  return {
    history: "all",
    prompts: sum((x) => x.prompts),
    fired: sum((x) => x.fired),
    quotes: sum((x) => x.quotes),
    relevantQuotes: sum((x) => x.relevantQuotes),
    relevantFirst: sum((x) => x.relevantFirst),
    unlabelledQuotes: sum((x) => x.unlabelledQuotes),
    irrelevant,
    sampled: sum((x) => x.sampled),
    opportunities: sum((x) => x.opportunities),
    poolRelevant: sum((x) => x.poolRelevant),
    poolRelevantShown: sum((x) => x.poolRelevantShown),
    poolRelevantShownEarlier: sum((x) => x.poolRelevantShownEarlier),
    poolUnlabelled: sum((x) => x.poolUnlabelled),
    freshAgree: sum((x) => x.freshAgree),
    freshTotal: sum((x) => x.freshTotal),
  };
}

export interface Evaluation {
  readonly runs: readonly OwnRun[];
  readonly own: readonly OwnFigures[];
  readonly total: OwnFigures;
  readonly cross: readonly CrossRun[];
  /**
   * Beyond the development set: each transcript person's prompts against each history's archive,
   * and each history's prompts against each transcript person's archive (every hint is false).
   */
  readonly transcriptCross: readonly CrossRun[];
  /** Why transcriptCross is empty (the transcripts are absent), or null. */
  readonly transcriptsSkipped: string | null;
  readonly unlabelled: readonly Pair[];
}

/** The key of a transcript cross pair in decisions.json: apart from the development pairs. */
export function transcriptDigestKey(c: CrossRun): string {
  return `transcripts: ${c.prompts} → ${c.archive}`;
}

/** The cross pairs between the transcripts' people and the histories, both ways. */
function runTranscriptCross(histories: readonly History[]): CrossRun[] {
  const people = loadTranscriptPeople();
  const out: CrossRun[] = [];
  for (const p of people) for (const h of histories) out.push(runCross(p, h));
  for (const h of histories) for (const p of people) out.push(runCross(h, p));
  return out;
}

/** Runs all three modes over the development set (or the named histories). */
export function evaluate(
  names: readonly string[] = historyNames(),
  withCross = true,
  explainMisses = false,
): Evaluation {
  const histories = names.map(loadHistory);
  const runs: OwnRun[] = [];
  const own: OwnFigures[] = [];
  const unlabelled: Pair[] = [];
  for (const h of histories) {
    const labels = loadLabels(h.name);
    const run = runOwn(h, explainMisses);
    runs.push(run);
    own.push(ownFigures(run, labels));
    const seen = new Set<string>();
    for (const p of [...run.shown, ...run.pool.flatMap((i) => i.candidates.map((c) => c.pair))]) {
      if (labels.has(p.key) || seen.has(p.key)) continue;
      seen.add(p.key);
      unlabelled.push(p);
    }
  }
  const cross: CrossRun[] = [];
  let transcriptCross: CrossRun[] = [];
  const transcriptsSkipped = withCross ? transcriptsMissing() : null;
  if (withCross) {
    for (const a of histories) for (const b of histories) if (a !== b) cross.push(runCross(a, b));
    if (transcriptsSkipped === null) transcriptCross = runTranscriptCross(histories);
  }
  return { runs, own, total: totalFigures(own), cross, transcriptCross, transcriptsSkipped, unlabelled };
}

// --- printing -------------------------------------------------------------------------------

const pct = (n: number, d: number) => (d === 0 ? "-" : `${(100 * n / d).toFixed(1)}%`);

function ownTable(e: Evaluation): string[] {
  const lines = [
    "own replay (labelled; a hint shows one or two quotes, each one pair)",
    "history                    prompts  fired  fire rate  relevant/quotes shown   relevant first quotes  unlabelled  irrelevant by reason",
  ];
  for (const f of [...e.own, e.total]) {
    const reasons = Object.entries(f.irrelevant).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([k, v]) => `${k} ${v}`).join(", ");
    lines.push(
      `${f.history.padEnd(26)} ${String(f.prompts).padStart(7)} ${String(f.fired).padStart(6)} ${
        pct(f.fired, f.prompts).padStart(10)
      }  ${`${f.relevantQuotes}/${f.quotes} = ${pct(f.relevantQuotes, f.quotes)}`.padEnd(22)} ${
        `${f.relevantFirst}/${f.fired} = ${pct(f.relevantFirst, f.fired)}`.padEnd(22)
      } ${String(f.unlabelledQuotes).padStart(10)}  ${reasons || "-"}`,
    );
  }
  return lines;
}

function crossTable(e: Evaluation): string[] {
  if (e.cross.length === 0) return [];
  const lines = ["", "cross-paired (A's prompts against B's whole archive; every hint is false)"];
  for (const c of e.cross) {
    lines.push(
      `  ${`${c.prompts} → ${c.archive}`.padEnd(52)} ${`${c.fired}/${c.promptCount}`.padStart(9)}  ${
        pct(c.fired, c.promptCount)
      }`,
    );
  }
  const byLang = new Map<string, { fired: number; prompts: number }>();
  for (const c of e.cross) {
    const k = `${LANGUAGE[c.prompts] ?? "?"}→${LANGUAGE[c.archive] ?? "?"}`;
    const v = byLang.get(k) ?? { fired: 0, prompts: 0 };
    v.fired += c.fired;
    v.prompts += c.promptCount;
    byLang.set(k, v);
  }
  lines.push("  by language pair:");
  for (const [k, v] of [...byLang].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    lines.push(`    ${k.padEnd(8)} ${`${v.fired}/${v.prompts}`.padStart(10)}  ${pct(v.fired, v.prompts)}`);
  }
  const fired = e.cross.reduce((s, c) => s + c.fired, 0);
  const prompts = e.cross.reduce((s, c) => s + c.promptCount, 0);
  // The target is at most 0.5%: two decimals, so a handful of fires does not print as 0.0%.
  const share = prompts === 0 ? "-" : `${(100 * fired / prompts).toFixed(2)}%`;
  lines.push(`  all pairs: ${fired}/${prompts} = ${share} false fires`);
  return lines;
}

/** The transcripts' cross pairs: per pair, then the two directions summed. */
function transcriptTable(e: Evaluation): string[] {
  if (e.transcriptsSkipped !== null) {
    return ["", `cross-paired with other people's transcripts: skipped: ${e.transcriptsSkipped}`];
  }
  if (e.transcriptCross.length === 0) return [];
  const histories = new Set(e.own.map((f) => f.history));
  const lines = [
    "",
    "cross-paired with other people's transcripts (../shared/data/transcripts, typed prompts by the collectors' rules; every hint is false)",
  ];
  for (const c of e.transcriptCross) {
    lines.push(
      `  ${`${c.prompts} → ${c.archive}`.padEnd(52)} ${`${c.fired}/${c.promptCount}`.padStart(9)}  ${
        pct(c.fired, c.promptCount)
      }`,
    );
  }
  const sum = (list: readonly CrossRun[]) => {
    const fired = list.reduce((s, c) => s + c.fired, 0);
    const prompts = list.reduce((s, c) => s + c.promptCount, 0);
    return `${fired}/${prompts} = ${prompts === 0 ? "-" : `${(100 * fired / prompts).toFixed(2)}%`}`;
  };
  const theirs = e.transcriptCross.filter((c) => !histories.has(c.prompts));
  const ours = e.transcriptCross.filter((c) => histories.has(c.prompts));
  lines.push(
    `  transcripts' prompts → histories' archives: ${sum(theirs)} false fires`,
    `  histories' prompts → transcripts' archives: ${sum(ours)} false fires`,
    `  all: ${sum(e.transcriptCross)} false fires`,
  );
  return lines;
}

function poolTable(e: Evaluation): string[] {
  const lines = [
    "",
    `pooled recall (${POOL_SAMPLE} sampled prompts per history; pool = hint quotes + recall top ${POOL_RECALL_TOP} distinct texts, own session left out, each text once)`,
    "history                    sampled  opportunities  relevant in pool  shown by the hint  recall   unlabelled  shown earlier in the session",
  ];
  for (const f of [...e.own, e.total]) {
    lines.push(
      `${f.history.padEnd(26)} ${String(f.sampled).padStart(7)} ${
        `${f.opportunities} (${pct(f.opportunities, f.sampled)})`.padStart(14)
      } ${String(f.poolRelevant).padStart(17)} ${String(f.poolRelevantShown).padStart(18)}  ${
        pct(f.poolRelevantShown, f.poolRelevant).padEnd(7)
      } ${String(f.poolUnlabelled).padStart(10)}  ${String(f.poolRelevantShownEarlier).padStart(28)}`,
    );
  }
  lines.push(
    "",
    `replay vs. an index built from scratch at ${FRESH_CHECKS} sampled prompts per history: ${e.total.freshAgree}/${e.total.freshTotal} decisions equal`,
  );
  return lines;
}

export function report(e: Evaluation): string {
  const lines = [
    "eval:replay: the hint on the development histories (../shared/data/histories), gate as checked out",
    "",
    ...ownTable(e),
    ...crossTable(e),
    ...transcriptTable(e),
    ...poolTable(e),
  ];
  const u = e.unlabelled.length;
  if (u > 0) {
    lines.push(
      "",
      `${u} pair(s) are UNLABELLED (counted as not relevant above); list them with:`,
      "  deno task eval:replay --unlabelled > /tmp/unlabelled.jsonl",
    );
  }
  return lines.join("\n") + "\n";
}

function unlabelledJsonl(e: Evaluation): string {
  return e.unlabelled.map((p) =>
    JSON.stringify({
      key: p.key,
      history: p.history,
      mode: p.mode,
      rank: p.rank,
      prompt: {
        time: p.prompt.time,
        session: p.prompt.session,
        project: p.prompt.project,
        text: p.prompt.text,
      },
      quoted: {
        id: p.quoted.id,
        time: p.quoted.time,
        session: p.quoted.session,
        project: p.quoted.project,
        text: p.quote,
      },
    }) + "\n"
  ).join("");
}

/**
 * The relevant pooled candidates the hint did not show, each with the rule that refused it, and
 * the shown quotes labelled irrelevant (with their labels): the two lists a gate change is aimed
 * at. JSONL, with the texts (to a file outside the repository).
 */
function missesJsonl(e: Evaluation): string {
  const out: string[] = [];
  const clip = (t: string) => (t.length > 700 ? `${t.slice(0, 700)}…` : t);
  for (const run of e.runs) {
    const labels = loadLabels(run.history);
    for (const item of run.pool) {
      for (const c of item.candidates) {
        if (c.shown || labels.get(c.pair.key)?.label !== "relevant") continue;
        out.push(JSON.stringify({
          kind: "missed",
          history: run.history,
          key: c.pair.key,
          why: c.why,
          reason: labels.get(c.pair.key)!.reason,
          prompt: clip(item.prompt.text),
          quoted: clip(c.pair.quote),
        }));
      }
    }
    for (const p of run.shown) {
      const l = labels.get(p.key);
      if (l?.label === "relevant") continue;
      out.push(JSON.stringify({
        kind: "wrong",
        history: run.history,
        key: p.key,
        label: l?.label ?? "unlabelled",
        reason: l?.reason ?? "",
        prompt: clip(p.prompt.text),
        quoted: clip(p.quote),
      }));
    }
  }
  return out.map((l) => l + "\n").join("");
}

if (import.meta.main) {
  const missing = historiesMissing();
  if (missing !== null) {
    console.log(`eval:replay: skipped: ${missing}`);
    Deno.exit(0);
  }
  const only = Deno.args.indexOf("--only");
  const names = only >= 0 ? [Deno.args[only + 1]!] : historyNames();
  const misses = Deno.args.includes("--misses");
  const e = evaluate(names, only < 0 && !misses, misses);
  if (Deno.args.includes("--digest")) {
    const digests: Record<string, string> = {};
    for (const run of e.runs) digests[run.history] = ownDigest(run);
    for (const c of e.cross) digests[`${c.prompts} → ${c.archive}`] = c.digest;
    for (const c of e.transcriptCross) digests[transcriptDigestKey(c)] = c.digest;
    console.log(JSON.stringify(digests, null, 2));
  } else if (Deno.args.includes("--fires")) {
    const clip = (t: string) => (t.length > 700 ? `${t.slice(0, 700)}…` : t);
    const lines = [
      ...e.cross.map((c) => ["development", c] as const),
      ...e.transcriptCross.map((c) => ["transcripts", c] as const),
    ]
      .flatMap(([set, c]) =>
        c.fires.map((f) =>
          JSON.stringify({
            set,
            prompts: c.prompts,
            archive: c.archive,
            prompt: clip(f.prompt),
            quotes: f.quotes.map(clip),
            detail: f.detail,
          }) + "\n"
        )
      );
    await Deno.stdout.write(new TextEncoder().encode(lines.join("")));
  } else if (misses) {
    await Deno.stdout.write(new TextEncoder().encode(missesJsonl(e)));
  } else if (Deno.args.includes("--unlabelled")) {
    await Deno.stdout.write(new TextEncoder().encode(unlabelledJsonl(e)));
  } else if (Deno.args.includes("--json")) {
    console.log(
      JSON.stringify(
        {
          own: e.own,
          total: e.total,
          cross: e.cross.map(({ fires: _fires, ...c }) => c),
          transcriptCross: e.transcriptCross.map(({ fires: _fires, ...c }) => c),
          unlabelled: e.unlabelled.length,
        },
        null,
        2,
      ),
    );
  } else await Deno.stdout.write(new TextEncoder().encode(report(e)));
}
