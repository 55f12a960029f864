/**
 * The verdict_recall tool: a ranked look-up through the Recaller (src/lookup/recall.ts), written
 * in the contract's result format. The Recaller owns the corpus: it reloads when `collect`
 * replaces the records file, so a running server answers from the new data on the next call.
 */
import type { RecordKind } from "../record/record.ts";
import type { Recaller, RecordWindow } from "../lookup/recall.ts";
import type { RecallFormat } from "./contract.ts";
import { formatRecall } from "./format.ts";
import type { ToolHandler } from "./tools.ts";

export interface RecallToolOptions {
  readonly recaller: Recaller;
  readonly format: RecallFormat;
  /** `top` when the call gives none (the contract schema's default). */
  readonly defaultTop: number;
  /** The clock recency is measured from (ms since the epoch), read once per call. */
  readonly asOfMs: () => number;
  /** The caller's project (its records count double), or null when the server cannot know it. */
  readonly project: string | null;
}

/** A date or RFC 3339 time the schema let through, as RFC 3339 UTC (a bare date is midnight). */
function timeArg(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const ms = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The filters of a call (contract version 2; each optional), or null when it gives none. */
export function windowOf(args: Readonly<Record<string, unknown>>): RecordWindow | null {
  const project = typeof args.project === "string" ? args.project.replace(/\/+$/, "") || "/" : null;
  const window = {
    since: timeArg(args.since),
    until: timeArg(args.until),
    project,
    kind: typeof args.kind === "string" ? (args.kind as RecordKind) : null,
  };
  return Object.values(window).every((v) => v === null) ? null : window;
}

export function recallHandler(options: RecallToolOptions): ToolHandler {
  return async (args) => {
    const query = args.query as string;
    const top = typeof args.top === "number" ? args.top : options.defaultTop;
    const window = windowOf(args);
    const answer = await options.recaller.recall(query, {
      top,
      asOfMs: options.asOfMs(),
      project: options.project,
      ...(window ? { window } : {}),
    });
    return {
      text: formatRecall(answer, options.format),
      isError: false,
      results: answer.hits.length,
      outcome: answer.hits.length > 0 ? "ok" : "no_match",
      query,
    };
  };
}
