/**
 * A file's identity as stat reports it, to tell "the same file, unchanged" from anything else.
 * Size and mtime alone are not enough: `cp -p` and `rsync -t` restore both on a new content,
 * but not the change time (which utime cannot set) and, for a replacing rename, the inode.
 *
 * The change time comes in whole seconds (Deno truncates it), so a change within the same
 * second as the look cannot be seen by it. Such a look is "racy" (git's word for the same
 * problem with its index): the identity it recorded is never trusted later, and the file's
 * bytes are checked instead.
 */

export interface FileIdentity {
  readonly dev: number | null;
  readonly ino: number | null;
  readonly size: number;
  readonly mtimeMs: number;
  /** Change time (ms, whole seconds): moves on every write and utime. Null where none is given. */
  readonly ctimeMs: number | null;
  /** The file changed within a second of when it was looked at: do not trust this identity. */
  readonly racy: boolean;
}

/** Granularity of the change time as we get it. */
const CTIME_RESOLUTION_MS = 1000;

/** The identity of `info`, looked at (stat returned) at `seenAtMs` on the wall clock. */
export function identityOf(info: Deno.FileInfo, seenAtMs: number): FileIdentity {
  const mtimeMs = info.mtime?.getTime() ?? 0;
  const ctimeMs = info.ctime?.getTime() ?? null;
  const changed = Math.max(mtimeMs, ctimeMs ?? mtimeMs);
  return {
    dev: info.dev ?? null,
    ino: info.ino ?? null,
    size: info.size,
    mtimeMs,
    ctimeMs,
    racy: changed + CTIME_RESOLUTION_MS > seenAtMs,
  };
}

/** Is `now` the file `before` described, unchanged (and was `before` a trustworthy look)? */
export function sameIdentity(before: FileIdentity, now: FileIdentity): boolean {
  return !before.racy && before.dev === now.dev && before.ino === now.ino && before.size === now.size &&
    before.mtimeMs === now.mtimeMs && before.ctimeMs === now.ctimeMs;
}
