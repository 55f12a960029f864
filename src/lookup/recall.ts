/**
 * Explicit look-ups (recall, query, the MCP tool): no gate, longer quotes, each text once (copies
 * of one are one result: see "distinct texts" below). A Recaller holds the ranked corpus and
 * reloads it when a collect committed a change to the archive (its generation moved). Until then
 * it reads the index segments it opened, which are immutable: it never sees a half-written
 * archive. The hint loads this module for loadCorpus only.
 */
import { MAX_DOC_BYTES, screenedChunks } from "../collect/markdown.ts";
import { asRecord, type RecordKind, type RecordOrigin, type VerdictRecord } from "../record/record.ts";
import { RECORD_ORIGINS } from "../agents/registry.ts";
import { type CredentialRule, holdsCredential } from "../record/secrets.ts";
import { InputError } from "../errors.ts";
import { readToEnd } from "../fsutil/bytes.ts";
import { containedRealPathSync } from "../sandbox/contain.ts";
import type { Corpus } from "../rank/bm25.ts";
import { type Entity, parseEntities } from "../rank/entities.ts";
import { type ArchiveReader, IndexUnavailableError, openArchiveReader } from "../store/reader.ts";
import { storePaths } from "../store/paths.ts";
import { describeMarks, type Marks, NO_MARKS } from "../store/marks.ts";
import { search, type SearchHit, type SearchOptions, type SearchResult } from "../rank/score.ts";
import { sameTextKey } from "../gate/statements.ts";

/**
 * Which records a look-up may return: a date window (since inclusive, until exclusive, RFC 3339
 * UTC), a project folder (its records and those of folders below it) and a kind; null: no bound.
 */
export interface RecordWindow {
  readonly since: string | null;
  readonly until: string | null;
  readonly project: string | null;
  readonly kind: RecordKind | null;
}

export const NO_WINDOW: RecordWindow = { since: null, until: null, project: null, kind: null };

/** Whether `project` is `root` or a folder below it. */
export function underProject(project: string, root: string): boolean {
  return root === "/" || project === root || project.startsWith(`${root}/`);
}

export function inWindow(w: RecordWindow, r: Pick<VerdictRecord, "time" | "project" | "kind">): boolean {
  if (w.since !== null && r.time < w.since) return false;
  if (w.until !== null && r.time >= w.until) return false;
  if (w.project !== null && !underProject(r.project, w.project)) return false;
  if (w.kind !== null && r.kind !== w.kind) return false;
  return true;
}

export interface RecallOptions {
  /** Distinct texts to return at most (copies of one text are one result: searchDistinct). */
  readonly top: number;
  /** The pinned clock, ms since the epoch (recency is measured from it). */
  readonly asOfMs: number;
  /** The caller's project (records of it count double), or null. */
  readonly project?: string | null;
  /** A live session whose own records are never returned. */
  readonly excludeSession?: string | null;
  /**
   * Only records within it are returned: the ranking is read best first and the others are passed
   * over, among its best MAX_RANKED_MATCHES matches.
   */
  readonly window?: RecordWindow;
}

export interface RecallHit {
  readonly id: string;
  readonly kind: RecordKind;
  readonly origin: RecordOrigin;
  readonly time: string;
  readonly project: string;
  readonly session: string | null;
  readonly source_file: string;
  readonly source_line: number;
  /** The row id in a store without lines (VerdictRecord.source_ref); absent otherwise. */
  readonly source_ref?: string;
  readonly score: number;
  readonly matched: readonly string[];
  /**
   * The quote: a document section re-read from its file when that lies under a root (its
   * current text), else the stored text. Never a text any credential rule matches.
   */
  readonly quote: string;
  /**
   * The copies of this text among the ranked matches (the same text sent again, by the gate's
   * definition): this hit is the best-ranked one, and the others are not listed.
   */
  readonly copies: Copies;
  /**
   * What the person marked it: ["live"], or each of "retracted on DATE by ID (why)", "muted",
   * "muted in DIR", "pinned on WORDS" (src/store/marks.ts describeMarks). A look-up finds marked
   * records too; the hint does not show them as current. Absent: live.
   */
  readonly state?: readonly string[];
}

