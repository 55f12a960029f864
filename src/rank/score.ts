/**
 * search(): the ranked, explained answer to a query over a Corpus. Pure: the clock, the caller's
 * project, the entity list and the exclusions all come in through `SearchOptions`.
 *
 * 1. Terms. The query is tokenized like the records (tokenize.ts, with the corpus's CJK words).
 *    A query naming an entity or one of its aliases also gets the terms of all its other names.
 *    Terms absent from the corpus are dropped. The rest are ordered rarest first — "common" words
 *    (stopwords, and terms used in more conversations than COMMON_SESSION_SHARE of the records
 *    and than COMMON_MIN_SESSIONS) after every other term — and at most
 *    MAX_QUERY_TERMS are kept.
 * 2. BM25 over the kept terms (bm25.ts), summed in that order.
 * 3. Weights multiply the BM25 score: source × marker × recency × project × entity.
 * 4. Order: score desc, then time desc (newer first), then id asc. Exclusions (the live session,
 *    the cooldown ids) are removed before the top N are cut.
 *
 * Each hit says which terms it matched, which of them are not common (`informativeMatched`; a hit
 * with none is `commonOnly` and the gate refuses it) and how much of the query's informative idf
 * mass it covers (`coverage`).
 */

import { RECORD_KINDS, type RecordKind } from "../record/record.ts";
import {
  bm25Accumulate,
  bm25Idf,
  type Bm25Sums,
  type Corpus,
  type DocMeta,
  markerOf,
  NO_SESSION,
} from "./bm25.ts";
import { holdsDoc, ScratchArray } from "./postings.ts";
import { type Entity, entityForms } from "./entities.ts";
import type { MarkerStrength } from "./markers.ts";
import { isStopword } from "./stopwords.ts";
import { type CjkLexicon, isCjkTerm, tokenize } from "./tokenize.ts";

// --- weights --------------------------------------------------------------------------------

/** Typed prompts are the user's own words: the most direct record of what they decided. */
export const SOURCE_WEIGHT_PROMPT = 1;
/** Notes (CLAUDE.md, memory files) are decisions written down, but in the agent's words. */
export const SOURCE_WEIGHT_NOTE = 0.8;
/** Documents state intent too, but mostly describe rather than decide. */
export const SOURCE_WEIGHT_DOC = 0.6;
/** Commit subjects say what changed, rarely what was decided for next time. */
export const SOURCE_WEIGHT_COMMIT = 0.4;
/** Tags carry a date and a name, the thinnest evidence of a decision. */
export const SOURCE_WEIGHT_TAG = 0.4;

export const SOURCE_WEIGHTS: Readonly<Record<RecordKind, number>> = {
  prompt: SOURCE_WEIGHT_PROMPT,
  note: SOURCE_WEIGHT_NOTE,
  doc: SOURCE_WEIGHT_DOC,
  commit: SOURCE_WEIGHT_COMMIT,
  tag: SOURCE_WEIGHT_TAG,
};

/** A strong marker (决定, must, never…) says "this is settled": half as much again. */
export const MARKER_WEIGHT_STRONG = 1.5;
/** A medium marker (应该, prefer, switch to…) is a leaning, worth a quarter more. */
export const MARKER_WEIGHT_MEDIUM = 1.25;
/** No marker: the text may still bear on the topic, at face value. */
export const MARKER_WEIGHT_NONE = 1;

/** `hint` halves a record's weight every 30 days (SPEC): an unprompted hint should be current. */
export const HINT_HALF_LIFE_DAYS = 30;
/** `recall` decays as 1/(1 + age/τ): a half-year-old decision keeps half its weight — the user asked. */
export const RECALL_DECAY_DAYS = 180;
/** …never below this: a years-old exact answer is handicapped at most 5×, so it can still be found. */
export const RECALL_RECENCY_FLOOR = 0.2;

/** Records from the caller's own project count double (SPEC). */
export const PROJECT_WEIGHT = 2;
/** A record naming an entity the query names is about the same thing, not just the same words. */
export const ENTITY_WEIGHT = 1.5;

// --- term selection -------------------------------------------------------------------------

/** At most this many terms are searched: bounds the work per prompt; rarest first keeps the sharp ones. */
export const MAX_QUERY_TERMS = 16;
/**
 * A term is "common" when more conversations use it than this share of the archive's records
 * (SPEC: 1%). A conversation is a session; a record without one (a doc, a note, a commit) is one
 * on its own. Counting conversations rather than records, a topic that one long session keeps
 * returning to stays a topic; the bar is a share of the records, which the index knows without
 * a pass over them.
 */
