/**
 * An archive made at once from a list of records (benchmarks, tests, and tools that have records
 * but no sources): the same store a collect would leave holding them.
 */
import type { RepeatRule } from "../agents/agent.ts";
import type { VerdictRecord } from "../record/record.ts";
import { Archive } from "./archive.ts";
import { type StorePaths, storePaths } from "./paths.ts";
import { sweepSegments } from "./sweep.ts";
import { ArchiveUpdate } from "./update.ts";

/**
 * Adds `records` to the archive named by `recordsPath` (creating it when missing), as a collect
 * that found them again would: one record per id. For an archive nothing reads meanwhile (the
 * segments merged away are removed at once, not by the next collect).
 */
export async function buildArchive(
  recordsPath: string,
  records: Iterable<VerdictRecord>,
  repeats: readonly RepeatRule[] = [],
): Promise<StorePaths> {
  const paths = storePaths(recordsPath);
  await Deno.mkdir(paths.segments, { recursive: true, mode: 0o700 });
  const archive = Archive.openForUpdate(paths);
  try {
    const update = new ArchiveUpdate(archive, repeats);
    try {
      let batch: VerdictRecord[] = [];
      for (const r of records) {
        batch.push(r);
        if (batch.length >= 1000) {
          update.stage("", false, batch);
          batch = [];
        }
      }
      update.stage("", false, batch);
      update.apply();
      update.updateLexicon();
      await update.index();
      update.commit();
    } catch (err) {
      update.rollback();
      throw err;
    }
    // Nothing else reads this archive yet: the segments merged away go at once.
    await sweepSegments(archive);
  } finally {
    archive.close();
  }
  return paths;
}
