/** The process's real streams, as a CommandIO. */
import { readFirstJsonValue, readToEnd } from "../fsutil/bytes.ts";
import type { CommandIO } from "./plan.ts";

const encoder = new TextEncoder();

async function writeAll(stream: typeof Deno.stdout | typeof Deno.stderr, text: string) {
  const bytes = encoder.encode(text);
  let off = 0;
  while (off < bytes.length) off += await stream.write(bytes.subarray(off));
}

/**
 * Reads stdin up to `maxBytes`; null when the input was longer (the rest is not read). With
 * `json`, stops at the end of the first JSON object or array (a hook host may keep stdin open).
 */
export function readStdinCapped(maxBytes: number, json = false): Promise<Uint8Array | null> {
  return json ? readFirstJsonValue(Deno.stdin, maxBytes) : readToEnd(Deno.stdin, maxBytes);
}

export function processIO(): CommandIO {
  return {
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    readStdin: readStdinCapped,
  };
}
