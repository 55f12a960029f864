/**
 * Which files are memory or instruction files: an agent's write of one becomes a `note` record
 * (Claude Code's Write/Edit, Codex's apply_patch). One list for every agent, since each reads the
 * others' files (Codex reads AGENTS.md, Claude Code CLAUDE.md, both read the other when told to).
 */

/** Base names of memory and instruction files whose writes become notes. */
export const MEMORY_FILE_NAMES: readonly string[] = [
  "CLAUDE.md",
  "CLAUDE.local.md",
  "AGENTS.md",
  "AGENTS.override.md",
  "MEMORY.md",
];

/** Base name in MEMORY_FILE_NAMES, or a `memory` directory segment (either slash). */
export function isMemoryPath(path: string): boolean {
  const segments = path.replaceAll("\\", "/").split("/");
  const base = segments[segments.length - 1] ?? "";
  if (MEMORY_FILE_NAMES.includes(base)) return true;
  return segments.slice(0, -1).includes("memory");
}
