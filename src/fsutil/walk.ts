/**
 * A directory walker that never follows symbolic links (a link is neither descended into nor
 * returned). Entries are sorted by name so results never depend on the order a directory lists.
 */

export interface WalkOptions {
  /** Keep a file when this returns true (given its path and name). */
  readonly accept: (path: string, name: string) => boolean;
  /** Skip a directory (and everything under it) when this returns true. */
  readonly skipDir?: (path: string, name: string) => boolean;
  /** Called for a directory that cannot be listed; the walk goes on. */
  readonly onError?: (path: string, err: Error) => void;
}

export async function* walkFiles(root: string, options: WalkOptions): AsyncGenerator<string> {
  yield* walkFilesSync(root, options);
}

/**
 * The same walk, synchronous: a collect walks every transcript folder on every run (10,000 files
 * for a million prompts), and each value an async generator yields costs a turn of the event
 * loop per level of folders it passes through.
 */
export function* walkFilesSync(root: string, options: WalkOptions): Generator<string> {
  let entries: Deno.DirEntry[];
  try {
    // Listed synchronously: an async listing costs a dispatch per entry, and a collect lists
    // every transcript folder on every run.
    entries = [...Deno.readDirSync(root)];
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) options.onError?.(root, err as Error);
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.isSymlink) continue;
    const path = root === "/" ? `/${e.name}` : `${root}/${e.name}`;
    if (e.isDirectory) {
      if (options.skipDir?.(path, e.name)) continue;
      yield* walkFilesSync(path, options);
    } else if (e.isFile && options.accept(path, e.name)) {
      yield path;
    }
  }
}
