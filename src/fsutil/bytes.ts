/** Byte helpers shared by the readers: joining chunks, reading a stream to its end with a cap. */

/** One array holding `parts` back to back. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Anything with Deno's `write` (a file, a connection, stdout). */
export interface ByteWriter {
  write(buffer: Uint8Array): Promise<number>;
}

/** Writes all of `bytes`: one `write` may take only part of them. */
export async function writeAll(writer: ByteWriter, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await writer.write(bytes.subarray(off));
}

/** Anything with Deno's `writeSync` (a file, stdout). */
export interface SyncByteWriter {
  writeSync(buffer: Uint8Array): number;
}

/** writeAll with blocking writes (the warm client's print: see printAnswer in src/warm/client.ts). */
export function writeAllSync(writer: SyncByteWriter, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += writer.writeSync(bytes.subarray(off));
}

/** A file read to its end with synchronous reads (a small file, read at once). */
export function readToEndSync(file: { readSync(buffer: Uint8Array): number | null }): Uint8Array {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(64 * 1024);
  while (true) {
    const n = file.readSync(buf);
    if (n === null) break;
    chunks.push(buf.slice(0, n));
  }
  return concatBytes(chunks);
}

/** Anything with Deno's `read` (a file, stdin). */
export interface ByteReader {
  read(buffer: Uint8Array): Promise<number | null>;
}

/**
 * Reads `reader` to its end; null when it holds more than `maxBytes` (the rest is left unread,
 * so an oversized input costs at most the cap).
 */
export async function readToEnd(reader: ByteReader, maxBytes = Infinity): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(64 * 1024);
  let total = 0;
  while (true) {
    const n = await reader.read(buf);
    if (n === null) break;
    total += n;
    if (total > maxBytes) return null;
    chunks.push(buf.slice(0, n));
  }
  return concatBytes(chunks);
}

/**
 * Reads `reader` up to the end of the first complete JSON object or array (hosts that run hooks
 * may keep stdin open after writing the hook JSON: waiting for its end would wait forever), or
 * to its end when the input is not one (plain text, a bare scalar). null past `maxBytes`.
 */
export async function readFirstJsonValue(
  reader: ByteReader,
  maxBytes = Infinity,
): Promise<Uint8Array | null> {
  const value = new FirstJsonValue(maxBytes);
  const buf = new Uint8Array(READ_CHUNK_BYTES);
  while (true) {
    const n = await reader.read(buf);
    if (n === null) return value.bytes();
    const state = value.take(buf.slice(0, n));
    if (state !== "more") return state === "done" ? value.bytes() : null;
  }
}

/** Anything with Deno's `readSync` (a file, stdin). */
export interface SyncByteReader {
  readSync(buffer: Uint8Array): number | null;
}

/**
 * readFirstJsonValue with blocking reads. The warm client reads the hook's stdin this way: an
 * async read of stdin goes through Deno's blocking-thread pool, measured at 0.4-0.5 ms a read
 * against 0.1 ms for `readSync`, a fifth of a warm prompt's own time. The client has nothing
 * else to do meanwhile, and a host that keeps stdin open is answered as soon as the value ends,
 * as before.
 */
export function readFirstJsonValueSync(reader: SyncByteReader, maxBytes = Infinity): Uint8Array | null {
  const value = new FirstJsonValue(maxBytes);
  const buf = new Uint8Array(READ_CHUNK_BYTES);
  while (true) {
    const n = reader.readSync(buf);
    if (n === null) return value.bytes();
    const state = value.take(buf.slice(0, n));
    if (state !== "more") return state === "done" ? value.bytes() : null;
  }
}

/** The size of one read of a stream. */
const READ_CHUNK_BYTES = 64 * 1024;

/** The chunks of a stream up to the end of its first JSON value: the two readers' one core. */
class FirstJsonValue {
  readonly #chunks: Uint8Array[] = [];
  readonly #scan = new JsonValueEnd();
  #total = 0;

  constructor(readonly maxBytes: number) {}

  /** Takes the next chunk read (kept as given): read on, the value is done, or it is over the cap. */
  take(chunk: Uint8Array): "more" | "done" | "over" {
    const end = this.#scan.feed(chunk);
    const used = end === -1 ? chunk.length : end;
    if (this.#total + used > this.maxBytes) return "over";
    this.#total += used;
    this.#chunks.push(end === -1 ? chunk : chunk.subarray(0, end));
    return end === -1 ? "more" : "done";
  }

  bytes(): Uint8Array {
    return concatBytes(this.#chunks);
  }
}

/**
 * Finds where the first top-level JSON object or array ends, fed a byte stream in pieces. Bytes
 * of multi-byte UTF-8 characters are never '"', '\\', brackets or braces, so scanning bytes is
 * exact. Once the first non-space byte is not "{" or "[", it never reports an end.
 */
export class JsonValueEnd {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #state: "before" | "inside" | "never" = "before";

  /** The index just past the value's last byte in `chunk`, or -1 while it is not complete. */
  feed(chunk: Uint8Array): number {
    for (let i = 0; i < chunk.length; i++) {
      if (this.#state === "never") return -1;
      const c = chunk[i]!;
      if (this.#state === "before") {
        if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xef || c === 0xbb || c === 0xbf) {
          continue; // whitespace, or a UTF-8 byte-order mark
        }
        if (c !== 0x7b && c !== 0x5b) {
          this.#state = "never";
          return -1;
        }
        this.#state = "inside";
      }
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === 0x5c) this.#escaped = true;
        else if (c === 0x22) this.#inString = false;
        else {
          // Inside a string only '"' and '\\' matter: jump to the next one (a native search;
          // a prompt of megabytes is one string, byte by byte it would cost the hook its deadline).
          const quote = chunk.indexOf(0x22, i);
          const slash = quote === -1 ? chunk.indexOf(0x5c, i) : chunk.subarray(i, quote).indexOf(0x5c);
          const next = slash === -1 ? quote : quote === -1 ? slash : i + slash;
          if (next === -1) return -1;
          i = next - 1;
        }
        continue;
      }
      if (c === 0x22) this.#inString = true;
      else if (c === 0x7b || c === 0x5b) this.#depth++;
      else if (c === 0x7d || c === 0x5d) {
        this.#depth--;
        if (this.#depth === 0) return i + 1;
      }
    }
    return -1;
  }
}
