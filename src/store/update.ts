/**
 * One collect's change to the archive, as one SQLite transaction (archive.ts): records merged in,
 * the CJK words kept current, the index brought up to date, the collector's state saved; then
 * commit. A kill before the commit leaves the archive as the last collect left it.
 *
 * Merging is mergeRecords's rule (src/collect/merge.ts), applied to the archive in place instead
 * of to a list in memory, so a run costs what it brings, not what the archive holds:
 * - a file re-read from its start (`replaced`) supersedes its old records; other records stay;
 * - records with one id collapse to the one found first in file order (source_file, then line);
 * - an agent's repeat rule drops a repeat whose original is in the archive.
 * Records are staged first (a temp table), so the rule sees every replaced file before any record
 * is put, exactly as the in-memory merge does (tests compare the two on random runs).
 *
 * The index follows by difference: a record that comes back unchanged is left alone; a deleted
 * one is marked deleted in its segment (with the df of each of its terms, so statistics stay
 * exact); new ones go into new segments; segments merge by a size-tiered policy (policy.ts).
 */
import type { RepeatRule } from "../agents/agent.ts";
import {
  asRecord,
  fnv1a64,
  RECORD_KINDS,
  type RecordKind,
  recordLine as recordLineOf,
  type VerdictRecord,
} from "../record/record.ts";
import { RECORD_ORIGINS } from "../agents/registry.ts";
import {
  ANALYSIS_VERSION,
  analyze,
  deriveLexicon,
  isBasisText,
  lexiconBasis,
  lexiconOf,
} from "../rank/analysis.ts";
import { NO_SESSION } from "../rank/bm25.ts";
import { Segment } from "../rank/segment.ts";
import { mergeSegments, SegmentBuilder } from "../rank/segment_write.ts";
import { SegmentedIndex } from "../rank/segmented_index.ts";
import { cjkRunTexts, normalizeText, tokenize } from "../rank/tokenize.ts";
import {
  type Archive,
  decodeDeletedTerms,
  encodeDeletedTerms,
  markSlots,
  META,
  NAME_PROJECT,
  NAME_SESSION,
  RECORD_INDEXES,
  type RecordRow,
  type SegmentRow,
} from "./archive.ts";
import { planMerges, type SegmentSize, SMALL_SEGMENT_DOCS } from "./policy.ts";
import { tombstoneFilter } from "./tombstones.ts";

/**
 * Records read from the database at a time when walking many: small pages die young (a large
 * page outlives the collector's young generation and fills the old one with garbage).
 */
const INDEX_PAGE_ROWS = 256;

/** Documents per new segment when a collect brings many (bounds the builder's memory). */
export const SEGMENT_BUILD_DOCS = 20_000;
/**
 * When the CJK words change and more than this share of the live documents hold a changed word,
 * the whole index is rebuilt instead of re-indexing them one by one (same result, less work).
 */
const REBUILD_SHARE = 0.5;
/** A run that indexes more than this share of the live documents merges the index into one segment. */
const OPTIMIZE_SHARE = 0.5;

function preferred<T extends { sourceFile: string; sourceLine: number }>(a: T, b: T): T {
  if (a.sourceFile !== b.sourceFile) return a.sourceFile < b.sourceFile ? a : b;
  return a.sourceLine <= b.sourceLine ? a : b;
}

function parseRecord(line: string): VerdictRecord {
  const r = asRecord(JSON.parse(line), RECORD_ORIGINS);
  if (!r) throw new Error(`The archive holds a row that is not a record: ${line.slice(0, 80)}`);
  return r;
}

/** Basis order: (time, id), as compareRecords. */
function basisKeyBefore(time: string, id: string, edge: readonly [string, string]): boolean {
  return time < edge[0] || (time === edge[0] && id < edge[1]);
}

interface Tombstones {
  readonly slots: number[];
  readonly terms: Map<string, number>;
  length: number;
}

/** What indexing reads of a record row (`escaped`: its line holds a \u escape). */
interface IndexedFields {
  readonly doc: number;
  readonly id: string;
  readonly kind: RecordKind;
  readonly time: string;
  readonly text: string;
  readonly project: string;
  readonly session: string | null;
  readonly escaped: number;
}

/** Told the name of each stage of an update as it ends. */
export type StageTrace = (stage: string) => void;

export interface UpdateSummary {
  /** Records whose id the archive did not hold before. */
  readonly added: number;
  /** Records removed: superseded, repeats, credentials under new rules. */
  readonly removed: number;
  readonly total: number;
  readonly byKind: Readonly<Record<RecordKind, number>>;
  /** True when the index was rebuilt whole (new analysis, or most words changed). */
  readonly rebuilt: boolean;
}

