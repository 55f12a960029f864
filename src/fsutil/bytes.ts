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
