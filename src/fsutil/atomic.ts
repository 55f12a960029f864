/**
 * Atomic file replacement: write to a sibling temp path, flush, then rename over the target.
 * A crash or an error leaves the old file intact; a reader never sees a half-written file.
 */
import { concatBytes, writeAll } from "./bytes.ts";

/** The temp path used for `path`; a fixed name so a narrowed write grant can name it exactly. */
export function tempPathFor(path: string): string {
  return path + ".tmp";
}

/**
 * Writes `chunks` (strings or bytes) to `path` atomically. `beforeRename` runs once the temp file
 * is complete, right before it replaces `path`: when it throws, the temp file goes and `path` is
 * left as it is (a caller checks there that nobody else changed the file meanwhile).
 */
export async function writeFileAtomic(
  path: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  mode?: number,
  beforeRename?: () => Promise<void>,
): Promise<void> {
  const tmp = tempPathFor(path);
  const file = await Deno.open(tmp, { write: true, create: true, truncate: true, mode: mode ?? 0o600 });
  const encoder = new TextEncoder();
  try {
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      await writeAll(file, concatBytes(pending));
      pending = [];
      pendingBytes = 0;
    };
    for await (const chunk of chunks) {
      const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= 1 << 20) await flush();
    }
    await flush();
    await file.sync();
  } catch (err) {
    file.close();
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
  file.close();
  try {
    await beforeRename?.();
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

export async function writeTextFileAtomic(
  path: string,
  text: string,
  mode?: number,
  beforeRename?: () => Promise<void>,
): Promise<void> {
  await writeFileAtomic(path, [text], mode, beforeRename);
}
