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
  type IndexInfo,
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
  const read = new SnapshotRead(snap, input);
  const { t } = read;
  const usable = previous !== null && markHolds(snap, t.message, previous.message) &&
    markHolds(snap, t.part, previous.part);
  const from = usable ? previous : null;
  let messageMark = from?.message ?? null;
  snap.scan(t.message, messageMark?.rowid ?? -Infinity, (rowid, row) => {
    messageMark = { rowid, id: str(row.id) ?? "" };
    read.settleUser(row);
  });
  let partMark = from?.part ?? null;
  snap.scan(t.part, partMark?.rowid ?? -Infinity, (rowid, row) => {
    partMark = { rowid, id: str(row.id) ?? "" };
    read.settlePart(rowid, row);
  });
  const newest = messageMark === null ? 0 : timeOf(snap, t.message, messageMark);
  read.settleWaiting(from, newest);
  return {
    records: read.records,
    whole: from === null,
    skipped: read.skipped,
    carry: {
      v: CARRY_VERSION,
      message: messageMark,
      part: partMark,
      waitingMessages: [...read.waitingMessages].slice(-MAX_WAITING).map(([id, time]) => ({ id, time })),
      waitingParts: [...read.waitingParts].slice(-MAX_WAITING).map(([rowid, id]) => ({ rowid, id })),
      db: null,
      wal: null,
    },
  };
}

/**
 * One read of a snapshot: the records it settles, what it skipped, and the user messages and
 * memory writes still waiting (a message whose parts, or a write whose result, is not written
 * yet) for the next collect.
 */
class SnapshotRead {
  readonly t: Tables;
  readonly records: VerdictRecord[] = [];
  skipped = 0;
  /** User messages with no part yet, by id: when each was created. */
  readonly waitingMessages = new Map<string, number>();
  /** Memory writes with no result yet, by rowid: the part's id. */
  readonly waitingParts = new Map<number, string>();
  readonly #snap: SqliteSnapshot;
  readonly #input: StoreInput;
  readonly #partsOf: IndexInfo;
  readonly #messageById: IndexInfo;
  readonly #sessionById: IndexInfo;
  readonly #sessions = new Map<string, SessionFacts | null>();

  constructor(snap: SqliteSnapshot, input: StoreInput) {
    this.#snap = snap;
    this.#input = input;
    this.t = tablesOf(snap);
    const partsOf = snap.indexOn("part", "message_id");
    const messageById = snap.indexOn("message", "id");
    const sessionById = snap.indexOn("session", "id");
    if (!partsOf || !messageById || !sessionById) {
      throw new SqliteFormatError("the indexes OpenCode keeps on part.message_id and the ids are missing");
    }
    this.#partsOf = partsOf;
    this.#messageById = messageById;
    this.#sessionById = sessionById;
  }

  #sessionFacts(id: string): SessionFacts | null {
    if (this.#sessions.has(id)) return this.#sessions.get(id)!;
    const rowid = this.#snap.lookup(this.#sessionById, id)[0];
    const row = rowid === undefined ? null : this.#snap.get(this.t.session, rowid);
    const facts = row
      ? {
        id,
        directory: typeof row.directory === "string" ? row.directory : "",
        parentId: typeof row.parent_id === "string" && row.parent_id !== "" ? row.parent_id : null,
        headless: isRunModePermission(row.permission),
      }
      : null;
    this.#sessions.set(id, facts);
    return facts;
  }

  #json(row: SqlRow): unknown {
    try {
      return typeof row.data === "string" ? JSON.parse(row.data) : null;
    } catch {
      this.skipped++;
      return null;
    }
  }

  /** A message row: a typed prompt once its parts are written, else it waits. */
  settleUser(row: SqlRow): void {
    const id = str(row.id);
    const sessionId = str(row.session_id);
    const created = typeof row.time_created === "number" ? row.time_created : null;
    if (id === null || sessionId === null || created === null) return void this.skipped++;
    const data = this.#json(row);
    if (!isObject(data) || data.role !== "user") return;
    const session = this.#sessionFacts(sessionId);
    if (session === null) return;
    const parts = this.#snap.lookup(this.#partsOf, id).map((rowid) => this.#snap.get(this.t.part, rowid))
      .filter((p) => p !== null);
    if (parts.length === 0) {
      this.waitingMessages.set(id, created);
      return;
    }
    const text = typedPromptText(
      parts.map((p) => partFacts(this.#json(p!))),
      session,
      this.#input.includeHeadless,
    );
    const time = toRfc3339(created);
    if (text === null) return;
    if (time === null) return void this.skipped++; // no usable time: skipped, counted
    this.records.push({
      id: recordId("prompt", `opencode:${id}`),
      kind: "prompt",
      origin: "opencode",
      text,
      time,
      project: session.directory,
      session: session.id,
      source_file: this.#input.file,
      source_line: 0,
      source_ref: id,
      commit: null,
    });
  }

  /** A part row: a memory-file write once it has landed, else it waits (a failed one is dropped). */
  settlePart(rowid: number, row: SqlRow): void {
    const id = str(row.id);
    const sessionId = str(row.session_id);
    if (id === null || sessionId === null) return void this.skipped++;
    const data = this.#json(row);
    const write = memoryWrite(data);
    if (write === null || write.status === "failed") return;
    if (write.status === "waiting") {
      this.waitingParts.set(rowid, id);
      return;
    }
    const session = this.#sessionFacts(sessionId);
    const started = isObject(data) && isObject(data.state) && isObject(data.state.time)
      ? data.state.time.start
      : undefined;
    const time = toRfc3339(typeof started === "number" ? started : row.time_created);
    if (session === null || session.parentId !== null) return;
    if (time === null) return void this.skipped++; // no usable time: skipped, counted
    this.records.push({
      id: recordId("note", `opencode:${id}`),
      kind: "note",
      origin: "opencode",
      text: write.text,
      time,
      project: session.directory,
      session: session.id,
      source_file: this.#input.file,
      source_line: 0,
      source_ref: id,
      commit: null,
    });
  }

  /**
   * What waited last time: each looked up again. A message still without parts is given up once
   * the newest message is WAITING_MS past it.
   */
  settleWaiting(from: OpenCodeCarry | null, newest: number): void {
    for (const w of from?.waitingMessages ?? []) {
      if (this.waitingMessages.has(w.id)) continue;
      const rowid = this.#snap.lookup(this.#messageById, w.id)[0];
      const row = rowid === undefined ? null : this.#snap.get(this.t.message, rowid);
      if (row) this.settleUser(row);
      if (this.waitingMessages.has(w.id) && newest - w.time > WAITING_MS) this.waitingMessages.delete(w.id);
    }
    for (const w of from?.waitingParts ?? []) {
      if (this.waitingParts.has(w.rowid)) continue;
      const row = this.#snap.get(this.t.part, w.rowid);
      if (row && row.id === w.id) this.settlePart(w.rowid, row);
    }
  }
}

function timeOf(snap: SqliteSnapshot, table: TableInfo, mark: RowMark): number {
  const t = snap.get(table, mark.rowid)?.time_created;
  return typeof t === "number" ? t : 0;
}

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}
