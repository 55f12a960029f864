/**
 * The helper's folder must be one only this user can reach: a real directory (not a symlink),
 * owned by this user, with no access for group or others. Both sides check it: the helper before
 * it listens, the client before it connects (an address file in a folder someone else controls
 * could name their listener and a secret they know, and its answer would be printed into the
 * agent's context). Neither ever changes the
 * mode or owner of a folder it did not create. Imports nothing (the per-prompt client loads it).
 */

/** Why `path` is not a private folder, or null when it is. */
export function privateFolderProblem(path: string): string | null {
  let st: Deno.FileInfo;
  try {
    st = Deno.lstatSync(path);
  } catch {
    return "it does not exist";
  }
  if (st.isSymlink) return "it is a symbolic link";
  if (!st.isDirectory) return "it is not a directory";
  if (st.uid !== null && st.uid !== Deno.uid()) return `it is owned by uid ${st.uid}, not by this user`;
  if (st.mode !== null && (st.mode & 0o077) !== 0) {
    return `its mode is ${(st.mode & 0o777).toString(8)}, not 700 (group or others can reach it)`;
  }
  return null;
}

/**
 * Creates the folder 0700 when it is missing (its parents with the usual mode), then checks it.
 * A folder that exists is never chmod-ed: if it is not private, that is the answer.
 */
export function ensurePrivateFolder(path: string): string | null {
  try {
    Deno.lstatSync(path);
  } catch {
    const parent = path.slice(0, path.lastIndexOf("/"));
    try {
      if (parent) Deno.mkdirSync(parent, { recursive: true, mode: 0o700 });
      Deno.mkdirSync(path, { mode: 0o700 });
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) return `it cannot be created (${(err as Error).name})`;
    }
  }
  return privateFolderProblem(path);
}