export interface RecallAnswer {
  readonly hits: readonly RecallHit[];
  /** Why nothing came back, when hits is empty ("no records yet", "no record matches …"). */
  readonly reason: string | null;
  /** The ranking's own account (search terms, weights), for --explain. */
  readonly explain: SearchResult | null;
}

export type { Loaded as LoadedCorpus };

export interface Recaller {
  recall(query: string, options: RecallOptions): Promise<RecallAnswer>;
  close(): void;
}

export interface RecallerInput {
  readonly recordsPath: string;
  /** Real paths under which quotes may be re-read from their source files. */
  readonly quoteRoots: readonly string[];
  readonly entitiesPath: string | null;
  /**
   * The credential rules in force: a hit whose quote matches one is withheld (the archive may
   * predate a rule, and a re-read file may have changed since it was collected).
   */
  readonly credentialRules: readonly CredentialRule[];
}

/** Longest quote a look-up returns (characters); hint quotes are shorter (gate). */
export const RECALL_QUOTE_CHARS = 1200;

interface Loaded {
  /**
   * What was opened: the database file's identity (device and inode, taken before it was opened)
   * and the archive's generation (src/store/reader.ts). Equal to `current()` while nothing a
   * reader depends on changed.
   */
  readonly signature: string;
  /**
   * "archive": the store (its index or, when that cannot serve, its records ranked in memory);
   * "legacy": an older verdict's records file, until a collect migrates it.
   */
  readonly source: "archive" | "legacy";
  readonly corpus: Corpus;
  /** The record of document `doc`, or null when a collect removed it since the load (reload). */
  readonly record: (doc: number) => VerdictRecord | null;
  /** The record with id `id` as the archive holds it now, or null. */
  readonly recordById: (id: string) => VerdictRecord | null;
  /** What a person marked (retracted, muted, pinned), as of the load (a change to them moves the signature). */
  readonly marks: () => Marks;
  /** The signature the archive has now (cheap: a stat and one look-up). */
  readonly current: () => string | null;
  readonly close: () => void;
}

/** Thrown when the index cannot serve and the archive is too large to rank on the spot. */
export class CorpusUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CorpusUnavailableError";
  }
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** A file's identity: device and inode ("-" when there is none). */
function identityOf(info: Deno.FileInfo | null): string {
  return info === null ? "-" : `${info.dev}.${info.ino ?? 0}`;
}

/**
 * Loads the corpus of the archive named by `recordsPath` (src/store/paths.ts) as it is now: its
 * index; an in-memory index when that cannot serve and the archive holds at most
 * `maxFallbackDocs` records (else CorpusUnavailableError); or, before the first collect of this
 * version migrated it, an older verdict's records file when it is at most `maxLegacyBytes`.
 */
export async function loadCorpus(
  recordsPath: string,
  maxFallbackDocs = Infinity,
  maxLegacyBytes = Infinity,
): Promise<Loaded | null> {
  const paths = storePaths(recordsPath);
  // Before the open: a file replaced after this stat gives a signature that never equals what
  // `current()` sees, so a keeper reopens; a stat after the open could pair the new file's
  // identity with the old file's generation. While the open reader holds the file, its inode
  // cannot be reused by a new archive at the same path.
  const opened = identityOf(statOrNull(paths.db));
  let reader: ArchiveReader | null;
  try {
    reader = await openArchiveReader(paths, maxFallbackDocs);
  } catch (err) {
    if (err instanceof IndexUnavailableError) throw new CorpusUnavailableError(err.message);
    throw err;
  }
  if (reader !== null) {
    const r = reader;
    return {
      signature: `${opened}:${r.generation}`,
      source: "archive",
      corpus: r.corpus,
      record: (doc) => r.record(doc),
      recordById: (id) => r.recordById(id),
      marks: () => r.marks(),
      current: () => {
        const info = statOrNull(paths.db);
        return info ? `${identityOf(info)}:${r.freshGeneration()}` : null;
      },
      close: () => r.close(),
    };
  }
  return await loadLegacy(paths.legacy.records, maxLegacyBytes);
}

