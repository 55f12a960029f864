/** The process's real streams, as a CommandIO. */
import { readToEnd } from "../fsutil/bytes.ts";
import type { CommandIO } from "./plan.ts";

const encoder = new TextEncoder();

async function writeAll(stream: typeof Deno.stdout | typeof Deno.stderr, text: string) {
  const bytes = encoder.encode(text);
  let off = 0;
  while (off < bytes.length) off += await stream.write(bytes.subarray(off));
}

/** Reads stdin up to `maxBytes`; null when the input was longer (the rest is not read). */
export function readStdinCapped(maxBytes: number): Promise<Uint8Array | null> {
  return readToEnd(Deno.stdin, maxBytes);
}

export function processIO(): CommandIO {
  return {
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    readStdin: readStdinCapped,
  };
}
