/**
 * The warm helper's archive, kept open between requests: the corpus (its segment files, the
 * lists and document columns it has read), the records store's connection and the parsed entity
 * list. Each request first asks whether what was opened is still what is there, and opens the
 * archive afresh when not, so every answer is the one a hook process opening the archive at
 * that moment would give (src/hint/run.ts `OPEN_PER_RUN`).
 *
 * "Still what is there" (src/lookup/recall.ts `Loaded.signature`): the database file's device and
 * inode, taken before it was opened, and the archive's generation with its store format, read on
 * the open connection (the latest commit). Every collect that changes records, names, manifest or
 * meta raises the generation in the same transaction as the change (src/store/update.ts), and
 * document numbers are never reused within an archive, so an index whose generation is current
 * names only records that are there, or that a collect committing after the check removed: the
 * run then finds the record gone and says nothing (src/hint/run.ts RecordRemoved), as the hook
 * process does in the same race. A new archive from scratch at the same path is another inode
 * (the old one stays allocated while this keeper holds it open); a deleted archive fails the stat.
 *
 * The entity list is read on every request (a small file) and parsed again only when its text
 * changed: no mtime granularity to trust.
 *
 * A superseded corpus is closed (its segment files and connection) once the last run holding it
 * releases it: runs overlap (the helper answers connections as they come), and a run that
 * already holds a corpus must not have it closed under it.
 *
 * Memory: what a kept corpus holds is bounded by the index's own caps (src/rank/segment.ts
 * MAX_CACHED_POSTINGS and MAX_CACHED_TERMS per segment; src/rank/segmented_index.ts
 * MAX_REMEMBERED_LISTS and MAX_PROBED_TERMS) plus its document columns (about 25 bytes a
 * document). KEPT_MAX_RUNS bounds the rest (name look-ups cached by the reader).
 */
import { entitiesOf, type LoadedCorpus, loadEntities, readEntityText } from "../lookup/recall.ts";
import type { Entity } from "../rank/entities.ts";
import { type ArchiveSource, type HeldCorpus, OPEN_PER_RUN } from "../hint/run.ts";

/**
 * A kept corpus is opened afresh after this many runs even if nothing changed: a bound on the
 * caches no cap covers (the reader's project and session name look-ups grow with the distinct
 * names asked for), at the cost of one open per this many prompts (~17 ms at 10^6 records, so
 * under 0.01 ms a prompt).
 */
export const KEPT_MAX_RUNS = 2000;

interface Kept {
  readonly recordsPath: string;
  readonly loaded: LoadedCorpus;
  runs: number;
  holders: number;
  superseded: boolean;
  closed: boolean;
}

export interface KeptArchiveStats {
  /** Times the archive was opened (the first request's included). */
  readonly opens: number;
  /** Runs answered from a corpus opened by an earlier run. */
  readonly reused: number;
}

export class KeptArchive implements ArchiveSource {
  #kept: Kept | null = null;
  /** The open under way, if any (settles, never rejects). */
  #opening: Promise<unknown> | null = null;
  #entities: { path: string; text: string; list: Entity[] } | null = null;
  #opens = 0;
  #reused = 0;

  get stats(): KeptArchiveStats {
    return { opens: this.#opens, reused: this.#reused };
  }

  async open(recordsPath: string): Promise<HeldCorpus | null> {
    // Runs that ask while an open is under way (the warm-up and a first prompt) wait for it and
    // take what it kept, rather than opening the archive a second time.
    while (this.#opening !== null) await this.#opening;
    const kept = this.#kept;
    if (kept !== null && this.#stillCurrent(kept, recordsPath)) {
      kept.runs++;
      this.#reused++;
      return this.#hold(kept);
    }
    if (kept !== null) this.#retire(kept);
    const opening = this.#openFresh(recordsPath);
    this.#opening = opening.then(() => {}, () => {});
    try {
      return await opening;
    } finally {
      this.#opening = null;
    }
  }

  /** Opens the archive and keeps it (before it resolves: a run waiting on #opening then finds it). */
  async #openFresh(recordsPath: string): Promise<HeldCorpus | null> {
    this.#opens++;
    const loaded = await OPEN_PER_RUN.open(recordsPath);
    if (loaded === null) return null;
    // An older verdict's records file (until a collect migrates it) is not kept: a migration
    // creates the archive before it renames that file, and only a fresh open sees which serves.
    if (loaded.loaded.source !== "archive") return loaded;
    const next: Kept = {
      recordsPath,
      loaded: loaded.loaded,
      runs: 1,
      holders: 0,
      superseded: false,
      closed: false,
    };
    if (this.#kept !== null) this.#retire(this.#kept);
    this.#kept = next;
    return this.#hold(next);
  }

  async entities(path: string | null): Promise<Entity[]> {
    if (!path) return await loadEntities(path);
    const text = await readEntityText(path);
    const known = this.#entities;
    if (known !== null && known.path === path && known.text === text) return known.list;
    const list = entitiesOf(text, path);
    this.#entities = { path, text, list };
    return list;
  }

  /** Closes what is kept (each corpus once its last run released it). */
  close(): void {
    if (this.#kept !== null) this.#retire(this.#kept);
    this.#entities = null;
  }

  #stillCurrent(kept: Kept, recordsPath: string): boolean {
    if (kept.superseded || kept.recordsPath !== recordsPath || kept.runs >= KEPT_MAX_RUNS) return false;
    try {
      return kept.loaded.current() === kept.loaded.signature;
    } catch {
      return false; // the connection cannot read the archive now: open it afresh
    }
  }

  #hold(kept: Kept): HeldCorpus {
    kept.holders++;
    let released = false;
    return {
      loaded: kept.loaded,
      release: (trusted) => {
        if (released) return;
        released = true;
        kept.holders--;
        if (!trusted) this.#retire(kept);
        else closeWhenFree(kept);
      },
    };
  }

  #retire(kept: Kept): void {
    if (this.#kept === kept) this.#kept = null;
    kept.superseded = true;
    closeWhenFree(kept);
  }
}

/** Closes a superseded corpus once no run holds it (once). */
function closeWhenFree(kept: Kept): void {
  if (!kept.superseded || kept.holders > 0 || kept.closed) return;
  kept.closed = true;
  kept.loaded.close();
}
