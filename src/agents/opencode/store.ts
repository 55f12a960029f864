/**
 * OpenCode's session store, `opencode.db` (SQLite, WAL mode), read through a lock-free snapshot
 * of the file and its log (src/fsutil/sqlite_snapshot.ts): nothing is ever written or locked, so
 * a running OpenCode keeps writing undisturbed.
 *
 * Incremental by rowid. Rows of `message` and `part` get rising rowids as they are inserted, so
 * the carry keeps the last rowid read from each (with that row's id, to notice a rowid reused
 * after deletions or a VACUUM, which forces a whole re-read) and a later read descends the
 * b-trees straight to the rows past it. Two things can change under an old rowid, and are kept
 * in the carry until they settle: a user message read before its parts were written, and a
 * memory-file write whose tool had not finished. Nothing at all is opened when neither the
 * database nor its log changed since the last read.
 *
 * Records: prompts (prompt.ts decides) and landed instruction-file writes; id from the message or
 * part id, which is also the record's position (`source_ref`: the database has no lines), time
 * from its row, project from the session's directory.
 */
import type { StoreInput, StoreRead } from "../agent.ts";
import { isObject } from "../json.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../../record/record.ts";
import {
  SqliteFormatError,
  SqliteSnapshot,
  type SqlRow,
  type TableInfo,
} from "../../fsutil/sqlite_snapshot.ts";
import { isRunModePermission, memoryWrite, partFacts, type SessionFacts, typedPromptText } from "./prompt.ts";

/** Bumped when the carry's meaning changes; an older carry means a whole re-read. */
const CARRY_VERSION = 1;

/**
 * A user message waits this long for its parts: OpenCode writes them a few milliseconds after
 * the message, so one still without parts an hour later never got any (and is let go).
 */
const WAITING_MS = 60 * 60 * 1000;

/** At most this many rows wait in the carry; the oldest go first (each costs a look-up per read). */
const MAX_WAITING = 256;

/** A snapshot a checkpoint overwrote while we read is retried this many times, then reported. */
const SNAPSHOT_ATTEMPTS = 3;

interface RowMark {
  readonly rowid: number;
  readonly id: string;
}

interface FileSig {
  readonly size: number;
  readonly mtimeMs: number;
}

export interface OpenCodeCarry {
  readonly v: number;
  readonly message: RowMark | null;
  readonly part: RowMark | null;
  /** User messages read before their parts existed, with their creation time. */
  readonly waitingMessages: readonly { readonly id: string; readonly time: number }[];
  /** Memory-file writes whose tool was still running. */
  readonly waitingParts: readonly RowMark[];
  /** The database and log as last read: unchanged ones need no read at all. */
  readonly db: FileSig | null;
  readonly wal: FileSig | null;
}

export function walPath(db: string): string {
  return `${db}-wal`;
}

function sig(path: string): FileSig | null {
  try {
    const info = Deno.lstatSync(path);
    return info.isFile ? { size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 } : null;
  } catch {
    return null;
  }
}

function sameSig(a: FileSig | null, b: FileSig | null): boolean {
  return a === b || (a !== null && b !== null && a.size === b.size && a.mtimeMs === b.mtimeMs);
}

/** A stored carry, checked (a state file may be old or hand-edited); null when unusable. */
function restoreCarry(carry: unknown): OpenCodeCarry | null {
  if (!isObject(carry) || carry.v !== CARRY_VERSION) return null;
  const mark = (v: unknown): RowMark | null =>
    isObject(v) && typeof v.rowid === "number" && typeof v.id === "string"
      ? { rowid: v.rowid, id: v.id }
      : null;
  const fileSig = (v: unknown): FileSig | null =>
    isObject(v) && typeof v.size === "number" && typeof v.mtimeMs === "number"
      ? { size: v.size, mtimeMs: v.mtimeMs }
      : null;
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  return {
    v: CARRY_VERSION,
    message: mark(carry.message),
    part: mark(carry.part),
    waitingMessages: list(carry.waitingMessages).flatMap((w) =>
      isObject(w) && typeof w.id === "string" && typeof w.time === "number"
        ? [{ id: w.id, time: w.time }]
        : []
    ),
    waitingParts: list(carry.waitingParts).flatMap((w) => {
      const m = mark(w);
      return m ? [m] : [];
    }),
    db: fileSig(carry.db),
    wal: fileSig(carry.wal),
  };
}

