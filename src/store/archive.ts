/**
 * The archive store: one SQLite database (node:sqlite, WAL) holding the records, the collector's
 * per-file state and the manifest of the index segments (which segment files make the index, and
 * what was deleted from each), beside a directory of segment files (src/rank/segment.ts).
 *
 * Why SQLite: a collect must find, among a million records, the few a new batch touches (by id,
 * by source file, by repeat key) without reading the rest, and must change records, state and
 * index manifest together or not at all. One transaction per collect gives both: a kill at any
 * moment leaves the last committed state (segment files are immutable and written before the
 * commit that names them; files no committed manifest names are swept by the next collect).
 *
 * Schema (STORE_FORMAT_VERSION in `user_version`, APPLICATION_ID in `application_id`; a newer
 * format or a foreign database is refused, never guessed at):
 *   meta(key, value)        analysis version, counts, the CJK words and their basis, generation
 *   records(doc, …, line)   one row per live record; `line` is the record (docs/records.md), the
 *                           other columns index it; `doc` is its document number in the index
 *   names(id, kind, name)   project and session names by number (the index stores numbers)
 *   segments(seg, …)        the index manifest: a segment file per row, its row-id range, counts,
 *                           and its deleted documents (bitmap by slot, df per term)
 *   sources(key, value)     the collector's state: one row per transcript file, one for docs, git
 *   marks, tombstones       what a person retracted, muted, pinned or forgot (src/store/marks.ts)
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { EXIT, VerdictError } from "../errors.ts";
import type { StorePaths } from "./paths.ts";

/**
 * Bumped when the schema changes; an older store is migrated, a newer one refused. 2: `sources`
 * has `seen`, the fingerprint of each transcript's last look (an older verdict writing rows
 * without it would leave a stale one, so it must refuse this format, and does). 3: `marks` and
 * `tombstones` (src/store/marks.ts): an older verdict's collect would store a forgotten record again.
 */
export const STORE_FORMAT_VERSION = 3;
/** "VRDT": marks the database as a verdict archive. */
export const APPLICATION_ID = 0x56524454;

/** How long a reader waits for a writer's checkpoint (the hook has a deadline). */
const READ_BUSY_MS = 200;
/** How long a collect waits for another connection (there is none but readers in WAL mode). */
const WRITE_BUSY_MS = 5000;
/**
 * A collect's page cache (it also sizes SQLite's sort runs: the first collect's ORDER BY and index
 * builds). 2 MiB holds the upper levels of every index of a million records, which is all a
 * collect that adds a few records reads; measured, a first collect of 10^6 records peaks 36 MB
 * lower than with 16 MiB (515 → 479 MB) and a one-prompt collect is no slower.
 */
const WRITE_CACHE_KIB = 2 * 1024;

/**
 * What a person marked and forgot (src/store/marks.ts, tombstones.ts): in the schema of format 3
 * and its upgrade step.
 */
export const MARKS_SCHEMA = `
CREATE TABLE IF NOT EXISTS marks(id TEXT NOT NULL, state TEXT NOT NULL, scope TEXT NOT NULL, at TEXT NOT NULL,
  detail TEXT NOT NULL, PRIMARY KEY(id, state, scope)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tombstones(key TEXT PRIMARY KEY, at TEXT NOT NULL) WITHOUT ROWID;
`;

