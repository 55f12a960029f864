/**
 * The record: one line of the records archive (JSON lines). Schema in docs/records.md.
 */
export type RecordKind = "prompt" | "note" | "doc" | "commit" | "tag";
/** "doc", "git", or the id of the agent whose session it came from (src/agents/registry.ts). */
export type RecordOrigin = string;

export interface VerdictRecord {
  /** Stable across re-collects: derived from the source identity, never from the run. */
  readonly id: string;
  readonly kind: RecordKind;
  readonly origin: RecordOrigin;
  readonly text: string;
  /** RFC 3339, UTC, e.g. "2026-03-01T09:30:00.000Z". */
  readonly time: string;
  /** Absolute working directory or repository path the record belongs to ("" when unknown). */
  readonly project: string;
  readonly session: string | null;
  /** Absolute path of the file the record came from (for git: the repository path). */
  readonly source_file: string;
  /** 1-based line in source_file (for git records and rows of a database: 0). */
  readonly source_line: number;
  /**
   * For a source that has rows, not lines (OpenCode's SQLite store): the id of the row the
   * record came from, which the agent's own tools name (a message id for a prompt, a part id
   * for a note). Absent for every other source.
   */
  readonly source_ref?: string;
  /** Commit hash for git records, else null. */
  readonly commit: string | null;
}

export const RECORD_KINDS: readonly RecordKind[] = ["prompt", "note", "doc", "commit", "tag"];
/** The origins of records that come from no agent: documents and git. */
export const SOURCE_ORIGINS: readonly RecordOrigin[] = ["doc", "git"];

/**
 * A stable id: a 64-bit FNV-1a hash (hex) of the record's source identity, prefixed by its kind
 * initial so ids of different kinds never collide and stay readable in logs.
 */
export function recordId(kind: RecordKind, identity: string): string {
  return `${kind[0]}${fnv1a64(identity)}`;
}

/** 64-bit FNV-1a over UTF-16 code units, as 16 hex digits (two 32-bit halves, no BigInt). */
export function fnv1a64(text: string): string {
  // Two independent 32-bit FNV-1a streams with different offsets give 64 bits cheaply.
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ (c & 0xff), 0x01000193);
    h1 = Math.imul(h1 ^ (c >>> 8), 0x01000193);
    h2 = Math.imul(h2 ^ (c >>> 8), 0x01000193);
    h2 = Math.imul(h2 ^ (c & 0xff), 0x01000193);
  }
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}

/**
 * Earliest and latest times a record may have (ms): years 0000 to 9999, the years RFC 3339
 * writes with four digits. Anything outside (a corrupt `1e20`) is no time at all.
 */
const MIN_TIME_MS = Date.parse("0000-01-01T00:00:00.000Z");
const MAX_TIME_MS = Date.parse("9999-12-31T23:59:59.999Z");

/** Normalises any parseable time to RFC 3339 UTC with milliseconds, or null (never throws). */
export function toRfc3339(value: unknown): string | null {
  let ms: number;
  if (typeof value === "number") ms = value;
  else if (typeof value === "string" && value !== "") ms = Date.parse(value);
  else return null;
  if (!Number.isFinite(ms) || ms < MIN_TIME_MS || ms > MAX_TIME_MS) return null;
  return new Date(ms).toISOString();
}

/**
 * Longest record text kept, in UTF-8 bytes. A typed decision, a note or a commit message is far
 * shorter; a megabyte is a pasted log or file, which would only swamp the index and the quote.
 * Longer records are skipped and counted, like damaged lines.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** Is the record's text longer than MAX_RECORD_BYTES? (UTF-8 is at most 3 bytes per UTF-16 unit.) */
export function overCap(r: VerdictRecord): boolean {
  if (r.text.length * 3 <= MAX_RECORD_BYTES) return false;
  return r.text.length > MAX_RECORD_BYTES || new TextEncoder().encode(r.text).length > MAX_RECORD_BYTES;
}

/**
 * Checks a parsed JSON value is a record; returns it, or null when it is not one of ours.
 * `origins` are the origins a record may have (the agents' ids and SOURCE_ORIGINS: the caller
 * asks the agent registry, RECORD_ORIGINS), so the record knows nothing of the agents.
 */
export function asRecord(value: unknown, origins: readonly RecordOrigin[]): VerdictRecord | null {
  if (typeof value !== "object" || value === null) return null;
  const r = value as Record<string, unknown>;
  if (
    typeof r.id !== "string" || typeof r.text !== "string" || typeof r.time !== "string" ||
    typeof r.project !== "string" || typeof r.source_file !== "string" ||
    typeof r.source_line !== "number" ||
    !RECORD_KINDS.includes(r.kind as RecordKind) || !origins.includes(r.origin as RecordOrigin) ||
    !(r.session === null || typeof r.session === "string") ||
    !(r.commit === null || typeof r.commit === "string") ||
    !(r.source_ref === undefined || typeof r.source_ref === "string")
  ) return null;
  return r as unknown as VerdictRecord;
}

/**
 * Serialises with a fixed key order so equal records give equal bytes (`source_ref` only when
 * the record has one, so records of line sources keep the bytes they always had).
 */
export function recordLine(r: VerdictRecord): string {
  return JSON.stringify({
    id: r.id,
    kind: r.kind,
    origin: r.origin,
    text: r.text,
    time: r.time,
    project: r.project,
    session: r.session,
    source_file: r.source_file,
    source_line: r.source_line,
    ...(r.source_ref !== undefined ? { source_ref: r.source_ref } : {}),
    commit: r.commit,
  });
}

/** The fields a record's position is told from (a record, or a recall hit carrying them). */
export type SourcePlace = Pick<
  VerdictRecord,
  "kind" | "source_file" | "source_line" | "commit" | "source_ref"
>;

/**
 * Where a record came from, the way a person finds it again, for every output that shows it
 * (the hint, recall, query, the MCP answer): "file:line" for a line of a file; a repository and
 * the commit's short hash for a commit or tag; "database#row-id" for a row of a store
 * (OpenCode's message or part id); the file alone when nothing finer is known.
 */
export function sourcePosition(r: SourcePlace): string {
  if ((r.kind === "commit" || r.kind === "tag") && r.commit) {
    return `${r.source_file} ${r.commit.slice(0, COMMIT_SHOWN_CHARS)}`;
  }
  if (r.source_ref !== undefined && r.source_ref !== "") return `${r.source_file}#${r.source_ref}`;
  return r.source_line > 0 ? `${r.source_file}:${r.source_line}` : r.source_file;
}

/** A commit's hash is shown this long: unique in any repository a person keeps (git's own default is 7+). */
const COMMIT_SHOWN_CHARS = 12;

/** The archive's order: oldest first, then by id, so any collect order gives the same file. */
export function compareRecords(a: VerdictRecord, b: VerdictRecord): number {
  if (a.time !== b.time) return a.time < b.time ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
