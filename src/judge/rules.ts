/**
 * The local rules: pure functions from a summary's counts and the thresholds to a verdict, or to
 * "the band", where the optional service may be asked. Nothing here does I/O.
 */
import type { JudgeConfig } from "../config/config.ts";
import { COUNTED_FIELDS, type CountedField, type Summary } from "./summary.ts";

/** The three verdicts, in their fixed order. There is no fourth. */
export const VERDICTS = ["safe_to_compact", "wait", "preserve_first"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Why a verdict was given. */
export const REASON_CODES = [
  "none_unlanded",
  "over_threshold",
  "ambiguous_band",
  "no_service",
  "service_unreachable",
  "service_invalid_answer",
  "service_answer",
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** Unlanded items per counted field, and their total. */
export type Counts = { readonly [K in CountedField]: number } & { readonly total: number };

export function countUnlanded(summary: Summary): Counts {
  const per = Object.fromEntries(COUNTED_FIELDS.map((f) => [f, summary[f].length])) as Record<
    CountedField,
    number
  >;
  const total = COUNTED_FIELDS.reduce((sum, f) => sum + per[f], 0);
  return { ...per, total };
}

export type LocalOutcome =
  | { readonly kind: "decided"; readonly verdict: Verdict; readonly reason: ReasonCode }
  | { readonly kind: "band" };

/**
 * Decides the two ends: total ≤ safe_max → safe_to_compact (none_unlanded); total > wait_min →
 * preserve_first (over_threshold). In between lies the band, which the rules do not decide.
 */
export function localRule(counts: Counts, config: Pick<JudgeConfig, "safe_max" | "wait_min">): LocalOutcome {
  if (counts.total <= config.safe_max) {
    return { kind: "decided", verdict: "safe_to_compact", reason: "none_unlanded" };
  }
  if (counts.total > config.wait_min) {
    return { kind: "decided", verdict: "preserve_first", reason: "over_threshold" };
  }
  return { kind: "band" };
}

/** Is `v` one of the three verdicts, exactly (no trimming, no case folding)? */
export function isVerdict(v: unknown): v is Verdict {
  return typeof v === "string" && (VERDICTS as readonly string[]).includes(v);
}

/** One line listing the counts, e.g. "3 unlanded (todos 1, uncommitted 2, questions 0, …)". */
export function describeCounts(counts: Counts): string {
  return `${counts.total} unlanded (${COUNTED_FIELDS.map((f) => `${f} ${counts[f]}`).join(", ")})`;
}
