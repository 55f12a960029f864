/**
 * One prompt's hint, decided: the pre-ranking rules, the search exactly as the hook runs it, and
 * the gate. Pure (the corpus, the candidates' texts, the clock, the cooldown set and the entity
 * list come in), so the hook (src/hint/run.ts), `verdict replay`, the gate probes and the
 * benchmark all run this one function and cannot drift apart.
 */
import type { Corpus } from "../rank/bm25.ts";
import type { Entity } from "../rank/entities.ts";
import {
  commonThreshold,
  corpusLexicon,
  isCommonTerm,
  search,
  type SearchOptions,
  type SearchResult,
} from "../rank/score.ts";
import { bm25Idf } from "../rank/bm25.ts";
import { type TermOrigin, termOrigins, tokenize } from "../rank/tokenize.ts";
import {
  anchorIdf,
  decide,
  type GateContext,
  type GateVerdict,
  type Literal,
  literalsOf,
  preGate,
  promptFiles,
} from "./gate.ts";
import { sameTextKey, statementKey, statementsOf } from "./statements.ts";
import { VERDICT_HINT_MARKER } from "../record/line_parser.ts";
import { hasNotTypedPrefix } from "../agents/claude/prompt.ts";

/**
 * Candidates the ranking hands the gate (it may refuse the best and take the next). Records
 * without an anchor word are not candidates at all, so 15 reach an old, strong decision behind
 * recent chatter: the labelled probes score the same from 10 to 30 (deno task eval:gate).
 */
export const GATE_CANDIDATES = 15;

/**
 * Longest prompt text searched (UTF-16 code units): a longer prompt is searched by its first
 * and last halves of this. The hook must finish inside its deadline on any prompt it accepts
 * (4 MiB of hook JSON), and search time grows with the prompt's distinct words: a 4 MB paste
 * of Chinese is over a million bigrams. 8 Ki characters keeps 99.4% of the 3,466 typed
 * prompts of the development histories (the evaluation data replay reads) whole; a longer one is a
 * paste, whose request is at its start or its end.
 */
export const HINT_PROMPT_MAX_CHARS = 8 * 1024;

