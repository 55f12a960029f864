/**
 * The real (symlink-resolved) locations a command may read, by role: resolved once by the
 * launcher, carried in the plan, used by the stages and by the permission table.
 */

/** Resolved (real) locations a command may read, by role. Missing directories are left out. */
export interface Roots {
  /** ~/.claude/projects, real path, or null when absent. */
  readonly claudeProjects: string | null;
  /** ~/.claude/history.jsonl, real path, or null when absent. */
  readonly claudeHistory: string | null;
  /** ~/.codex/sessions and ~/.codex/archived_sessions, real paths. */
  readonly codexSessions: readonly string[];
  /** Configured and command-line doc roots, real paths. */
  readonly docs: readonly string[];
  /** Configured and command-line git work trees, real paths. */
  readonly gitRepos: readonly string[];
}

/** Directories under which transcripts live (quotes may be re-read from files under these). */
export function transcriptRoots(roots: Roots): string[] {
  return [roots.claudeProjects, ...roots.codexSessions].filter((r): r is string => r !== null);
}
