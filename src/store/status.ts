/**
 * What doctor and `schedule status` say about an archive: its counts, when a collect last
 * committed, and whether its index can serve (every segment the manifest names opens and matches,
 * built by this analysis). Reads only.
 */
import { ANALYSIS_VERSION } from "../rank/analysis_version.ts";
import { Segment } from "../rank/segment.ts";
import { Archive, META } from "./archive.ts";
import { hasMarks, readMarks } from "./marks.ts";
import type { StorePaths } from "./paths.ts";

export interface ArchiveStatus {
  readonly byKind: Readonly<Record<string, number>>;
  /** When a collect last committed (ms since the epoch), or null before the first. */
  readonly collectedAt: number | null;
  readonly index: { readonly ok: true; readonly docs: number; readonly segments: number } | {
    readonly ok: false;
    readonly reason: string;
  };
  /** What a person marked and forgot, and the marks that name a record the archive no longer holds. */
  readonly marks: MarksStatus;
}

export interface MarksStatus {
  readonly retracted: number;
  readonly muted: number;
  readonly pinned: number;
  /** Records forgotten (one tombstone of each names its id). */
  readonly forgotten: number;
  /** "ID (retracted)", "ID (muted)", "ID (pinned)", "ID (replaces OLD)": marks on ids no record has. */
  readonly dangling: readonly string[];
}

/** The marks of an open archive, counted, and those that name a missing record. */
function marksStatus(archive: Archive): MarksStatus {
  if (!hasMarks(archive)) return { retracted: 0, muted: 0, pinned: 0, forgotten: 0, dangling: [] };
  const marks = readMarks(archive);
  const missing = (id: string) => archive.recordById(id) === null;
  const dangling: string[] = [];
  for (const [id, r] of marks.retracted) {
    if (missing(id)) dangling.push(`${id} (retracted)`);
    if (r.by !== null && missing(r.by)) dangling.push(`${r.by} (replaces ${id})`);
  }
  for (const id of marks.muted.keys()) if (missing(id)) dangling.push(`${id} (muted)`);
  for (const id of marks.pinned.keys()) if (missing(id)) dangling.push(`${id} (pinned)`);
  const forgotten = Number(
    (archive.st("SELECT count(*) AS n FROM tombstones WHERE key LIKE 'i:%'").get() as { n: number }).n,
  );
  return {
    retracted: marks.retracted.size,
    muted: marks.muted.size,
    pinned: marks.pinned.size,
    forgotten,
    dangling: dangling.sort(),
  };
}

/** The archive's status, or null when there is none. */
export function archiveStatus(paths: StorePaths): ArchiveStatus | null {
  const archive = Archive.openForRead(paths);
  if (archive === null) return null;
  try {
    archive.db.exec("BEGIN");
    try {
      const byKind = JSON.parse(archive.meta(META.byKind) ?? "{}") as Record<string, number>;
      const at = archive.meta(META.collectedAt);
      const docs = archive.metaNumber(META.liveDocs);
      const rows = archive.segmentRows();
      let index: ArchiveStatus["index"] = { ok: true, docs, segments: rows.length };
      if (archive.meta(META.analysis) !== String(ANALYSIS_VERSION)) {
        index = { ok: false, reason: "it was built by another version of verdict" };
      } else {
        for (const row of rows) {
          try {
            const s = Segment.open(archive.segmentFile(row.seg));
            const fits = s.docCount === row.docs && s.header.analysis === ANALYSIS_VERSION;
            s.close();
            if (!fits) {
              index = { ok: false, reason: `${archive.segmentFile(row.seg)} does not match the manifest` };
              break;
            }
          } catch (err) {
            index = { ok: false, reason: `${archive.segmentFile(row.seg)}: ${(err as Error).message}` };
            break;
          }
        }
      }
      return { byKind, collectedAt: at === null ? null : Number(at), index, marks: marksStatus(archive) };
    } finally {
      archive.db.exec("COMMIT");
    }
  } finally {
    archive.close();
  }
}