export const COMMON_SESSION_SHARE = 0.01;
/**
 * …and more than this many: a word ten separate conversations share is a habit of speech, not
 * a topic. In a young archive (under a thousand records) this is the bar, so 1% of 50 records
 * never makes every word common.
 */
export const COMMON_MIN_SESSIONS = 10;
/** Hits returned when the caller does not say. */
export const DEFAULT_TOP = 5;

const DAY_MS = 86_400_000;

export type SearchMode = "hint" | "recall";

export interface SearchOptions {
  readonly mode: SearchMode;
  /** The pinned clock (epoch ms): recency is measured against it. */
  readonly nowMs: number;
  /** The caller's project (VerdictRecord.project form); records with exactly this project count double. */
  readonly project?: string;
  readonly entities?: readonly Entity[];
  /** The live session: its records are never returned. */
  readonly excludeSession?: string | null;
  /** Record ids not to return (the cooldown ledger). */
  readonly excludeIds?: ReadonlySet<string>;
  /** Hits to return (default DEFAULT_TOP). */
  readonly top?: number;
  /** Terms to search at most (default MAX_QUERY_TERMS). */
  readonly maxTerms?: number;
  /**
   * Hint mode: terms rarer than this idf (or from an entity) start candidates, the others only
   * add to them (the hint passes the gate's anchor threshold). Absent: every non-common term starts.
   */
  readonly minCandidateIdf?: number;
  /** Hint mode: terms that start candidates however common (the files the prompt names). */
  readonly startTerms?: ReadonlySet<string>;
  /**
   * The query's terms when the caller has them already: exactly tokenize(query) with the
   * corpus's lexicon (corpusLexicon), as termOrigins gives them. Saves tokenizing it twice.
   */
  readonly queryTerms?: readonly string[];
}

export interface SearchTerm {
  readonly term: string;
  /** Times the term occurs in the (expanded) query; BM25 counts it linearly. */
  readonly qtf: number;
  readonly df: number;
  readonly idf: number;
  /** A stopword, or a term more conversations use than the common threshold: searched last, never enough alone. */
  readonly common: boolean;
  /** The entity whose alias brought this term in, or null for a term of the query itself. */
  readonly fromEntity: string | null;
}

export interface SkippedTerm {
  readonly term: string;
  /** "absent": no record holds it; "limit": beyond the MAX_QUERY_TERMS rarest. */
  readonly reason: "absent" | "limit";
}

/** The factors a hit's BM25 score was multiplied by. */
export interface WeightFactors {
  readonly source: number;
  readonly marker: number;
  readonly recency: number;
  readonly project: number;
  readonly entity: number;
}

export interface SearchHit {
  readonly doc: number;
  readonly id: string;
  readonly meta: DocMeta;
  readonly bm25: number;
  readonly weights: WeightFactors;
  /** bm25 × every weight factor. */
  readonly score: number;
  /** The search terms the record holds, in search order. */
  readonly matched: readonly string[];
  /** The matched terms that are not common. */
  readonly informativeMatched: readonly string[];
  /** True when every matched term is common: such a hit can never justify a hint. */
  readonly commonOnly: boolean;
  /** Share (0…1) of the idf of the query's own non-common terms that this record matches. */
  readonly coverage: number;
  /** Entities named by both the query and this record. */
  readonly entities: readonly string[];
}

export interface SearchResult {
  /** Records in the corpus (the scale every idf is relative to). */
  readonly docCount: number;
  /** The searched terms, in search order (rarest first, common last). */
  readonly terms: readonly SearchTerm[];
  readonly skipped: readonly SkippedTerm[];
  /** Entities the query names. */
  readonly entities: readonly string[];
  /** Records that matched at least one term, before exclusions and the top-N cut. */
  readonly candidates: number;
  readonly hits: readonly SearchHit[];
  /**
   * The query's own informative terms with their idf: the denominator of `coverage` (searched
   * terms that are not common and not entity expansions, plus absent Latin words). The gate
   * measures a single statement's coverage against the same mass.
   */
  readonly topic: readonly { readonly term: string; readonly idf: number }[];
}

// --- the pieces ---------------------------------------------------------------------------

/** The source weight of a record kind. */
export function sourceWeight(kind: RecordKind): number {
  return SOURCE_WEIGHTS[kind];
}

