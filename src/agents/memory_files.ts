/**
 * Which files are memory or instruction files: an agent's write of one becomes a `note` record
 * (Claude Code's Write/Edit, Codex's apply_patch). One list for every agent, since each reads the
 * others' files (Codex reads AGENTS.md, Claude Code CLAUDE.md, both read the other when told to);
 * an agent adds its own names beside it (Qwen Code's QWEN.md), or keeps a list of its own where
 * its folder says why.
 *
 * Also the wait every reader of tool calls keeps: a write becomes a note only once its tool's
 * result says it landed, so until then it waits in the parser's carry (awaitResult, takeAwaited).
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

/** Is the path's base name (either slash) one of `names`? */
export function hasFileName(path: string, names: readonly string[]): boolean {
  return names.includes(path.replaceAll("\\", "/").split("/").pop() ?? "");
}

/**
 * A write waiting for its result is dropped, oldest first, once this many newer ones wait too:
 * results arrive within a few lines, so an old one lost its result (a crash or a rewind) and
 * would only grow the state file.
 */
export const MAX_PENDING_WRITES = 256;

/**
 * Puts a memory-file write in the wait under its tool call id (as the newest, should the id be
 * there already), and drops the oldest beyond MAX_PENDING_WRITES.
 */
export function awaitResult<T>(pending: Map<string, T>, callId: string, write: T): void {
  pending.delete(callId);
  pending.set(callId, write);
  if (pending.size > MAX_PENDING_WRITES) pending.delete(pending.keys().next().value!);
}

/** Takes the write waiting for this tool call's result out of the wait; undefined when none waits. */
export function takeAwaited<T>(pending: Map<string, T>, callId: string): T | undefined {
  const write = pending.get(callId);
  if (write !== undefined) pending.delete(callId);
  return write;
}