/** An older verdict's records file, ranked in memory (until a collect migrates it). */
async function loadLegacy(path: string, maxBytes: number): Promise<Loaded | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  const info = await file.stat();
  if (info.size > maxBytes) {
    file.close();
    throw new CorpusUnavailableError(
      `${path} was written by an older verdict and is too large to rank now; run "verdict collect" to migrate it`,
    );
  }
  const text = new TextDecoder().decode((await readToEnd(file))!);
  file.close();
  const list: VerdictRecord[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const r = asRecord(JSON.parse(line), RECORD_ORIGINS);
      if (r) list.push(r);
    } catch {
      // A damaged line is left out here; the migration reports it.
    }
  }
  // Loaded only here: the per-prompt path with an index never needs the builder.
  const { buildMemoryIndex } = await import("../rank/memory_index.ts");
  const signature = `legacy:${info.size}:${info.mtime?.getTime() ?? 0}:${info.ino ?? 0}`;
  return {
    signature,
    source: "legacy",
    corpus: buildMemoryIndex(list),
    record: (doc) => list[doc] ?? null,
    recordById: (id) => list.find((r) => r.id === id) ?? null,
    marks: () => NO_MARKS,
    current: () => {
      const now = statOrNull(path);
      return now ? `legacy:${now.size}:${now.mtime?.getTime() ?? 0}:${now.ino ?? 0}` : null;
    },
    close: () => {},
  };
}

/** Reads the entity list; an error names the file and line. */
export async function loadEntities(path: string | null): Promise<Entity[]> {
  if (!path) return [];
  return entitiesOf(await readEntityText(path), path);
}

/** The entity list's text (an error names the file). */
export async function readEntityText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    throw new InputError(`Cannot read entity list "${path}": ${(err as Error).message}`);
  }
}

/** The entities of an entity list's text read from `path`; an error names the file and line. */
export function entitiesOf(text: string, path: string): Entity[] {
  try {
    return parseEntities(text, path);
  } catch (err) {
    throw new InputError((err as Error).message, "fix the line: entity<TAB>alias,alias");
  }
}

/**
 * The quote for a record, or null when it must not be shown. The stored text is the quote,
 * unless the record is a document chunk whose file still lies under one of `roots` (symlinks
 * resolved) and still has a chunk starting where the record says with the same first line:
 * then that chunk's current text, found by the same Markdown splitter and credential screen
 * collect uses (a heading is a heading to both, however it is indented; a chunk a credential
 * touches is never offered). A stored text that holds one (the archive may predate a rule)
 * gives null.
 */
export function quoteFor(
  record: VerdictRecord,
  roots: readonly string[],
  rules: readonly CredentialRule[],
): string | null {
  if (holdsCredential(record.text, rules)) return null;
  if (record.kind !== "doc" || record.source_line < 1) return record.text;
  const current = rereadChunk(record, roots, rules);
  if (current === null) return record.text;
  return current.length >= record.text.length ? current : record.text;
}

/**
 * The text of the document chunk at the record's line as the file is now, or null (moved,
 * changed, unreadable, or touched by a credential).
 */
function rereadChunk(
  record: VerdictRecord,
  roots: readonly string[],
  rules: readonly CredentialRule[],
): string | null {
  const real = containedRealPathSync(record.source_file, roots);
  if (real === null) return null;
  let text: string;
  try {
    // Regular files only (a FIFO would block the look-up), and no larger than collect reads.
    const info = Deno.statSync(real);
    if (!info.isFile || info.size > MAX_DOC_BYTES) return null;
    text = Deno.readTextFileSync(real);
  } catch {
    return null;
  }
  const first = record.text.split("\n")[0]!.trim();
  const chunk = screenedChunks(text, rules).kept.find((c) => c.chunk.startLine === record.source_line)?.chunk;
  if (chunk === undefined || chunk.text.split("\n")[0]!.trim() !== first) return null;
  return chunk.text;
}

// --- distinct texts -------------------------------------------------------------------------------

// Ranked look-ups list distinct texts. A template or a decision sent again in several sessions is
// archived once per send, and its copies score alike, so an uncollapsed top 3 is often one text
// three times. Here the ranking is taken as the ranker returns it (never re-scored) and each text
// is kept once, as its best-ranked copy, with how many copies the ranked matches held and the
// first and last time one was made. "The same text" is the gate's definition (src/gate/
// statements.ts `sameTextKey`: spacing, punctuation, case and numbers aside), so what the hint
// treats as a resend, a look-up shows once.
//
// The ranker is asked for more matches than results (FETCH_PER_RESULT each), and again for twice
// as many while the texts found do not fill the results and more matches exist, up to
// MAX_RANKED_MATCHES. Copies are counted among the matches ranked: when every match was ranked
// the count is exact (`complete`), else it is a lower bound.