/** The marker weight of a record's strongest marker. */
export function markerWeight(marker: MarkerStrength | null): number {
  return marker === "strong"
    ? MARKER_WEIGHT_STRONG
    : marker === "medium"
    ? MARKER_WEIGHT_MEDIUM
    : MARKER_WEIGHT_NONE;
}

/** The recency factor of a record made at `timeMs`, seen at `nowMs`. Future times count as now. */
export function recencyWeight(mode: SearchMode, timeMs: number, nowMs: number): number {
  const ageDays = Math.max(0, nowMs - timeMs) / DAY_MS;
  if (mode === "hint") return Math.pow(2, -ageDays / HINT_HALF_LIFE_DAYS);
  return Math.max(RECALL_RECENCY_FLOOR, 1 / (1 + ageDays / RECALL_DECAY_DAYS));
}

/** source × marker by a document's packed flags byte (bm25.ts packFlags): one look-up per candidate. */
const KIND_MARKER_WEIGHTS = (() => {
  const table = new Float64Array(256);
  for (let f = 0; f < 256; f++) {
    const kind = RECORD_KINDS[f & 0x0f];
    table[f] = kind ? sourceWeight(kind) * markerWeight(markerOf(f)) : 0;
  }
  return table;
})();

/** How many conversations more than which a term is common, in `corpus`. */
export function commonThreshold(corpus: Corpus): number {
  return Math.max(COMMON_SESSION_SHARE * corpus.docCount, COMMON_MIN_SESSIONS);
}

/** Per corpus, a mark per session (the stamp of the last count that saw it): counting without a Set. */
const SESSION_MARKS = new WeakMap<Corpus, { marks: Uint32Array; stamp: number }>();

/**
 * The number of distinct conversations holding `term`, counted up to `limit + 1` (enough to say
 * whether it exceeds `limit`): a long list of a frequent word stops early. A word frequent in a
 * few long sessions is read to its end, so the count marks sessions in a typed array.
 */
export function conversationSpread(corpus: Corpus, term: string, limit: number): number {
  const docs = corpus.postingList(term).docs;
  const cols = corpus.columns();
  const sessions = cols.sessions;
  let m = SESSION_MARKS.get(corpus);
  if (m === undefined || m.marks.length < cols.sessionNames.length || m.stamp === 0xffffffff) {
    m = { marks: new Uint32Array(Math.max(16, cols.sessionNames.length * 2)), stamp: 0 };
    SESSION_MARKS.set(corpus, m);
  }
  const stamp = ++m.stamp;
  const marks = m.marks;
  let count = 0;
  for (let i = 0; i < docs.length && count <= limit; i++) {
    const s = sessions[docs[i]!]!;
    if (s === NO_SESSION) count++; // a record without a session is a conversation of its own
    else if (marks[s] !== stamp) {
      marks[s] = stamp;
      count++;
    }
  }
  return count;
}

/**
 * Conversation counts already made, per corpus, as of its record count (a corpus that grows —
 * replay's — starts afresh with each record): counting a frequent word's conversations reads a
 * threshold's worth of its postings, and a long-running process (serve, mcp) asks about the same
 * words again and again, as the disk index keeps their posting lists.
 */
const COMMON_KNOWN = new WeakMap<
  Corpus,
  { docCount: number; threshold: number; byTerm: Map<string, boolean> }
>();
/** Terms whose commonness is kept per corpus (a bound on the memory a long-running process keeps). */
const COMMON_KNOWN_MAX = 100_000;

/** Whether `term` (held by `df` records) is common in `corpus`: a stopword, or used by more conversations than the threshold. */
export function isCommonTerm(
  corpus: Corpus,
  term: string,
  df: number,
  threshold = commonThreshold(corpus),
): boolean {
  if (isStopword(term)) return true;
  // A term in fewer records than the threshold cannot be in more conversations.
  if (!(df > threshold)) return false;
  let known = COMMON_KNOWN.get(corpus);
  if (known === undefined || known.docCount !== corpus.docCount || known.threshold !== threshold) {
    known = { docCount: corpus.docCount, threshold, byTerm: new Map() };
    COMMON_KNOWN.set(corpus, known);
  }
  const seen = known.byTerm.get(term);
  if (seen !== undefined) return seen;
  // The index's per-segment counts settle most words without reading a session per posting
  // (at 10⁶ records that read is the whole document table); only a word whose bounds straddle
  // the threshold is counted exactly. Either way the answer is the exact count's.
  const bounds = corpus.conversationBounds?.(term);
  const common = bounds !== undefined && bounds.lower > threshold
    ? true
    : bounds !== undefined && bounds.upper <= threshold
    ? false
    : conversationSpread(corpus, term, threshold) > threshold;
  if (known.byTerm.size >= COMMON_KNOWN_MAX) known.byTerm.clear();
  known.byTerm.set(term, common);
  return common;
}

