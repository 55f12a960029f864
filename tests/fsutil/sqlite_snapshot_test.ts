/**
 * The snapshot reader against SQLite itself: databases written by node:sqlite (WAL mode, the
 * writer still open so the newest rows live only in the log) must read back exactly as SQLite
 * reads them, for every value type, overflow chains, several page sizes, multi-level trees and
 * index look-ups; uncommitted frames must stay invisible.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { SqliteFormatError, SqliteSnapshot, type SqlRow } from "../../src/fsutil/sqlite_snapshot.ts";

const SCHEMA = `
CREATE TABLE \`message\` (\`id\` text PRIMARY KEY, \`session_id\` text NOT NULL, \`time_created\` integer NOT NULL,
  \`data\` text NOT NULL, \`score\` real, \`blob\` blob);
CREATE TABLE "counter" ("n" INTEGER PRIMARY KEY, "label" text);
CREATE INDEX \`message_session_idx\` ON \`message\` (\`session_id\`,\`id\`);
`;

/** Deterministic pseudo-random text (no clock, no Math.random). */
function text(seed: number, length: number): string {
  const words = ["pnpm", "never", "npm", "décidé", "日本語", "deploy", "rollback", "x", 'quote"d', "tab\t"];
  let out = "";
  let s = seed;
  while (out.length < length) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out += words[s % words.length] + " ";
  }
  return out.slice(0, length);
}

interface Fixture {
  readonly dir: string;
  readonly path: string;
  readonly db: DatabaseSync;
}

