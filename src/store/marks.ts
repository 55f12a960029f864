/**
 * What a person decided about records, kept in the archive beside them: marks (retracted, muted,
 * pinned) and the tombstones of forgotten records. Both live in the database so that a mark or a
 * forget commits in one transaction with the records it names, and the hint reads the marks
 * through the connection it already holds (one small query per prompt, no other file).
 *
 * Tables (store format 3, archive.ts MARKS_SCHEMA):
 *   marks(id, state, scope, at, detail)  state "retracted" | "muted" | "pinned"; scope "" for
 *                                         everywhere, else the project a mute holds in; detail:
 *                                         JSON ({by, why} for a retraction, {words} for a pin)
 *   tombstones(key, at)                  hashes of what a forget removed (never its text): a
 *                                         collect or an import that meets a record matching one
 *                                         does not store it again
 */
import type { Archive } from "./archive.ts";

export type MarkState = "retracted" | "muted" | "pinned";

export interface Retraction {
  /** When it was retracted (RFC 3339). */
  readonly at: string;
  /** The record that replaces it, or null. */
  readonly by: string | null;
  readonly why: string | null;
}

export interface Pin {
  readonly at: string;
  /** Lower-case trigger words. */
  readonly words: readonly string[];
}

/** Every mark of the archive, by record id. */
export interface Marks {
  readonly retracted: ReadonlyMap<string, Retraction>;
  /** Record id → the scopes it is muted in ("" = everywhere, else a project folder). */
  readonly muted: ReadonlyMap<string, readonly string[]>;
  readonly pinned: ReadonlyMap<string, Pin>;
}

export const NO_MARKS: Marks = { retracted: new Map(), muted: new Map(), pinned: new Map() };

interface MarkRow {
  id: string;
  state: string;
  scope: string;
  at: string;
  detail: string;
}

/** Whether the open database has the marks tables (an archive of format 2 has none until upgraded). */
export function hasMarks(archive: Archive): boolean {
  return archive.st("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'marks'").get() !==
    undefined;
}

/** Every mark, read in one query (the table holds what a person marked by hand: a few rows). */
export function readMarks(archive: Archive): Marks {
  if (!hasMarks(archive)) return NO_MARKS;
  const retracted = new Map<string, Retraction>();
  const muted = new Map<string, string[]>();
  const pinned = new Map<string, Pin>();
  const rows = archive.st("SELECT id, state, scope, at, detail FROM marks ORDER BY id, state, scope")
    .all() as unknown as MarkRow[];
  for (const row of rows) {
    const detail = JSON.parse(row.detail) as Record<string, unknown>;
    if (row.state === "retracted") {
      retracted.set(row.id, {
        at: row.at,
        by: typeof detail.by === "string" ? detail.by : null,
        why: typeof detail.why === "string" ? detail.why : null,
      });
    } else if (row.state === "muted") {
      const scopes = muted.get(row.id) ?? [];
      scopes.push(row.scope);
      muted.set(row.id, scopes);
    } else if (row.state === "pinned") {
      const words = Array.isArray(detail.words) ? detail.words.filter((w) => typeof w === "string") : [];
      pinned.set(row.id, { at: row.at, words });
    }
  }
  return { retracted, muted, pinned };
}

/** Sets a mark (replacing one of the same id, state and scope). The caller holds a write transaction. */
export function setMark(
  archive: Archive,
  id: string,
  state: MarkState,
  scope: string,
  at: string,
  detail: Record<string, unknown>,
): void {
  archive.st(
    "INSERT INTO marks(id, state, scope, at, detail) VALUES (?, ?, ?, ?, ?) ON CONFLICT(id, state, scope) DO UPDATE SET at = excluded.at, detail = excluded.detail",
  ).run(id, state, scope, at, JSON.stringify(detail));
}

/** Removes marks of `state` on `id` (of one scope, or every scope when null); how many went. */
export function clearMark(archive: Archive, id: string, state: MarkState, scope: string | null): number {
  const r = scope === null
    ? archive.st("DELETE FROM marks WHERE id = ? AND state = ?").run(id, state)
    : archive.st("DELETE FROM marks WHERE id = ? AND state = ? AND scope = ?").run(id, state, scope);
  return Number(r.changes);
}

/** Removes every mark on `id` (a forgotten record keeps none). */
export function clearMarks(archive: Archive, id: string): void {
  archive.st("DELETE FROM marks WHERE id = ?").run(id);
}

/** A record's states as words: "live", or each of retracted, muted, pinned that holds. */
export function describeMarks(marks: Marks, id: string): string[] {
  const out: string[] = [];
  const r = marks.retracted.get(id);
  if (r) {
    out.push(
      `retracted on ${r.at.slice(0, 10)}${r.by ? ` by ${r.by}` : ""}${r.why ? ` (${r.why})` : ""}`,
    );
  }
  const muted = marks.muted.get(id);
  if (muted) out.push(...muted.map((s) => (s === "" ? "muted" : `muted in ${s}`)));
  const pin = marks.pinned.get(id);
  if (pin) out.push(`pinned on ${pin.words.join(", ")}`);
  return out.length === 0 ? ["live"] : out;
}
