/**
 * judge: one verdict for a snapshot. The snapshot is checked first (digest and renderer, see
 * snapshot.ts); the local rules decide both ends; only the band between judge.safe_max and
 * judge.wait_min may ask the optional service. "Could not decide" is always `wait`, and `wait`
 * is never permission.
 */
import type { JudgeConfig } from "../config/config.ts";
import {
  type Counts,
  countUnlanded,
  describeCounts,
  localRule,
  type ReasonCode,
  type Verdict,
  VERDICTS,
} from "./rules.ts";
import { askService, buildServiceRequest, type ServiceResult } from "./service.ts";
import { checkBudget, checkSnapshot, type Snapshot } from "./snapshot.ts";

export interface JudgeAnswer {
  readonly verdict: Verdict;
  readonly reason: ReasonCode;
  /** The reason in words, for the person. */
  readonly reasonText: string;
  readonly session: string;
  readonly counts: Counts;
  /** The service's score in [0, 1], when the service gave a valid answer; else null. */
  readonly score: number | null;
  /** The digest of the judged snapshot. */
  readonly digest: string;
}

export interface JudgeOptions {
  readonly config: JudgeConfig;
  /** Decide by the local rules only: the band answers wait (ambiguous_band) without asking. */
  readonly localOnly?: boolean;
}

/** Checks `value` as a snapshot (throws InputError / StateBudgetError) and judges it. */
export async function judgeSnapshot(value: unknown, options: JudgeOptions): Promise<JudgeAnswer> {
  const snapshot = await checkSnapshot(value);
  return await judgeChecked(snapshot, options);
}

/** Judges a snapshot already accepted by checkSnapshot (or made by makeSnapshot). */
export async function judgeChecked(snapshot: Snapshot, options: JudgeOptions): Promise<JudgeAnswer> {
  const { config } = options;
  const { summary, state, digest } = snapshot;
  checkBudget(summary.session, state, config.state_char_budget);
  const counts = countUnlanded(summary);
  const answer = (verdict: Verdict, reason: ReasonCode, reasonText: string, score: number | null = null) => ({
    verdict,
    reason,
    reasonText,
    session: summary.session,
    counts,
    score,
    digest,
  });
  const local = localRule(counts, config);
  if (local.kind === "decided") {
    const text = local.reason === "none_unlanded"
      ? counts.total === 0
        ? "nothing recorded is unlanded"
        : `${describeCounts(counts)}, at or below judge.safe_max (${config.safe_max})`
      : `${describeCounts(counts)}, over judge.wait_min (${config.wait_min})`;
    return answer(local.verdict, local.reason, text);
  }
  const band = `${
    describeCounts(counts)
  }, between judge.safe_max (${config.safe_max}) and judge.wait_min (${config.wait_min})`;
  if (options.localOnly) {
    return answer("wait", "ambiguous_band", `${band}; local rules only, the service was not asked`);
  }
  const url = config.service_url;
  if (url === null) return answer("wait", "no_service", `${band}; no service configured (judge.service_url)`);
  const request = buildServiceRequest(state, VERDICTS, config.service_model);
  const result: ServiceResult = await askService(url, request, config.timeout_ms);
  switch (result.kind) {
    case "unreachable":
      return answer(
        "wait",
        "service_unreachable",
        `${band}; the service at ${url} was not there: ${result.note}`,
      );
    case "invalid":
      return answer(
        "wait",
        "service_invalid_answer",
        `${band}; the service's answer was refused: ${result.note}`,
      );
    case "answer":
      return answer(
        result.choice,
        "service_answer",
        `${band}; the service chose ${result.choice} (score ${result.score})`,
        result.score,
      );
  }
}
