/**
 * Changes a person makes to the archive by hand (forget, retract, mute, pin): under the collect
 * lock, each in one transaction, as a collect changes it, so a kill leaves the old or the new
 * state and never one between.
 */
import { Archive, META } from "../store/archive.ts";
import { clearMarks, setMark } from "../store/marks.ts";
import { writeTextFileAtomic } from "../fsutil/atomic.ts";
import {
  readRemembered,
  REMEMBERED_TITLE,
  rememberedDigest,
  rememberedId,
  rememberedRecords,
  rememberedSection,
} from "./remembered.ts";
import { type StorePaths, storePaths } from "../store/paths.ts";
import { sweepSegments } from "../store/sweep.ts";
import { addTombstone } from "../store/tombstones.ts";
import { ArchiveUpdate } from "../store/update.ts";
import { InputError } from "../errors.ts";
import { takeCollectLock } from "./lock.ts";
import type { VerdictRecord } from "../record/record.ts";

/** The archive's paths, or an input error when there is no archive there yet. */
export function existingArchive(recordsPath: string): StorePaths {
  const paths = storePaths(recordsPath);
  try {
    Deno.statSync(paths.db);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new InputError(`There is no archive at "${paths.db}"`, 'run "verdict collect" first');
    }
    throw err;
  }
  return paths;
}

/**
 * Runs `work` on the archive opened for writing, under the collect lock (a collect running now
 * makes this a runtime error naming it). Files a killed run left are swept first.
 */
export async function withArchive<T>(paths: StorePaths, work: (archive: Archive) => Promise<T>): Promise<T> {
  const release = await takeCollectLock(paths.lock, paths.db);
  let archive: Archive | null = null;
  try {
    archive = Archive.openForUpdate(paths);
    await sweepSegments(archive);
    return await work(archive);
  } finally {
    archive?.close();
    release();
  }
}

/**
 * Changes marks in one transaction; the generation moves so that a kept reader (the warm helper)
 * opens the archive afresh.
 */
export function inTransaction<T>(archive: Archive, change: () => T): T {
  archive.db.exec("BEGIN IMMEDIATE");
  try {
    const out = change();
    archive.setMeta(META.generation, archive.metaNumber(META.generation) + 1);
    archive.db.exec("COMMIT");
    return out;
  } catch (err) {
    archive.db.exec("ROLLBACK");
    throw err;
  }
}

/**
 * Removes the records `ids` name from the records and the index (their segments rewritten, so no
 * file keeps their text), leaves a tombstone for each and drops their marks, in one transaction;
 * then empties SQLite's log, so the removed text lingers nowhere. Returns the records removed.
 */
export async function forgetRecords(
  archive: Archive,
  ids: readonly string[],
  at: string,
  onRemoved: (text: string) => void = () => {},
): Promise<VerdictRecord[]> {
  const update = new ArchiveUpdate(archive, []);
  let gone: VerdictRecord[];
  try {
    gone = update.forget(ids);
    for (const r of gone) {
      addTombstone(archive, r, at);
      clearMarks(archive, r.id);
    }
    update.updateLexicon();
    await update.index();
    update.commit();
  } catch (err) {
    update.rollback();
    throw err;
  }
  await sweepSegments(archive);
  if (!archive.truncateLog()) {
    onRemoved(
      "a reader kept SQLite's log from being emptied; the removed text leaves it at the next collect",
    );
  }
  return gone;
}

/**
 * Adds a decision by hand: a section appended to remembered.md (written whole to a temp file,
 * then renamed), then its records staged as a collect stages a re-read file, with its pin, in one
 * transaction. A kill between the two leaves the section in the file, and the next collect reads
 * it. Returns the new record (a time already in the file moves on by a millisecond, so ids differ).
 */
export async function rememberDecision(
  archive: Archive,
  decision: {
    readonly text: string;
    readonly project: string;
    readonly time: string;
    readonly on: readonly string[];
  },
): Promise<VerdictRecord> {
  const file = archive.paths.remembered;
  const before = (await readRemembered(file)) ?? `${REMEMBERED_TITLE}\n`;
  const taken = new Set(rememberedRecords(file, before).map((r) => r.time));
  let ms = Date.parse(decision.time);
  while (taken.has(new Date(ms).toISOString())) ms++;
  const time = new Date(ms).toISOString();
  const text = before + rememberedSection({ time, project: decision.project, text: decision.text });
  await writeTextFileAtomic(file, text, 0o600);
  const records = rememberedRecords(file, text);
  const id = rememberedId(file, time);
  const added = records.find((r) => r.id === id);
  if (added === undefined) throw new Error(`The section written to ${file} does not read back`);
  const update = new ArchiveUpdate(archive, []);
  try {
    update.stage(file, true, records);
    update.apply();
    if (decision.on.length > 0) setMark(archive, id, "pinned", "", time, { words: decision.on });
    archive.setMeta(META.remembered, rememberedDigest(text));
    update.updateLexicon();
    await update.index();
    update.commit();
  } catch (err) {
    update.rollback();
    throw err;
  }
  return added;
}
