/**
 * A read-only view of a SQLite database file and its write-ahead log, decoded from the bytes.
 *
 * Why not node:sqlite: a read-only connection still takes part in the database's locking. It
 * writes its read mark into the `-shm` file (seen: one byte of the read-mark slots changes on
 * every first read after a commit), creates a `-shm` beside a WAL left by a crashed writer, and
 * runs WAL recovery into it. SQLite's `readonly_shm`/`immutable` URI parameters would prevent
 * that, but Deno resolves a `node:sqlite` location as a path in a permission-narrowed Worker, so
 * a URI cannot be passed there. Reading the pages ourselves writes nothing and locks nothing.
 *
 * What it reads (the SQLite file format, sqlite.org/fileformat2.html):
 * - the WAL: its header, then frames up to the last commit frame whose salts and cumulative
 *   checksums are valid (what SQLite's own recovery keeps); the newest copy of each page is
 *   held in memory, so a writer that restarts the log while we read cannot change our view;
 * - the database file for every other page;
 * - table b-trees (scan from a rowid, look up one rowid), index b-trees (entries whose first
 *   column equals a value), records (every serial type), overflow chains, UTF-8/16 text.
 *
 * Consistency without locks: the writer changes the database file only when it checkpoints.
 * `stillCurrent()` says whether the file is as it was when the snapshot was opened; a caller
 * that gets false drops what it read and opens a new snapshot.
 */

/** A column value as SQLite stores it. */
export type SqlValue = null | number | bigint | string | Uint8Array;

/** A decoded row: column name → value (columns a short record lacks are null). */
export type SqlRow = Readonly<Record<string, SqlValue>>;

/** Why the bytes are not a database this reader can read (the caller reports it). */
export class SqliteFormatError extends Error {}

const DB_HEADER = "SQLite format 3\0";
const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;

/** Pages kept decoded from the database file; a collect touches few, a full read many once. */
const PAGE_CACHE_PAGES = 4096;

/** B-tree descent deeper than this means a cycle in a damaged file, not a real tree. */
const MAX_TREE_DEPTH = 64;

const PAGE_INDEX_INTERIOR = 2;
const PAGE_TABLE_INTERIOR = 5;
const PAGE_INDEX_LEAF = 10;
const PAGE_TABLE_LEAF = 13;

export interface TableInfo {
  readonly name: string;
  readonly root: number;
  readonly columns: readonly string[];
  /** Index of the INTEGER PRIMARY KEY column (stored as the rowid), or -1. */
  readonly rowidColumn: number;
}

export interface IndexInfo {
  readonly name: string;
  readonly table: string;
  readonly root: number;
  /** Indexed columns in key order (for a PRIMARY KEY/UNIQUE autoindex: from the table). */
  readonly columns: readonly string[];
}

interface FileMark {
  readonly size: number;
  readonly mtimeMs: number;
}