export async function readOpenCodeStore(input: StoreInput): Promise<StoreRead> {
  await Promise.resolve(); // keeps the reader's contract async; the snapshot reads synchronously
  const previous = restoreCarry(input.carry);
  const db = sig(input.file);
  const wal = sig(walPath(input.file));
  const changed = !(previous && sameSig(previous.db, db) && sameSig(previous.wal, wal));
  if (!changed && previous.waitingMessages.length === 0 && previous.waitingParts.length === 0) {
    return { records: [], whole: false, carry: previous, bytes: 0, changed, skipped: 0 };
  }
  for (let attempt = 1;; attempt++) {
    const snap = SqliteSnapshot.open(input.file, wal ? walPath(input.file) : null);
    try {
      const result = readSnapshot(snap, input, previous);
      if (snap.stillCurrent()) {
        return {
          ...result,
          carry: { ...result.carry, db, wal },
          bytes: snap.bytesRead,
          // A look at what waited, in a store as it was, that settled something did find a change.
          changed: changed || result.records.length > 0,
        };
      }
      if (attempt >= SNAPSHOT_ATTEMPTS) {
        throw new Error(
          "OpenCode kept checkpointing its database while it was read; the next collect tries again",
        );
      }
    } finally {
      snap.close();
    }
  }
}

interface Tables {
  readonly message: TableInfo;
  readonly part: TableInfo;
  readonly session: TableInfo;
}

function tablesOf(snap: SqliteSnapshot): Tables {
  const message = snap.table("message");
  const part = snap.table("part");
  const session = snap.table("session");
  if (!message || !part || !session) {
    throw new SqliteFormatError(
      "no message, part and session tables: not an OpenCode database of a known version",
    );
  }
  return { message, part, session };
}

/** Is the row at `mark` still the one the carry saw there? */
function markHolds(snap: SqliteSnapshot, table: TableInfo, mark: RowMark | null): boolean {
  if (mark === null) return true;
  return snap.get(table, mark.rowid)?.id === mark.id;
}

