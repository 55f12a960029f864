/**
 * The real (symlink-resolved) locations a command may read, by role: resolved once by the
 * launcher, carried in the plan, used by the stages and by the permission table.
 */

/** One root of one agent's session reader (src/agents/agent.ts), resolved. */
export interface SessionRoot {
  /** The agent's id. */
  readonly agent: string;
  /** The reader's kind. */
  readonly kind: string;
  /** Real path. */
  readonly path: string;
  /** "dir": files under it; "file": the root is the one file; "store": the root is a database. */
  readonly layout: "dir" | "file" | "store";
  /** For "store": files read beside it (its write-ahead log), granted with it. */
  readonly companions?: readonly string[];
}

/** Resolved (real) locations a command may read, by role. Missing ones are left out. */
export interface Roots {
  /** Every registered agent's session roots that exist, in registry order. */
  readonly sessions: readonly SessionRoot[];
  /** Configured and command-line doc roots, real paths. */
  readonly docs: readonly string[];
  /** Configured and command-line git work trees, real paths. */
  readonly gitRepos: readonly string[];
  /**
   * Configured roots that cannot be read as configured (missing, or a git_repos entry that is no
   * work tree), each with why: collect warns of each every time, since a typo in the config
   * would otherwise read as "nothing new".
   */
  readonly unusable?: readonly { readonly path: string; readonly key: string; readonly why: string }[];
}

export const EMPTY_ROOTS: Roots = { sessions: [], docs: [], gitRepos: [] };

/** Directories under which transcripts live (quotes may be re-read from files under these). */
export function transcriptRoots(roots: Roots): string[] {
  return roots.sessions.filter((r) => r.layout === "dir").map((r) => r.path);
}

/** Every session root, directories, single files and stores with their companions (what collect reads). */
export function sessionPaths(roots: Roots): string[] {
  return roots.sessions.flatMap((r) => [r.path, ...(r.companions ?? [])]);
}
