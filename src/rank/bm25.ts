/**
 * BM25 over an abstract corpus. The in-memory index (memory_index.ts) and the on-disk index both
 * implement `Corpus`; scoring goes through `bm25Rank` for both, so equal corpora give equal scores
 * bit for bit (same formula, same summation order).
 *
 * score(d, q) = Σ_t qtf(t) · idf(t) · tf(t,d)·(k1 + 1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 * idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))   (never negative, unlike Robertson's original)
 *
 * |d| is the exact document length in terms (no lossy length norms), qtf is counted linearly.
 * The posting lists it reads, and how it finds documents in them, are ./postings.ts.
 */

import { RECORD_KINDS, type RecordKind } from "../record/record.ts";
import type { MarkerStrength } from "./markers.ts";
import type { CjkLexicon } from "./tokenize.ts";
import {
  denseOf,
  findInDense,
  findInList,
  holdsDoc,
  isMarked,
  type Posting,
  type PostingList,
  type PostingPart,
  skipsOf,
} from "./postings.ts";

/** Term-frequency saturation: the standard value; the IR check (bench/eval_ir.ts) is measured with it. */
export const BM25_K1 = 1.2;
/** Length normalisation: the standard value; prompts vary from a word to pages, so full-ish normalisation. */
export const BM25_B = 0.75;

/**
 * The per-record facts the weights need, fixed at index-build time. An index may answer some of
 * them through getters read on demand (metaFromColumns): copy one field by field, not by spread.
 */
export interface DocMeta {
  /** The record id (VerdictRecord.id). */
  readonly id: string;
  readonly kind: RecordKind;
  /** The record's time as epoch milliseconds (0 when unparseable). */
  readonly timeMs: number;
  readonly project: string;
  readonly session: string | null;
  /** The strongest non-negated decision marker in the text (markers.ts), found at build time. */
  readonly marker: MarkerStrength | null;
}

/**
 * What ranking reads from an index. Documents are numbered 0 … docSlots − 1; `docCount` of those
 * slots hold live documents (an index of segments keeps the slots of deleted documents until a
 * merge drops them; every other index has docSlots = docCount).
 * `avgDocLength` must be Σ docLength / docCount over the live documents, computed in float64, so
 * that every implementation scores identically.
 */
export interface Corpus {
  /** Live documents: the N of every idf. */
  readonly docCount: number;
  /** Document numbers in use, live or not: the size of per-document arrays. */
  readonly docSlots: number;
  readonly avgDocLength: number;
  /** Number of live documents holding `term` (0 when it is not in the vocabulary). */
  docFreq(term: string): number;
  /** The live documents holding `term`, sorted by doc ascending (empty when absent). */
  postings(term: string): readonly Posting[];
  /** The number of terms (with repeats) the document was indexed with. */
  docLength(doc: number): number;
  meta(doc: number): DocMeta;
  /**
   * Whether `word` is one of the corpus-derived CJK words the documents were indexed with
   * (cjk_words.ts). The query is tokenized with this lookup, so both sides emit the same words.
   */
  isCjkWord(word: string): boolean;
  /**
   * The same words as a tokenizer lexicon that can also say which strings start none
   * (CjkLexicon.mayStartWord), when the corpus keeps one; else the query side asks isCjkWord.
   */
  cjkLexicon?(): CjkLexicon;
  /**
   * The live documents holding `term` as parallel typed arrays (same content as postings());
   * columns() holds their facts once this returns.
   */
  postingList(term: string): PostingList;
  /**
   * The documents holding `term` in disjoint parts (one per index segment), for the scoring loop.
   * Unless `candidatesOnly`, columns() holds the facts of every document in the parts once this
   * returns; with it, the caller promises to read columns only of documents an earlier call
   * (without it) returned, so a lazily loaded index need not load anything for these. With
   * `transient`, the caller keeps none of the parts' arrays and is done with them before it asks
   * for another term's parts, so an index may hand a part over as a `transient` view it reuses.
   */
  postingParts(term: string, candidatesOnly: boolean, transient?: boolean): readonly PostingPart[];
  /**
   * Every document's weight-relevant facts as columns over the document numbers (the fast path;
   * same content as meta()). A lazily loaded index fills them as postingList() and postingParts()
   * return documents.
   */
  columns(): DocColumns;
  /** The record id of a document (read lazily by the disk index: only hits need it). */
  id(doc: number): string;
  /**
   * Bounds on the number of distinct conversations among the live documents holding `term`,
   * from counts an index keeps (the disk index's segments); absent where counting is as cheap.
   */
  conversationBounds?(term: string): ConversationBounds;
}

