/**
 * Explicit look-ups (recall, query, the MCP tool): no gate, longer quotes. A Recaller keeps the
 * ranked corpus in memory and reloads it when `collect` replaces the records file.
 */
import type { RecordKind, RecordOrigin } from "../collect/record.ts";

export interface RecallOptions {
  readonly top: number;
  /** The pinned clock, ms since the epoch (recency is measured from it). */
  readonly asOfMs: number;
  /** The caller's project (records of it count double), or null. */
  readonly project?: string | null;
  /** A live session whose own records are never returned. */
  readonly excludeSession?: string | null;
}

export interface RecallHit {
  readonly id: string;
  readonly kind: RecordKind;
  readonly origin: RecordOrigin;
  readonly time: string;
  readonly project: string;
  readonly session: string | null;
  readonly source_file: string;
  readonly source_line: number;
  readonly score: number;
  readonly matched: readonly string[];
  /** The quote: re-read from the source when it lies under a transcript or doc root, else the stored text. */
  readonly quote: string;
}

export interface RecallAnswer {
  readonly hits: readonly RecallHit[];
  /** Why nothing came back, when hits is empty ("no records yet", "no record matches …"). */
  readonly reason: string | null;
}

export interface Recaller {
  recall(query: string, options: RecallOptions): Promise<RecallAnswer>;
}

export interface RecallerInput {
  readonly recordsPath: string;
  /** Real paths under which quotes may be re-read from their source files. */
  readonly quoteRoots: readonly string[];
  readonly entitiesPath: string | null;
}

export function openRecaller(_input: RecallerInput): Recaller {
  throw new Error("openRecaller: not built yet");
}
