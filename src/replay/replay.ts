/**
 * Replay: the hook, run over a history of typed prompts in time order. Each prompt is decided by
 * the hook's own function (`hintFor`, src/gate/hint.ts) against an index of exactly the records
 * older than it, with its own session left out and a cooldown ledger per session, as of the
 * prompt's own time; then it joins the index. Pure: records in, events out.
 *
 * Where this is not the live hook (stated in `verdict replay --help` too):
 * - the CJK words (cjk_words.ts) are derived once from every record given, not from those older
 *   than each prompt (the live index derives them at each collect from what it holds then);
 *   `freshIndexAgreement` measures what that changes;
 * - the archive is taken as fresh at every prompt (the live index is as old as the last collect);
 * - a record's time is when it was written: a doc edited later is unseen before its new time.
 */
import { compareRecords, type VerdictRecord } from "../record/record.ts";
import { AppendIndex } from "../rank/append_index.ts";
import { deriveCjkWords } from "../rank/cjk_words.ts";
import type { Entity } from "../rank/entities.ts";
import { buildMemoryIndex } from "../rank/memory_index.ts";
import type { Corpus } from "../rank/bm25.ts";
import { hintFor, type HintOutcome, type HintRequest, HOOK_TOP, whyNotQuoted } from "../gate/hint.ts";
import { type ShownQuote, shownQuote } from "../gate/render.ts";

export interface ReplaySettings {
  readonly entities: readonly Entity[];
  /** Config hook_personas (the hook's persona rule applies as it would live). */
  readonly personas: readonly string[];
  /** Quotes per hint (default: what the hook shows). */
  readonly top?: number;
}

/** One replayed prompt and what the hook would have done with it. */
export interface ReplayEvent {
  readonly prompt: VerdictRecord;
  readonly outcome: HintOutcome;
  /** The records the hint quoted, best first (empty when silent). */
  readonly quoted: readonly VerdictRecord[];
  /** What it quoted of each: the record and its decision statements, as the hook renders them. */
  readonly quotes: readonly ShownQuote[];
  /** Records the prompt could see: the first archiveSize records in the replay's document order. */
  readonly archiveSize: number;
  /** The session's cooldown ledger as the prompt found it. */
  readonly shownBefore: ReadonlySet<string>;
}

/** The cooldown ledger's key for a session (records without one share a ledger, as in the hook). */
function ledgerKey(session: string | null): string {
  return session === null ? "\u0000no-session" : session;
}

/**
 * An index that grows in time order, a ledger per session, and the hook's decision for a prompt
 * against what has been added so far.
 */
export class Replayer {
  readonly index: AppendIndex;
  readonly #records: VerdictRecord[] = [];
  readonly #shown = new Map<string, Set<string>>();
  readonly #settings: ReplaySettings;

  constructor(cjkWords: ReadonlySet<string>, settings: ReplaySettings) {
    this.index = new AppendIndex(cjkWords);
    this.#settings = settings;
  }

  /** Adds a record to the archive prompts see from now on. */
  add(record: VerdictRecord): void {
    this.index.add(record);
    this.#records.push(record);
  }

  /** The records added so far, in document order. */
  get records(): readonly VerdictRecord[] {
    return this.#records;
  }

  /** The ids already shown in the prompt's session. */
  shownIn(session: string | null): ReadonlySet<string> {
    return this.#shown.get(ledgerKey(session)) ?? new Set();
  }

  /** The hook's decision for `prompt` against the records added so far; a shown quote enters its session's ledger. */
  replay(prompt: VerdictRecord): ReplayEvent {
    const shownBefore = new Set(this.shownIn(prompt.session));
    const records = this.#records;
    const outcome = decideAgainst(
      this.index,
      (doc) => records[doc]!.text,
      prompt,
      shownBefore,
      this.#settings,
    );
    const quotes = outcome.verdict.quotes.map((q) => shownQuote(records[q.hit.doc]!, q));
    if (quotes.length > 0) {
      // As the hook's ledger: the records shown and the keys of their quoted statements.
      const key = ledgerKey(prompt.session);
      const set = this.#shown.get(key) ?? new Set<string>();
      for (const q of outcome.verdict.quotes) {
        set.add(records[q.hit.doc]!.id);
        for (const k of q.keys) set.add(k);
      }
      this.#shown.set(key, set);
    }
    return {
      prompt,
      outcome,
      quoted: quotes.map((q) => q.record),
      quotes,
      archiveSize: this.index.docCount,
      shownBefore,
    };
  }
}

