/**
 * Containment by real path. Deno checks permissions on the path as written, so a symlink inside
 * a granted root that points outside it is followed by the runtime (DENO.md §5.1). Every read of
 * a file found under a root goes through `containedRealPath` first: the resolved path must lie
 * under one of the resolved roots, and the resolved path is what gets read.
 */
import { isWithin } from "../config/paths.ts";

/** Resolves `root`s to real paths, dropping the ones that do not exist. */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) {
    try {
      out.push(await Deno.realPath(root));
    } catch {
      // A root that does not exist holds nothing to read.
    }
  }
  return [...new Set(out)].sort();
}

/**
 * The real path of `path` when it lies under one of `roots` (already real), else null.
 * Null too when the path cannot be resolved (dangling link, vanished file).
 */
export async function containedRealPath(path: string, roots: readonly string[]): Promise<string | null> {
  let real: string;
  try {
    real = await Deno.realPath(path);
  } catch {
    return null;
  }
  return roots.some((root) => isWithin(real, root)) ? real : null;
}

export function containedRealPathSync(path: string, roots: readonly string[]): string | null {
  let real: string;
  try {
    real = Deno.realPathSync(path);
  } catch {
    return null;
  }
  return roots.some((root) => isWithin(real, root)) ? real : null;
}