const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE records(
  doc INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  time TEXT NOT NULL,
  source_file TEXT NOT NULL,
  source_line INTEGER NOT NULL,
  repeat_key TEXT,
  repeat_role INTEGER,
  basis INTEGER NOT NULL,
  line TEXT NOT NULL
);
CREATE TABLE names(id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, name TEXT NOT NULL, UNIQUE(kind, name));
CREATE TABLE segments(
  seg INTEGER PRIMARY KEY,
  first_doc INTEGER NOT NULL,
  last_doc INTEGER NOT NULL,
  docs INTEGER NOT NULL,
  total_length INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  deleted_length INTEGER NOT NULL,
  deleted_bitmap BLOB,
  deleted_terms BLOB
);
CREATE TABLE sources(key TEXT PRIMARY KEY, value TEXT NOT NULL, seen TEXT) WITHOUT ROWID;
${MARKS_SCHEMA}`;

/** Each step from format N to N + 1, at index N - 1 (run by a collect, in one transaction). */
const FORMAT_STEPS: readonly string[] = [
  // 1 → 2: transcript rows get their fingerprint when next written (NULL: the state is parsed).
  "ALTER TABLE sources ADD COLUMN seen TEXT",
  // 2 → 3: what a person marked, and the tombstones of what they forgot.
  MARKS_SCHEMA,
];

/**
 * The records' indexes: by id (unique), source file, repeat key and basis order. Kept apart from
 * the table so that filling an empty archive can build them once at the end (sorting a million
 * keys once is many times faster than keeping four random-order indexes up to date row by row).
 */
export const RECORD_INDEXES: readonly { readonly name: string; readonly sql: string }[] = [
  { name: "records_by_id", sql: "CREATE UNIQUE INDEX IF NOT EXISTS records_by_id ON records(id)" },
  { name: "records_by_file", sql: "CREATE INDEX IF NOT EXISTS records_by_file ON records(source_file)" },
  {
    name: "records_by_repeat",
    sql: "CREATE INDEX IF NOT EXISTS records_by_repeat ON records(repeat_key) WHERE repeat_key IS NOT NULL",
  },
  {
    name: "records_by_basis",
    sql: "CREATE INDEX IF NOT EXISTS records_by_basis ON records(time, id) WHERE basis = 1",
  },
];

export const NAME_PROJECT = 0;
export const NAME_SESSION = 1;

/** A record row as the collector needs it to merge. */
export interface RecordRow {
  readonly doc: number;
  readonly id: string;
  readonly sourceFile: string;
  readonly sourceLine: number;
  readonly line: string;
}

/** One row of the index manifest. */
export interface SegmentRow {
  readonly seg: number;
  readonly firstDoc: number;
  readonly lastDoc: number;
  readonly docs: number;
  readonly totalLength: number;
  readonly deleted: number;
  readonly deletedLength: number;
  readonly deletedBitmap: Uint8Array | null;
  readonly deletedTerms: Uint8Array | null;
}

/** The error for an archive SQLite finds damaged. */
export function damaged(db: string, detail: string): StoreError {
  return new StoreError(
    `Cannot open the archive "${db}": it is damaged (${detail})`,
    `move it away and run "verdict collect": it rebuilds the archive from your agents' history (records whose transcripts are gone cannot come back)`,
  );
}

/** The archive cannot be opened as it is (foreign, newer, damaged). */
export class StoreError extends VerdictError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.runtime, hint);
    this.name = "StoreError";
  }
}

export class Archive {
  readonly db: DatabaseSync;
  readonly paths: StorePaths;
  readonly #statements = new Map<string, StatementSync>();

  private constructor(db: DatabaseSync, paths: StorePaths) {
    this.db = db;
    this.paths = paths;
  }

