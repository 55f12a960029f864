/**
 * Removes index files no committed manifest names: segments an earlier collect merged away, and
 * whatever a killed collect left half-written. Run by collect under its lock, before it changes
 * anything: a reader that read the manifest before the last commit has long opened its files
 * (an open file stays readable after it is removed).
 */
import { type Archive, segmentOfFile } from "./archive.ts";

/**
 * `madeFrom`: remove only segment files numbered from it, i.e. made by the run that took that
 * number first. Called right after that run's commit: a file it made and merged away was named
 * by no committed manifest, so no reader can be about to open it (a file an older manifest named
 * waits for the next collect, as any reader that read that manifest has opened it by then).
 */
export async function sweepSegments(archive: Archive, madeFrom = 0): Promise<number> {
  const live = new Set(archive.segmentRows().map((r) => r.seg));
  let removed = 0;
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(archive.paths.segments));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return 0;
    throw err;
  }
  for (const e of entries) {
    if (!e.isFile) continue;
    const seg = segmentOfFile(e.name);
    const stray = seg === null
      ? madeFrom === 0 && e.name.endsWith(".tmp")
      : seg >= madeFrom && !live.has(seg);
    if (!stray) continue;
    await Deno.remove(`${archive.paths.segments}/${e.name}`).catch(() => {});
    removed++;
  }
  return removed;
}