function makeDb(pageSize: number, rows: number): Fixture {
  const dir = Deno.makeTempDirSync({ prefix: "verdict-sqlite-" });
  const path = `${dir}/t.db`;
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA page_size=${pageSize}`);
  db.exec("PRAGMA journal_mode=WAL");
  db.exec("PRAGMA wal_autocheckpoint=0");
  db.exec(SCHEMA);
  const ins = db.prepare(
    "INSERT INTO message (id, session_id, time_created, data, score, blob) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const values = [
    0,
    1,
    -1,
    127,
    -128,
    32767,
    -40000,
    8388607,
    2 ** 31 - 1,
    -(2 ** 40),
    2 ** 47 + 5,
    2 ** 53 - 1,
  ];
  for (let i = 0; i < rows; i++) {
    const big = i % 17 === 0 ? 30_000 + i * 37 : 40 + (i % 50);
    ins.run(
      `msg_${String(i).padStart(6, "0")}`,
      `ses_${i % 7}`,
      values[i % values.length]!,
      text(i, big),
      i % 5 === 0 ? null : i / 3,
      i % 11 === 0 ? new Uint8Array([i % 256, 0, 255]) : null,
    );
  }
  for (let i = 1; i <= 20; i++) {
    db.prepare("INSERT INTO counter (n, label) VALUES (?, ?)").run(i * 3, `c${i}`);
  }
  return { dir, path, db };
}

function expectedRows(db: DatabaseSync): { rowid: number; row: SqlRow }[] {
  return db.prepare("SELECT rowid AS _rowid, * FROM message ORDER BY rowid").all().map((r) => {
    const { _rowid, ...rest } = r as Record<string, unknown>;
    return { rowid: Number(_rowid), row: normalise(rest) };
  });
}

function normalise(row: Record<string, unknown>): SqlRow {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = v instanceof Uint8Array ? [...v] : v;
  return out as SqlRow;
}

function scanned(snap: SqliteSnapshot, after: number): { rowid: number; row: SqlRow }[] {
  const out: { rowid: number; row: SqlRow }[] = [];
  snap.scan(snap.table("message")!, after, (rowid, row) => {
    out.push({ rowid, row: normalise(row) });
  });
  return out;
}

for (const pageSize of [512, 4096, 65536]) {
  Deno.test(`snapshot reads what SQLite reads, WAL included (page size ${pageSize})`, () => {
    const f = makeDb(pageSize, pageSize === 512 ? 1500 : 600);
    try {
      const wal = Deno.statSync(`${f.path}-wal`);
      assert.ok(wal.size > 0, "the rows must still be in the log for this test to mean anything");
      const snap = SqliteSnapshot.open(f.path, `${f.path}-wal`);
      try {
        const want = expectedRows(f.db);
        assert.deepEqual(scanned(snap, -Infinity), want);
        const mid = want[Math.floor(want.length / 2)]!.rowid;
        assert.deepEqual(scanned(snap, mid), want.filter((r) => r.rowid > mid));
        assert.deepEqual(scanned(snap, want[want.length - 1]!.rowid), []);
        for (const probe of [want[0]!, want[17]!, want[want.length - 1]!]) {
          assert.deepEqual(normalise(snap.get(snap.table("message")!, probe.rowid)!), probe.row);
        }
        assert.equal(snap.get(snap.table("message")!, 10_000_000), null);
        // An INTEGER PRIMARY KEY column reads as the rowid.
        const counters: unknown[] = [];
        snap.scan(snap.table("counter")!, -Infinity, (_r, row) => void counters.push(row));
        assert.deepEqual(
          counters,
          f.db.prepare("SELECT n, label FROM counter ORDER BY n").all().map((r) => ({ ...r })),
        );
        // Index look-ups: index order, autoindex on the text primary key too.
        const idx = snap.indexOn("message", "session_id")!;
        for (const s of ["ses_0", "ses_3", "ses_6", "ses_9", ""]) {
          const rows = f.db.prepare(
            "SELECT rowid AS r FROM message INDEXED BY message_session_idx WHERE session_id = ? ORDER BY session_id, id",
          ).all(s).map((r) => Number((r as { r: number }).r));
          assert.deepEqual(snap.lookup(idx, s), rows, s);
        }
        const pk = snap.indexOn("message", "id")!;
        assert.match(pk.name, /^sqlite_autoindex_message_1$/);
        assert.deepEqual(snap.lookup(pk, want[42]!.row.id!), [want[42]!.rowid]);
        assert.deepEqual(snap.lookup(pk, "msg_missing"), []);
        assert.equal(snap.stillCurrent(), true);
      } finally {
        snap.close();
      }
    } finally {
      f.db.close();
      Deno.removeSync(f.dir, { recursive: true });
    }
  });
}

Deno.test("snapshot ignores a transaction that has not committed, and reads a checkpointed file alone", () => {
  const f = makeDb(4096, 50);
  try {
    const before = expectedRows(f.db);
    f.db.exec("PRAGMA cache_size=10"); // force the open transaction's pages out into the log
    const committedLog = Deno.statSync(`${f.path}-wal`).size;
    f.db.exec("BEGIN");
    const ins = f.db.prepare("INSERT INTO message (id, session_id, time_created, data) VALUES (?, ?, ?, ?)");
    for (let i = 0; i < 400; i++) ins.run(`new_${i}`, "ses_x", i, text(i, 3000));
    const walSize = Deno.statSync(`${f.path}-wal`).size;
    assert.ok(walSize > committedLog, "uncommitted frames must be in the log for this test to mean anything");
    const snap = SqliteSnapshot.open(f.path, `${f.path}-wal`);
    try {
      assert.deepEqual(scanned(snap, -Infinity), before);
    } finally {
      snap.close();
    }
    assert.ok(Deno.statSync(`${f.path}-wal`).size >= walSize);
    f.db.exec("ROLLBACK");
    f.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    assert.equal(Deno.statSync(`${f.path}-wal`).size, 0);
    const alone = SqliteSnapshot.open(f.path, null);
    try {
      assert.deepEqual(scanned(alone, -Infinity), before);
    } finally {
      alone.close();
    }
  } finally {
    f.db.close();
    Deno.removeSync(f.dir, { recursive: true });
  }
});

Deno.test("a checkpoint after opening makes the snapshot say it is no longer current", () => {
  const f = makeDb(4096, 30);
  try {
    const snap = SqliteSnapshot.open(f.path, `${f.path}-wal`);
    try {
      assert.equal(snap.stillCurrent(), true);
      f.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      assert.equal(snap.stillCurrent(), false);
    } finally {
      snap.close();
    }
  } finally {
    f.db.close();
    Deno.removeSync(f.dir, { recursive: true });
  }
});

Deno.test("bytes that are not a database are refused with a format error", () => {
  const dir = Deno.makeTempDirSync({ prefix: "verdict-sqlite-" });
  try {
    Deno.writeTextFileSync(
      `${dir}/x.db`,
      "this is not a database at all, but it is long enough to have a header".repeat(3),
    );
    assert.throws(() => SqliteSnapshot.open(`${dir}/x.db`, null), SqliteFormatError);
    Deno.writeTextFileSync(`${dir}/empty.db`, "");
    assert.throws(() => SqliteSnapshot.open(`${dir}/empty.db`, null), SqliteFormatError);
    // A log that is not a WAL is ignored, not trusted.
    const f = makeDb(4096, 5);
    f.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    Deno.writeTextFileSync(`${dir}/junk-wal`, "junk".repeat(100));
    const snap = SqliteSnapshot.open(f.path, `${dir}/junk-wal`);
    assert.equal(scanned(snap, -Infinity).length, 5);
    snap.close();
    f.db.close();
    Deno.removeSync(f.dir, { recursive: true });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** A WAL header naming `pageSize` whose own checksum holds, then a frame carrying its salts. */
function walNaming(pageSize: number): Uint8Array {
  const b = new Uint8Array(32 + 24 + 4096).fill(0x5a);
  const dv = new DataView(b.buffer);
  for (const [off, v] of [[0, 0x377f0682], [4, 3007000], [8, pageSize], [12, 0], [16, 7], [20, 9]]) {
    dv.setUint32(off!, v!);
  }
  let s0 = 0;
  let s1 = 0;
  for (let i = 0; i < 24; i += 8) {
    s0 = (s0 + dv.getUint32(i, true) + s1) >>> 0;
    s1 = (s1 + dv.getUint32(i + 4, true) + s0) >>> 0;
  }
  for (const [off, v] of [[24, s0], [28, s1], [32, 1], [36, 1], [40, 7], [44, 9]]) dv.setUint32(off!, v!);
  return b;
}

Deno.test("a log whose header names a page size SQLite never writes is ignored, as SQLite ignores it", () => {
  const f = makeDb(4096, 12);
  try {
    f.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const want = expectedRows(f.db);
    for (const size of [1001, 1000, 7, 0, 256, 131072]) {
      const dir = Deno.makeTempDirSync({ prefix: "verdict-sqlite-" });
      try {
        Deno.copyFileSync(f.path, `${dir}/t.db`);
        Deno.writeFileSync(`${dir}/t.db-wal`, walNaming(size));
        const snap = SqliteSnapshot.open(`${dir}/t.db`, `${dir}/t.db-wal`);
        try {
          assert.deepEqual(scanned(snap, -Infinity), want, `page size ${size}`);
        } finally {
          snap.close();
        }
        // SQLite itself, on the same two files, reads the same rows.
        const sqlite = new DatabaseSync(`${dir}/t.db`);
        try {
          assert.deepEqual(expectedRows(sqlite), want, `SQLite, page size ${size}`);
        } finally {
          sqlite.close();
        }
      } finally {
        Deno.removeSync(dir, { recursive: true });
      }
    }
  } finally {
    f.db.close();
    Deno.removeSync(f.dir, { recursive: true });
  }
});
