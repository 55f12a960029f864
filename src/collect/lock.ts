/**
 * The collect lock: one collect at a time per archive.
 *
 * The lock is the operating system's exclusive lock (flock) on the lock file, not the file's
 * existence. The kernel releases it when its holder ends, however it ends (exit, crash, SIGKILL,
 * reboot), so a lock left behind by a dead collect is stale at once and the next collect takes it
 * without waiting. No pid is ever checked: a recycled pid, or a live process on another boot that
 * happens to have the pid written in the file, cannot keep a lock alive, because nothing reads
 * the pid to decide. The file only tells the person who holds it (pid and start time), for the
 * refusal message. It stays on disk between runs; that is harmless.
 */
import { EXIT, VerdictError } from "../errors.ts";

/** What the holder writes into the lock file, for the refusal message only. */
export interface LockOwner {
  readonly pid: number;
  /** RFC 3339 time the holder took the lock. */
  readonly since: string;
}

/** Reads the owner note of a lock file; null when it holds none or not ours. */
function readOwner(file: Deno.FsFile): LockOwner | null {
  try {
    file.seekSync(0, Deno.SeekMode.Start);
    const buf = new Uint8Array(256);
    const n = file.readSync(buf) ?? 0;
    const v = JSON.parse(new TextDecoder().decode(buf.subarray(0, n))) as Partial<LockOwner>;
    return typeof v.pid === "number" && typeof v.since === "string" ? { pid: v.pid, since: v.since } : null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock on `path` (created if missing) or throws a runtime error naming the holder.
 * Returns the release function; a holder that dies without calling it releases it too.
 */
export async function takeCollectLock(
  path: string,
  archive: string,
  now: () => Date = () => new Date(),
): Promise<() => void> {
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  let held = false;
  try {
    held = await file.tryLock(true);
    if (!held) {
      const owner = readOwner(file);
      throw new VerdictError(
        `Cannot collect into "${archive}": another collect is running` +
          (owner ? ` (pid ${owner.pid}, since ${owner.since})` : ""),
        EXIT.runtime,
        "wait for it to finish; its lock is released the moment that process ends, however it ends",
      );
    }
    const note = new TextEncoder().encode(
      JSON.stringify({ pid: Deno.pid, since: now().toISOString() }) + "\n",
    );
    await file.truncate(0);
    file.seekSync(0, Deno.SeekMode.Start);
    let off = 0;
    while (off < note.length) off += file.writeSync(note.subarray(off));
  } catch (err) {
    if (held) file.unlockSync();
    file.close();
    throw err;
  }
  return () => {
    try {
      file.unlockSync();
    } finally {
      file.close();
    }
  };
}