/** lower ≤ the live documents' distinct conversations holding a term ≤ upper. */
export interface ConversationBounds {
  readonly lower: number;
  readonly upper: number;
}

/** Session column value of a record without a session. */
export const NO_SESSION = 0xffffffff;

/** Marker strengths by their column code (0 none, 1 medium, 2 strong). */
export const MARKER_CODES: readonly (MarkerStrength | null)[] = [null, "medium", "strong"];

/**
 * Per-document facts as columns, so scoring reads numbers instead of building an object per
 * candidate. `flags` packs the kind (index into RECORD_KINDS, low 4 bits) and the marker code
 * (high 4 bits); projects and sessions are indices into the name tables.
 */
export interface DocColumns {
  readonly lengths: Uint32Array;
  readonly times: Float64Array;
  readonly flags: Uint8Array;
  readonly projects: Uint32Array;
  readonly sessions: Uint32Array;
  readonly projectNames: NameTable;
  readonly sessionNames: NameTable;
}

/** Names by number (a plain array is one; a disk index may look them up on demand). */
export interface NameTable {
  /** The number of `name`, or −1 when no document has it. */
  indexOf(name: string): number;
  at(index: number): string | undefined;
  /** One more than the largest number a document may hold (an array's length): sizes a per-name table. */
  readonly length: number;
}

/** Builds columns from metas (the in-memory index; the disk index reads them from its file). */
export function columnsOf(lengths: readonly number[], metas: readonly DocMeta[]): DocColumns {
  const n = metas.length;
  const cols = {
    lengths: Uint32Array.from(lengths),
    times: new Float64Array(n),
    flags: new Uint8Array(n),
    projects: new Uint32Array(n),
    sessions: new Uint32Array(n),
    projectNames: [] as string[],
    sessionNames: [] as string[],
  };
  const projectIds = new Map<string, number>();
  const sessionIds = new Map<string, number>();
  metas.forEach((m, d) => {
    cols.times[d] = m.timeMs;
    cols.flags[d] = packFlags(m.kind, m.marker);
    if (!projectIds.has(m.project)) {
      projectIds.set(m.project, projectIds.size);
      cols.projectNames.push(m.project);
    }
    cols.projects[d] = projectIds.get(m.project)!;
    if (m.session === null) cols.sessions[d] = NO_SESSION;
    else {
      if (!sessionIds.has(m.session)) {
        sessionIds.set(m.session, sessionIds.size);
        cols.sessionNames.push(m.session);
      }
      cols.sessions[d] = sessionIds.get(m.session)!;
    }
  });
  return cols;
}

export function packFlags(kind: RecordKind, marker: MarkerStrength | null): number {
  return RECORD_KINDS.indexOf(kind) | (MARKER_CODES.indexOf(marker) << 4);
}

export function kindOf(flags: number): RecordKind {
  return RECORD_KINDS[flags & 0x0f]!;
}

export function markerOf(flags: number): MarkerStrength | null {
  return MARKER_CODES[flags >> 4] ?? null;
}

/** Throws RangeError unless `doc` numbers one of `count` documents. */
export function checkDoc(doc: number, count: number): void {
  if (!(doc >= 0 && doc < count)) throw new RangeError(`Cannot read document ${doc}: the index has ${count}`);
}