  /**
   * Opens the archive for a collect, creating it (empty, schema in place) when missing. The caller
   * holds the collect lock.
   */
  static openForUpdate(paths: StorePaths): Archive {
    // Private from the start: SQLite gives its -wal and -shm files the database file's mode.
    Deno.openSync(paths.db, { read: true, write: true, create: true, mode: 0o600 }).close();
    const db = new DatabaseSync(paths.db, { timeout: WRITE_BUSY_MS });
    try {
      const archive = new Archive(db, paths);
      // First: a foreign, newer or damaged file is refused before anything is set on it.
      const version = archive.#checkVersion();
      db.exec("PRAGMA journal_mode = WAL");
      // A deleted record's bytes are overwritten, not left in free pages (a credential rule
      // that removes records must remove their text).
      db.exec("PRAGMA secure_delete = ON");
      db.exec("PRAGMA synchronous = FULL");
      db.exec("PRAGMA foreign_keys = OFF");
      db.exec("PRAGMA temp_store = FILE");
      // Pages kept in memory (KiB): a collect's look-ups and inserts land all over the indexes.
      db.exec(`PRAGMA cache_size = -${WRITE_CACHE_KIB}`);
      if (version === 0) {
        db.exec("BEGIN IMMEDIATE");
        try {
          db.exec(SCHEMA);
          for (const index of RECORD_INDEXES) db.exec(index.sql);
          db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
          db.exec(`PRAGMA user_version = ${STORE_FORMAT_VERSION}`);
          db.exec("COMMIT");
        } catch (err) {
          db.exec("ROLLBACK");
          throw err;
        }
      } else if (version < STORE_FORMAT_VERSION) archive.#upgrade(version);
      return archive;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Opens an existing archive read-only (null when there is none). */
  static openForRead(paths: StorePaths): Archive | null {
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(paths.db, { readOnly: true, timeout: READ_BUSY_MS });
    } catch (err) {
      // Only now ask why (the hook's path skips a stat when the archive is there).
      try {
        Deno.statSync(paths.db);
      } catch (statErr) {
        if (statErr instanceof Deno.errors.NotFound) return null;
      }
      throw err;
    }
    try {
      const archive = new Archive(db, paths);
      if (archive.#checkVersion() === 0) {
        db.close();
        return null;
      }
      return archive;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Brings a store of an older format to this one (the caller holds the collect lock). */
  #upgrade(from: number): void {
    const db = this.db;
    db.exec("BEGIN IMMEDIATE");
    try {
      for (let v = from; v < STORE_FORMAT_VERSION; v++) db.exec(FORMAT_STEPS[v - 1]!);
      db.exec(`PRAGMA user_version = ${STORE_FORMAT_VERSION}`);
      db.exec("COMMIT");
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
  }

  /** The schema version of the open database; 0 for a new, empty one. Throws on a foreign or newer one. */
  #checkVersion(): number {
    try {
      return this.#readVersion();
    } catch (err) {
      if (err instanceof StoreError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if (/not a database|file is encrypted/i.test(message)) {
        throw new StoreError(
          `Cannot open the archive "${this.paths.db}": it is not a verdict archive (not an SQLite database)`,
          "point VERDICT_RECORDS (or --out) at another path, or move this file away",
        );
      }
      if (/malformed|corrupt/i.test(message)) throw damaged(this.paths.db, message);
      throw err;
    }
  }

  #readVersion(): number {
    const app = Number(
      (this.db.prepare("PRAGMA application_id").get() as { application_id: number }).application_id,
    );
    const version = this.formatVersion();
    const tables = Number(
      (this.db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number }).n,
    );
    if (app === 0 && version === 0 && tables === 0) return 0;
    if (app !== APPLICATION_ID) {
      throw new StoreError(
        `Cannot open the archive "${this.paths.db}": it is an SQLite database but not a verdict archive`,
        "point VERDICT_RECORDS (or --out) at another path, or move this file away",
      );
    }
    if (version > STORE_FORMAT_VERSION) {
      throw new StoreError(
        `Cannot open the archive "${this.paths.db}": it was written by a newer verdict (store format ${version}, this one reads up to ${STORE_FORMAT_VERSION})`,
        "upgrade verdict; this version will not read or change it",
      );
    }
    if (version < 1) {
      throw new StoreError(
        `Cannot open the archive "${this.paths.db}": its store format ${version} is unknown`,
      );
    }
    return version;
  }

  /** The store format the file says it is in now (`user_version`: a newer verdict may have raised it). */
  formatVersion(): number {
    return Number((this.st("PRAGMA user_version").get() as { user_version: number }).user_version);
  }

  close(): void {
    this.db.close();
  }

  /**
   * Copies the write-ahead log into the database and empties it, so old page versions (a
   * removed record's text) do not linger in it; false when a reader kept it from finishing.
   */
  truncateLog(): boolean {
    const row = this.db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number } | undefined;
    return row !== undefined && Number(row.busy) === 0;
  }

