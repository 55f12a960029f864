/**
 * The gate: whether a hint is worth showing. Silence is the default; a quote appears only when
 * the best record clears every rule below on evidence that is not just common words. Pure: the
 * ranking's result in, a verdict out, with the rule that decided so `--explain` can say why.
 *
 * Rules before ranking (checked by `preGate`):
 *   persona        hook_personas is set and the session's folder is not listed
 *   machine-made   the prompt is a notification, a command wrapper, or our own injected hint
 *   empty          nothing to search for
 * Rules on the ranking (checked by `decide`), per candidate in rank order:
 *   common-only    every matched term is a common word (in more than 1% of records)
 *   few-terms      fewer than MIN_INFORMATIVE_MATCHED informative terms matched, and the one
 *                  that matched is not sharp (an identifier, a CJK word of 3+ characters)
 *   low-coverage   the record matches less than MIN_COVERAGE of the prompt's informative weight
 *   not-a-decision a prompt or commit with no decision marker (docs and notes are written down
 *                  on purpose, so they count as decisions)
 *   weak-tail      a second quote scoring under TAIL_SCORE_SHARE of the first
 */
import type { SearchHit, SearchResult } from "../rank/score.ts";
import { isCjkTerm } from "../rank/tokenize.ts";

/** A hit needs this many informative (non-common) matched terms, unless one is sharp. */
export const MIN_INFORMATIVE_MATCHED = 2;
/** Share of the prompt's informative idf a record must match: half the topic, not a stray word. */
export const MIN_COVERAGE = 0.4;
/** A second quote must score at least this share of the first, or it is noise next to it. */
export const TAIL_SCORE_SHARE = 0.6;
/** Most quotes one hint shows: the person reads one line; more would bury the point. */
export const MAX_HINT_QUOTES = 3;
/** Characters of a quote in the model's context (recall shows longer ones). */
export const HINT_QUOTE_CHARS = 600;
/** Characters of the quote in the person's one-line notice. */
export const HINT_NOTICE_CHARS = 110;

export type GateRule =
  | "persona"
  | "machine-made"
  | "empty"
  | "no-candidates"
  | "common-only"
  | "few-terms"
  | "low-coverage"
  | "not-a-decision"
  | "spoke";

export interface HitCheck {
  readonly id: string;
  /** The rule that refused this candidate, or "spoke" when it passed. */
  readonly rule: GateRule | "weak-tail";
  readonly detail: string;
}

export interface GateVerdict {
  readonly speak: boolean;
  /** For silence: the rule that kept the best candidate (or the prompt) out. */
  readonly rule: GateRule;
  readonly detail: string;
  /** The hits to show, best first (empty when silent). */
  readonly hits: readonly SearchHit[];
  /** What the gate said about each candidate it looked at. */
  readonly checks: readonly HitCheck[];
}

/** A term sharp enough to carry a match alone: an identifier or version, or a CJK word of 3+ chars. */
export function isSharpTerm(term: string): boolean {
  if (isCjkTerm(term)) return [...term].length >= 3;
  return /[_\-.:]/.test(term) || (/\d/.test(term) && /[a-z]/i.test(term));
}

function checkHit(hit: SearchHit): { rule: GateRule; detail: string } {
  if (hit.commonOnly) {
    return { rule: "common-only", detail: `matched only common words: ${hit.matched.join(", ")}` };
  }
  const informative = hit.informativeMatched;
  if (informative.length < MIN_INFORMATIVE_MATCHED && !informative.some(isSharpTerm)) {
    return {
      rule: "few-terms",
      detail: `one informative term matched (${informative.join(", ")}) and it is not sharp`,
    };
  }
  if (hit.coverage < MIN_COVERAGE) {
    return {
      rule: "low-coverage",
      detail: `matches ${(hit.coverage * 100).toFixed(0)}% of the prompt's informative weight (needs ${
        MIN_COVERAGE * 100
      }%)`,
    };
  }
  const kind = hit.meta.kind;
  if ((kind === "prompt" || kind === "commit") && hit.meta.marker === null && hit.entities.length === 0) {
    return { rule: "not-a-decision", detail: `a ${kind} with no decision marker` };
  }
  return {
    rule: "spoke",
    detail: `coverage ${(hit.coverage * 100).toFixed(0)}%, score ${hit.score.toFixed(4)}`,
  };
}

/** Decides from a search result; `top` caps the quotes (≤ MAX_HINT_QUOTES). */
export function decide(result: SearchResult, top: number): GateVerdict {
  const limit = Math.max(1, Math.min(top, MAX_HINT_QUOTES));
  if (result.terms.length === 0) {
    return {
      speak: false,
      rule: "empty",
      detail: "no word of the prompt is in any record",
      hits: [],
      checks: [],
    };
  }
  if (result.hits.length === 0) {
    return {
      speak: false,
      rule: "no-candidates",
      detail: "no record outside this session (and not already shown) matches",
      hits: [],
      checks: [],
    };
  }
  const checks: HitCheck[] = [];
  const spoken: SearchHit[] = [];
  let firstRefusal: { rule: GateRule; detail: string } | null = null;
  for (const hit of result.hits) {
    const c = checkHit(hit);
    if (c.rule !== "spoke") {
      checks.push({ id: hit.id, ...c });
      firstRefusal ??= c;
      continue;
    }
    if (spoken.length > 0 && hit.score < spoken[0]!.score * TAIL_SCORE_SHARE) {
      checks.push({
        id: hit.id,
        rule: "weak-tail",
        detail: `score under ${TAIL_SCORE_SHARE * 100}% of the first quote's`,
      });
      continue;
    }
    checks.push({ id: hit.id, ...c });
    if (spoken.length < limit) spoken.push(hit);
  }
  if (spoken.length === 0) {
    const r = firstRefusal!;
    return { speak: false, rule: r.rule, detail: r.detail, hits: [], checks };
  }
  return { speak: true, rule: "spoke", detail: `${spoken.length} quote(s)`, hits: spoken, checks };
}

/** The pre-ranking rules; null when the prompt may be searched. */
export function preGate(input: {
  readonly prompt: string;
  readonly cwd: string | null;
  readonly personas: readonly string[];
  readonly machineMade: (prompt: string) => boolean;
}): { rule: GateRule; detail: string } | null {
  if (input.personas.length > 0) {
    const base = input.cwd ? input.cwd.replace(/\/+$/, "").split("/").pop() ?? "" : "";
    if (!input.personas.includes(base)) {
      return { rule: "persona", detail: `"${base}" is not in hook_personas (${input.personas.join(", ")})` };
    }
  }
  if (input.prompt.trim() === "") return { rule: "empty", detail: "the prompt is empty" };
  if (input.machineMade(input.prompt)) {
    return {
      rule: "machine-made",
      detail: "the prompt is machine-made (notification, command output or our own hint)",
    };
  }
  return null;
}
