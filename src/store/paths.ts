/**
 * Where an archive lives, from the records path the user names ($VERDICT_RECORDS, --out, or the
 * default `~/.local/share/verdict/records.db`). A name ending in `.jsonl` is the old-style name
 * (kept in installed hooks and scripts): it means the store beside it, `<name>.db`, and the
 * old files under that name are what gets migrated.
 */

export interface StorePaths {
  /** The SQLite database: records, collect state and the index manifest. */
  readonly db: string;
  /** The directory of index segment files. */
  readonly segments: string;
  /** The collect lock (src/collect/lock.ts). */
  readonly lock: string;
  /** Decisions added by hand (`verdict remember`, src/collect/remembered.ts), collected with the rest. */
  readonly remembered: string;
  /** The files an older verdict wrote for this archive, migrated by the first collect. */
  readonly legacy: {
    readonly records: string;
    readonly index: string;
    readonly state: string;
    readonly lock: string;
  };
}

/** Every file SQLite may create beside a database. */
export function sqliteFiles(db: string): string[] {
  return [db, `${db}-wal`, `${db}-shm`, `${db}-journal`];
}

export function storePaths(records: string): StorePaths {
  const base = records.endsWith(".db")
    ? records.slice(0, -3)
    : records.endsWith(".jsonl")
    ? records.slice(0, -6)
    : records;
  const legacyRecords = records.endsWith(".db") ? `${base}.jsonl` : records;
  return {
    db: `${base}.db`,
    segments: `${base}.index`,
    lock: `${base}.lock`,
    remembered: `${base.slice(0, base.lastIndexOf("/") + 1)}remembered.md`,
    legacy: {
      records: legacyRecords,
      index: `${legacyRecords}.idx`,
      state: `${legacyRecords}.state.json`,
      lock: `${legacyRecords}.lock`,
    },
  };
}
