/**
 * Merging a run's source results into the archive (pure). Records of files re-read from their
 * start replace that file's old records; appended records are added; every other old record is
 * kept, including records whose source file has since been deleted. Duplicates (a prompt copied
 * into a resumed session's file) collapse to one record, chosen by a fixed rule so any collect
 * order yields the same archive.
 */
import { historyDedupKey } from "./claude_history.ts";
import { compareRecords, type VerdictRecord } from "./record.ts";
import type { SourceResult } from "./source.ts";
import { isHistoryRecord } from "./transcripts.ts";

/** Prefer the record found first in file order: (source_file, source_line) smallest. */
function preferred(a: VerdictRecord, b: VerdictRecord): VerdictRecord {
  if (a.source_file !== b.source_file) return a.source_file < b.source_file ? a : b;
  return a.source_line <= b.source_line ? a : b;
}

export interface MergeResult {
  readonly records: VerdictRecord[];
  /** Records in the result that were not in the old archive (by id). */
  readonly added: number;
}

export function mergeRecords(
  old: readonly VerdictRecord[],
  results: readonly SourceResult<unknown>[],
): MergeResult {
  const replacedFiles = new Set<string>();
  for (const r of results) for (const file of r.replaced.keys()) replacedFiles.add(file);
  const byId = new Map<string, VerdictRecord>();
  const put = (rec: VerdictRecord) => {
    const prev = byId.get(rec.id);
    byId.set(rec.id, prev ? preferred(prev, rec) : rec);
  };
  for (const rec of old) if (!replacedFiles.has(rec.source_file)) put(rec);
  for (const r of results) {
    for (const recs of r.replaced.values()) for (const rec of recs) put(rec);
    for (const rec of r.appended) put(rec);
  }
  // A prompt in both a transcript and the prompt history is kept once: the transcript's, which
  // carries the session and the line.
  const transcriptKeys = new Set<string>();
  for (const rec of byId.values()) {
    if (rec.kind === "prompt" && rec.origin === "claude" && !isHistoryRecord(rec)) {
      transcriptKeys.add(historyDedupKey(rec.session, rec.text));
    }
  }
  const oldIds = new Set(old.map((r) => r.id));
  const records: VerdictRecord[] = [];
  let added = 0;
  for (const rec of byId.values()) {
    if (isHistoryRecord(rec) && transcriptKeys.has(historyDedupKey(rec.session, rec.text))) continue;
    records.push(rec);
    if (!oldIds.has(rec.id)) added++;
  }
  records.sort(compareRecords);
  return { records, added };
}
