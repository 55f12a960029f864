/**
 * Tombstones: what a forget leaves instead of a record. A tombstone holds hashes, never the text:
 * one of the record's id with its text (a collect or an import that meets the same record, while
 * its source still holds it, does not store it again; an edited text is a new statement and is
 * stored), one of its session with its text (the same prompt written to a second file), and one
 * of the id alone (so `verdict show` can say the id was forgotten). Kept in the
 * archive's `tombstones` table (src/store/marks.ts MARKS_SCHEMA); apart from marks.ts so that the
 * per-prompt hint, which reads marks, never loads the hashing.
 */
import { createHash } from "node:crypto";
import type { Archive } from "./archive.ts";
import { hasMarks } from "./marks.ts";

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** What a tombstone is checked by: the record's id, session and text. */
export interface TombstoneSubject {
  readonly id: string;
  readonly text: string;
  readonly session: string | null;
}

/** The key that stops a record coming back: this id holding this text. */
export function tombstoneKey(r: TombstoneSubject): string {
  return `t:${sha256(`${r.id}\n${r.text}`)}`;
}

/**
 * The key that stops the same words of the same session coming back under another id: an agent
 * may write one prompt to two files (Claude Code's history.jsonl repeats its transcripts), and a
 * collect keeps the second copy once the first is gone. Whitespace runs count as one space.
 */
export function sessionTextKey(r: TombstoneSubject): string | null {
  if (r.session === null) return null;
  return `s:${sha256(`${r.session}\n${r.text.replace(/\s+/g, " ").trim()}`)}`;
}

/** The key that says an id was forgotten (whatever its text). */
export function forgottenIdKey(id: string): string {
  return `i:${sha256(id)}`;
}

/** Writes the tombstones of a forgotten record. The caller holds a write transaction. */
export function addTombstone(archive: Archive, r: TombstoneSubject, at: string): void {
  const ins = archive.st("INSERT OR IGNORE INTO tombstones(key, at) VALUES (?, ?)");
  ins.run(tombstoneKey(r), at);
  ins.run(forgottenIdKey(r.id), at);
  const session = sessionTextKey(r);
  if (session !== null) ins.run(session, at);
}

/** When `id` was forgotten, or null. */
export function forgottenAt(archive: Archive, id: string): string | null {
  if (!hasMarks(archive)) return null;
  const row = archive.st("SELECT at FROM tombstones WHERE key = ?").get(forgottenIdKey(id)) as
    | { at: string }
    | undefined;
  return row ? row.at : null;
}

/**
 * A test for records a forget removed, or null when the archive holds no tombstone (the common
 * case: a collect then pays nothing per record).
 */
export function tombstoneFilter(archive: Archive): ((r: TombstoneSubject) => boolean) | null {
  if (!hasMarks(archive)) return null;
  if (archive.st("SELECT 1 AS x FROM tombstones LIMIT 1").get() === undefined) return null;
  const find = archive.st("SELECT 1 AS x FROM tombstones WHERE key = ?");
  return (r) => {
    if (find.get(tombstoneKey(r)) !== undefined) return true;
    const session = sessionTextKey(r);
    return session !== null && find.get(session) !== undefined;
  };
}
