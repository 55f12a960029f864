/** The process's real streams, as a CommandIO. */
import type { CommandIO } from "./plan.ts";

const encoder = new TextEncoder();

async function writeAll(stream: typeof Deno.stdout | typeof Deno.stderr, text: string) {
  const bytes = encoder.encode(text);
  let off = 0;
  while (off < bytes.length) off += await stream.write(bytes.subarray(off));
}

/** Reads stdin up to `maxBytes`; null when the input was longer (the rest is not read). */
export async function readStdinCapped(maxBytes: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buf = new Uint8Array(64 * 1024);
  while (true) {
    const n = await Deno.stdin.read(buf);
    if (n === null) break;
    total += n;
    if (total > maxBytes) return null;
    chunks.push(buf.slice(0, n));
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

export function processIO(): CommandIO {
  return {
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    readStdin: readStdinCapped,
  };
}
