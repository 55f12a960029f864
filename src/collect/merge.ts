/**
 * Merging a run's source results into the archive (pure). Records of files re-read from their
 * start replace that file's old records; appended records are added; every other old record is
 * kept, including records whose source file has since been deleted. Duplicates (a prompt copied
 * into a resumed session's file) collapse to one record, chosen by a fixed rule so any collect
 * order yields the same archive. An agent's repeat rule (src/agents/agent.ts) drops records one
 * of its readers finds again after another.
 */
import type { RepeatRule } from "../agents/agent.ts";
import { compareRecords, type VerdictRecord } from "../record/record.ts";
import type { SourceResult } from "../record/source.ts";

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
  repeats: readonly RepeatRule[],
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
  // A record found again (a prompt in both a transcript and the prompt history) is kept once:
  // the original's, which carries the session and the line.
  const originalKeys = repeats.map((rule) => {
    const keys = new Set<string>();
    for (const rec of byId.values()) if (rule.isOriginal(rec)) keys.add(rule.key(rec));
    return keys;
  });
  const isDroppedRepeat = (rec: VerdictRecord) =>
    repeats.some((rule, i) => rule.isRepeat(rec) && originalKeys[i]!.has(rule.key(rec)));
  const oldIds = new Set(old.map((r) => r.id));
  const records: VerdictRecord[] = [];
  let added = 0;
  for (const rec of byId.values()) {
    if (isDroppedRepeat(rec)) continue;
    records.push(rec);
    if (!oldIds.has(rec.id)) added++;
  }
  records.sort(compareRecords);
  return { records, added };
}
