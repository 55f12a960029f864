/**
 * verify: runs a labelled corpus and reports both error rates. A case is `lost` (compaction
 * would lose work: the right answer is anything but safe_to_compact) or `keep` (nothing would be
 * lost: the right answer is safe_to_compact).
 * - lost let through as safe_to_compact: the dangerous error (any → exit 1 at the CLI);
 * - keep refused (anything but safe_to_compact): over-conservatism, reported, not fatal;
 * - SKIP: the case needed the service and the service was absent, unreachable or not asked
 *   (reasons no_service, service_unreachable, ambiguous_band); listed, in neither rate.
 * A corpus with one label only is refused: "no lost case let through" over a corpus without lost
 * cases is true and meaningless.
 */
import { compileCredentialRules, type CredentialRule } from "../record/secrets.ts";
import { InputError } from "../errors.ts";
import { dirname, joinPath } from "../config/paths.ts";
import { realRoots } from "../sandbox/contain.ts";
import { buildSnapshot } from "./build.ts";
import { assertNoForbiddenKeys } from "./forbidden.ts";
import { type JudgeAnswer, judgeChecked, type JudgeOptions } from "./judge.ts";
import type { ReasonCode, Verdict } from "./rules.ts";
import type { Snapshot } from "./snapshot.ts";

export type CaseLabel = "lost" | "keep";

export interface CorpusCase {
  readonly id: string;
  readonly label: CaseLabel;
  /** A summary object (validated when the case is built), or null for a transcript case. */
  readonly summary: unknown;
  /** A transcript path (as written in the corpus), or null for a summary case. */
  readonly transcript: string | null;
  /** Free text for the person reading the corpus. */
  readonly note: string | null;
}

const CASE_KEYS = ["id", "label", "summary", "transcript", "note"];

/** Reasons under which a case is SKIP: the service was needed and could not be asked. */
export const SKIP_REASONS: readonly ReasonCode[] = ["no_service", "service_unreachable", "ambiguous_band"];

/** Validates corpus cases (parsed JSON values); `where(i)` names case i in messages. */
export function parseCases(values: readonly unknown[], where: (i: number) => string): CorpusCase[] {
  const seen = new Set<string>();
  const cases = values.map((v, i): CorpusCase => {
    const at = where(i);
    assertNoForbiddenKeys(v, `corpus case at ${at}`);
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new InputError(
        `Cannot read corpus case at ${at}: it must be an object {id, label, summary | transcript}`,
      );
    }
    const obj = v as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      if (!CASE_KEYS.includes(key)) {
        throw new InputError(
          `Cannot read corpus case at ${at}: unknown field "${key}"`,
          `fields: ${CASE_KEYS.join(", ")}`,
        );
      }
    }
    if (typeof obj.id !== "string" || obj.id === "") {
      throw new InputError(`Cannot read corpus case at ${at}: "id" must be a non-empty string`);
    }
    if (seen.has(obj.id)) {
      throw new InputError(`Cannot read corpus case at ${at}: id "${obj.id}" is used twice`);
    }
    seen.add(obj.id);
    if (obj.label !== "lost" && obj.label !== "keep") {
      throw new InputError(`Cannot read corpus case "${obj.id}" at ${at}: "label" must be "lost" or "keep"`);
    }
    const hasSummary = obj.summary !== undefined;
    const hasTranscript = obj.transcript !== undefined;
    if (hasSummary === hasTranscript) {
      throw new InputError(
        `Cannot read corpus case "${obj.id}" at ${at}: give exactly one of "summary" and "transcript"`,
      );
    }
    if (hasTranscript && (typeof obj.transcript !== "string" || obj.transcript === "")) {
      throw new InputError(`Cannot read corpus case "${obj.id}" at ${at}: "transcript" must be a path`);
    }
    if (obj.note !== undefined && typeof obj.note !== "string") {
      throw new InputError(`Cannot read corpus case "${obj.id}" at ${at}: "note" must be a string`);
    }
    return {
      id: obj.id,
      label: obj.label as CaseLabel,
      summary: hasSummary ? obj.summary : null,
      transcript: hasTranscript ? obj.transcript as string : null,
      note: typeof obj.note === "string" ? obj.note : null,
    };
  });
  if (cases.length === 0) {
    throw new InputError("refusing to verify an empty corpus", "add lost and keep cases");
  }
  const labels = new Set(cases.map((c) => c.label));
  if (labels.size < 2) {
    const only = [...labels][0];
    throw new InputError(
      `refusing to verify a corpus whose cases are all "${only}": both directions must be measured`,
      'add cases labelled "lost" and "keep"; "no lost case let through" over one label says nothing',
    );
  }
  return cases;
}

/** Parses a JSONL corpus (blank lines skipped); `file` names it in messages. */
export function parseCorpusText(text: string, file: string): CorpusCase[] {
  const values: unknown[] = [];
  const lines: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      values.push(JSON.parse(line));
    } catch (err) {
      throw new InputError(`Cannot parse corpus "${file}" line ${i + 1}: ${(err as Error).message}`);
    }
    lines.push(i + 1);
  });
  return parseCases(values, (i) => `${file}:${lines[i]}`);
}

export type CaseOutcome = "ok" | "lost_let_through" | "keep_refused" | "skip";

