/**
 * What doctor and `schedule status` say about an archive: its counts, when a collect last
 * committed, and whether its index can serve (every segment the manifest names opens and matches,
 * built by this analysis). Reads only.
 */
import { ANALYSIS_VERSION } from "../rank/analysis_version.ts";
import { Segment } from "../rank/segment.ts";
import { Archive, META } from "./archive.ts";
import type { StorePaths } from "./paths.ts";

export interface ArchiveStatus {
  readonly byKind: Readonly<Record<string, number>>;
  /** When a collect last committed (ms since the epoch), or null before the first. */
  readonly collectedAt: number | null;
  readonly index: { readonly ok: true; readonly docs: number; readonly segments: number } | {
    readonly ok: false;
    readonly reason: string;
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
      return { byKind, collectedAt: at === null ? null : Number(at), index };
    } finally {
      archive.db.exec("COMMIT");
    }
  } finally {
    archive.close();
  }
}
