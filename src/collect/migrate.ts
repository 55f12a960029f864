/**
 * Migrating an archive an older verdict wrote (`records.jsonl`, its `.idx` and `.state.json`)
 * into the store, without loss, by the first collect that finds it:
 *
 * 1. In one transaction: every record of the old file (streamed, so any size works), the old
 *    collector state when it still describes that file (same size and mtime; otherwise the next
 *    collect re-reads every source and merges, which loses nothing either), the credential rules'
 *    digest, the CJK words and the index; and a note of which file was migrated. Commit.
 * 2. Then the old file is renamed to `<name>.migrated` (kept for the user to delete), its index and
 *    state removed. A kill between 1 and 2 is finished by the next collect (the note matches).
 *
 * An old file beside an archive that already holds records is left alone and reported.
 */
import type { RepeatRule } from "../agents/agent.ts";
import { readLines } from "./lines.ts";
import { asRecord, type VerdictRecord } from "../record/record.ts";
import { RECORD_ORIGINS } from "../agents/registry.ts";
import type { ProblemReporter } from "../record/source.ts";
import { EXIT, VerdictError } from "../errors.ts";
import { type Archive, META } from "../store/archive.ts";
import { saveSources, type SourceStates } from "./saved_state.ts";
import { ArchiveUpdate } from "../store/update.ts";

/** Records staged at a time while the old file is read. */
const MIGRATE_BATCH = 1000;

/** The old state file's version this migration understands (COLLECT_STATE_VERSION then). */
const LEGACY_STATE_VERSION = 1;

export interface MigrationResult {
  readonly records: number;
  readonly badLines: number;
  /** Whether the old collector state was carried over (the next collect is incremental). */
  readonly state: boolean;
  /** Where the old file now is. */
  readonly keptAs: string;
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

interface LegacyNote {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

async function finish(archive: Archive, note: LegacyNote): Promise<string> {
  const legacy = archive.paths.legacy;
  const keptAs = `${legacy.records}.migrated`;
  const info = await statOrNull(legacy.records);
  if (info && info.size === note.size && (info.mtime?.getTime() ?? 0) === note.mtimeMs) {
    await Deno.rename(legacy.records, keptAs);
  }
  for (const p of [legacy.index, legacy.state, legacy.lock]) await Deno.remove(p).catch(() => {});
  return keptAs;
}

/** Migrates the old archive beside `archive` when there is one to migrate; null otherwise. */
export async function migrateLegacy(
  archive: Archive,
  repeats: readonly RepeatRule[],
  report: ProblemReporter,
): Promise<MigrationResult | null> {
  const legacy = archive.paths.legacy;
  const info = await statOrNull(legacy.records);
  const noted = archive.meta(META.migratedFrom);
  if (noted !== null) {
    // Migrated already; finish the clean-up a kill may have cut short.
    if (info) await finish(archive, JSON.parse(noted) as LegacyNote);
    return null;
  }
  if (!info || !info.isFile) return null;
  if (archive.metaNumber(META.nextDoc, 1) > 1) {
    report(
      legacy.records,
      "an older records file sits beside the archive and was not imported (the archive already holds records)",
    );
    return null;
  }
  const note: LegacyNote = { path: legacy.records, size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
  const update = new ArchiveUpdate(archive, repeats);
  try {
    let records = 0;
    let bad = 0;
    // Staged as records found again (the merge keeps one per id, as the old file did), in batches.
    let batch: VerdictRecord[] = [];
    const read = await readLines(legacy.records, 0, 0, (text) => {
      let r = null;
      try {
        r = asRecord(JSON.parse(text), RECORD_ORIGINS);
      } catch {
        r = null;
      }
      if (r === null) bad++;
      else {
        batch.push(r);
        if (batch.length >= MIGRATE_BATCH) {
          update.stage("", false, batch);
          batch = [];
        }
      }
    });
    update.stage("", false, batch);
    update.apply();
    records = update.counts().total;
    if (bad > 0 && records === 0) {
      throw new VerdictError(
        `Refusing to migrate "${legacy.records}": none of its ${bad} lines is a verdict record`,
        EXIT.usage,
        "point --out at another file, or move this one away",
      );
    }
    bad += read.oversized;
    if (bad > 0) report(legacy.records, `${bad} line(s) are not records and were left out`);
    const state = await legacyState(legacy.state, info);
    if (state) {
      saveSources(archive, null, state.sources);
      archive.setMeta(META.rules, state.rulesDigest);
    }
    update.updateLexicon();
    await update.index();
    archive.setMeta(META.migratedFrom, JSON.stringify(note));
    update.commit();
    const keptAs = await finish(archive, note);
    return { records, badLines: bad, state: state !== null, keptAs };
  } catch (err) {
    update.rollback();
    throw err;
  }
}

/** The old state file, when it is one this migration reads and it describes `records` as it is. */
async function legacyState(
  path: string,
  records: Deno.FileInfo,
): Promise<{ sources: SourceStates; rulesDigest: string } | null> {
  try {
    const s = JSON.parse(await Deno.readTextFile(path)) as Record<string, unknown>;
    if (
      s.version !== LEGACY_STATE_VERSION || typeof s.transcripts !== "object" || s.transcripts === null ||
      s.recordsSize !== records.size || s.recordsMtimeMs !== (records.mtime?.getTime() ?? 0) ||
      typeof s.rulesDigest !== "string"
    ) return null;
    return {
      sources: {
        transcripts: s.transcripts as SourceStates["transcripts"],
        docs: (s.docs ?? null) as SourceStates["docs"],
        git: (s.git ?? null) as SourceStates["git"],
      },
      rulesDigest: s.rulesDigest,
    };
  } catch {
    // Missing or unreadable: the next collect re-reads every source (and loses nothing).
    return null;
  }
}