function fileMark(info: Deno.FileInfo): FileMark {
  return { size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
}

export class SqliteSnapshot {
  readonly path: string;
  readonly pageSize: number;
  readonly usableSize: number;
  readonly tables: ReadonlyMap<string, TableInfo>;
  readonly indexes: readonly IndexInfo[];
  /** Bytes read from the files so far (for progress). */
  bytesRead: number;
  private readonly file: Deno.FsFile;
  private readonly walPages: ReadonlyMap<number, Uint8Array>;
  private readonly mark: FileMark;
  private readonly cache = new Map<number, Uint8Array>();
  private readonly textDecoder: TextDecoder;

  private constructor(
    path: string,
    file: Deno.FsFile,
    pageSize: number,
    reserved: number,
    walPages: Map<number, Uint8Array>,
    mark: FileMark,
    encoding: number,
    bytesRead: number,
  ) {
    this.path = path;
    this.file = file;
    this.pageSize = pageSize;
    this.usableSize = pageSize - reserved;
    this.walPages = walPages;
    this.mark = mark;
    this.bytesRead = bytesRead;
    this.textDecoder = new TextDecoder(encoding === 2 ? "utf-16le" : encoding === 3 ? "utf-16be" : "utf-8");
    this.tables = new Map();
    this.indexes = [];
  }

  /**
   * Opens `path` and, when `walPath` names an existing regular file, its log. Throws
   * SqliteFormatError for bytes that are not a SQLite database, and the file system's errors.
   */
  static open(path: string, walPath: string | null): SqliteSnapshot {
    const file = Deno.openSync(path, { read: true });
    try {
      const mark = fileMark(file.statSync());
      let bytes = 0;
      const head = new Uint8Array(100);
      const got = mark.size >= 100 ? readAt(file, head, 0) : 0;
      bytes += got;
      const wal = walPath ? readWal(walPath) : null;
      bytes += wal?.bytes ?? 0;
      let pageSize: number;
      let reserved = 0;
      let encoding = 1;
      if (got === 100) {
        if (new TextDecoder().decode(head.subarray(0, 16)) !== DB_HEADER) {
          throw new SqliteFormatError("not a SQLite database (no SQLite header)");
        }
        const raw = (head[16]! << 8) | head[17]!;
        pageSize = raw === 1 ? 65536 : raw;
        reserved = head[20]!;
        encoding = readU32(head, 56) || 1;
      } else if (wal && wal.pageSize > 0) {
        // A new database whose first pages are still only in the log.
        pageSize = wal.pageSize;
      } else {
        throw new SqliteFormatError(mark.size === 0 ? "the database is empty" : "the database is truncated");
      }
      if (!isPageSize(pageSize)) {
        throw new SqliteFormatError(`page size ${pageSize} is not a SQLite page size`);
      }
      const walPages = wal && wal.pageSize === pageSize ? wal.pages : new Map<number, Uint8Array>();
      if (walPages.has(1)) {
        const p1 = walPages.get(1)!;
        reserved = p1[20]!;
        encoding = readU32(p1, 56) || 1;
      }
      const snap = new SqliteSnapshot(path, file, pageSize, reserved, walPages, mark, encoding, bytes);
      snap.loadSchema();
      return snap;
    } catch (err) {
      file.close();
      throw err;
    }
  }

  close(): void {
    this.file.close();
  }

  /** Is the database file as it was when opened (no checkpoint wrote it since)? */
  stillCurrent(): boolean {
    try {
      const now = fileMark(Deno.statSync(this.path));
      return now.size === this.mark.size && now.mtimeMs === this.mark.mtimeMs;
    } catch {
      return false;
    }
  }

  table(name: string): TableInfo | null {
    return this.tables.get(name) ?? null;
  }

  /** The index of `table` whose first key column is `column`, or null. */
  indexOn(table: string, column: string): IndexInfo | null {
    return this.indexes.find((i) => i.table === table && i.columns[0] === column) ?? null;
  }

  /**
   * Calls `visit` for each row of `table` with a rowid above `afterRowid`, in rowid order,
   * until it returns false. Subtrees holding only smaller rowids are never read.
   */
  scan(table: TableInfo, afterRowid: number, visit: (rowid: number, row: SqlRow) => boolean | void): void {
    const walk = (pgno: number, depth: number): boolean => {
      if (depth > MAX_TREE_DEPTH) throw new SqliteFormatError("b-tree too deep (damaged file?)");
      const page = this.btreePage(pgno);
      if (page.type === PAGE_TABLE_LEAF) {
        for (const off of page.cells) {
          const cell = this.tableLeafCell(page.data, off);
          if (cell.rowid <= afterRowid) continue;
          if (visit(cell.rowid, this.row(table, cell.rowid, cell.payload)) === false) return false;
        }
        return true;
      }
      if (page.type !== PAGE_TABLE_INTERIOR) throw new SqliteFormatError(`page ${pgno} is not a table page`);
      for (const off of page.cells) {
        const child = readU32(page.data, off);
        const [key] = readVarint(page.data, off + 4);
        // The left child holds rowids up to `key`: skip it when all of them are old.
        if (key > afterRowid && !walk(child, depth + 1)) return false;
      }
      return walk(page.right, depth + 1);
    };
    walk(table.root, 0);
  }

  /** The row of `table` with this rowid, or null. */
  get(table: TableInfo, rowid: number): SqlRow | null {
    let pgno = table.root;
    for (let depth = 0; depth <= MAX_TREE_DEPTH; depth++) {
      const page = this.btreePage(pgno);
      if (page.type === PAGE_TABLE_LEAF) {
        for (const off of page.cells) {
          const cell = this.tableLeafCell(page.data, off);
          if (cell.rowid === rowid) return this.row(table, rowid, cell.payload);
        }
        return null;
      }
      if (page.type !== PAGE_TABLE_INTERIOR) throw new SqliteFormatError(`page ${pgno} is not a table page`);
      let next = page.right;
      for (const off of page.cells) {
        const [key] = readVarint(page.data, off + 4);
        if (rowid <= key) {
          next = readU32(page.data, off);
          break;
        }
      }
      pgno = next;
    }
    throw new SqliteFormatError("b-tree too deep (damaged file?)");
  }

  /** The rowids of index entries whose first column equals `value`, in index order. */
  lookup(index: IndexInfo, value: SqlValue): number[] {
    const out: number[] = [];
    const take = (key: SqlValue[]) => {
      const rowid = key[key.length - 1];
      if (typeof rowid === "number") out.push(rowid);
      else if (typeof rowid === "bigint") out.push(Number(rowid));
    };
    const walk = (pgno: number, depth: number): void => {
      if (depth > MAX_TREE_DEPTH) throw new SqliteFormatError("b-tree too deep (damaged file?)");
      const page = this.btreePage(pgno);
      if (page.type === PAGE_INDEX_LEAF) {
        for (const off of page.cells) {
          const key = decodeRecord(this.indexPayload(page.data, off), this.textDecoder);
          const c = compareValues(key[0] ?? null, value);
          if (c === 0) take(key);
          else if (c > 0) return;
        }
        return;
      }
      if (page.type !== PAGE_INDEX_INTERIOR) throw new SqliteFormatError(`page ${pgno} is not an index page`);
      for (const off of page.cells) {
        const key = decodeRecord(this.indexPayload(page.data, off + 4), this.textDecoder);
        const c = compareValues(key[0] ?? null, value);
        // Entries in the left child sort at or before this cell's key.
        if (c >= 0) walk(readU32(page.data, off), depth + 1);
        if (c === 0) take(key);
        if (c > 0) return;
      }
      walk(page.right, depth + 1);
    };
    walk(index.root, 0);
    return out;
  }

  private loadSchema(): void {
    const schema: TableInfo = {
      name: "sqlite_schema",
      root: 1,
      columns: ["type", "name", "tbl_name", "rootpage", "sql"],
      rowidColumn: -1,
    };
    const tables = this.tables as Map<string, TableInfo>;
    const pending: { name: string; table: string; root: number; sql: string | null }[] = [];
    const tableSql = new Map<string, string>();
    this.scan(schema, -Infinity, (_rowid, row) => {
      const root = typeof row.rootpage === "number" ? row.rootpage : 0;
      const name = typeof row.name === "string" ? row.name : "";
      const table = typeof row.tbl_name === "string" ? row.tbl_name : "";
      const sql = typeof row.sql === "string" ? row.sql : null;
      if (root <= 0 || name === "") return;
      if (row.type === "table" && sql !== null && !/\)\s*WITHOUT\s+ROWID\s*;?\s*$/i.test(sql)) {
        const def = parseTableColumns(sql);
        tables.set(name, { name, root, columns: def.columns, rowidColumn: def.rowidColumn });
        tableSql.set(name, sql);
      } else if (row.type === "index") pending.push({ name, table, root, sql });
    });
    const indexes = this.indexes as IndexInfo[];
    for (const p of pending) {
      let columns: string[] = [];
      if (p.sql !== null) columns = parseIndexColumns(p.sql);
      else {
        // sqlite_autoindex_<table>_N: the Nth PRIMARY KEY/UNIQUE constraint of the table.
        const n = Number(/_(\d+)$/.exec(p.name)?.[1] ?? "0");
        const keys = uniqueKeysOf(tableSql.get(p.table) ?? "");
        columns = n > 0 ? keys[n - 1] ?? [] : [];
      }
      if (columns.length > 0) indexes.push({ name: p.name, table: p.table, root: p.root, columns });
    }
  }

  private row(table: TableInfo, rowid: number, payload: Uint8Array): SqlRow {
    const values = decodeRecord(payload, this.textDecoder);
    const row: Record<string, SqlValue> = {};
    table.columns.forEach((col, i) => {
      row[col] = i === table.rowidColumn ? rowid : values[i] ?? null;
    });
    return row;
  }

  private page(pgno: number): Uint8Array {
    const fromWal = this.walPages.get(pgno);
    if (fromWal) return fromWal;
    const cached = this.cache.get(pgno);
    if (cached) return cached;
    const buf = new Uint8Array(this.pageSize);
    const got = readAt(this.file, buf, (pgno - 1) * this.pageSize);
    this.bytesRead += got;
    if (got !== this.pageSize) throw new SqliteFormatError(`page ${pgno} is past the end of the file`);
    if (this.cache.size >= PAGE_CACHE_PAGES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(pgno, buf);
    return buf;
  }

  private btreePage(pgno: number): { type: number; data: Uint8Array; cells: number[]; right: number } {
    if (pgno < 1) throw new SqliteFormatError(`page number ${pgno} is not valid`);
    const data = this.page(pgno);
    const base = pgno === 1 ? 100 : 0;
    const type = data[base]!;
    const count = (data[base + 3]! << 8) | data[base + 4]!;
    const interior = type === PAGE_INDEX_INTERIOR || type === PAGE_TABLE_INTERIOR;
    const headerSize = interior ? 12 : 8;
    const cells: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = base + headerSize + 2 * i;
      cells.push((data[at]! << 8) | data[at + 1]!);
    }
    return { type, data, cells, right: interior ? readU32(data, base + 8) : 0 };
  }

  private tableLeafCell(page: Uint8Array, off: number): { rowid: number; payload: Uint8Array } {
    const [size, n1] = readVarint(page, off);
    const [rowid, n2] = readVarint(page, off + n1);
    const start = off + n1 + n2;
    const maxLocal = this.usableSize - 35;
    return { rowid, payload: this.payload(page, start, size, maxLocal) };
  }

  private indexPayload(page: Uint8Array, off: number): Uint8Array {
    const [size, n] = readVarint(page, off);
    const maxLocal = Math.floor(((this.usableSize - 12) * 64) / 255) - 23;
    return this.payload(page, off + n, size, maxLocal);
  }

  /** A cell's whole payload: the part on the page, then its overflow chain. */
  private payload(page: Uint8Array, start: number, size: number, maxLocal: number): Uint8Array {
    if (size <= maxLocal) return page.subarray(start, start + size);
    const u = this.usableSize;
    const minLocal = Math.floor(((u - 12) * 32) / 255) - 23;
    const k = minLocal + ((size - minLocal) % (u - 4));
    const local = k <= maxLocal ? k : minLocal;
    const out = new Uint8Array(size);
    out.set(page.subarray(start, start + local), 0);
    let filled = local;
    let next = readU32(page, start + local);
    let hops = 0;
    while (filled < size) {
      if (next === 0 || ++hops > 1 << 20) throw new SqliteFormatError("overflow chain ends early");
      const ov = this.page(next);
      const take = Math.min(u - 4, size - filled);
      out.set(ov.subarray(4, 4 + take), filled);
      filled += take;
      next = readU32(ov, 0);
    }
    return out;
  }
}

