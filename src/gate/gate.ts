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
 *   common-only    every matched term is a common word (in more than 1% of records) or a stopword
 *   no-anchor      no matched word is rare enough (ANCHOR_IDF_SHARE of the largest idf)
 *   few-terms      fewer than MIN_INFORMATIVE_MATCHED distinct informative terms matched, and
 *                  the one that matched is not an identifier (pg_dump, v2.3, gen-itgc). A single
 *                  rare word alone was measured to cost more precision than it gains recall.
 *   low-coverage   the record matches less than MIN_COVERAGE of the prompt's informative weight
 *   not-a-decision a prompt or commit with no decision marker (docs and notes are written down
 *                  on purpose, so they count as decisions)
 *   weak-tail      a second quote scoring under TAIL_SCORE_SHARE of the first
 */
import { bm25Idf } from "../rank/bm25.ts";
import type { SearchHit, SearchResult } from "../rank/score.ts";
import { isCjkTerm } from "../rank/tokenize.ts";

/**
 * A matched word is an anchor when its idf is at least this share of the largest idf the archive
 * allows (a word in one record): a word in a handful of records in a small archive, in a few
 * hundred of 200,000. A hint needs an anchor: ordinary words together are not a topic.
 */
export const ANCHOR_IDF_SHARE = 0.6;
/** The idf a matched word needs to be an anchor, in an archive of `docCount` records. */
export function anchorIdf(docCount: number): number {
  return ANCHOR_IDF_SHARE * bm25Idf(docCount, 1);
}

/** A hit needs this many informative (non-common) matched terms, unless one of them is sharp. */
export const MIN_INFORMATIVE_MATCHED = 2;
/** Share of the prompt's informative idf a record must match: more than a stray word of it. */
export const MIN_COVERAGE = 0.2;
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
  | "no-anchor"
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

/** A term sharp enough to carry a match alone: an identifier or a version (pg_dump, v2.3, gen-itgc). */
export function isSharpTerm(term: string): boolean {
  if (isCjkTerm(term)) return false;
  return /[_\-.:]/.test(term) || (/\d/.test(term) && /[a-z]/i.test(term));
}

/**
 * The distinct things a record matched: a term inside another matched term adds nothing of its
 * own (数据 and 据库 inside 数据库; pg and dump inside pg_dump), so one word never counts as two.
 */
export function distinctMatches(terms: readonly string[]): string[] {
  return terms.filter((t) => !terms.some((u) => u !== t && u.includes(t)));
}

function checkHit(hit: SearchHit, idfOf: ReadonlyMap<string, number>, anchorIdf: number): {
  rule: GateRule;
  detail: string;
} {
  if (hit.commonOnly) {
    return { rule: "common-only", detail: `matched only common words: ${hit.matched.join(", ")}` };
  }
  const informative = distinctMatches(hit.informativeMatched);
  const anchors = informative.filter((t) => (idfOf.get(t) ?? 0) >= anchorIdf);
  if (anchors.length === 0 && hit.entities.length === 0) {
    return { rule: "no-anchor", detail: `no rare word matched (${informative.join(", ")})` };
  }
  if (
    informative.length < MIN_INFORMATIVE_MATCHED && !informative.some(isSharpTerm) &&
    hit.entities.length === 0
  ) {
    return {
      rule: "few-terms",
      detail: `one informative term matched (${informative.join(", ")}) and it is not an identifier`,
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
  if ((kind === "prompt" || kind === "commit") && hit.meta.marker === null) {
    return { rule: "not-a-decision", detail: `a ${kind} with no decision marker` };
  }
  return {
    rule: "spoke",
    detail: `anchors ${anchors.join(", ") || hit.entities.join(", ")}; coverage ${
      (hit.coverage * 100).toFixed(0)
    }%`,
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
  const idfOf = new Map(result.terms.map((t) => [t.term, t.idf]));
  const anchor = anchorIdf(result.docCount);
  // A check names its hit's id only when asked (explain): the disk index reads ids from its file.
  const checkOf = (hit: SearchHit, c: { rule: HitCheck["rule"]; detail: string }): HitCheck => ({
    get id() {
      return hit.id;
    },
    ...c,
  });
  for (const hit of result.hits) {
    const c = checkHit(hit, idfOf, anchor);
    if (c.rule !== "spoke") {
      checks.push(checkOf(hit, c));
      firstRefusal ??= c;
      continue;
    }
    if (spoken.length > 0 && hit.score < spoken[0]!.score * TAIL_SCORE_SHARE) {
      checks.push(
        checkOf(hit, {
          rule: "weak-tail",
          detail: `score under ${TAIL_SCORE_SHARE * 100}% of the first quote's`,
        }),
      );
      continue;
    }
    checks.push(checkOf(hit, c));
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
