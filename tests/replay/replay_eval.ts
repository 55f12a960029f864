/**
 * `deno task eval:replay`: the hint measured on real people's histories, in three modes, over the
 * fourteen people of the shared data's `histories/` (five) and `more-histories/` (nine), read in
 * place (an absent folder is a printed skip). Every figure per person, macro-averaged (each
 * person once) and pooled (tests/replay/per_person.ts).
 *
 * 1. Own replay: each history through `verdict replay`'s engine; every quote shown is a pair
 *    (prompt, quoted text), judged by a label in tests/fixtures/replay/<history>.jsonl.
 * 2. Cross-paired: every person's prompts against every other person's whole archive (182
 *    ordered pairs; a fixed sample of CROSS_SAMPLE prompts per person); every hint that fires is
 *    false (no labels needed). Summed per person and by language pair.
 * 3. Pooled recall: a fixed sample of each history's prompts; the pool is what the hint quoted
 *    plus the top 3 of an ungated recall over the same older records (own session left out);
 *    every candidate labelled.
 *
 * Labels are keys and verdicts only (tests/replay/labels.ts). A pair without a label is
 * **unlabelled**, counted beside the figures and never as relevant.
 *
 * Flags: --json (the figures as JSON), --blind-only (figures on blind labels only), --second-reading
 * (blind only, a pair read twice counted by its second reading: the figures through the other reader), --agreement
 * (agreement and Cohen's kappa of the double-labelled pairs), --export-pairs FILE [--second N|all|blind]
 * (the pairs for a blind reader, {key, history, prompt, quote} only, to a file outside the
 * repository), --import-labels FILE --labeller NAME [--second] [--fix] (a reader's labels, appended;
 * an existing label is never overwritten), --only NAME (one person, own replay and pooled recall
 * only), --cross-sample N|all, --no-fresh (no from-scratch index checks), --data DIR and --labels DIR (other folders, for the harness's
 * tests), --unlabelled (JSONL of unlabelled pairs with their records), --misses (JSONL of the
 * relevant pooled candidates the hint did not show, with the rule that refused each, and of the
 * shown quotes labelled irrelevant), --fires (JSONL of every cross-paired false fire, with the texts
 * and the rule's detail), --shown (JSONL of every shown quote with its label and the gate's reason),
 * --digest (a hash of every replayed decision of the first five people and
 * their cross pairs, every prompt: tests/fixtures/replay/decisions.json).
 */
import { fnv1a64, type VerdictRecord } from "../../src/record/record.ts";
import { EXIT } from "../../src/errors.ts";
import { taskArgs } from "../../scripts/task_args.ts";
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
import {
  DATA_DIR,
  HISTORIES_DIR,
  type History,
  historyNames,
  loadHistory,
  people,
  type PersonRef,
} from "./histories.ts";
import {
  agreementReport,
  applyImport,
  doubleReadings,
  exportJsonl,
  type ExportPair,
  figureLabels,
  type LabelEntry,
  LABELS_DIR,
  loadLabels,
  pairKey,
  parseReaderLabels,
  planImport,
  type Reading,
} from "./labels.ts";
import { languageTable, macro, macroIntervals, type PersonRow, personTable } from "./per_person.ts";
import { sameTextKey, statementKey, statementsOf } from "../../src/gate/statements.ts";
import { loadTranscriptPeople, transcriptsMissing } from "./transcripts.ts";

export { type Label, type LabelEntry, LABELS, LABELS_DIR, loadLabels, pairKey } from "./labels.ts";

/** Prompts per history in the pooled-recall sample: enough to find a few dozen opportunities. */
export const POOL_SAMPLE = 40;
/** Recall candidates pooled per sampled prompt (EVAL.md: the top 3 of an ungated recall). */
export const POOL_RECALL_TOP = 3;
/** Sampled prompts per history at which replay is checked against a from-scratch index. */
export const FRESH_CHECKS = 25;
/**
 * The same for the nine people of `more-histories/`: fewer, as one of them holds a prompt of
 * 2.5 million characters and each check indexes the whole archive before its prompt again.
 */