function readSnapshot(
  snap: SqliteSnapshot,
  input: StoreInput,
  previous: OpenCodeCarry | null,
): { records: VerdictRecord[]; whole: boolean; carry: OpenCodeCarry; skipped: number } {
  const t = tablesOf(snap);
  const partsOf = snap.indexOn("part", "message_id");
  const messageById = snap.indexOn("message", "id");
  const sessionById = snap.indexOn("session", "id");
  if (!partsOf || !messageById || !sessionById) {
    throw new SqliteFormatError("the indexes OpenCode keeps on part.message_id and the ids are missing");
  }
  const usable = previous !== null && markHolds(snap, t.message, previous.message) &&
    markHolds(snap, t.part, previous.part);
  const from = usable ? previous : null;
  const records: VerdictRecord[] = [];
  let skipped = 0;
  const sessions = new Map<string, SessionFacts | null>();
  const sessionFacts = (id: string): SessionFacts | null => {
    if (sessions.has(id)) return sessions.get(id)!;
    const rowid = snap.lookup(sessionById, id)[0];
    const row = rowid === undefined ? null : snap.get(t.session, rowid);
    const facts = row
      ? {
        id,
        directory: typeof row.directory === "string" ? row.directory : "",
        parentId: typeof row.parent_id === "string" && row.parent_id !== "" ? row.parent_id : null,
        headless: isRunModePermission(row.permission),
      }
      : null;
    sessions.set(id, facts);
    return facts;
  };
  const json = (row: SqlRow): unknown => {
    try {
      return typeof row.data === "string" ? JSON.parse(row.data) : null;
    } catch {
      skipped++;
      return null;
    }
  };

  const waitingMessages = new Map<string, number>();
  const settleUser = (row: SqlRow) => {
    const id = str(row.id);
    const sessionId = str(row.session_id);
    const created = typeof row.time_created === "number" ? row.time_created : null;
    if (id === null || sessionId === null || created === null) return void skipped++;
    const data = json(row);
    if (!isObject(data) || data.role !== "user") return;
    const session = sessionFacts(sessionId);
    if (session === null) return;
    const parts = snap.lookup(partsOf, id).map((rowid) => snap.get(t.part, rowid)).filter((p) => p !== null);
    if (parts.length === 0) {
      waitingMessages.set(id, created);
      return;
    }
    const text = typedPromptText(parts.map((p) => partFacts(json(p!))), session, input.includeHeadless);
    const time = toRfc3339(created);
    if (text === null) return;
    if (time === null) return void skipped++; // no usable time: skipped, counted
    records.push({
      id: recordId("prompt", `opencode:${id}`),
      kind: "prompt",
      origin: "opencode",
      text,
      time,
      project: session.directory,
      session: session.id,
      source_file: input.file,
      source_line: 0,
      source_ref: id,
      commit: null,
    });
  };

  const waitingParts = new Map<number, string>();
  const settlePart = (rowid: number, row: SqlRow) => {
    const id = str(row.id);
    const sessionId = str(row.session_id);
    if (id === null || sessionId === null) return void skipped++;
    const data = json(row);
    const write = memoryWrite(data);
    if (write === null || write.status === "failed") return;
    if (write.status === "waiting") {
      waitingParts.set(rowid, id);
      return;
    }
    const session = sessionFacts(sessionId);
    const started = isObject(data) && isObject(data.state) && isObject(data.state.time)
      ? data.state.time.start
      : undefined;
    const time = toRfc3339(typeof started === "number" ? started : row.time_created);
    if (session === null || session.parentId !== null) return;
    if (time === null) return void skipped++; // no usable time: skipped, counted
    records.push({
      id: recordId("note", `opencode:${id}`),
      kind: "note",
      origin: "opencode",
      text: write.text,
      time,
      project: session.directory,
      session: session.id,
      source_file: input.file,
      source_line: 0,
      source_ref: id,
      commit: null,
    });
  };

  let messageMark = from?.message ?? null;
  snap.scan(t.message, messageMark?.rowid ?? -Infinity, (rowid, row) => {
    messageMark = { rowid, id: str(row.id) ?? "" };
    settleUser(row);
  });
  let partMark = from?.part ?? null;
  snap.scan(t.part, partMark?.rowid ?? -Infinity, (rowid, row) => {
    partMark = { rowid, id: str(row.id) ?? "" };
    settlePart(rowid, row);
  });
  // What waited last time: look each one up again.
  const newest = messageMark === null ? 0 : timeOf(snap, t.message, messageMark);
  for (const w of from?.waitingMessages ?? []) {
    if (waitingMessages.has(w.id)) continue;
    const rowid = snap.lookup(messageById, w.id)[0];
    const row = rowid === undefined ? null : snap.get(t.message, rowid);
    if (row) settleUser(row);
    if (waitingMessages.has(w.id) && newest - w.time > WAITING_MS) waitingMessages.delete(w.id);
  }
  for (const w of from?.waitingParts ?? []) {
    if (waitingParts.has(w.rowid)) continue;
    const row = snap.get(t.part, w.rowid);
    if (row && row.id === w.id) settlePart(w.rowid, row);
  }
  return {
    records,
    whole: from === null,
    skipped,
    carry: {
      v: CARRY_VERSION,
      message: messageMark,
      part: partMark,
      waitingMessages: [...waitingMessages].slice(-MAX_WAITING).map(([id, time]) => ({ id, time })),
      waitingParts: [...waitingParts].slice(-MAX_WAITING).map(([rowid, id]) => ({ rowid, id })),
      db: null,
      wal: null,
    },
  };
}

function timeOf(snap: SqliteSnapshot, table: TableInfo, mark: RowMark): number {
  const t = snap.get(table, mark.rowid)?.time_created;
  return typeof t === "number" ? t : 0;
}

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}