/** The corpus's CJK words as a tokenizer lexicon. */
export function corpusLexicon(corpus: Corpus): CjkLexicon {
  return corpus.cjkLexicon?.() ?? { has: (word) => corpus.isCjkWord(word) };
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Unique terms in first-occurrence order, with their counts. */
function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** An entity named in the query, with the terms of each of its names. */
interface NamedEntity {
  readonly name: string;
  readonly forms: readonly (readonly string[])[];
  /** Query terms that spelled it (they count as covered when a record names the entity). */
  readonly queryTerms: ReadonlySet<string>;
}

function namedEntities(
  entities: readonly Entity[],
  queryTerms: ReadonlySet<string>,
  lexicon: CjkLexicon,
): NamedEntity[] {
  const named: NamedEntity[] = [];
  for (const entity of entities) {
    const forms = entityForms(entity).map((f) => [...new Set(tokenize(f, lexicon))]).filter((t) =>
      t.length > 0
    );
    const spelled = new Set<string>();
    for (const f of forms) if (f.every((t) => queryTerms.has(t))) { for (const t of f) spelled.add(t); }
    if (spelled.size > 0) named.push({ name: entity.name, forms, queryTerms: spelled });
  }
  return named;
}

/** The search terms of a query: tokenized, entity-expanded, looked up, ordered and capped. */
export function selectTerms(
  corpus: Corpus,
  query: string,
  options: Pick<SearchOptions, "entities" | "maxTerms"> = {},
): { terms: SearchTerm[]; skipped: SkippedTerm[]; entities: string[] } {
  const { terms, skipped, named } = prepare(corpus, query, options);
  return { terms, skipped, entities: named.map((e) => e.name) };
}

function prepare(
  corpus: Corpus,
  query: string,
  options: Pick<SearchOptions, "entities" | "maxTerms" | "startTerms" | "queryTerms">,
): { terms: SearchTerm[]; skipped: SkippedTerm[]; named: NamedEntity[] } {
  const lexicon = corpusLexicon(corpus);
  const counts = countTerms(options.queryTerms ?? tokenize(query, lexicon));
  const named = namedEntities(options.entities ?? [], new Set(counts.keys()), lexicon);
  const origin = new Map<string, string | null>([...counts.keys()].map((t) => [t, null]));
  for (const e of named) {
    for (const form of e.forms) {
      for (const t of form) {
        if (origin.has(t)) continue;
        origin.set(t, e.name);
        counts.set(t, 1);
      }
    }
  }
  const skipped: SkippedTerm[] = [];
  const present: SearchTerm[] = [];
  const threshold = commonThreshold(corpus);
  for (const [term, qtf] of counts) {
    const df = corpus.docFreq(term);
    if (df === 0) {
      skipped.push({ term, reason: "absent" });
      continue;
    }
    present.push({
      term,
      qtf,
      df,
      idf: bm25Idf(corpus.docCount, df),
      common: isCommonTerm(corpus, term, df, threshold),
      fromEntity: origin.get(term) ?? null,
    });
  }
  // A start term (a file the prompt names) is searched with the informative terms, never cut.
  const last = (t: SearchTerm) => Number(t.common && options.startTerms?.has(t.term) !== true);
  present.sort((a, b) => last(a) - last(b) || a.df - b.df || compareStrings(a.term, b.term));
  const limit = options.maxTerms ?? MAX_QUERY_TERMS;
  for (const t of present.slice(limit)) skipped.push({ term: t.term, reason: "limit" });
  return { terms: present.slice(0, limit), skipped, named };
}

/** Ranks the corpus's records for `query`. Deterministic: same corpus, query and options → same result. */
export function search(corpus: Corpus, query: string, options: SearchOptions): SearchResult {
  const { terms, skipped, named } = prepare(corpus, query, options);
  // Hint mode: only informative terms rare enough to be the gate's anchor (or brought in by an
  // entity) start candidates; the others add to those candidates only. A record no such term
  // matches can never be quoted, so it is not scored at all: this keeps a prompt full of common
  // words or frequent CJK bigrams from touching a large part of the archive.
  // Recall: common words also only add to candidates when the query has any other word (a record
  // matched by "the" alone is no answer to "the pg_dump schedule"); a query of common words only
  // still ranks by them.
  const onlyCommon = terms.every((t) => t.common);
  const starts = (t: SearchTerm) =>
    options.mode !== "hint"
      ? onlyCommon || !t.common
      : (options.startTerms?.has(t.term) ?? false) || !t.common &&
          (t.fromEntity !== null || options.minCandidateIdf === undefined ||
            t.idf >= options.minCandidateIdf);
  const termOrder = [...terms.keys()].sort((a, b) =>
    Number(!starts(terms[a]!)) - Number(!starts(terms[b]!)) || a - b
  );
  const restrictFrom = termOrder.filter((i) => starts(terms[i]!)).length;

  // Weights from the columns: one number per candidate, no object per candidate.
  const cols = corpus.columns();
  const entityDocs = named.map((e) => docsNaming(corpus, e));
  const excludedSession = options.excludeSession != null
    ? cols.sessionNames.indexOf(options.excludeSession)
    : -1;
  const callerProject = options.project !== undefined && options.project !== ""
    ? cols.projectNames.indexOf(options.project)
    : -1;
  const kindMarker = KIND_MARKER_WEIGHTS;
  const excluded = (doc: number) => excludedSession >= 0 && cols.sessions[doc] === excludedSession;
  const recency = (doc: number) => recencyWeight(options.mode, cols.times[doc]!, options.nowMs);
  /**
   * A candidate's score from a BM25 sum and its recency factor: the one expression the ranking
   * and its bounds (cutBelowTop) both use, so they round alike.
   */
  const weighted = (bm25: number, doc: number, recencyFactor: number): number => {
    let score = bm25 * kindMarker[cols.flags[doc]!]! * recencyFactor;
    if (callerProject >= 0 && cols.projects[doc] === callerProject) score *= PROJECT_WEIGHT;
    if (entityDocs.length > 0 && entityDocs.some((set) => set.has(doc))) score *= ENTITY_WEIGHT;
    return score;
  };
  // The cooldown ids can only push out as many candidates as they number, so the ranking needs
  // the best `top` plus that many.
  const top = options.top ?? DEFAULT_TOP;
  const excludeIds = options.excludeIds ?? new Set<string>();
  const wanted = top + excludeIds.size;
  const sums = bm25Accumulate(
    corpus,
    termOrder.map((i) => ({ term: terms[i]!.term, qtf: terms[i]!.qtf })),
    restrictFrom,
    (partial, restMax) => cutBelowTop(partial, restMax, wanted, weighted, recency, excluded),
  );

  // The coverage denominator: the query's own informative terms, including words no record
  // holds (they still belong to the prompt's topic: a record matching "the" and "like" of "what
  // is the weather like on mars" covers little of it). Entity expansions are not the query's.
  const expansionTerms = new Set<string>();
  for (const e of named) {
    for (const form of e.forms) for (const t of form) if (!e.queryTerms.has(t)) expansionTerms.add(t);
  }
  const topic: { term: string; idf: number }[] = [];
  for (const t of terms) if (!t.common && t.fromEntity === null) topic.push({ term: t.term, idf: t.idf });
  for (const t of skipped) {
    // An absent CJK bigram is most often a seam between two words (价格字段 → 格字), not a
    // topic: only absent Latin words and identifiers count against coverage.
    if (t.reason === "absent" && !isStopword(t.term) && !expansionTerms.has(t.term) && !isCjkTerm(t.term)) {
      topic.push({ term: t.term, idf: bm25Idf(corpus.docCount, 0) });
    }
  }
  let informativeMass = 0;
  for (const t of topic) informativeMass += t.idf;

  // Candidates a cut left with partial sums cannot reach the best `wanted`: not ranked.
  const final = FINAL_SCORES.take(sums.scored);
  const order: number[] = [];
  for (let k = 0; k < sums.scored; k++) {
    const doc = sums.docs[k]!;
    if (excluded(doc)) continue;
    final[k] = weighted(sums.scores[doc]!, doc, recency(doc));
    order.push(k);
  }

  // The best `top` after exclusions, by score desc, time desc, id asc (the cooldown ids dropped
  // at the end).
  const better = (a: number, b: number): number => {
    const da = sums.docs[a]!;
    const db = sums.docs[b]!;
    return final[b]! - final[a]! || cols.times[db]! - cols.times[da]! ||
      compareStrings(corpus.id(da), corpus.id(db)) || da - db;
  };
  const ranked = selectBest(order, wanted, better);
  const best = excludeIds.size === 0
    ? ranked
    : ranked.filter((k) => !excludeIds.has(corpus.id(sums.docs[k]!)));

  // Each term's bit in the sums' masks (bit k is the k-th term summed; terms past 32 have none),
  // and each topic term's: a hit's matched terms and coverage are then read off its mask.
  const bitOf = new Array<number>(terms.length).fill(0);
  for (let k = 0; k < termOrder.length && k < 32; k++) bitOf[termOrder[k]!] = 1 << k;
  const indexOfTerm = new Map<string, number>();
  for (let i = 0; i < terms.length; i++) indexOfTerm.set(terms[i]!.term, i);
  const topicBits = topic.map((t) => bitOf[indexOfTerm.get(t.term) ?? -1] ?? 0);
  // A hit's matched terms follow from its mask alone: hits with one mask share one pair of
  // arrays (the gate works its record-level rules out once per set of matched terms).
  const matchedByMask = new Map<number, { all: string[]; informative: string[] }>();
  const hits: SearchHit[] = best.slice(0, top).map((k) => {
    const doc = sums.docs[k]!;
    const meta = corpus.meta(doc);
    const mask = sums.masks[doc]!;
    let byMask = matchedByMask.get(mask);
    if (byMask === undefined) {
      // In search order (the order of `terms`).
      byMask = { all: [], informative: [] };
      for (let i = 0; i < terms.length; i++) {
        if ((mask & bitOf[i]!) === 0) continue;
        const t = terms[i]!;
        byMask.all.push(t.term);
        if (!t.common) byMask.informative.push(t.term);
      }
      matchedByMask.set(mask, byMask);
    }
    const matched = byMask.all;
    const informativeMatched = byMask.informative;
    const entities = named.filter((_, i) => entityDocs[i]!.has(doc));
    let coveredMass = 0;
    if (entities.length === 0) {
      for (let j = 0; j < topic.length; j++) if ((mask & topicBits[j]!) !== 0) coveredMass += topic[j]!.idf;
    } else {
      // A query word that spelled an entity is covered by a record naming that entity any way.
      const covered = new Set(matched);
      for (const e of entities) for (const t of e.queryTerms) covered.add(t);
      for (const t of topic) if (covered.has(t.term)) coveredMass += t.idf;
    }
    const weights: WeightFactors = {
      source: sourceWeight(meta.kind),
      marker: markerWeight(meta.marker),
      recency: recencyWeight(options.mode, meta.timeMs, options.nowMs),
      project: callerProject >= 0 && cols.projects[doc] === callerProject ? PROJECT_WEIGHT : 1,
      entity: entities.length > 0 ? ENTITY_WEIGHT : 1,
    };
    return new RankedHit(
      doc,
      meta,
      sums.scores[doc]!,
      weights,
      final[k]!,
      matched,
      informativeMatched,
      informativeMass > 0 ? Math.min(1, coveredMass / informativeMass) : 0,
      entities.map((e) => e.name),
    );
  });
  return {
    docCount: corpus.docCount,
    terms,
    skipped,
    entities: named.map((e) => e.name),
    candidates: sums.count,
    hits,
    topic,
  };
}

/**
 * A SearchHit whose id is read on demand (the disk index fetches an id from its file, and most
 * hits never need one). A class, not an object literal with a getter: V8 builds those through a
 * slow path, and a search makes one per candidate it hands the gate.
 */
class RankedHit implements SearchHit {
  readonly commonOnly: boolean;
  constructor(
    readonly doc: number,
    readonly meta: DocMeta,
    readonly bm25: number,
    readonly weights: WeightFactors,
    readonly score: number,
    readonly matched: readonly string[],
    readonly informativeMatched: readonly string[],
    readonly coverage: number,
    readonly entities: readonly string[],
  ) {
    this.commonOnly = informativeMatched.length === 0;
  }

  get id(): string {
    return this.meta.id;
  }
}

/**
 * The cut of the hint's ranking (bm25.ts CandidateCut): once the start terms are summed, only
 * `wanted` candidates can be shown, and a candidate whose score cannot reach theirs whatever
 * the restricted terms add is not looked up in their (long) lists. Exact, never an estimate:
 * with S the `wanted`-th largest score so far among the candidates that may be shown (scores
 * only grow as terms add), a candidate is cut only when its score with every restricted term's
 * largest share (bm25TermBound), weighted by the same expression, is below S. Then at least
 * `wanted` others end strictly above it, so it is never among the best, and nothing else reads
 * a cut candidate's sums. In the hint, recency spreads scores over orders of magnitude, so most
 * candidates are cut at once.
 */
/** cutBelowTop's arrays (its answer is read before the next search): see ScratchArray. */
const CUT_KEEP = new ScratchArray((n) => new Uint8Array(n));
const CUT_MOST = new ScratchArray((n) => new Float64Array(n));
const CUT_LOWER = new ScratchArray((n) => new Float64Array(n));
/** Each ranked candidate's final score, during one search. */
const FINAL_SCORES = new ScratchArray((n) => new Float64Array(n));

function cutBelowTop(
  partial: Bm25Sums,
  restMax: readonly number[],
  wanted: number,
  weighted: (bm25: number, doc: number, recencyFactor: number) => number,
  recency: (doc: number) => number,
  excluded: (doc: number) => boolean,
): Uint8Array | null {
  const n = partial.count;
  if (wanted <= 0 || n <= wanted) return null;
  const keep = CUT_KEEP.take(n).fill(0, 0, n).subarray(0, n);
  const most = CUT_MOST.take(n);
  const lower = CUT_LOWER.take(n);
  let eligible = 0;
  for (let k = 0; k < n; k++) {
    const doc = partial.docs[k]!;
    if (excluded(doc)) continue;
    keep[k] = 1;
    const r = recency(doc);
    const sum = partial.scores[doc]!;
    lower[eligible++] = weighted(sum, doc, r);
    // The restricted terms' largest shares added in the order the terms add theirs.
    let bound = sum;
    for (let i = 0; i < restMax.length; i++) bound += restMax[i]!;
    most[k] = weighted(bound, doc, r);
  }
  if (eligible <= wanted) return keep;
  const reach = kthLargest(lower, eligible, wanted);
  for (let k = 0; k < n; k++) if (most[k]! < reach) keep[k] = 0;
  return keep;
}

/** kthLargest's `k` largest so far, in descending order. */
const LARGEST = new ScratchArray((n) => new Float64Array(n));

/**
 * The `k`-th largest of values[0 … n) (1 ≤ k ≤ n), as a sort would put it: the `k` largest kept
 * in order, each value compared with the least of them. Sorting the candidates' scores to read
 * one off was most of the cut's time (deno run --cpu-prof: the sort was 9 in 10 of its
 * samples), and `k` is the hint's few quotes.
 */
function kthLargest(values: Float64Array, n: number, k: number): number {
  const largest = LARGEST.take(k);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (kept === k && !(v > largest[k - 1]!)) continue;
    let j = kept === k ? k - 1 : kept++;
    while (j > 0 && largest[j - 1]! < v) {
      largest[j] = largest[j - 1]!;
      j--;
    }
    largest[j] = v;
  }
  return largest[k - 1]!;
}

/** The `k` best items by `cmp` (negative: a before b), sorted; a bounded insertion, O(n·k). */
function selectBest(items: readonly number[], k: number, cmp: (a: number, b: number) => number): number[] {
  const best: number[] = [];
  if (k <= 0) return best;
  for (const item of items) {
    if (best.length === k && cmp(item, best[k - 1]!) >= 0) continue;
    let i = best.length === k ? k - 1 : best.length;
    if (best.length < k) best.push(item);
    while (i > 0 && cmp(item, best[i - 1]!) < 0) {
      best[i] = best[i - 1]!;
      i--;
    }
    best[i] = item;
  }
  return best;
}

/** The documents naming an entity: holding every term of at least one of its names. */
function docsNaming(corpus: Corpus, entity: NamedEntity): Set<number> {
  const out = new Set<number>();
  for (const form of entity.forms) {
    const lists = form.map((t) => corpus.postingList(t).docs).sort((a, b) => a.length - b.length);
    const [first, ...rest] = lists;
    if (!first) continue;
    for (const doc of first) if (rest.every((l) => holdsDoc(l, doc))) out.add(doc);
  }
  return out;
}