/**
 * A document's DocMeta from columns (for hits and tests; scoring reads the columns). The id and
 * the project and session names are read when first asked: the disk index keeps ids in its file
 * and names in the archive's database (a query each), and the hint path asks for them only of
 * the quote it shows, not of the fifteen candidates the gate judges. `id` may be a function for
 * the same reason.
 */
export function metaFromColumns(cols: DocColumns, doc: number, id: string | (() => string)): DocMeta {
  return new ColumnMeta(cols, doc, id);
}

/**
 * DocMeta over columns, a class rather than an object literal with getters: V8 builds a literal
 * with accessors through a slow path (about 0.4 µs each, 20 times a class instance here) and the
 * hint path makes one per candidate. The lazy fields are getters on the prototype, so copy a
 * DocMeta field by field, never by spreading it.
 */
class ColumnMeta implements DocMeta {
  readonly kind: RecordKind;
  readonly timeMs: number;
  readonly marker: MarkerStrength | null;
  readonly #cols: DocColumns;
  readonly #project: number;
  readonly #session: number;
  #id: string | (() => string);
  #projectName: string | undefined;
  #sessionName: string | null | undefined;

  constructor(cols: DocColumns, doc: number, id: string | (() => string)) {
    const flags = cols.flags[doc]!;
    this.kind = kindOf(flags);
    this.timeMs = cols.times[doc]!;
    this.marker = markerOf(flags);
    this.#cols = cols;
    this.#project = cols.projects[doc]!;
    this.#session = cols.sessions[doc]!;
    this.#id = id;
  }