export class ArchiveUpdate {
  readonly #a: Archive;
  readonly #repeats: readonly RepeatRule[];
  #lexicon: Set<string>;
  readonly #firstNewDoc: number;
  #nextDoc: number;
  #nextSeg: number;
  readonly #byKind: Record<RecordKind, number>;
  #liveDocs: number;
  #liveLength: number;
  #basisRecords: number;
  /** The basis positions the words were derived from, "start:end". */
  readonly #basisWindow: string;
  readonly #basisEdge: readonly [string, string] | null;
  #basisTouched = false;
  #manifest: SegmentRow[];
  readonly #tombstones = new Map<number, Tombstones>();
  /** Segments to rewrite in this run whatever the policy says (they index a removed credential). */
  readonly #mustRewrite = new Set<number>();
  readonly #openSegments = new Map<number, Segment>();
  #seq = 0;
  /** Documents this run indexed. */
  #indexed = 0;
  #added = 0;
  #removed = 0;
  #rebuild: boolean;
  #staged = false;
  #changed = false;
  #done = false;

  readonly #plan: (segments: readonly SegmentSize[]) => number[][];
  readonly #trace: StageTrace;

  /**
   * `plan` is the merge policy (tests run others, to keep deletions around or merge everything);
   * `trace` is told each stage as it ends (a debugging aid: `VERDICT_DEBUG_MEMORY`).
   */
  constructor(
    archive: Archive,
    repeats: readonly RepeatRule[],
    plan = planMerges,
    trace: StageTrace = () => {},
  ) {
    this.#a = archive;
    this.#repeats = repeats;
    this.#plan = plan;
    this.#trace = trace;
    const db = archive.db;
    db.exec("BEGIN IMMEDIATE");
    db.exec(`
      CREATE TEMP TABLE IF NOT EXISTS incoming(seq INTEGER PRIMARY KEY, id TEXT NOT NULL, source_file TEXT NOT NULL,
        source_line INTEGER NOT NULL, line TEXT NOT NULL, kind TEXT NOT NULL, time TEXT NOT NULL, repeat_key TEXT,
        repeat_role INTEGER, basis INTEGER NOT NULL);
      CREATE TEMP TABLE IF NOT EXISTS replaced_files(file TEXT PRIMARY KEY) WITHOUT ROWID;
      CREATE TEMP TABLE IF NOT EXISTS kept(doc INTEGER PRIMARY KEY);
      CREATE TEMP TABLE IF NOT EXISTS fresh(doc INTEGER PRIMARY KEY);
      DELETE FROM incoming; DELETE FROM replaced_files; DELETE FROM kept; DELETE FROM fresh;
    `);
    this.#lexicon = new Set(JSON.parse(archive.meta(META.lexicon) ?? "[]") as string[]);
    this.#nextDoc = archive.metaNumber(META.nextDoc, 1);
    this.#firstNewDoc = this.#nextDoc;
    this.#nextSeg = archive.metaNumber(META.nextSeg, 1);
    const counts = JSON.parse(archive.meta(META.byKind) ?? "{}") as Partial<Record<RecordKind, number>>;
    this.#byKind = Object.fromEntries(RECORD_KINDS.map((k) => [k, counts[k] ?? 0])) as Record<
      RecordKind,
      number
    >;
    this.#liveDocs = archive.metaNumber(META.liveDocs);
    this.#liveLength = archive.metaNumber(META.liveLength);
    this.#basisRecords = archive.metaNumber(META.basisRecords);
    this.#basisWindow = archive.meta(META.basisWindow) ?? "0:0";
    this.#basisEdge = JSON.parse(archive.meta(META.basisEdge) ?? "null") as [string, string] | null;
    this.#manifest = archive.segmentRows();
    // An index built by another analysis is rebuilt, never read as if current.
    const analysis = archive.meta(META.analysis);
    this.#rebuild = analysis !== String(ANALYSIS_VERSION) &&
      (this.#manifest.length > 0 || this.#firstNewDoc > 1);
    // So is an index whose files are missing or damaged: the records are the source of truth.
    if (!this.#rebuild) this.#rebuild = !this.#segmentsReadable();
    this.#forgotten = tombstoneFilter(archive);
  }

  /** Opens every segment the manifest names; false when one is missing or does not match it. */
  #segmentsReadable(): boolean {
    for (const row of this.#manifest) {
      try {
        const s = this.#segment(row.seg);
        if (s.docCount !== row.docs || s.header.analysis !== ANALYSIS_VERSION) return false;
      } catch {
        return false;
      }
    }
    return true;
  }

  get firstNewDoc(): number {
    return this.#firstNewDoc;
  }

  /** Tells a record a forget removed (null: the archive holds no tombstone). */
  readonly #forgotten: ((r: VerdictRecord) => boolean) | null;
  #refused = 0;

  /** Staged records left out because a forget removed them before (tombstones). */
  get refused(): number {
    return this.#refused;
  }

  /** Stages one file's records: `replaced` when the file was read from its start. */
  stage(file: string, replaced: boolean, records: readonly VerdictRecord[]): void {
    this.#staged = true;
    const forgotten = this.#forgotten;
    if (forgotten !== null) {
      const kept = records.filter((r) => !forgotten(r));
      this.#refused += records.length - kept.length;
      records = kept;
    }
    if (replaced) this.#a.st("INSERT OR IGNORE INTO temp.replaced_files(file) VALUES (?)").run(file);
    // With the columns a records row needs, so that filling an empty archive is one statement.
    const ins = this.#a.st(
      "INSERT INTO temp.incoming(seq, id, source_file, source_line, line, kind, time, repeat_key, repeat_role, basis) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for (const r of records) {
      const { key, role } = this.#repeatKey(r);
      ins.run(
        this.#seq++,
        r.id,
        r.source_file,
        r.source_line,
        recordLineOf(r),
        r.kind,
        r.time,
        key,
        role,
        isBasisText(r.text) ? 1 : 0,
      );
    }
  }