/** Matches ranked per result asked for: room for a few copies of each text without a second search. */
export const FETCH_PER_RESULT = 4;
/**
 * The most matches ranked for one look-up, a bound on its work (the ranker's selection is
 * O(matches × this)): 40 per result at the largest top (50).
 */
export const MAX_RANKED_MATCHES = 2000;

/** A text's copies among the ranked matches. */
export interface Copies {
  /** Copies among the matches ranked (1: the text was found once). */
  readonly count: number;
  /** The earliest and latest time of a copy (record times; equal when count is 1). */
  readonly first: string;
  readonly last: string;
  /** True when every match of the query was ranked, so `count` is every copy that matches. */
  readonly complete: boolean;
}

/** One distinct text: its best-ranked copy and its copies. */
export interface DistinctHit<T> {
  readonly best: T;
  readonly copies: Copies;
}

/**
 * Groups `ranked` (best first) by `keyOf`, in the order of each group's best copy; an item whose
 * key is null is left out (it may not be shown). `timeOf` is an ISO time: the earliest and latest
 * of a group are compared as instants, and as strings when equal or unparseable, so the result
 * depends only on the items and their order.
 */
export function collapseCopies<T>(
  ranked: readonly T[],
  keyOf: (item: T) => string | null,
  timeOf: (item: T) => string,
  complete: boolean,
): DistinctHit<T>[] {
  const groups = new Map<string, { best: T; count: number; first: string; last: string }>();
  for (const item of ranked) {
    const key = keyOf(item);
    if (key === null) continue;
    const time = timeOf(item);
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, { best: item, count: 1, first: time, last: time });
      continue;
    }
    group.count++;
    if (compareTimes(time, group.first) < 0) group.first = time;
    if (compareTimes(time, group.last) > 0) group.last = time;
  }
  return [...groups.values()].map((g) => ({
    best: g.best,
    copies: { count: g.count, first: g.first, last: g.last, complete },
  }));
}

