/**
 * The verdict_recall tool: a ranked look-up through the Recaller (src/lookup/recall.ts), written
 * in the contract's result format. The Recaller owns the corpus: it reloads when `collect`
 * replaces the records file, so a running server answers from the new data on the next call.
 */
import type { Recaller } from "../lookup/recall.ts";
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

export function recallHandler(options: RecallToolOptions): ToolHandler {
  return async (args) => {
    const query = args.query as string;
    const top = typeof args.top === "number" ? args.top : options.defaultTop;
    const answer = await options.recaller.recall(query, {
      top,
      asOfMs: options.asOfMs(),
      project: options.project,
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