export interface CaseResult {
  readonly id: string;
  readonly label: CaseLabel;
  readonly verdict: Verdict;
  readonly reason: ReasonCode;
  readonly unlanded: number;
  readonly outcome: CaseOutcome;
}

export interface VerifyReport {
  readonly cases: number;
  readonly lost: number;
  readonly keep: number;
  /** Ids of lost cases judged safe_to_compact (the dangerous error). */
  readonly lostLetThrough: readonly string[];
  /** Ids of keep cases not judged safe_to_compact (over-conservatism). */
  readonly keepRefused: readonly string[];
  /** Ids of cases that needed the absent or unreachable service. */
  readonly skipped: readonly string[];
  /** lostLetThrough / judged lost cases, or null when every lost case was skipped. */
  readonly lostLetThroughRate: number | null;
  /** keepRefused / judged keep cases, or null when every keep case was skipped. */
  readonly keepRefusedRate: number | null;
  readonly allSkipped: boolean;
  readonly results: readonly CaseResult[];
}

/** Decides one case's outcome from its label and answer. Pure. */
export function caseOutcome(label: CaseLabel, answer: Pick<JudgeAnswer, "verdict" | "reason">): CaseOutcome {
  if (SKIP_REASONS.includes(answer.reason)) return "skip";
  const safe = answer.verdict === "safe_to_compact";
  if (label === "lost") return safe ? "lost_let_through" : "ok";
  return safe ? "ok" : "keep_refused";
}

/** Summarises case results into the report. Pure. */
export function summarise(results: readonly CaseResult[]): VerifyReport {
  const ids = (o: CaseOutcome) => results.filter((r) => r.outcome === o).map((r) => r.id);
  const judged = (label: CaseLabel) =>
    results.filter((r) => r.label === label && r.outcome !== "skip").length;
  const rate = (n: number, d: number) => (d === 0 ? null : n / d);
  const lostLetThrough = ids("lost_let_through");
  const keepRefused = ids("keep_refused");
  const skipped = ids("skip");
  return {
    cases: results.length,
    lost: results.filter((r) => r.label === "lost").length,
    keep: results.filter((r) => r.label === "keep").length,
    lostLetThrough,
    keepRefused,
    skipped,
    lostLetThroughRate: rate(lostLetThrough.length, judged("lost")),
    keepRefusedRate: rate(keepRefused.length, judged("keep")),
    allSkipped: results.length > 0 && skipped.length === results.length,
    results,
  };
}

/** Builds a case's snapshot (summary cases and transcript cases alike). */
export type CaseBuilder = (c: CorpusCase) => Promise<Snapshot>;

/** Runs every case: build, judge, outcome. A build error (bad case, over budget) stops the run. */
export async function runCases(
  cases: readonly CorpusCase[],
  build: CaseBuilder,
  options: JudgeOptions,
): Promise<VerifyReport> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    const snapshot = await build(c);
    const answer = await judgeChecked(snapshot, options);
    results.push({
      id: c.id,
      label: c.label,
      verdict: answer.verdict,
      reason: answer.reason,
      unlanded: answer.counts.total,
      outcome: caseOutcome(c.label, answer),
    });
  }
  return summarise(results);
}

export interface VerifyOptions extends JudgeOptions {
  /** Folder relative transcript paths resolve against (the corpus file's), or null: absolute only. */
  readonly baseDir: string | null;
  /** Real directories a transcript case must resolve under (containment check). */
  readonly transcriptRoots: readonly string[];
  /** The credential rules for building transcript cases; the built-in ones when absent. */
  readonly credentialRules?: readonly CredentialRule[];
}

/**
 * Verifies corpus cases given as plain JSON values (the MCP tool's input, or a parsed corpus
 * file). Throws InputError for a bad or single-labelled corpus, StateBudgetError when a case's
 * state is over budget.
 */
export async function verifyCorpus(cases: readonly unknown[], options: VerifyOptions): Promise<VerifyReport> {
  const parsed = parseCases(cases, (i) => `$.cases[${i}]`);
  return await runCases(parsed, caseBuilder(options), options);
}

/** Reads and verifies a JSONL corpus file; transcript cases resolve beside it and must stay under it. */
export async function verifyCorpusFile(path: string, options: JudgeOptions): Promise<VerifyReport> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new InputError(`Cannot read corpus "${path}": no such file`);
    }
    throw err;
  }
  const cases = parseCorpusText(text, path);
  const baseDir = dirname(path);
  const roots = await realRoots([baseDir]);
  return await runCases(cases, caseBuilder({ ...options, baseDir, transcriptRoots: roots }), options);
}

function caseBuilder(options: VerifyOptions): CaseBuilder {
  const credentialRules = options.credentialRules ?? compileCredentialRules([]);
  return async (c) => {
    if (c.transcript === null) {
      return (await buildSnapshot({ summary: c.summary }, { config: options.config, credentialRules }))
        .snapshot;
    }
    let path = c.transcript;
    if (!path.startsWith("/")) {
      if (options.baseDir === null) {
        throw new InputError(
          `Cannot read corpus case "${c.id}": transcript "${path}" must be an absolute path`,
        );
      }
      path = joinPath(options.baseDir, path);
    }
    const built = await buildSnapshot({ transcript_path: path }, {
      config: options.config,
      credentialRules,
      transcriptRoots: options.transcriptRoots,
    });
    return built.snapshot;
  };
}
