/**
 * Little-endian byte writing and positioned reading for the index segment files.
 */

const UTF8 = new TextEncoder();

/**
 * Gives a buffer's memory back now, not when the garbage collector gets to it: the buffer is
 * detached (every view of it reads as empty). For large buffers a long run is done with (an index
 * build's, before the merge that follows it).
 */
export function releaseBuffer(buffer: ArrayBufferLike): void {
  if (buffer instanceof ArrayBuffer && !buffer.detached) buffer.transfer(0);
}

/** A growable little-endian byte buffer. */
export class ByteWriter {
  #buf: Uint8Array;
  #view: DataView;
  length = 0;

  constructor(initial = 1 << 16) {
    this.#buf = new Uint8Array(initial);
    this.#view = new DataView(this.#buf.buffer);
  }

  #ensure(extra: number) {
    if (this.length + extra <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.length));
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }
  u8(v: number) {
    this.#ensure(1);
    this.#buf[this.length++] = v;
  }
  u16(v: number) {
    this.#ensure(2);
    this.#view.setUint16(this.length, v, true);
    this.length += 2;
  }
  u32(v: number) {
    this.#ensure(4);
    this.#view.setUint32(this.length, v, true);
    this.length += 4;
  }
  /** Every value of `values` as a u32, with one capacity check. */
  u32s(values: Int32Array | Uint32Array) {
    this.#ensure(values.length * 4);
    for (let i = 0; i < values.length; i++) this.#view.setUint32(this.length + i * 4, values[i]!, true);
    this.length += values.length * 4;
  }
  f64(v: number) {
    this.#ensure(8);
    this.#view.setFloat64(this.length, v, true);
    this.length += 8;
  }
  bytes(b: Uint8Array) {
    this.#ensure(b.length);
    this.#buf.set(b, this.length);
    this.length += b.length;
  }
  /** A non-negative integer below 2^53, seven bits a byte, low bits first. */
  varint(v: number) {
    this.#ensure(8);
    while (v >= 0x80) {
      this.#buf[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.#buf[this.length++] = v;
  }
  /** `text` as UTF-8, encoded in place (no array per string). */
  utf8(text: string) {
    this.#ensure(text.length * 3);
    this.length += UTF8.encodeInto(text, this.#buf.subarray(this.length)).written;
  }
  pad8() {
    while (this.length % 8 !== 0) this.u8(0);
  }
  /** The bytes written so far (a view: valid until the next write). */
  result(): Uint8Array {
    return this.#buf.subarray(0, this.length);
  }
  clear() {
    this.length = 0;
  }
  /** Empties the writer and gives its buffer's memory back at once (see releaseBuffer). */
  release() {
    releaseBuffer(this.#buf.buffer);
    this.#buf = new Uint8Array(1 << 8);
    this.#view = new DataView(this.#buf.buffer);
    this.length = 0;
  }
}

/** Reads varints from a byte array, keeping its place. */
export class VarintReader {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}
  next(): number {
    const b = this.bytes;
    let v = 0;
    let mul = 1;
    let c: number;
    do {
      c = b[this.pos++]!;
      v += (c & 0x7f) * mul;
      mul *= 128;
    } while (c >= 0x80);
    return v;
  }
}

/** Reads exactly `length` bytes at `offset` (a short file is an error: the caller's data is damaged). */
export function readAt(file: Deno.FsFile, offset: number, length: number, what: string): Uint8Array {
  const buf = new Uint8Array(length);
  file.seekSync(offset, Deno.SeekMode.Start);
  let got = 0;
  while (got < length) {
    const n = file.readSync(buf.subarray(got));
    if (n === null) {
      throw new RangeError(`Cannot read ${what}: it ends at ${offset + got}, expected ${offset + length}`);
    }
    got += n;
  }
  return buf;
}

/** FNV-1a over UTF-8 bytes, 32 bits: the term hash of the bucket directory and of the term order. */
export function fnv1a32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** Byte-wise comparison of a[as, ae) and b[bs, be). */
export function compareBytes(
  a: Uint8Array,
  as: number,
  ae: number,
  b: Uint8Array,
  bs: number,
  be: number,
): number {
  const n = Math.min(ae - as, be - bs);
  for (let i = 0; i < n; i++) {
    const d = a[as + i]! - b[bs + i]!;
    if (d !== 0) return d;
  }
  return (ae - as) - (be - bs);
}
