/**
 * One prompt's hint, decided: the pre-ranking rules, the search exactly as the hook runs it, and
 * the gate. Pure (the corpus, the clock, the cooldown set and the entity list come in), so the
 * hook (src/cli/hint_run.ts), `verdict replay`, the gate probes and the benchmark all run this
 * one function and cannot drift apart.
 */
import type { Corpus } from "../rank/bm25.ts";
import type { Entity } from "../rank/entities.ts";
import { search, type SearchResult } from "../rank/score.ts";
import { anchorIdf, decide, type GateVerdict, preGate } from "./gate.ts";
import { VERDICT_HINT_MARKER } from "../collect/line_parser.ts";
import { hasNotTypedPrefix } from "../agents/claude/prompt.ts";

/**
 * Candidates the ranking hands the gate (it may refuse the best and take the next). Records
 * without an anchor word are not candidates at all, so 15 reach an old, strong decision behind
 * recent chatter: the labelled probes score the same from 10 to 30 (deno task eval:gate).
 */
export const GATE_CANDIDATES = 15;

/** Quotes a hook's hint shows at most (`verdict hint --top` may ask for 1 to 3). */
export const HOOK_TOP = 2;

export interface HintRequest {
  readonly prompt: string;
  /** The live session: its records are never quoted. */
  readonly session: string | null;
  /** The session's folder: records of this project count double. */
  readonly cwd: string | null;
  /** The clock (epoch ms) recency is measured against. */
  readonly nowMs: number;
  /** Record ids already shown in this session (the cooldown ledger). */
  readonly shown: ReadonlySet<string>;
  readonly entities: readonly Entity[];
  /** Config hook_personas: when non-empty, only these folder names get hints. */
  readonly personas: readonly string[];
  /** Quotes at most (1 to MAX_HINT_QUOTES). */
  readonly top: number;
}

export interface HintOutcome {
  readonly verdict: GateVerdict;
  /** The ranking the gate judged (null when a pre-ranking rule refused the prompt). */
  readonly result: SearchResult | null;
}

/** Prompts that arrive as user turns but nobody typed (FORMATS.md §4.2), or our own hint text. */
export function isMachineMade(prompt: string): boolean {
  return hasNotTypedPrefix(prompt) || prompt.includes(VERDICT_HINT_MARKER);
}

/** The pre-ranking rules for a request; null when the prompt may be searched. */
export function refuseEarly(req: Pick<HintRequest, "prompt" | "cwd" | "personas">) {
  return preGate({ prompt: req.prompt, cwd: req.cwd, personas: req.personas, machineMade: isMachineMade });
}

/** Decides one prompt's hint over `corpus`. Deterministic: same inputs, same outcome. */
export function hintFor(corpus: Corpus, req: HintRequest): HintOutcome {
  const refused = refuseEarly(req);
  if (refused) return { verdict: { speak: false, ...refused, hits: [], checks: [] }, result: null };
  if (corpus.docCount === 0) {
    return {
      verdict: { speak: false, rule: "no-candidates", detail: "no records yet", hits: [], checks: [] },
      result: null,
    };
  }
  const result = search(corpus, req.prompt, {
    mode: "hint",
    nowMs: req.nowMs,
    ...(req.cwd ? { project: req.cwd } : {}),
    entities: req.entities,
    excludeSession: req.session,
    excludeIds: req.shown,
    top: GATE_CANDIDATES,
    // A record without an anchor word is never quoted: do not even score it.
    minCandidateIdf: anchorIdf(corpus.docCount),
  });
  return { verdict: decide(result, req.top), result };
}