  get id(): string {
    if (typeof this.#id !== "string") this.#id = this.#id();
    return this.#id;
  }

  get project(): string {
    return this.#projectName ??= this.#cols.projectNames.at(this.#project)!;
  }

  get session(): string | null {
    if (this.#sessionName === undefined) {
      this.#sessionName = this.#session === NO_SESSION ? null : this.#cols.sessionNames.at(this.#session)!;
    }
    return this.#sessionName;
  }
}

/** A search term with its query-term frequency. */
export interface QueryTerm {
  readonly term: string;
  readonly qtf: number;
}

/** One scored document: its BM25 score and which query terms (indices into the term list) it holds. */
export interface Bm25Match {
  readonly doc: number;
  readonly bm25: number;
  readonly matched: readonly number[];
}

/** BM25's idf for a term held by `df` of `docCount` documents. */
export function bm25Idf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/**
 * The BM25 sums of one query: candidate docs in first-touch order, with per-doc sums and term
 * masks. Valid until the next bm25Accumulate on the same corpus (the arrays are reused).
 */
export interface Bm25Sums {
  /** Candidate docs: those whose sums are complete first (`scored` of them), then any cut. */
  readonly docs: Int32Array;
  /** Candidates: the documents the unrestricted terms matched. */
  readonly count: number;
  /**
   * docs[0 … scored) hold every term's share; the rest were cut (CandidateCut) before the
   * restricted terms, and their sums and masks are partial. Equals `count` without a cut.
   */
  readonly scored: number;
  /** BM25 sum by doc (only candidates are meaningful). */
  readonly scores: Float64Array;
  /** Bit i set when the doc holds term i (terms 0–31; later terms leave no bit). */
  readonly masks: Uint32Array;
}

/**
 * Asked once the unrestricted terms are summed (`sums.scored` = `sums.count` then), with the
 * most each restricted term can still add to any document, in term order (bm25TermBound): which
 * candidates may still matter, as a flag per candidate in `sums.docs` order (1: keep). Null
 * keeps them all; a candidate it refuses is not looked up in the restricted terms' lists, so
 * its sum stays partial.
 */
export type CandidateCut = (sums: Bm25Sums, restMax: readonly number[]) => Uint8Array | null;

/**
 * The most a term of BM25 weight `weight` (qtf × idf) adds to any document's sum, as computed:
 * the share weight·tf·(k1 + 1)/(tf + norm) is below weight·(k1 + 1) by the factor
 * tf/(tf + norm), and norm ≥ k1·(1 − b) = 0.3 while tf ≤ a document's length < 2³², so the
 * factor is under 1 − 7·10⁻¹¹: far more than the few units of rounding in either value.
 * Adding to and multiplying a float sum are monotonic, so a sum with these in place of the
 * real shares, weighted the same way, bounds the real score from above, bit for bit.
 */
export function bm25TermBound(weight: number): number {
  return weight * (BM25_K1 + 1);
}

/**
 * Sums BM25 over `terms`, term by term in the order given (so float sums are reproducible).
 * Terms from index `restrictFrom` on only add to documents an earlier term already matched:
 * the gate never speaks for a record matched by common words alone, so the hint path spends no
 * time on the long posting lists of words like "the" beyond its real candidates. With `cut`,
 * they add only to the candidates it keeps (a caller that wants its top few need not look up
 * the candidates that cannot reach them).
 */
export function bm25Accumulate(
  corpus: Corpus,
  terms: readonly QueryTerm[],
  restrictFrom = terms.length,
  cut?: CandidateCut,
): Bm25Sums {
  const n = corpus.docCount;
  const avgdl = corpus.avgDocLength > 0 ? corpus.avgDocLength : 1;
  const lengths = corpus.columns().lengths;
  // Per-document arrays are reused from the corpus's previous search and cleaned where it wrote:
  // allocating and zeroing them for 200,000 records would cost more than a selective query.
  const scratch = scratchFor(corpus, corpus.docSlots);
  const { scores, masks, seen } = scratch;
  for (let k = 0; k < scratch.count; k++) {
    const doc = scratch.docs[k]!;
    scores[doc] = 0;
    masks[doc] = 0;
    seen[doc] = 0;
  }
  scratch.count = 0;
  let docs = scratch.docs;
  let count = 0;
  // The candidates the restricted terms score, docs[0 … live): set at the first of them (with
  // a cut, seen[doc] is CUT_OFF for the candidates it refused). −1 before.
  let live = -1;
  for (let ti = 0; ti < terms.length; ti++) {
    const t = terms[ti]!;
    const df = corpus.docFreq(t.term);
    if (df === 0 || t.qtf <= 0) continue;
    const weight = t.qtf * bm25Idf(n, df);
    const bit = ti < 32 ? 1 << ti : 0;
    const restricted = ti >= restrictFrom;
    if (restricted && live < 0) {
      live = cut !== undefined && count > 0
        ? applyCut(corpus, terms, ti, { docs, count, scored: count, scores, masks }, cut, seen)
        : count;
    }
    if (restricted && live === 0) continue;
    // Each term's parts are done with before the next term's are asked for, and only their
    // documents are kept (copied into `docs`).
    for (const part of corpus.postingParts(t.term, restricted, true)) {
      const pd = part.docs;
      const pt = part.tfs;
      const base = part.base;
      const deleted = part.deleted;
      if (restricted && live * Math.log2(pd.length + 1) < pd.length) {
        // Few candidates against a long list (a common word): look each candidate up instead.
        // Candidates are live, so a deleted slot is never found.
        const dense = part.transient ? null : denseOf(pd);
        const at = dense !== null
          ? findInDense(dense, docs, live, base)
          : findInList(pd, part.transient ? null : skipsOf(pd), docs, live, base);
        for (let k = 0; k < live; k++) {
          const i = at[k]!;
          if (i < 0) continue;
          const doc = docs[k]!;
          const tf = pt[i]!;
          const norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths[doc]! / avgdl);
          scores[doc] = scores[doc]! + weight * (tf * (BM25_K1 + 1)) / (tf + norm);
          masks[doc] = masks[doc]! | bit;
        }
        continue;
      }
      for (let i = 0; i < pd.length; i++) {
        const slot = pd[i]!;
        const doc = base + slot;
        if (seen[doc] !== 1) {
          if (restricted || (deleted !== null && isMarked(deleted, slot))) continue;
          seen[doc] = 1;
          if (count === docs.length) {
            const grown = new Int32Array(docs.length * 2);
            grown.set(docs);
            docs = grown;
          }
          docs[count++] = doc;
        }
        const tf = pt[i]!;
        const norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths[doc]! / avgdl);
        scores[doc] = scores[doc]! + weight * (tf * (BM25_K1 + 1)) / (tf + norm);
        masks[doc] = masks[doc]! | bit;
      }
    }
  }
  scratch.docs = docs;
  scratch.count = count;
  return { docs, count, scored: live < 0 ? count : live, scores, masks };
}