export const FRESH_CHECKS_MORE = 5;
/**
 * Prompts per person replayed against each other person's archive in the fourteen-person run:
 * a fixed sample (smallest fnv1a64("cross:" + id)), the same against every archive, so the 182
 * pairs cost about as much as 14 own replays. `--cross-sample all` replays every prompt.
 */
export const CROSS_SAMPLE = 300;

/** The language of each person (for the cross-pair table); "?" for a person not listed. */
export const LANGUAGE: Readonly<Record<string, string>> = {
  "addeuz-dfmain": "en",
  "minsky-specstory": "en",
  "twardoch-twat-specstory": "en",
  "data-agent-zh": "zh",
  "autofor-ja": "ja",
  "maiixu-aurora-zh": "zh",
  "d772-robomaster-zh-codex": "zh",
  "ryo-mgawa-loogia-ja": "ja",
  "uumk0n-luxflow-ru": "ru",
  "helrabelo-thousanddays": "en",
  "snozza-blended": "en",
  "mlevison-pkm": "en",
  "liamrohan-codex": "en",
  "jtkirk-telecom-mobile": "en",
};

export function languageOf(person: string): string {
  return LANGUAGE[person] ?? "?";
}

const SETTINGS: ReplaySettings = { entities: [], personas: [] };

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
export function runOwn(history: History, explainMisses = false, freshChecks = FRESH_CHECKS): OwnRun {
  const sample = sampleOf(history.records, POOL_SAMPLE);
  const freshSample = sampleOf(history.records, freshChecks);
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

/** The ids of a person's cross-paired sample: `size` prompts by fnv1a64("cross:" + id), or all. */
export function crossSampleOf(records: readonly VerdictRecord[], size: number | null): Set<string> | null {
  if (size === null) return null;
  const prompts = records.filter((r) => r.kind === "prompt");
  if (prompts.length <= size) return null;
  return new Set(
    prompts.map((r) => ({ id: r.id, h: fnv1a64(`cross:${r.id}`) }))
      .sort((x, y) => (x.h < y.h ? -1 : x.h > y.h ? 1 : 0)).slice(0, size).map((x) => x.id),
  );
}

/** B's whole archive in a replayer, to replay other people's prompts against. */
export function archiveReplayer(b: History): Replayer {
  const archive = sortedRecords(b.records);
  const replayer = new Replayer(deriveCjkWords(archive.map((r) => r.text)), SETTINGS);
  for (const r of archive) replayer.add(r);
  return replayer;
}

/**
 * A's prompts (all, or those in `sample`), in time order, each against B's whole archive (every
 * hint is false). `replayer` is B's archive (archiveReplayer), shared by every A: A's sessions are
 * named apart (`A NUL session`), so each A meets a ledger of its own, as with a fresh replayer,
 * and no session of B's is ever taken for A's.
 */
export function runCross(
  a: History,
  b: History,
  sample: ReadonlySet<string> | null = null,
  replayer: Replayer = archiveReplayer(b),
): CrossRun {
  const fires: CrossRun["fires"][number][] = [];
  const decisions: string[] = [];
  const prompts = sortedRecords(a.records).filter((r) => r.kind === "prompt" && (sample?.has(r.id) ?? true));
  for (const p of prompts) {
    const event = replayer.replay({ ...p, session: `${a.name}\u0000${p.session ?? ""}` });
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
  /** Each person's row of the per-person table (own figures, language, labels, cross fires). */
  readonly rows: readonly PersonRow[];
  readonly cross: readonly CrossRun[];
  /** Prompts per person in the cross pairs, or null: every prompt. */
  readonly crossSample: number | null;
  /**
   * Beyond the histories: each transcript person's prompts against each history's archive,
   * and each history's prompts against each transcript person's archive (every hint is false).
   */
  readonly transcriptCross: readonly CrossRun[];
  /** Why transcriptCross is empty (the transcripts are absent or not asked for), or null. */
  readonly transcriptsSkipped: string | null;
  /** Shelves that are absent (printed as skipped). */
  readonly skipped: readonly string[];
  readonly unlabelled: readonly Pair[];
  /** Which readings the figures count (labels.ts Reading). */
  readonly reading: Reading;
  readonly labelsDir: URL;
}

/** The key of a transcript cross pair in decisions.json: apart from the development pairs. */
export function transcriptDigestKey(c: CrossRun): string {
  return `transcripts: ${c.prompts} → ${c.archive}`;
}

/** The cross pairs between the transcripts' people and the histories, both ways. */
function runTranscriptCross(histories: readonly History[], size: number | null, dir: URL): CrossRun[] {
  const people = loadTranscriptPeople(dir);
  const out: CrossRun[] = [];
  const theirs = new Map<string, CrossRun>();
  for (const h of histories) {
    const replayer = archiveReplayer(h);
    for (const p of people) theirs.set(`${p.name}\u0000${h.name}`, runCross(p, h, null, replayer));
  }
  for (const p of people) for (const h of histories) out.push(theirs.get(`${p.name}\u0000${h.name}`)!);
  for (const h of histories) {
    const sample = crossSampleOf(h.records, size);
    for (const p of people) out.push(runCross(h, p, sample));
  }
  return out;
}

export interface EvaluateOptions {
  /** The persons (default: the first five, in place). */
  readonly people?: readonly PersonRef[];
  /** Cross pairs: none, every prompt (null) or a sample of this many prompts per person. */
  readonly cross?: "none" | number | null;
  /** Also cross with the transcripts' people (when cross is not "none"). */
  readonly transcripts?: boolean;
  /** For --misses: why the hint did not show each unshown pool candidate. */
  readonly explainMisses?: boolean;
  /** Check replay against from-scratch indexes at sampled prompts (default true). */
  readonly fresh?: boolean;
  readonly labelsDir?: URL;
  /** The shared data folder, for its `transcripts/` (default: beside the project). */
  readonly data?: URL;
  /** Which readings the figures count (default "first"; --blind-only "blind", --second-reading "blind-second"). */
  readonly reading?: Reading;
  /** Shelves found absent, to print. */
  readonly skipped?: readonly string[];
}

/** The first five people as references (the default set of the checks). */
export function developmentPeople(): PersonRef[] {
  return historyNames().map((name) => ({ name, shelf: "histories", dir: HISTORIES_DIR }));
}

/** Runs all three modes over the named persons. */
export function evaluate(options: EvaluateOptions = {}): Evaluation {
  const refs = options.people ?? developmentPeople();
  const labelsDir = options.labelsDir ?? LABELS_DIR;
  const reading = options.reading ?? "first";
  const crossMode = options.cross ?? null;
  const transcriptsDir = new URL("transcripts/", options.data ?? DATA_DIR);
  const histories = refs.map((r) => loadHistory(r.name, r.dir));
  const runs: OwnRun[] = [];
  const own: OwnFigures[] = [];
  const unlabelled: Pair[] = [];
  const labelled = new Set<string>();
  histories.forEach((h, i) => {
    const labels = figureLabels(h.name, labelsDir, reading);
    if (labels.size > 0) labelled.add(h.name);
    const fresh = options.fresh === false
      ? 0
      : refs[i]!.shelf === "histories"
      ? FRESH_CHECKS
      : FRESH_CHECKS_MORE;
    const run = runOwn(h, options.explainMisses ?? false, fresh);
    runs.push(run);
    own.push(ownFigures(run, labels));
    const seen = new Set<string>();
    for (const p of [...run.shown, ...run.pool.flatMap((i) => i.candidates.map((c) => c.pair))]) {
      if (labels.has(p.key) || seen.has(p.key)) continue;
      seen.add(p.key);
      unlabelled.push(p);
    }
  });
  const cross: CrossRun[] = [];
  let transcriptCross: CrossRun[] = [];
  const withCross = crossMode !== "none";
  const size = crossMode === "none" ? null : crossMode;
  let transcriptsSkipped: string | null = withCross && (options.transcripts ?? true)
    ? transcriptsMissing(transcriptsDir)
    : "not asked for";
  if (withCross) {
    const samples = histories.map((a) => crossSampleOf(a.records, size));
    const byPair = new Map<string, CrossRun>();
    // Each archive is built once and every other person's prompts replayed against it.
    for (const b of histories) {
      const replayer = archiveReplayer(b);
      histories.forEach((a, i) => {
        if (a !== b) byPair.set(`${a.name}\u0000${b.name}`, runCross(a, b, samples[i]!, replayer));
      });
    }
    for (const a of histories) {
      for (const b of histories) if (a !== b) cross.push(byPair.get(`${a.name}\u0000${b.name}`)!);
    }
    if (transcriptsSkipped === null) transcriptCross = runTranscriptCross(histories, size, transcriptsDir);
  } else transcriptsSkipped = "not asked for";
  const rows: PersonRow[] = own.map((f) => {
    const mine = cross.filter((c) => c.prompts === f.history);
    const drawn = cross.filter((c) => c.archive === f.history);
    return {
      own: f,
      language: languageOf(f.history),
      labelled: labelled.has(f.history),
      cross: {
        fired: mine.reduce((s, c) => s + c.fired, 0),
        prompts: mine.reduce((s, c) => s + c.promptCount, 0),
      },
      drawn: {
        fired: drawn.reduce((s, c) => s + c.fired, 0),
        prompts: drawn.reduce((s, c) => s + c.promptCount, 0),
      },
    };
  });
  return {
    runs,
    own,
    total: totalFigures(own),
    rows,
    cross,
    crossSample: size,
    transcriptCross,
    transcriptsSkipped,
    skipped: options.skipped ?? [],
    unlabelled,
    reading,
    labelsDir,
  };
}

// --- printing -------------------------------------------------------------------------------

const pct = (n: number, d: number) => (d === 0 ? "-" : `${(100 * n / d).toFixed(1)}%`);

/** The per-person table with the reasons of the irrelevant quotes and the fresh-index check. */
function ownSection(e: Evaluation): string[] {
  const lines = [
    `per person (own replay: each shown quote is a pair; precision = relevant / labelled shown quotes; pooled recall on ${POOL_SAMPLE} sampled prompts per person, pool = hint quotes + recall top ${POOL_RECALL_TOP} distinct texts, own session left out; cross fires = the person's prompts against every other person's archive)`,
    ...personTable(e.rows),
  ];
  const reasons = e.own.filter((f) => Object.keys(f.irrelevant).length > 0).map((f) =>
    `${f.history}: ${
      Object.entries(f.irrelevant).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, v]) =>
        `${k} ${v}`
      )
        .join(", ")
    }`
  );
  lines.push(`irrelevant shown quotes by reason: ${reasons.length === 0 ? "none" : reasons.join("; ")}`);
  const t = e.total;
  lines.push(
    `relevant pool candidates shown earlier in the prompt's session (counted as shown): ${t.poolRelevantShownEarlier}`,
    `replay vs. an index built from scratch at ${FRESH_CHECKS} sampled prompts per person of histories/, ${FRESH_CHECKS_MORE} of more-histories/: ${t.freshAgree}/${t.freshTotal} decisions equal`,
  );
  return lines;
}

function crossSection(e: Evaluation): string[] {
  if (e.cross.length === 0) return [];
  const sample = e.crossSample === null
    ? "every prompt"
    : `a fixed sample of at most ${e.crossSample} prompts per person (smallest fnv1a64("cross:" + id)), the same against every archive`;
  const lines = [
    "",
    `cross-paired, all ${e.cross.length} ordered pairs (A's prompts against B's whole archive; every hint is false; ${sample})`,
  ];
  const firing = e.cross.filter((c) => c.fired > 0);
  for (const c of firing) {
    lines.push(
      `  ${`${c.prompts} → ${c.archive}`.padEnd(56)} ${`${c.fired}/${c.promptCount}`.padStart(9)}  ${
        pct(c.fired, c.promptCount)
      }`,
    );
  }
  lines.push(`  ${e.cross.length - firing.length} pair(s) without a false fire`);
  lines.push(...languageTable(e.cross, languageOf));
  const fired = e.cross.reduce((s, c) => s + c.fired, 0);
  const prompts = e.cross.reduce((s, c) => s + c.promptCount, 0);
  // The target is at most 0.5%: two decimals, so a handful of fires does not print as 0.0%.
  const share = prompts === 0 ? "-" : `${(100 * fired / prompts).toFixed(2)}%`;
  lines.push(`  all pairs: ${fired}/${prompts} = ${share} false fires`);
  return lines;
}

/** The transcripts' cross pairs: the pairs with a fire, then the two directions summed. */
function transcriptSection(e: Evaluation): string[] {
  if (e.transcriptsSkipped === "not asked for") return [];
  if (e.transcriptsSkipped !== null) {
    return ["", `cross-paired with other people's transcripts: skipped: ${e.transcriptsSkipped}`];
  }
  if (e.transcriptCross.length === 0) return [];
  const histories = new Set(e.own.map((f) => f.history));
  const lines = [
    "",
    "cross-paired with other people's transcripts (../shared/data/transcripts, typed prompts by the collectors' rules; every hint is false)",
  ];
  for (const c of e.transcriptCross.filter((c) => c.fired > 0)) {
    lines.push(
      `  ${`${c.prompts} → ${c.archive}`.padEnd(56)} ${`${c.fired}/${c.promptCount}`.padStart(9)}  ${
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

export function report(e: Evaluation): string {
  const lines = [
    `eval:replay: the hint on ${e.own.length} ${
      e.own.length === 1 ? "person" : "people"
    }, gate as checked out; ${
      e.reading === "blind-second"
        ? "BLIND labels only, by the SECOND reading (a blind second reading if any, else the first if blind)"
        : e.reading === "blind"
        ? "BLIND labels only (first reading if blind, else a blind second reading)"
        : "labels: first reading"
    }`,
    ...e.skipped.map((s) => `skipped: ${s}`),
    "",
    ...ownSection(e),
    ...crossSection(e),
    ...transcriptSection(e),
  ];
  const withFile = e.unlabelled.filter((p) => e.rows.find((r) => r.own.history === p.history)?.labelled);
  const without = e.rows.filter((r) => !r.labelled).map((r) => r.own.history);
  if (e.unlabelled.length > 0) {
    lines.push(
      "",
      `${e.unlabelled.length} pair(s) are UNLABELLED (never counted as relevant; precision is over labelled quotes): ${withFile.length} of people with a label file, ${
        e.unlabelled.length - withFile.length
      } of people without one${
        without.length > 0 ? ` (${without.join(", ")})` : ""
      }; hand them to a blind reader with:`,
      "  deno task eval:replay --export-pairs /tmp/pairs.jsonl",
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
    const labels = figureLabels(run.history, e.labelsDir, e.reading);
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

/**
 * Every shown quote with its label (relevant ones too) and the gate's reason for speaking: the
 * list a rule is read against before it is changed. JSONL, with the texts (outside the repository).
 */
function shownJsonl(e: Evaluation): string {
  const out: string[] = [];
  const clip = (t: string) => (t.length > 700 ? `${t.slice(0, 700)}…` : t);
  for (const run of e.runs) {
    const labels = figureLabels(run.history, e.labelsDir, e.reading);
    const details = new Map<string, string>();
    for (const ev of run.events) {
      for (const c of ev.outcome.verdict.checks) {
        if (c.rule === "spoke") details.set(`${ev.prompt.id}\u0000${c.id}`, c.detail);
      }
    }
    for (const p of run.shown) {
      const l = labels.get(p.key);
      out.push(JSON.stringify({
        history: run.history,
        key: p.key,
        label: l?.label ?? "unlabelled",
        reason: l?.reason ?? "",
        kind: p.quoted.kind,
        prompted: { time: p.prompt.time, session: p.prompt.session, project: p.prompt.project },
        said: { time: p.quoted.time, session: p.quoted.session, project: p.quoted.project },
        rank: p.rank,
        detail: details.get(`${p.prompt.id}\u0000${p.quoted.id}`) ?? "",
        prompt: clip(p.prompt.text),
        quoted: clip(p.quote),
      }));
    }
  }
  return out.map((l) => l + "\n").join("");
}

// --- the command ----------------------------------------------------------------------------

const ROOT = new URL("../../", import.meta.url);

/** A usage or input problem: said on stderr with the way out, exit EXIT.usage, nothing written. */
class UsageError extends Error {}

/** A folder argument as a file URL ending in "/". */
function dirUrl(path: string): URL {
  const abs = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  return new URL(`file://${abs.endsWith("/") ? abs : `${abs}/`}`);
}

/**
 * The absolute path of an output file, refused when it lies inside this repository: the export
 * holds other people's texts, which never enter the project.
 */
export function outsideRepository(path: string, root: string = decodeURIComponent(ROOT.pathname)): string {
  const abs = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  const slash = abs.lastIndexOf("/");
  const parent = slash <= 0 ? "/" : abs.slice(0, slash);
  let real: string;
  try {
    real = Deno.realPathSync(parent);
  } catch {
    throw new UsageError(`Cannot write "${path}": its folder does not exist`);
  }
  const repo = Deno.realPathSync(root).replace(/\/$/, "");
  if (real === repo || real.startsWith(`${repo}/`)) {
    throw new UsageError(
      `Cannot write "${path}": it is inside the repository (${repo}); the pairs hold other people's texts, write them outside it (e.g. /tmp/pairs.jsonl)`,
    );
  }
  return `${real}/${abs.slice(slash + 1)}`;
}

/** Writes a file through a temporary name beside it, so a failure leaves no half file. */
function writeWhole(path: string, text: string): void {
  Deno.writeTextFileSync(`${path}.tmp`, text);
  Deno.renameSync(`${path}.tmp`, path);
}

/** The value after a flag, or undefined when the flag is absent; refused when the value is missing. */
function flagValue(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const v = args[at + 1];
  if (v === undefined || v.startsWith("--")) throw new UsageError(`${flag} needs a value`);
  return v;
}

/**
 * The pairs to hand a blind reader: without `second`, every shown quote and pooled candidate with
 * no first reading; with it, a sample of the pairs that have a first reading and no second one
 * (`second` of them, smallest fnv1a64("second:" + key); "all": every one); with "blind", every
 * pair whose only readings are the rules' authors' (what `--blind-only` counts as unlabelled),
 * for a second reading.
 */
export function pairsToExport(
  e: Evaluation,
  labelsDir: URL,
  second: number | "all" | "blind" | null,
): ExportPair[] {
  const all: ExportPair[] = [];
  const seen = new Set<string>();
  for (const run of e.runs) {
    const first = loadLabels(run.history, labelsDir);
    const again = loadLabels(run.history, labelsDir, true);
    for (const p of [...run.shown, ...run.pool.flatMap((i) => i.candidates.map((c) => c.pair))]) {
      const id = `${p.history}\u0000${p.key}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const wanted = second === null
        ? !first.has(p.key)
        : second === "blind"
        ? first.has(p.key) && first.get(p.key)!.labeller === undefined && !again.has(p.key)
        : first.has(p.key) && !again.has(p.key);
      if (wanted) all.push({ key: p.key, history: p.history, prompt: p.prompt.text, quote: p.quote });
    }
  }
  if (second === null || second === "all" || second === "blind") return all;
  return all.map((p) => ({ p, h: fnv1a64(`second:${p.key}`) }))
    .sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0)).slice(0, second).map((x) => x.p);
}

function countArg(v: string | undefined, flag: string): number | "all" | null {
  if (v === undefined) return null;
  if (v === "all") return "all";
  if (!/^[1-9][0-9]*$/.test(v)) throw new UsageError(`${flag} takes a count or "all", not "${v}"`);
  return Number(v);
}

async function main(args: readonly string[]): Promise<number> {
  const out = (text: string) => Deno.stdout.write(new TextEncoder().encode(text));
  const dataArg = flagValue(args, "--data");
  const labelsArg = flagValue(args, "--labels");
  const data = dataArg === undefined ? DATA_DIR : dirUrl(dataArg);
  const labelsDir = labelsArg === undefined ? LABELS_DIR : dirUrl(labelsArg);

  if (args.includes("--agreement")) {
    let names: string[] = [];
    try {
      names = [...Deno.readDirSync(new URL("second/", labelsDir))].filter((f) => f.name.endsWith(".jsonl"))
        .map((f) => f.name.replace(/\.jsonl$/, "")).sort();
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    await out(agreementReport(doubleReadings(names, labelsDir)));
    return EXIT.ok;
  }

  const found = people(data);
  if (found.people.length === 0) {
    console.log(
      `eval:replay: skipped: no histories under ${decodeURIComponent(data.pathname)} (${
        found.skipped.join("; ")
      })`,
    );
    return EXIT.ok;
  }
  const onlyName = flagValue(args, "--only");
  let refs = found.people;
  if (onlyName !== undefined) {
    refs = refs.filter((r) => r.name === onlyName);
    if (refs.length === 0) {
      throw new UsageError(
        `--only ${onlyName}: no such person (${found.people.map((r) => r.name).join(", ")})`,
      );
    }
  }

  const importFile = flagValue(args, "--import-labels");
  if (importFile !== undefined) {
    const labeller = flagValue(args, "--labeller");
    if (labeller === undefined) {
      throw new UsageError("--import-labels needs --labeller NAME (who read the pairs)");
    }
    let text: string;
    try {
      text = Deno.readTextFileSync(importFile);
    } catch (err) {
      throw new UsageError(`Cannot read "${importFile}": ${(err as Error).message}`);
    }
    const second = args.includes("--second");
    let readerLabels;
    let plan;
    try {
      readerLabels = parseReaderLabels(text, importFile);
      let keys: Map<string, string> | null = null;
      const historyOf = (key: string) => {
        if (keys === null) {
          // The reader dropped the export's history: find each key among today's pairs.
          keys = new Map();
          for (const run of evaluate({ people: refs, cross: "none", labelsDir }).runs) {
            for (const p of [...run.shown, ...run.pool.flatMap((i) => i.candidates.map((c) => c.pair))]) {
              keys.set(p.key, p.history);
            }
          }
        }
        return keys.get(key);
      };
      plan = planImport(readerLabels, historyOf, labelsDir, {
        labeller,
        second,
        fix: args.includes("--fix"),
        histories: new Set(found.people.map((r) => r.name)),
      });
    } catch (err) {
      throw new UsageError(`Cannot import "${importFile}" (nothing was written):\n${(err as Error).message}`);
    }
    applyImport(plan, labelsDir, second);
    const counts = [...plan].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([h, l]) => `${h} ${l.length}`);
    console.log(
      `imported ${readerLabels.length} label(s) by ${labeller} as the ${
        second ? "second" : "first"
      } reading: ${counts.join(", ")}`,
    );
    return EXIT.ok;
  }

  const exportFile = flagValue(args, "--export-pairs");
  if (exportFile !== undefined) {
    const path = outsideRepository(exportFile);
    const secondArg = flagValue(args, "--second");
    const second = secondArg === "blind" ? "blind" : countArg(secondArg, "--second");
    const e = evaluate({ people: refs, cross: "none", labelsDir });
    const pairs = pairsToExport(e, labelsDir, second);
    writeWhole(path, exportJsonl(pairs));
    console.log(
      `${pairs.length} pair(s) for a blind reader written to ${path} (key, history, prompt, quote only)`,
    );
    return EXIT.ok;
  }

  // The second reading is a blind one: --second-reading implies --blind-only.
  const reading: Reading = args.includes("--second-reading")
    ? "blind-second"
    : args.includes("--blind-only")
    ? "blind"
    : "first";
  const misses = args.includes("--misses");
  const digest = args.includes("--digest");
  const sampleArg = countArg(flagValue(args, "--cross-sample"), "--cross-sample");
  // The digest is the first five people's, every prompt, as tests/fixtures/replay/decisions.json keeps it.
  if (digest) refs = refs.filter((r) => r.shelf === "histories");
  const cross = onlyName !== undefined || misses
    ? "none"
    : digest || sampleArg === "all"
    ? null
    : sampleArg ?? CROSS_SAMPLE;
  const e = evaluate({
    people: refs,
    cross,
    explainMisses: misses,
    fresh: !args.includes("--no-fresh"),
    labelsDir,
    data,
    reading,
    skipped: found.skipped,
  });
  if (digest) {
    const digests: Record<string, string> = {};
    for (const run of e.runs) digests[run.history] = ownDigest(run);
    for (const c of e.cross) digests[`${c.prompts} → ${c.archive}`] = c.digest;
    for (const c of e.transcriptCross) digests[transcriptDigestKey(c)] = c.digest;
    console.log(JSON.stringify(digests, null, 2));
  } else if (args.includes("--fires")) {
    const clip = (t: string) => (t.length > 700 ? `${t.slice(0, 700)}…` : t);
    const lines = [
      ...e.cross.map((c) => ["histories", c] as const),
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
    await out(lines.join(""));
  } else if (misses) {
    await out(missesJsonl(e));
  } else if (args.includes("--shown")) {
    await out(shownJsonl(e));
  } else if (args.includes("--unlabelled")) {
    await out(unlabelledJsonl(e));
  } else if (args.includes("--json")) {
    console.log(
      JSON.stringify(
        {
          own: e.own,
          total: e.total,
          rows: e.rows,
          macro: macro(e.rows),
          macroIntervals: macroIntervals(e.rows),
          crossSample: e.crossSample,
          cross: e.cross.map(({ fires: _fires, ...c }) => c),
          transcriptCross: e.transcriptCross.map(({ fires: _fires, ...c }) => c),
          unlabelled: e.unlabelled.length,
          blindOnly: e.reading !== "first",
        },
        null,
        2,
      ),
    );
  } else await out(report(e));
  return EXIT.ok;
}

if (import.meta.main) {
  taskArgs("eval:replay", import.meta.url, Deno.args, {
    values: [
      "--data",
      "--labels",
      "--only",
      "--import-labels",
      "--labeller",
      "--export-pairs",
      "--cross-sample",
    ],
    optional: ["--second"],
    switches: [
      "--agreement",
      "--blind-only",
      "--digest",
      "--fires",
      "--fix",
      "--json",
      "--misses",
      "--no-fresh",
      "--second-reading",
      "--shown",
      "--unlabelled",
    ],
  });
  try {
    Deno.exit(await main(Deno.args));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`eval:replay: ${err.message}`);
    console.error(
      "hint: deno task eval:replay [--json | --blind-only | --second-reading | --agreement | --export-pairs FILE [--second N|all|blind] | --import-labels FILE --labeller NAME [--second] [--fix]] [--only NAME] [--cross-sample N|all]",
    );
    Deno.exit(EXIT.usage);
  }
}