/** The text a prompt is searched by: itself, or its start and end (see HINT_PROMPT_MAX_CHARS). */
export function promptForSearch(prompt: string): string {
  if (prompt.length <= HINT_PROMPT_MAX_CHARS) return prompt;
  const half = HINT_PROMPT_MAX_CHARS / 2;
  let head = half;
  let tail = prompt.length - half;
  // Never cut inside a surrogate pair.
  if (isHighSurrogate(prompt.charCodeAt(head - 1))) head--;
  if (isHighSurrogate(prompt.charCodeAt(tail - 1))) tail++;
  return `${prompt.slice(0, head)}\n${prompt.slice(tail)}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

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
  /** Record ids and statement keys already shown in this session (the cooldown ledger). */
  readonly shown: ReadonlySet<string>;
  readonly entities: readonly Entity[];
  /** Config hook_personas: when non-empty, only these folder names get hints. */
  readonly personas: readonly string[];
  /** Quotes at most (1 to MAX_HINT_QUOTES). */
  readonly top: number;
  /** The stored text of document `doc` (read for the few candidates the gate looks into). */
  readonly textOf: (doc: number) => string;
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

/**
 * A statement this long at least (in sameTextKey characters) repeats the prompt when the prompt
 * holds it word for word: shorter ones ("use pnpm") are what a prompt re-asking a decision says.
 */
export const REPEAT_MIN_KEY_CHARS = 24;

/** A prompt is read to the search bound (its start and end), and a long sentence of it is kept. */
const PROMPT_LIMITS = { maxChars: HINT_PROMPT_MAX_CHARS + 1, maxStatementChars: HINT_PROMPT_MAX_CHARS + 1 };

/** The typed part of a prompt: its statements, pasted material left out (statements.ts). */
export function typedPrompt(
  prompt: string,
): { text: string; sentences: readonly string[]; keys: Set<string>; readonly whole: string } {
  // The prompt's start and end within the bound, read whole: what a person typed may run long.
  const statements = statementsOf(promptForSearch(prompt), PROMPT_LIMITS).statements;
  const sentences = statements.map((s) => s.text);
  const text = sentences.join("\n");
  const keys = new Set(statements.map((s) => statementKey(s.text)));
  if (text !== "") keys.add(statementKey(text));
  let whole: string | undefined;
  return {
    text,
    sentences,
    keys,
    // sameTextKey of the typed text, made only when a statement is compared with it.
    get whole() {
      return whole ??= sameTextKey(text);
    },
  };
}

/** The pre-ranking rules for a request; null when the prompt may be searched. */
export function refuseEarly(
  req: Pick<HintRequest, "prompt" | "cwd" | "personas">,
  typed = typedPrompt(req.prompt),
) {
  return preGate({
    prompt: req.prompt,
    typed: typed.text,
    cwd: req.cwd,
    personas: req.personas,
    machineMade: isMachineMade,
  });
}

/** The hook's search options for a request: the hint's weights, exclusions and anchor floor. */
export function searchOptions(
  corpus: Corpus,
  req: HintRequest,
  top: number,
  origins: readonly TermOrigin[],
  literals: readonly Literal[] = [],
): SearchOptions {
  const files = promptFiles(origins);
  return {
    // A file the prompt names, and the words of a literal it quotes, start candidates however
    // many conversations use them.
    startTerms: literals.length === 0 ? files : new Set([...files, ...literals.flatMap((l) => l.terms)]),
    mode: "hint",
    nowMs: req.nowMs,
    ...(req.cwd ? { project: req.cwd } : {}),
    entities: req.entities,
    excludeSession: req.session,
    excludeIds: req.shown,
    top,
    // A record without an anchor word is never quoted: do not even score it.
    minCandidateIdf: anchorIdf(corpus.docCount),
    // The searched text's terms, as its origins were made (the same tokenize, the same lexicon).
    queryTerms: origins.map((o) => o.term),
  };
}

/** What the gate needs beside the ranking, for a request over `corpus`. */
function gateContext(
  corpus: Corpus,
  req: HintRequest,
  typed: ReturnType<typeof typedPrompt>,
  origins: readonly TermOrigin[],
  literals: readonly Literal[],
): GateContext {
  const lexicon = corpusLexicon(corpus);
  const threshold = commonThreshold(corpus);
  const known = new Map<string, number>();
  const dfOf = (term: string) => {
    let df = known.get(term);
    if (df === undefined) known.set(term, df = corpus.docFreq(term));
    return df;
  };
  return {
    textOf: req.textOf,
    literals,
    typed: typed.text,
    sentences: typed.sentences,
    tokenize: (text) => tokenize(text, lexicon),
    termIdf: (term) => bm25Idf(corpus.docCount, dfOf(term)),
    isCommon: (term) => isCommonTerm(corpus, term, dfOf(term), threshold),
    origins,
    promptKeys: typed.keys,
    shownKeys: req.shown,
    // A short prompt ("commit and push") is said again in passing; a long one resent is a template.
    sendsAgain: (doc) =>
      typed.whole.length >= REPEAT_MIN_KEY_CHARS && typedPrompt(req.textOf(doc)).whole === typed.whole,
    repeats: (statement) => {
      const k = sameTextKey(statement);
      return k.length >= REPEAT_MIN_KEY_CHARS && typed.whole.includes(k);
    },
  };
}

/**
 * Why the hook would not quote document `doc` for this request (for evaluation: a relevant
 * record the hint missed): a pre-ranking rule, "not a candidate" (no anchor word of the prompt
 * starts it, or it is excluded), the rule on the whole prompt that refused every candidate, its
 * rank when the hint was full before reaching it, and the rule the gate gives it judged alone.
 */
export function whyNotQuoted(
  corpus: Corpus,
  req: HintRequest,
  doc: number,
): { rule: string; detail: string; rank: number | null; judgedAlone: string | null } {
  const typed = typedPrompt(req.prompt);
  const refused = refuseEarly(req, typed);
  if (refused) return { ...refused, rank: null, judgedAlone: null };
  const lexicon = corpusLexicon(corpus);
  const origins = termOrigins(typed.text, lexicon);
  const literals = literalsOf(typed.text, (t) => tokenize(t, lexicon));
  const result = search(corpus, typed.text, searchOptions(corpus, req, corpus.docCount, origins, literals));
  const rank = result.hits.findIndex((h) => h.doc === doc);
  if (rank < 0) {
    return {
      rule: "not-a-candidate",
      detail: "no anchor word of the prompt is in it",
      rank: null,
      judgedAlone: null,
    };
  }
  const hit = result.hits[rank]!;
  const alone = decide({ ...result, hits: [hit] }, 1, gateContext(corpus, req, typed, origins, literals));
  const check = alone.checks[0];
  const judgedAlone = check ? `${check.rule}: ${check.detail}` : `${alone.rule}: ${alone.detail}`;
  if (rank >= GATE_CANDIDATES) {
    return {
      rule: "rank",
      detail: `ranked ${rank + 1}, beyond the ${GATE_CANDIDATES} candidates`,
      rank: rank + 1,
      judgedAlone,
    };
  }
  const inHint = decide(
    { ...result, hits: result.hits.slice(0, GATE_CANDIDATES) },
    req.top,
    gateContext(corpus, req, typed, origins, literals),
  );
  const mine = inHint.checks.find((c) => c.id === hit.id);
  if (mine !== undefined) return { rule: mine.rule, detail: mine.detail, rank: rank + 1, judgedAlone };
  // Not judged: the hint was full before it, or a rule on the whole prompt refused every candidate.
  return inHint.speak
    ? {
      rule: "unjudged",
      detail: `the hint had its ${inHint.quotes.length} quote(s) before reaching it`,
      rank: rank + 1,
      judgedAlone,
    }
    : { rule: inHint.rule, detail: inHint.detail, rank: rank + 1, judgedAlone };
}

/** Decides one prompt's hint over `corpus`. Deterministic: same inputs, same outcome. */
export function hintFor(corpus: Corpus, req: HintRequest): HintOutcome {
  const typed = typedPrompt(req.prompt);
  const refused = refuseEarly(req, typed);
  if (refused) {
    return { verdict: { speak: false, ...refused, hits: [], quotes: [], checks: [] }, result: null };
  }
  if (corpus.docCount === 0) {
    return {
      verdict: {
        speak: false,
        rule: "no-candidates",
        detail: "no records yet",
        hits: [],
        quotes: [],
        checks: [],
      },
      result: null,
    };
  }
  // The search reads what the prompt says, not what it pastes: a pasted log asks nothing.
  const lexicon = corpusLexicon(corpus);
  const origins = termOrigins(typed.text, lexicon);
  const literals = literalsOf(typed.text, (t) => tokenize(t, lexicon));
  const result = search(corpus, typed.text, searchOptions(corpus, req, GATE_CANDIDATES, origins, literals));
  const verdict = decide(result, req.top, gateContext(corpus, req, typed, origins, literals));
  return { verdict, result };
}
