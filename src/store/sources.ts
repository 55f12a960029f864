/**
 * The collector's per-source state in the archive (table `sources`): one row per transcript file
 * (so a run writes only the files it read), one row for documents, one for git. Saved in the
 * same transaction as the records it describes, so state and records never disagree.
 */
import type { DocsState } from "../collect/docs.ts";
import type { GitState } from "../collect/git.ts";
import type { TranscriptFileState, TranscriptState } from "../collect/transcripts.ts";
import type { Archive } from "./archive.ts";

const TRANSCRIPT = "t:";
const DOCS = "docs";
const GIT = "git";

export interface SourceStates {
  readonly transcripts: TranscriptState;
  readonly docs: DocsState | null;
  readonly git: GitState | null;
}

export function loadSources(archive: Archive): SourceStates {
  const transcripts: Record<string, TranscriptFileState> = {};
  const rows = archive.st("SELECT key, value FROM sources WHERE key >= ? AND key < ?").all(
    TRANSCRIPT,
    "t;",
  ) as {
    key: string;
    value: string;
  }[];
  for (const r of rows) {
    transcripts[r.key.slice(TRANSCRIPT.length)] = JSON.parse(r.value) as TranscriptFileState;
  }
  const one = (key: string) => {
    const row = archive.st("SELECT value FROM sources WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row ? JSON.parse(row.value) : null;
  };
  return { transcripts, docs: one(DOCS) as DocsState | null, git: one(GIT) as GitState | null };
}

/** Writes `next`, touching only rows that differ from `previous` (both as loaded or produced). */
export function saveSources(archive: Archive, previous: SourceStates | null, next: SourceStates): void {
  const put = archive.st(
    "INSERT INTO sources(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  );
  const del = archive.st("DELETE FROM sources WHERE key = ?");
  const before = previous?.transcripts ?? loadSources(archive).transcripts;
  for (const [file, s] of Object.entries(next.transcripts)) {
    const old = before[file];
    // The very state loaded (a file not read this run): unchanged, no need to compare its text.
    if (previous !== null && old === s) continue;
    const text = JSON.stringify(s);
    if (previous === null || JSON.stringify(old) !== text) put.run(TRANSCRIPT + file, text);
  }
  for (const file of Object.keys(before)) if (!(file in next.transcripts)) del.run(TRANSCRIPT + file);
  for (const [key, value] of [[DOCS, next.docs], [GIT, next.git]] as const) {
    if (value === null) del.run(key);
    else put.run(key, JSON.stringify(value));
  }
}