/** Instants first (unparseable times sort before every parseable one), then the strings. */
function compareTimes(a: string, b: string): number {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  const na = Number.isNaN(ta);
  const nb = Number.isNaN(tb);
  if (na !== nb) return na ? -1 : 1;
  if (!na && ta !== tb) return ta - tb;
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface DistinctSearch {
  /** The last search run (terms, candidates; its hits are every match ranked, copies included). */
  readonly result: SearchResult;
  /** At most `top` distinct texts, best first. */
  readonly hits: readonly DistinctHit<SearchHit>[];
}

/** What a look-up knows of a ranked hit's record: its text key (`sameTextKey`) and its time. */
export interface CopyOf {
  readonly key: string;
  readonly time: string;
}

/**
 * The best `options.top` distinct texts for `query`: `search` asked for enough matches to fill
 * them (see the module comment). `copyOf` gives a hit's record key and time, or null to leave the
 * hit out (a quote that may not be shown); it is asked once per hit of each search, so a caller
 * that reads records may cache by `hit.doc`.
 */
export function searchDistinct(
  corpus: Corpus,
  query: string,
  options: SearchOptions & { readonly top: number },
  copyOf: (hit: SearchHit) => CopyOf | null,
): DistinctSearch {
  const top = options.top;
  let fetch = Math.min(MAX_RANKED_MATCHES, Math.max(top, top * FETCH_PER_RESULT));
  for (;;) {
    const result = search(corpus, query, { ...options, top: fetch });
    // Fewer than asked: the ranker ran out of matches, so every one of them is here.
    const complete = result.hits.length < fetch;
    const described = result.hits.flatMap((hit) => {
      const copy = copyOf(hit);
      return copy === null ? [] : [{ hit, ...copy }];
    });
    const hits = collapseCopies(described, (d) => d.key, (d) => d.time, complete)
      .map(({ best, copies }) => ({ best: best.hit, copies }));
    if (hits.length >= top || complete || fetch >= MAX_RANKED_MATCHES) {
      return { result, hits: hits.slice(0, top) };
    }
    fetch = Math.min(MAX_RANKED_MATCHES, fetch * 2);
  }
}

export function openRecaller(input: RecallerInput): Recaller {
  let loaded: Loaded | null = null;
  let entities: Entity[] | null = null;

  // One load at a time: concurrent calls that find the archive changed share the same load, so
  // no call closes a corpus another call just loaded. A caller holds its corpus only across
  // synchronous code (ranking and quoting), so closing the replaced one at the swap is safe.
  let pending: Promise<Loaded | null> | null = null;

  const current = async (force = false): Promise<Loaded | null> => {
    if (!force && loaded !== null && pending === null && loaded.current() === loaded.signature) return loaded;
    if (pending === null) {
      const load = loadCorpus(input.recordsPath).then((next) => {
        void next?.signature; // as it is now, to compare with later
        if (next !== loaded) loaded?.close();
        loaded = next;
        return next;
      }).finally(() => {
        if (pending === load) pending = null;
      });
      pending = load;
    }
    return await pending;
  };

  const answer = (corpus: Loaded, query: string, options: RecallOptions): RecallAnswer | null => {
    // Each ranked match read once, whatever the number of searches: its record and its quote
    // (null: withheld). A record a collect removed since the load makes the caller reload.
    const read = new Map<number, { record: VerdictRecord; quote: string } | null>();
    let removed = false;
    const copyOf = (h: SearchHit): CopyOf | null => {
      if (!read.has(h.doc)) {
        const r = corpus.record(h.doc);
        if (r === null) removed = true;
        const outside = r !== null && options.window !== undefined && !inWindow(options.window, r);
        const quote = r === null || outside ? null : quoteFor(r, input.quoteRoots, input.credentialRules);
        read.set(h.doc, r === null || quote === null ? null : { record: r, quote });
      }
      const known = read.get(h.doc);
      return known ? { key: sameTextKey(known.record.text), time: known.record.time } : null;
    };
    const { result, hits: distinct } = searchDistinct(corpus.corpus, query, {
      mode: "recall",
      nowMs: options.asOfMs,
      ...(options.project ? { project: options.project } : {}),
      entities: entities ?? [],
      excludeSession: options.excludeSession ?? null,
      top: options.top,
    }, copyOf);
    if (removed) return null;
    const marks = corpus.marks();
    const hits: RecallHit[] = [];
    const shown: SearchHit[] = [];
    for (const { best: h, copies } of distinct) {
      const { record: r, quote } = read.get(h.doc)!;
      shown.push(h);
      hits.push({
        id: r.id,
        kind: r.kind,
        origin: r.origin,
        time: r.time,
        project: r.project,
        session: r.session,
        source_file: r.source_file,
        source_line: r.source_line,
        ...(r.source_ref !== undefined ? { source_ref: r.source_ref } : {}),
        score: h.score,
        matched: h.matched,
        quote,
        copies,
        state: describeMarks(marks, r.id),
      });
    }
    const reason = hits.length > 0
      ? null
      : result.terms.length === 0
      ? `no record holds any word of "${query}"`
      : result.hits.length > 0 && options.window !== undefined
      ? "no match within the given project, dates and kind"
      : result.hits.length > 0
      ? 'every match holds a credential and is withheld; run "verdict collect" to drop them from the archive'
      : "no record matches outside the live session";
    // The explanation lists the hits shown, in the same order.
    return { hits, reason, explain: { ...result, hits: shown } };
  };

  return {
    async recall(query, options) {
      entities ??= await loadEntities(input.entitiesPath);
      for (let attempt = 0;; attempt++) {
        const corpus = await current(attempt > 0);
        if (corpus === null || corpus.corpus.docCount === 0) {
          return {
            hits: [],
            reason: `no records yet in ${input.recordsPath}; run "verdict collect" first`,
            explain: null,
          };
        }
        const result = answer(corpus, query, options);
        if (result !== null || attempt > 0) {
          return result ?? { hits: [], reason: "the archive changed; ask again", explain: null };
        }
      }
    },
    close() {
      loaded?.close();
      loaded = null;
    },
  };
}