  /** Whether anything was staged (a replaced file, even with no records, counts). */
  get staged(): boolean {
    return this.#staged;
  }

  /** Merges the staged records into the archive (the merge rule above). */
  apply(): void {
    const a = this.#a;
    // Into an empty archive, no record has a holder and no replaced file old records: insert
    // them all, then build the indexes once.
    const bulk = a.st("SELECT 1 AS x FROM records LIMIT 1").get() === undefined;
    if (bulk) {
      for (const index of RECORD_INDEXES) a.db.exec(`DROP INDEX IF EXISTS ${index.name}`);
      this.#insertAll();
      for (const index of RECORD_INDEXES) a.db.exec(index.sql);
      this.#trace("records inserted, their indexes built");
      this.#applyRepeats();
      this.#trace("records merged");
      return;
    }
    const isReplaced = a.st("SELECT 1 AS x FROM temp.replaced_files WHERE file = ?");
    const keep = a.st("INSERT OR IGNORE INTO temp.kept(doc) VALUES (?)");
    const markFresh = a.st("INSERT INTO temp.fresh(doc) VALUES (?)");
    const rows = a.st("SELECT id, source_file, source_line, line FROM temp.incoming ORDER BY id, seq");
    type Incoming = { id: string; sourceFile: string; sourceLine: number; line: string };
    let group: Incoming[] = [];
    const settle = () => {
      if (group.length === 0) return;
      let best = group[0]!;
      for (let i = 1; i < group.length; i++) best = preferred(best, group[i]!);
      group = [];
      const holder = bulk ? null : a.recordById(best.id);
      const active = holder !== null && isReplaced.get(holder.sourceFile) === undefined;
      if (holder && active && preferred<RecordRow | Incoming>(holder, best) === holder) return;
      if (holder && holder.line === best.line) {
        keep.run(holder.doc);
        return;
      }
      if (holder) this.#deleteRow(holder.doc, holder.line);
      const doc = this.#insert(parseRecord(best.line), best.line);
      if (!holder) {
        this.#added++;
        markFresh.run(doc);
      }
    };
    for (
      const row of rows.iterate() as Iterable<
        { id: string; source_file: string; source_line: number; line: string }
      >
    ) {
      if (group.length > 0 && group[0]!.id !== row.id) settle();
      group.push({
        id: row.id,
        sourceFile: row.source_file,
        sourceLine: Number(row.source_line),
        line: row.line,
      });
    }
    settle();
    this.#trace("records inserted");

    // Old records of replaced files that did not come back unchanged are superseded.
    const files = (a.st("SELECT file FROM temp.replaced_files").all() as { file: string }[]).map((r) =>
      r.file
    );
    const stale = a.st(
      "SELECT doc, line FROM records WHERE source_file = ? AND doc < ? AND doc NOT IN (SELECT doc FROM temp.kept)",
    );
    for (const file of bulk ? [] : files) {
      for (const r of stale.all(file, this.#firstNewDoc) as { doc: number; line: string }[]) {
        this.#deleteRow(Number(r.doc), r.line);
      }
    }
    this.#applyRepeats();
    this.#trace("records merged");
  }

  /**
   * Into an empty archive: every staged id once, the record found first in file order (source
   * file, then line, then as staged), numbered in id order: what the general merge above does
   * there, in one statement instead of a parse and an insert per record (a first collect of 10^6
   * records spent 18 s and 110 MB of garbage on them). SQLite orders the files by their UTF-8
   * bytes, JavaScript by UTF-16 units; the two differ for characters past U+FFFF against ones
   * from U+E000, so an id staged more than once is settled again by `preferred`.
   */
  #insertAll(): void {
    const a = this.#a;
    const first = this.#nextDoc;
    const inserted = Number(
      a.st(`
        INSERT INTO records(doc, id, kind, time, source_file, source_line, repeat_key, repeat_role, basis, line)
        SELECT ? - 1 + row_number() OVER (ORDER BY id), id, kind, time, source_file, source_line, repeat_key,
          repeat_role, basis, line
        FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY source_file, source_line, seq) AS pick
          FROM temp.incoming)
        WHERE pick = 1 ORDER BY id`).run(first).changes,
    );
    if (inserted === 0) return;
    this.#nextDoc += inserted;
    this.#added += inserted;
    this.#changed = true;
    a.st("INSERT INTO temp.fresh(doc) SELECT doc FROM records WHERE doc >= ?").run(first);
    const repeated = a.st(
      "SELECT id FROM temp.incoming GROUP BY id HAVING count(*) > 1",
    ).all() as { id: string }[];
    if (repeated.length > 0) {
      const copies = a.st(
        "SELECT seq, source_file, source_line, line, kind, time, repeat_key, repeat_role, basis FROM temp.incoming WHERE id = ? ORDER BY seq",
      );
      const update = a.st(
        "UPDATE records SET kind = ?, time = ?, source_file = ?, source_line = ?, repeat_key = ?, repeat_role = ?, basis = ?, line = ? WHERE id = ?",
      );
      type Staged = {
        source_file: string;
        source_line: number;
        line: string;
        kind: string;
        time: string;
        repeat_key: string | null;
        repeat_role: number | null;
        basis: number;
      };
      for (const { id } of repeated) {
        const group = (copies.all(id) as Staged[]).map((row) => ({
          sourceFile: row.source_file,
          sourceLine: Number(row.source_line),
          row,
        }));
        let best = group[0]!;
        for (let i = 1; i < group.length; i++) best = preferred(best, group[i]!);
        const r = best.row;
        update.run(
          r.kind,
          r.time,
          r.source_file,
          r.source_line,
          r.repeat_key,
          r.repeat_role,
          r.basis,
          r.line,
          id,
        );
      }
    }
    const counts = a.st(
      "SELECT kind, count(*) AS n, sum(basis) AS basis FROM records WHERE doc >= ? GROUP BY kind",
    ).all(first) as { kind: RecordKind; n: number; basis: number }[];
    for (const c of counts) {
      this.#byKind[c.kind] += Number(c.n);
      this.#basisRecords += Number(c.basis);
    }
    const edge = this.#basisEdge;
    const before = edge === null
      ? a.st("SELECT 1 AS x FROM records WHERE doc >= ? AND basis = 1 LIMIT 1").get(first)
      : a.st(
        "SELECT 1 AS x FROM records WHERE doc >= ? AND basis = 1 AND (time < ? OR (time = ? AND id < ?)) LIMIT 1",
      ).get(first, edge[0], edge[0], edge[1]);
    if (before !== undefined) this.#basisTouched = true;
  }