/** Reads as many bytes as fit in `buf` from `offset`; returns how many came. */
function readAt(file: Deno.FsFile, buf: Uint8Array, offset: number): number {
  file.seekSync(offset, Deno.SeekMode.Start);
  let got = 0;
  while (got < buf.length) {
    const n = file.readSync(buf.subarray(got));
    if (n === null || n === 0) break;
    got += n;
  }
  return got;
}

interface WalRead {
  readonly pageSize: number;
  readonly pages: Map<number, Uint8Array>;
  readonly bytes: number;
}

/**
 * The committed pages of a WAL file: frames are taken in order while their salts match the
 * header's and their cumulative checksum holds; only frames up to the last commit frame count.
 * A missing, empty or foreign log yields no pages.
 */
function readWal(walPath: string): WalRead | null {
  let bytes: Uint8Array;
  try {
    const info = Deno.lstatSync(walPath);
    if (!info.isFile) return null;
    bytes = Deno.readFileSync(walPath);
  } catch {
    return null;
  }
  if (bytes.length < WAL_HEADER_BYTES) return { pageSize: 0, pages: new Map(), bytes: bytes.length };
  const magic = readU32(bytes, 0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return null;
  const bigEndian = magic === WAL_MAGIC_BE;
  const pageSize = readU32(bytes, 8);
  const salt1 = readU32(bytes, 16);
  const salt2 = readU32(bytes, 20);
  let sum = walChecksum(bytes, 0, 24, [0, 0], bigEndian);
  // A header SQLite's recovery would not accept (its checksum, or a page size SQLite never
  // writes) means the log holds nothing committed: SQLite then reads the database alone.
  if (sum[0] !== readU32(bytes, 24) || sum[1] !== readU32(bytes, 28) || !isPageSize(pageSize)) {
    return { pageSize: 0, pages: new Map(), bytes: bytes.length };
  }
  const committed = new Map<number, Uint8Array>();
  const pendingTx = new Map<number, Uint8Array>();
  const frameSize = WAL_FRAME_HEADER_BYTES + pageSize;
  for (let off = WAL_HEADER_BYTES; off + frameSize <= bytes.length; off += frameSize) {
    if (readU32(bytes, off + 8) !== salt1 || readU32(bytes, off + 12) !== salt2) break;
    sum = walChecksum(bytes, off, 8, sum, bigEndian);
    sum = walChecksum(bytes, off + WAL_FRAME_HEADER_BYTES, pageSize, sum, bigEndian);
    if (sum[0] !== readU32(bytes, off + 16) || sum[1] !== readU32(bytes, off + 20)) break;
    const pgno = readU32(bytes, off);
    pendingTx.set(pgno, bytes.subarray(off + WAL_FRAME_HEADER_BYTES, off + frameSize));
    if (readU32(bytes, off + 4) !== 0) {
      // A commit frame: the transaction's pages become visible.
      for (const [p, data] of pendingTx) committed.set(p, data);
      pendingTx.clear();
    }
  }
  return { pageSize, pages: committed, bytes: bytes.length };
}

/** A page size SQLite writes: a power of two from 512 to 65536. */
function isPageSize(n: number): boolean {
  return n >= 512 && n <= 65536 && (n & (n - 1)) === 0;
}

/** SQLite's WAL checksum over `len` bytes (a multiple of 8) from `off`, continuing `prev`. */
function walChecksum(
  b: Uint8Array,
  off: number,
  len: number,
  prev: readonly [number, number] | number[],
  bigEndian: boolean,
): [number, number] {
  let s0 = prev[0]!;
  let s1 = prev[1]!;
  const dv = new DataView(b.buffer, b.byteOffset + off, len);
  for (let i = 0; i < len; i += 8) {
    s0 = (s0 + dv.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + dv.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

function readU32(b: Uint8Array, off: number): number {
  return ((b[off]! << 24) >>> 0) + (b[off + 1]! << 16) + (b[off + 2]! << 8) + b[off + 3]!;
}

/** A SQLite varint at `off`: [value, bytes used]. Values past 2^53 lose precision. */
export function readVarint(b: Uint8Array, off: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = b[off + i];
    if (byte === undefined) throw new SqliteFormatError("varint past the end of a page");
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [v, i + 1];
  }
  const last = b[off + 8];
  if (last === undefined) throw new SqliteFormatError("varint past the end of a page");
  return [v * 256 + last, 9];
}

/** The values of a record (header of serial types, then the body). */
export function decodeRecord(p: Uint8Array, text: TextDecoder): SqlValue[] {
  const [headerSize, n0] = readVarint(p, 0);
  const types: number[] = [];
  for (let at = n0; at < headerSize;) {
    const [t, n] = readVarint(p, at);
    types.push(t);
    at += n;
  }
  const dv = new DataView(p.buffer, p.byteOffset, p.byteLength);
  const out: SqlValue[] = [];
  let at = headerSize;
  for (const t of types) {
    switch (t) {
      case 0:
        out.push(null);
        break;
      case 1:
        out.push(dv.getInt8(at));
        at += 1;
        break;
      case 2:
        out.push(dv.getInt16(at));
        at += 2;
        break;
      case 3:
        out.push((dv.getInt8(at) << 16) | (p[at + 1]! << 8) | p[at + 2]!);
        at += 3;
        break;
      case 4:
        out.push(dv.getInt32(at));
        at += 4;
        break;
      case 5:
        out.push(dv.getInt16(at) * 2 ** 32 + dv.getUint32(at + 2));
        at += 6;
        break;
      case 6: {
        const big = dv.getBigInt64(at);
        const asNumber = Number(big);
        out.push(Number.isSafeInteger(asNumber) ? asNumber : big);
        at += 8;
        break;
      }
      case 7:
        out.push(dv.getFloat64(at));
        at += 8;
        break;
      case 8:
        out.push(0);
        break;
      case 9:
        out.push(1);
        break;
      default: {
        if (t < 12) throw new SqliteFormatError(`reserved serial type ${t}`);
        const len = (t - (t % 2 === 0 ? 12 : 13)) / 2;
        const bytes = p.subarray(at, at + len);
        out.push(t % 2 === 0 ? bytes.slice() : text.decode(bytes));
        at += len;
      }
    }
  }
  return out;
}

/** SQLite's order of values with BINARY collation: NULL < numbers < text < blob. */
export function compareValues(a: SqlValue, b: SqlValue): number {
  const rank = (v: SqlValue) =>
    v === null ? 0 : typeof v === "number" || typeof v === "bigint" ? 1 : typeof v === "string" ? 2 : 3;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 1) return a! < b! ? -1 : a! > b! ? 1 : 0;
  const ba = typeof a === "string" ? new TextEncoder().encode(a) : a as Uint8Array;
  const bb = typeof b === "string" ? new TextEncoder().encode(b) : b as Uint8Array;
  const n = Math.min(ba.length, bb.length);
  for (let i = 0; i < n; i++) if (ba[i] !== bb[i]) return ba[i]! - bb[i]!;
  return ba.length - bb.length;
}

/** The parenthesised body of a CREATE statement, split at top-level commas. */
function definitions(sql: string): string[] {
  const open = sql.indexOf("(");
  if (open === -1) return [];
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let cur = "";
  for (let i = open + 1; i < sql.length; i++) {
    const ch = sql[i]!;
    if (quote) {
      cur += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === "`") quote = ch;
    else if (ch === "[") quote = "]";
    if (ch === "(") depth++;
    if (ch === ")") {
      if (depth === 0) {
        parts.push(cur.trim());
        return parts;
      }
      depth--;
    }
    if (ch === "," && depth === 0) {
      parts.push(cur.trim());
      cur = "";
      continue;
    }
    cur += ch;
  }
  return parts;
}

/** The first identifier of a definition, unquoted. */
function firstName(def: string): string {
  const m = /^\s*(?:`([^`]*)`|"([^"]*)"|\[([^\]]*)\]|([^\s(,]+))/.exec(def);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? "") : "";
}

const TABLE_CONSTRAINT = /^\s*(CONSTRAINT|PRIMARY|UNIQUE|CHECK|FOREIGN)\b/i;

function parseTableColumns(sql: string): { columns: string[]; rowidColumn: number } {
  const columns: string[] = [];
  let rowidColumn = -1;
  for (const def of definitions(sql)) {
    if (TABLE_CONSTRAINT.test(def)) continue;
    if (/^\S+\s+INTEGER\s+PRIMARY\s+KEY\b/i.test(def.replace(/^(`[^`]*`|"[^"]*"|\[[^\]]*\])/, "x"))) {
      rowidColumn = columns.length;
    }
    columns.push(firstName(def));
  }
  return { columns, rowidColumn };
}

function parseIndexColumns(sql: string): string[] {
  return definitions(sql).map(firstName).filter((c) => c !== "");
}

/** The key columns of each PRIMARY KEY or UNIQUE constraint, in the order SQLite numbers them. */
function uniqueKeysOf(sql: string): string[][] {
  const keys: string[][] = [];
  for (const def of definitions(sql)) {
    if (TABLE_CONSTRAINT.test(def)) {
      const m = /\b(PRIMARY\s+KEY|UNIQUE)\s*\(([^)]*)\)/i.exec(def);
      if (m) keys.push(m[2]!.split(",").map((c) => firstName(c.trim())));
      continue;
    }
    const body = def.replace(/^(`[^`]*`|"[^"]*"|\[[^\]]*\]|\S+)/, "");
    if (/\bPRIMARY\s+KEY\b/i.test(body) && !/^\s*INTEGER\s+PRIMARY\s+KEY\b/i.test(body)) {
      keys.push([firstName(def)]);
    } else if (/\bUNIQUE\b/i.test(body)) keys.push([firstName(def)]);
  }
  return keys;
}