/** seen[] mark of a candidate a cut refused: not scored by the restricted terms. */
const CUT_OFF = 2;

/**
 * Asks `cut` which candidates may still matter once terms before `from` are summed, moves
 * those to the front of `sums.docs` (their order does not change any sum: each document adds
 * its terms in term order) and marks the others CUT_OFF. Returns how many it kept.
 */
function applyCut(
  corpus: Corpus,
  terms: readonly QueryTerm[],
  from: number,
  sums: Bm25Sums,
  cut: CandidateCut,
  seen: Uint8Array,
): number {
  const restMax: number[] = [];
  for (let ti = from; ti < terms.length; ti++) {
    const t = terms[ti]!;
    const df = corpus.docFreq(t.term);
    if (df === 0 || t.qtf <= 0) continue;
    restMax.push(bm25TermBound(t.qtf * bm25Idf(corpus.docCount, df)));
  }
  const keep = cut(sums, restMax);
  if (keep === null) return sums.count;
  const docs = sums.docs;
  let kept = 0;
  // A stable partition: the kept in their first-touch order, then the cut in theirs.
  const refused: number[] = [];
  for (let k = 0; k < sums.count; k++) {
    const doc = docs[k]!;
    if (keep[k] === 1) docs[kept++] = doc;
    else {
      refused.push(doc);
      seen[doc] = CUT_OFF;
    }
  }
  for (let k = 0; k < refused.length; k++) docs[kept + k] = refused[k]!;
  return kept;
}

interface Scratch {
  readonly scores: Float64Array;
  readonly masks: Uint32Array;
  readonly seen: Uint8Array;
  docs: Int32Array;
  count: number;
}

const SCRATCH = new WeakMap<Corpus, Scratch>();

/**
 * The corpus's reusable per-document arrays (a search is synchronous: one user at a time), with
 * room for at least `n` documents. A corpus that grows (replay's AppendIndex) reallocates only
 * when it doubles, not at every search.
 */
function scratchFor(corpus: Corpus, n: number): Scratch {
  let s = SCRATCH.get(corpus);
  if (!s || s.scores.length < n) {
    const size = s ? Math.max(n, 2 * s.scores.length) : n;
    s = {
      scores: new Float64Array(size),
      masks: new Uint32Array(size),
      seen: new Uint8Array(size),
      docs: new Int32Array(64),
      count: 0,
    };
    SCRATCH.set(corpus, s);
  }
  return s;
}

/**
 * Scores every document that holds at least one of `terms` (the plain BM25 ranking the IR
 * evaluation uses). Terms are summed in the order given. The result is in ascending doc order.
 */
export function bm25Rank(corpus: Corpus, terms: readonly QueryTerm[]): Bm25Match[] {
  const sums = bm25Accumulate(corpus, terms);
  const out: Bm25Match[] = [];
  for (let k = 0; k < sums.count; k++) {
    const doc = sums.docs[k]!;
    const mask = sums.masks[doc]!;
    const matched: number[] = [];
    for (let ti = 0; ti < terms.length; ti++) {
      if (ti < 32 ? (mask & (1 << ti)) !== 0 : holdsDoc(corpus.postingList(terms[ti]!.term).docs, doc)) {
        matched.push(ti);
      }
    }
    out.push({ doc, bm25: sums.scores[doc]!, matched });
  }
  out.sort((a, b) => a.doc - b.doc);
  return out;
}