  /** A prepared statement, cached by its SQL. */
  st(sql: string): StatementSync {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  // --- meta -----------------------------------------------------------------------------------

  meta(key: string): string | null {
    const row = this.st("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row ? row.value : null;
  }

  metaNumber(key: string, fallback = 0): number {
    const v = this.meta(key);
    return v === null ? fallback : Number(v);
  }

  setMeta(key: string, value: string | number): void {
    this.st(
      "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    )
      .run(key, String(value));
  }

  // --- names ----------------------------------------------------------------------------------

  nameId(kind: number, name: string): number | null {
    const row = this.st("SELECT id FROM names WHERE kind = ? AND name = ?").get(kind, name) as
      | { id: number }
      | undefined;
    return row ? Number(row.id) : null;
  }

  /** The number of a name, added when new (writers only; remembered: an index build asks per record). */
  internName(kind: number, name: string): number {
    // One map per kind, keyed by the name itself: a key joining kind and name was a new string
    // per look-up, two per record of an index build.
    let names = this.#names.get(kind);
    if (!names) this.#names.set(kind, names = new Map());
    const cached = names.get(name);
    if (cached !== undefined) return cached;
    const id = this.nameId(kind, name) ??
      Number(this.st("INSERT INTO names(kind, name) VALUES (?, ?)").run(kind, name).lastInsertRowid);
    names.set(name, id);
    return id;
  }

  /** Names interned by this connection, by kind (a rolled-back transaction forgets them: see forgetNames). */
  readonly #names = new Map<number, Map<string, number>>();

  /** Drops remembered names (after a rollback, the ones added in it are gone). */
  forgetNames(): void {
    this.#names.clear();
  }

  /** One more than the largest name number given so far (of either kind). */
  nameLimit(): number {
    const row = this.st("SELECT COALESCE(MAX(id), -1) + 1 AS n FROM names").get() as { n: number };
    return Number(row.n);
  }

  nameOf(id: number): string | null {
    const row = this.st("SELECT name FROM names WHERE id = ?").get(id) as { name: string } | undefined;
    return row ? row.name : null;
  }

  // --- records --------------------------------------------------------------------------------

  recordById(id: string): RecordRow | null {
    const row = this.st("SELECT doc, id, source_file, source_line, line FROM records WHERE id = ?").get(id) as
      | { doc: number; id: string; source_file: string; source_line: number; line: string }
      | undefined;
    return row
      ? {
        doc: Number(row.doc),
        id: row.id,
        sourceFile: row.source_file,
        sourceLine: Number(row.source_line),
        line: row.line,
      }
      : null;
  }

  recordLine(doc: number): string | null {
    const row = this.st("SELECT line FROM records WHERE doc = ?").get(doc) as { line: string } | undefined;
    return row ? row.line : null;
  }

  // --- manifest -------------------------------------------------------------------------------

  segmentRows(): SegmentRow[] {
    const rows = this.st(
      "SELECT seg, first_doc, last_doc, docs, total_length, deleted, deleted_length, deleted_bitmap, deleted_terms FROM segments ORDER BY first_doc",
    ).all() as {
      seg: number;
      first_doc: number;
      last_doc: number;
      docs: number;
      total_length: number;
      deleted: number;
      deleted_length: number;
      deleted_bitmap: Uint8Array | null;
      deleted_terms: Uint8Array | null;
    }[];
    return rows.map((r) => ({
      seg: Number(r.seg),
      firstDoc: Number(r.first_doc),
      lastDoc: Number(r.last_doc),
      docs: Number(r.docs),
      totalLength: Number(r.total_length),
      deleted: Number(r.deleted),
      deletedLength: Number(r.deleted_length),
      deletedBitmap: r.deleted_bitmap,
      deletedTerms: r.deleted_terms,
    }));
  }

  segmentFile(seg: number): string {
    return `${this.paths.segments}/${segmentFileName(seg)}`;
  }
}

/** The file name of segment `seg` (zero-padded, so a listing sorts by number). */
export function segmentFileName(seg: number): string {
  return `seg-${String(seg).padStart(8, "0")}.vix`;
}

/** The segment number a file name names, or null for any other file. */
export function segmentOfFile(name: string): number | null {
  const m = /^seg-(\d{8})\.vix$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** Meta keys (one home for their names). */
export const META = {
  /** ANALYSIS_VERSION the index was built with. */
  analysis: "analysis",
  /** Digest of the credential rules the records were filtered with. */
  rules: "rules",
  nextDoc: "next_doc",
  nextSeg: "next_seg",
  liveDocs: "live_docs",
  liveLength: "live_length",
  /** JSON {kind: count}. */
  byKind: "by_kind",
  /** JSON array of the CJK words every live document is indexed with. */
  lexicon: "lexicon",
  /** Records counting for the CJK words (basis = 1), and the positions "start:end" the words came from. */
  basisRecords: "basis_records",
  basisWindow: "basis_window",
  /** JSON [time, id] of the newest record in the basis, or null. */
  basisEdge: "basis_edge",
  /** Bumped by every commit that changes records or index (readers reload on a change). */
  generation: "generation",
  /** When a collect last committed, ms since the epoch (doctor and schedule status show it). */
  collectedAt: "collected_at",
  /** SHA-256 of remembered.md as a collect or `verdict remember` last read it. */
  remembered: "remembered_digest",
  /** JSON {path, size, mtimeMs} of the old records file this archive was migrated from. */
  migratedFrom: "migrated_from",
} as const;

// ---- a segment's deleted documents, as the manifest keeps them: a bitmap by slot, and per term
// how many deleted documents hold it (so a term's live df is exact without reading its postings)

/** `bitmap` (or a fresh one for `slots` documents) with `marked` set. */
export function markSlots(bitmap: Uint8Array | null, slots: number, marked: readonly number[]): Uint8Array {
  const out = new Uint8Array((slots + 7) >> 3);
  if (bitmap) out.set(bitmap.subarray(0, out.length));
  for (const s of marked) out[s >> 3] = out[s >> 3]! | (1 << (s & 7));
  return out;
}

/** Encodes term → count (JSON, sorted by term so equal maps give equal bytes). */
export function encodeDeletedTerms(terms: ReadonlyMap<string, number>): Uint8Array {
  const sorted = [...terms].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new TextEncoder().encode(JSON.stringify(sorted));
}

export function decodeDeletedTerms(bytes: Uint8Array | null): Map<string, number> {
  if (!bytes || bytes.length === 0) return new Map();
  return new Map(JSON.parse(new TextDecoder().decode(bytes)) as [string, number][]);
}