/** The hook's request for one replayed prompt. */
function requestFor(
  textOf: (doc: number) => string,
  prompt: VerdictRecord,
  shown: ReadonlySet<string>,
  settings: ReplaySettings,
): HintRequest {
  const ms = Date.parse(prompt.time);
  return {
    prompt: prompt.text,
    session: prompt.session,
    cwd: prompt.project === "" ? null : prompt.project,
    nowMs: Number.isFinite(ms) ? ms : 0,
    shown,
    entities: settings.entities,
    personas: settings.personas,
    top: settings.top ?? HOOK_TOP,
    textOf,
  };
}

/** The hook's decision for one prompt over any corpus (the replay index, or a fresh one to compare). */
export function decideAgainst(
  corpus: Corpus,
  textOf: (doc: number) => string,
  prompt: VerdictRecord,
  shown: ReadonlySet<string>,
  settings: ReplaySettings,
): HintOutcome {
  return hintFor(corpus, requestFor(textOf, prompt, shown, settings));
}

/** Why the hook would not quote document `doc` for `prompt` (evaluation: a relevant record missed). */
export function whyNotAgainst(
  corpus: Corpus,
  textOf: (doc: number) => string,
  prompt: VerdictRecord,
  shown: ReadonlySet<string>,
  settings: ReplaySettings,
  doc: number,
): ReturnType<typeof whyNotQuoted> {
  return whyNotQuoted(corpus, requestFor(textOf, prompt, shown, settings), doc);
}

/** The archive's order: time, then id (the records file's own order). */
export function sortedRecords(records: readonly VerdictRecord[]): VerdictRecord[] {
  return [...records].sort(compareRecords);
}

/** A replayer for `records`, its CJK words derived from all of them unless given. */
export function replayerFor(
  records: readonly VerdictRecord[],
  settings: ReplaySettings,
  cjkWords: ReadonlySet<string> = deriveCjkWords(records.map((r) => r.text)),
): Replayer {
  return new Replayer(cjkWords, settings);
}

/**
 * Replays every prompt `isTarget` selects, in time order, each against the records strictly
 * older than it, adding every record to `replayer` as it goes. Records of equal time are all
 * replayed before any of them joins the index, so none sees another. When an event is yielded
 * the index holds exactly the records older than its prompt.
 */
export function* replayArchive(
  replayer: Replayer,
  records: readonly VerdictRecord[],
  isTarget: (r: VerdictRecord) => boolean,
): Generator<ReplayEvent> {
  const sorted = sortedRecords(records);
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j < sorted.length && sorted[j]!.time === sorted[i]!.time) j++;
    for (let k = i; k < j; k++) {
      const r = sorted[k]!;
      if (r.kind === "prompt" && isTarget(r)) yield replayer.replay(r);
    }
    for (let k = i; k < j; k++) replayer.add(sorted[k]!);
    i = j;
  }
}

/** What a decision comes to, for comparing two runs: silent, or the ids quoted. */
export function decisionKey(outcome: HintOutcome): string {
  return outcome.verdict.speak
    ? outcome.verdict.quotes.map((q) => `${q.hit.id}:${q.keys.join("+")}`).join(",")
    : "-";
}

/**
 * The bound on replay's one approximation: decide each sampled event's prompt again over a
 * MemoryIndex built from scratch over the same older records (`archive`, the replay's records in
 * document order, cut at the event's archiveSize) — its CJK words derived from those records
 * alone, as a collect at that moment would — with the same ledger, and count how often both say
 * the same thing (silent, or the same ids).
 */
export function freshIndexAgreement(
  events: readonly ReplayEvent[],
  archive: readonly VerdictRecord[],
  settings: ReplaySettings,
): { agree: number; total: number; differ: { prompt: string; replay: string; fresh: string }[] } {
  let agree = 0;
  const differ: { prompt: string; replay: string; fresh: string }[] = [];
  for (const event of events) {
    const older = archive.slice(0, event.archiveSize);
    const fresh = decideAgainst(
      buildMemoryIndex(older),
      (doc) => older[doc]!.text,
      event.prompt,
      event.shownBefore,
      settings,
    );
    const a = decisionKey(event.outcome);
    const b = decisionKey(fresh);
    if (a === b) agree++;
    else differ.push({ prompt: event.prompt.id, replay: a, fresh: b });
  }
  return { agree, total: events.length, differ };
}
