/**
 * The collector's per-source state in the archive (table `sources`): one row per transcript file
 * (so a run writes only the files it read), one row for documents, one for git. Saved in the
 * same transaction as the records it describes, so state and records never disagree.
 *
 * A transcript row keeps, beside the state (JSON), the fingerprint of the look it was taken from
 * (column `seen`, src/collect/transcripts.ts lookFingerprint). Loading reads only the keys and
 * fingerprints; a file's state is parsed when the collector asks for it, which it does only for a
 * file that is not as it was (at 10^4 files, parsing every state was a tenth of a one-prompt
 * collect).
 */
import type { DocsState } from "./docs.ts";
import type { GitState } from "./git.ts";
import { savedFingerprint, type SavedTranscripts, type TranscriptState } from "./transcripts.ts";
import type { Archive } from "../store/archive.ts";

const TRANSCRIPT = "t:";
/** The key just past every transcript row's ("t;" > "t:…"). */
const TRANSCRIPT_END = "t;";
const DOCS = "docs";
const GIT = "git";

/** The states a collect saves. */
export interface SourceStates {
  readonly transcripts: TranscriptState;
  readonly docs: DocsState | null;
  readonly git: GitState | null;
}

/** The states as loaded: the transcripts' lazily (see above). */
export interface LoadedSources {
  readonly transcripts: SavedTranscriptRows;
  readonly docs: DocsState | null;
  readonly git: GitState | null;
}

/** The saved transcript rows: SavedTranscripts for the collector, the file names for saving. */
export interface SavedTranscriptRows extends SavedTranscripts {
  files(): Iterable<string>;
}

export function loadSources(archive: Archive): LoadedSources {
  const seen = new Map<string, string | null>();
  const rows = archive.st("SELECT key, seen FROM sources WHERE key >= ? AND key < ?").all(
    TRANSCRIPT,
    TRANSCRIPT_END,
  ) as { key: string; seen: string | null }[];
  for (const r of rows) seen.set(r.key.slice(TRANSCRIPT.length), r.seen);
  const parsed = new Map<string, unknown>();
  const value = archive.st("SELECT value FROM sources WHERE key = ?");
  const transcripts: SavedTranscriptRows = {
    files: () => seen.keys(),
    fingerprint: (file) => seen.get(file),
    state: (file) => {
      if (!seen.has(file)) return null;
      let state = parsed.get(file);
      if (state === undefined) {
        const row = value.get(TRANSCRIPT + file) as { value: string } | undefined;
        state = row ? JSON.parse(row.value) : null;
        parsed.set(file, state);
      }
      return state;
    },
  };
  const one = (key: string) => {
    const row = value.get(key) as { value: string } | undefined;
    return row ? JSON.parse(row.value) : null;
  };
  return { transcripts, docs: one(DOCS) as DocsState | null, git: one(GIT) as GitState | null };
}

/**
 * Writes `next`, touching only rows that differ from `previous` (as loaded). A file in `kept` was
 * found as its saved state describes it: its row stands. Any other file's row not in `next` is
 * removed (the file is gone).
 */
export function saveSources(
  archive: Archive,
  previous: LoadedSources | null,
  next: SourceStates,
  kept: ReadonlySet<string> = new Set(),
): void {
  const put = archive.st(
    "INSERT INTO sources(key, value, seen) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, seen = excluded.seen",
  );
  const del = archive.st("DELETE FROM sources WHERE key = ?");
  const before = previous?.transcripts ?? loadSources(archive).transcripts;
  for (const [file, s] of Object.entries(next.transcripts)) {
    const seen = savedFingerprint(s);
    // A row saved without its fingerprint (an older store format) is written once to get it.
    if (previous !== null && before.fingerprint(file) === seen) {
      // The very state loaded (a file not read this run): unchanged, no need to compare its text.
      const old = before.state(file);
      if (old === s || JSON.stringify(old) === JSON.stringify(s)) continue;
    }
    put.run(TRANSCRIPT + file, JSON.stringify(s), seen);
  }
  for (const file of before.files()) {
    if (!kept.has(file) && !Object.hasOwn(next.transcripts, file)) del.run(TRANSCRIPT + file);
  }
  for (const [key, value] of [[DOCS, next.docs], [GIT, next.git]] as const) {
    if (value === null) del.run(key);
    else put.run(key, JSON.stringify(value), null);
  }
}
