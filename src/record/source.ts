/**
 * What each record source (transcripts, docs, git) hands back to the collector. The collector
 * merges it into the archive: records of `replaced` files supersede those files' old records;
 * `appended` records are added; every other old record is kept (the archive never forgets a
 * record because its source file disappeared).
 */
import type { VerdictRecord } from "./record.ts";

export interface SourceStats {
  /** Files opened and read (fully or from their last offset). */
  filesRead: number;
  /** Files that could not be read (permission, vanished, outside the roots). */
  filesUnreadable: number;
  /** Lines or sections skipped as malformed or oversized. */
  linesSkipped: number;
  /**
   * Records a source dropped itself for holding a credential, where only it can see the whole
   * text (a Markdown section cut into chunks: a key block spanning chunks drops them all).
   */
  secretsDropped: number;
}

export interface SourceResult<State> {
  /** source_file → all of that file's records (the file was read from its start this run). */
  readonly replaced: ReadonlyMap<string, readonly VerdictRecord[]>;
  /** Records from files read from where the previous run stopped. */
  readonly appended: readonly VerdictRecord[];
  /** JSON-serialisable state for the next incremental run. */
  readonly state: State;
  readonly stats: SourceStats;
}

export function emptyStats(): SourceStats {
  return { filesRead: 0, filesUnreadable: 0, linesSkipped: 0, secretsDropped: 0 };
}

/**
 * Does a file (or repository) read under the cutoff `readWith` hold every record a run with
 * cutoff `wanted` would keep? Yes when it was read with no cutoff, or with one no later than
 * the run's. A state written before cutoffs were recorded (undefined) is not trusted.
 */
export function sinceCovers(readWith: string | null | undefined, wanted: string | null): boolean {
  if (readWith === undefined) return false;
  return readWith === null || (wanted !== null && readWith <= wanted);
}

/**
 * The collect options that change what a source file yields (config "include_headless"). A
 * file's state remembers those it was read under, as it remembers its --since cutoff, so that a
 * collect under other options reads it again from its start (its records replacing the old ones)
 * and equals a full collect under the new options.
 */
export interface YieldOptions {
  /** Prompts of headless sessions (`claude -p`, `codex exec`, …) count too. */
  readonly includeHeadless: boolean;
}

/**
 * Was a file read under `readWith` (a stored state's field: anything) read under exactly the
 * options `wanted`? A state written before options were recorded (no field) is not trusted.
 */
export function sameYieldOptions(readWith: unknown, wanted: YieldOptions): boolean {
  if (typeof readWith !== "object" || readWith === null) return false;
  const stored = readWith as Readonly<Record<string, unknown>>;
  return (Object.keys(wanted) as (keyof YieldOptions)[]).every((key) => stored[key] === wanted[key]);
}

/** Called for non-fatal problems (unreadable file, refused path); the collect goes on. */
export type ProblemReporter = (path: string, message: string) => void;