  /** Repeat rules over what this run inserted: a new original drops its repeats; a new repeat of an original goes. */
  #applyRepeats(): void {
    if (this.#repeats.length === 0) return;
    const a = this.#a;
    const page = a.st(
      "SELECT doc, repeat_key, line FROM records WHERE doc >= ? AND repeat_role = ? AND repeat_key IS NOT NULL ORDER BY doc LIMIT ?",
    );
    const others = a.st(
      "SELECT doc, line FROM records WHERE repeat_key = ? AND repeat_role = ? AND doc != ?",
    );
    // Originals first (they drop repeats the archive held), then the repeats that are left. Into
    // an archive that held nothing before this run, the second pass alone finds every pair (and a
    // first collect is spared a look-up per original). "Held nothing" is asked of the row ids, not
    // of the repeats: "is there an old repeat" has no index to answer it and read every record.
    const oldRecords = a.st("SELECT 1 AS x FROM records WHERE doc < ? LIMIT 1").get(this.#firstNewDoc) !==
      undefined;
    for (const role of oldRecords ? [0, 1] : [1]) {
      for (let from = this.#firstNewDoc;;) {
        const rows = page.all(from, role, INDEX_PAGE_ROWS) as {
          doc: number;
          repeat_key: string;
          line: string;
        }[];
        if (rows.length === 0) break;
        for (const row of rows) {
          const doc = Number(row.doc);
          const rule = this.#repeats[Number(row.repeat_key.slice(0, row.repeat_key.indexOf(":")))]!;
          const key = rule.key(parseRecord(row.line));
          // The key column holds a hash of the key: compare the keys themselves.
          const same = (others.all(row.repeat_key, 1 - role, doc) as { doc: number; line: string }[])
            .filter((r) => rule.key(parseRecord(r.line)) === key);
          if (role === 0) { for (const r of same) this.#deleteRow(Number(r.doc), r.line); }
          else if (same.length > 0) this.#deleteRow(doc, row.line);
        }
        from = Number(rows[rows.length - 1]!.doc) + 1;
      }
    }
  }

  /** The records the archive holds now (this run's changes included). */
  counts(): { total: number; byKind: Readonly<Record<RecordKind, number>> } {
    return { total: Object.values(this.#byKind).reduce((x, y) => x + y, 0), byKind: { ...this.#byKind } };
  }

  /**
   * Adds a record of an old archive being migrated, or of another machine's export (each was
   * merged when that archive was written); false when its id is already here (a damaged old file
   * may repeat a line) or a forget here left a tombstone for it (counted in `refused`).
   */
  importRecord(r: VerdictRecord): boolean {
    if (this.#a.recordById(r.id) !== null) return false;
    if (this.#forgotten !== null && this.#forgotten(r)) {
      this.#refused++;
      return false;
    }
    this.#insert(r, recordLineOf(r));
    return true;
  }

  /** Deletes every record `drop` says must go (the credential rules changed): a full scan, rare. */
  dropWhere(drop: (r: VerdictRecord) => boolean): number {
    let dropped = 0;
    const page = this.#a.st("SELECT doc, line FROM records WHERE doc >= ? ORDER BY doc LIMIT ?");
    for (let from = 0;;) {
      const rows = page.all(from, INDEX_PAGE_ROWS) as { doc: number; line: string }[];
      if (rows.length === 0) break;
      for (const r of rows) {
        if (!drop(parseRecord(r.line))) continue;
        const doc = Number(r.doc);
        // Its terms must leave the index files too, not only be marked deleted.
        const seg = this.#segmentOf(doc);
        if (seg) this.#mustRewrite.add(seg.seg);
        this.#deleteRow(doc, r.line);
        dropped++;
      }
      from = Number(rows[rows.length - 1]!.doc) + 1;
    }
    this.#scrub ||= dropped > 0;
    return dropped;
  }

  #scrub = false;

  /**
   * Removes the records `ids` name (`verdict forget`), from the records and from the index files
   * (their segments are rewritten in this run, so no file keeps their text); returns those found.
   */
  forget(ids: readonly string[]): VerdictRecord[] {
    const gone: VerdictRecord[] = [];
    for (const id of ids) {
      const row = this.#a.recordById(id);
      if (row === null) continue;
      const seg = this.#segmentOf(row.doc);
      if (seg) this.#mustRewrite.add(seg.seg);
      this.#deleteRow(row.doc, row.line);
      gone.push(parseRecord(row.line));
    }
    this.#scrub ||= gone.length > 0;
    return gone;
  }

  /** Whether this run removed text that must not linger (the caller empties the log after commit). */
  get scrub(): boolean {
    return this.#scrub;
  }

  #repeatKey(r: VerdictRecord): { key: string | null; role: number | null } {
    for (let i = 0; i < this.#repeats.length; i++) {
      const rule = this.#repeats[i]!;
      const role = rule.isOriginal(r) ? 0 : rule.isRepeat(r) ? 1 : null;
      if (role !== null) return { key: `${i}:${fnv1a64(rule.key(r))}`, role };
    }
    return { key: null, role: null };
  }

  #insert(r: VerdictRecord, line: string): number {
    const doc = this.#nextDoc++;
    this.#changed = true;
    const { key, role } = this.#repeatKey(r);
    const basis = isBasisText(r.text);
    this.#a.st(
      "INSERT INTO records(doc, id, kind, time, source_file, source_line, repeat_key, repeat_role, basis, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(doc, r.id, r.kind, r.time, r.source_file, r.source_line, key, role, basis ? 1 : 0, line);
    this.#byKind[r.kind]++;
    if (basis) {
      this.#basisRecords++;
      if (this.#basisEdge === null || basisKeyBefore(r.time, r.id, this.#basisEdge)) {
        this.#basisTouched = true;
      }
    }
    return doc;
  }

  /** Removes a record row; an indexed one is marked deleted in its segment. */
  #deleteRow(doc: number, line: string): void {
    const r = parseRecord(line);
    this.#a.st("DELETE FROM records WHERE doc = ?").run(doc);
    this.#changed = true;
    this.#removed++;
    // A record this run added and then dropped (a repeat) was never in the archive.
    if (doc >= this.#firstNewDoc && this.#a.st("DELETE FROM temp.fresh WHERE doc = ?").run(doc).changes > 0) {
      this.#added--;
    }
    this.#byKind[r.kind]--;
    if (isBasisText(r.text)) {
      this.#basisRecords--;
      if (
        this.#basisEdge !== null && !basisKeyBefore(this.#basisEdge[0], this.#basisEdge[1], [r.time, r.id])
      ) {
        this.#basisTouched = true;
      }
    }
    if (doc >= this.#firstNewDoc || this.#rebuild) return;
    const row = this.#segmentOf(doc);
    if (!row) throw new Error(`The index has no segment for document ${doc}`);
    const segment = this.#segment(row.seg);
    const slot = slotOfRowid(segment, doc);
    let t = this.#tombstones.get(row.seg);
    if (!t) this.#tombstones.set(row.seg, t = { slots: [], terms: new Map(), length: 0 });
    const terms = analyze(r, lexiconOf(this.#lexicon)).terms;
    t.slots.push(slot);
    t.length += terms.length;
    for (const term of new Set(terms)) t.terms.set(term, (t.terms.get(term) ?? 0) + 1);
    this.#liveDocs--;
    this.#liveLength -= terms.length;
  }

  #segmentOf(doc: number): SegmentRow | null {
    const m = this.#manifest;
    let lo = 0;
    let hi = m.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = m[mid]!;
      if (doc < s.firstDoc) hi = mid - 1;
      else if (doc > s.lastDoc) lo = mid + 1;
      else return s;
    }
    return null;
  }

  #segment(seg: number): Segment {
    let s = this.#openSegments.get(seg);
    if (!s) {
      s = Segment.open(this.#a.segmentFile(seg));
      this.#openSegments.set(seg, s);
    }
    return s;
  }

  /**
   * Keeps the CJK words a function of the records: when their basis changed, derive them again;
   * when they changed, every live document holding a word that came or went is indexed anew.
   */
  updateLexicon(): void {
    const { start, end } = lexiconBasis(this.#basisRecords);
    const window = `${start}:${end}`;
    if (!this.#basisTouched && window === this.#basisWindow && !this.#rebuild) return;
    const a = this.#a;
    // The basis's CJK runs only (a few MB at most: the window is bounded), read once for the
    // derivation's passes; runs joined by a newline give back the same runs.
    const texts: string[] = [];
    const rows = a.st("SELECT line FROM records WHERE basis = 1 ORDER BY time, id LIMIT ? OFFSET ?");
    for (const row of rows.iterate(end - start, start) as Iterable<{ line: string }>) {
      texts.push(cjkRunTexts(parseRecord(row.line).text).join("\n"));
    }
    const next = deriveLexicon(texts);
    const edge = end === 0
      ? null
      : a.st("SELECT time, id FROM records WHERE basis = 1 ORDER BY time, id LIMIT 1 OFFSET ?").get(
        end - 1,
      ) as {
        time: string;
        id: string;
      };
    a.setMeta(META.basisWindow, window);
    a.setMeta(META.basisEdge, JSON.stringify(edge ? [edge.time, edge.id] : null));
    const changed = [...next].filter((w) => !this.#lexicon.has(w)).concat(
      [...this.#lexicon].filter((w) => !next.has(w)),
    );
    if (changed.length > 0 && !this.#rebuild) {
      const affected = this.#docsHolding(changed);
      if (affected.length > REBUILD_SHARE * Math.max(1, this.#liveDocs)) this.#rebuild = true;
      else {
        for (const doc of affected) {
          const line = a.recordLine(doc);
          if (line === null) continue;
          this.#deleteRow(doc, line);
          this.#removed--;
          this.#insert(parseRecord(line), line);
        }
      }
    }
    if (changed.length > 0) this.#changed = true;
    this.#lexicon = next;
    a.setMeta(META.lexicon, JSON.stringify([...next].sort()));
    this.#trace("CJK words derived");
  }

  /** Indexed (old) documents whose text holds one of `words`, as row ids. */
  #docsHolding(words: readonly string[]): number[] {
    if (this.#manifest.length === 0) return [];
    const index = this.#readIndex();
    const found = new Set<number>();
    for (const word of words) {
      // The word's bigrams narrow the documents; the text decides.
      const bigrams = [...new Set(tokenize(word))];
      const lists = bigrams.map((b) => index.postingList(b).docs).sort((x, y) => x.length - y.length);
      const [first, ...rest] = lists;
      if (!first) continue;
      for (const doc of first) {
        if (!rest.every((l) => binaryHas(l, doc))) continue;
        const rowid = index.rowid(doc);
        if (found.has(rowid)) continue;
        const line = this.#a.recordLine(rowid);
        if (line !== null && normalizeText(parseRecord(line).text).includes(word)) found.add(rowid);
      }
    }
    return [...found].sort((x, y) => x - y);
  }

  /** The index as committed (documents deleted this run are still in it; their rows are gone). */
  #readIndex(): SegmentedIndex {
    return new SegmentedIndex({
      segments: this.#manifest.map((row) => ({
        segment: this.#segment(row.seg),
        deleted: row.deletedBitmap,
        deletedTerms: () => decodeDeletedTerms(row.deletedTerms),
      })),
      liveDocs: this.#liveDocs,
      liveLength: this.#liveLength,
      lexicon: () => this.#lexicon,
      projectNames: { indexOf: () => -1, at: () => undefined, length: 0 },
      sessionNames: { indexOf: () => -1, at: () => undefined, length: 0 },
    });
  }

  /** Writes the deletions, indexes the new documents, merges segments; every file before the commit. */
  async index(): Promise<void> {
    const a = this.#a;
    if (this.#rebuild) {
      a.st("DELETE FROM segments").run();
      this.#manifest = [];
      this.#tombstones.clear();
      this.#liveDocs = 0;
      this.#liveLength = 0;
    } else this.#writeTombstones();
    await this.#indexFrom(this.#rebuild ? 0 : this.#firstNewDoc);
    this.#trace("new segments written");
    await this.#merge();
  }

  #writeTombstones(): void {
    const update = this.#a.st(
      "UPDATE segments SET deleted = ?, deleted_length = ?, deleted_bitmap = ?, deleted_terms = ? WHERE seg = ?",
    );
    for (const [seg, t] of this.#tombstones) {
      const row = this.#manifest.find((r) => r.seg === seg)!;
      const bitmap = markSlots(row.deletedBitmap, row.docs, t.slots);
      const terms = decodeDeletedTerms(row.deletedTerms);
      for (const [term, n] of t.terms) terms.set(term, (terms.get(term) ?? 0) + n);
      const encoded = encodeDeletedTerms(terms);
      update.run(row.deleted + t.slots.length, row.deletedLength + t.length, bitmap, encoded, seg);
    }
    this.#tombstones.clear();
    this.#manifest = this.#a.segmentRows();
  }

  async #indexFrom(firstDoc: number): Promise<void> {
    const a = this.#a;
    const lexicon = lexiconOf(this.#lexicon);
    // One builder for every segment: it keeps its buffers from one to the next.
    const builder = new SegmentBuilder();
    const flush = async () => {
      if (builder.size === 0) return;
      const seg = this.#nextSeg++;
      const s = await builder.write(a.segmentFile(seg), ANALYSIS_VERSION);
      a.st(
        "INSERT INTO segments(seg, first_doc, last_doc, docs, total_length, deleted, deleted_length) VALUES (?, ?, ?, ?, ?, 0, 0)",
      ).run(seg, s.firstRowid, s.lastRowid, s.docCount, s.totalLength);
      this.#liveDocs += s.docCount;
      this.#liveLength += s.totalLength;
      this.#indexed += s.docCount;
      this.#trace(`segment ${seg} written (${s.docCount} documents)`);
    };
    // Read in pages, so no statement stays open across a segment write. Only the fields the
    // index keeps are read, not the record's JSON line and its parse (at 10^6 records, a GB of
    // garbage): SQLite takes them out of the line. A line holding a \u escape (a lone surrogate,
    // a control character) is parsed here instead, so every text is exactly JSON.parse's.
    const pageOf = a.st(`
      SELECT doc, id, kind, time, json_extract(line, '$.text') AS text, json_extract(line, '$.project') AS project,
        json_extract(line, '$.session') AS session, instr(line, '\\u') > 0 AS escaped
      FROM records WHERE doc >= ? ORDER BY doc LIMIT ?`);
    let from = firstDoc;
    for (;;) {
      const page = pageOf.all(from, INDEX_PAGE_ROWS) as unknown as IndexedFields[];
      if (page.length === 0) break;
      for (const row of page) {
        const r = row.escaped ? parseRecord(a.recordLine(Number(row.doc))!) : row;
        const an = analyze(r, lexicon);
        builder.add({
          rowid: Number(row.doc),
          id: r.id,
          terms: an.terms,
          timeMs: an.timeMs,
          flags: an.flags,
          project: a.internName(NAME_PROJECT, r.project),
          session: r.session === null ? NO_SESSION : a.internName(NAME_SESSION, r.session),
        });
        if (builder.size >= SEGMENT_BUILD_DOCS) await flush();
      }
      from = Number(page[page.length - 1]!.doc) + 1;
    }
    await flush();
    builder.release();
    this.#manifest = a.segmentRows();
  }

  async #merge(): Promise<void> {
    const a = this.#a;
    // A run that indexed most of the archive (a first collect, a rebuild) merges it all into one
    // segment: no more work than the run's own, and one segment answers a query fastest.
    let whole = this.#plan === planMerges && this.#manifest.length > 1 &&
      this.#indexed > Math.max(SMALL_SEGMENT_DOCS, OPTIMIZE_SHARE * this.#liveDocs);
    for (;;) {
      const forced = this.#manifest.findIndex((r) => this.#mustRewrite.has(r.seg));
      const plan = whole
        ? [this.#manifest.map((_, i) => i)]
        : forced >= 0
        ? [[forced]]
        : this.#plan(this.#manifest);
      whole = false;
      if (plan.length === 0) return;
      this.#changed = true;
      for (const group of plan) {
        const rows = group.map((i) => this.#manifest[i]!);
        const seg = this.#nextSeg++;
        const s = await mergeSegments(
          rows.map((r) => ({ segment: this.#segment(r.seg), deleted: r.deletedBitmap })),
          a.segmentFile(seg),
          ANALYSIS_VERSION,
        );
        const del = a.st("DELETE FROM segments WHERE seg = ?");
        for (const r of rows) {
          del.run(r.seg);
          this.#mustRewrite.delete(r.seg);
        }
        if (s.docCount > 0) {
          a.st(
            "INSERT INTO segments(seg, first_doc, last_doc, docs, total_length, deleted, deleted_length) VALUES (?, ?, ?, ?, ?, 0, 0)",
          ).run(seg, s.firstRowid, s.lastRowid, s.docCount, s.totalLength);
        }
        this.#trace(`${rows.length} segments merged into one of ${s.docCount} documents`);
      }
      this.#manifest = a.segmentRows();
    }
  }

  /** Saves meta and commits. */
  commit(): UpdateSummary {
    const a = this.#a;
    a.setMeta(META.analysis, ANALYSIS_VERSION);
    a.setMeta(META.nextDoc, this.#nextDoc);
    a.setMeta(META.nextSeg, this.#nextSeg);
    a.setMeta(META.liveDocs, this.#liveDocs);
    a.setMeta(META.liveLength, this.#liveLength);
    a.setMeta(META.byKind, JSON.stringify(this.#byKind));
    a.setMeta(META.basisRecords, this.#basisRecords);
    a.setMeta(META.collectedAt, Date.now());
    if (this.#changed || this.#rebuild) a.setMeta(META.generation, a.metaNumber(META.generation) + 1);
    a.db.exec("COMMIT");
    this.#trace("committed");
    this.#done = true;
    this.#closeSegments();
    return {
      added: this.#added,
      removed: this.#removed,
      total: Object.values(this.#byKind).reduce((x, y) => x + y, 0),
      byKind: { ...this.#byKind },
      rebuilt: this.#rebuild,
    };
  }

  /** Undoes everything (files written stay until the next collect sweeps them). */
  rollback(): void {
    if (this.#done) return;
    this.#done = true;
    this.#closeSegments();
    this.#a.forgetNames();
    try {
      this.#a.db.exec("ROLLBACK");
    } catch {
      // No transaction left to roll back.
    }
  }

  #closeSegments(): void {
    for (const s of this.#openSegments.values()) s.close();
    this.#openSegments.clear();
  }
}

function binaryHas(sorted: Int32Array, value: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The slot of row id `rowid` in a segment (its rows are in row-id order). */
function slotOfRowid(segment: Segment, rowid: number): number {
  let lo = 0;
  let hi = segment.docCount - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = segment.docRow(mid).rowid;
    if (v === rowid) return mid;
    if (v < rowid) lo = mid + 1;
    else hi = mid - 1;
  }
  throw new Error(`Segment ${segment.path} does not hold document ${rowid}`);
}
