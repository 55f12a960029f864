/**
 * The shared part of `verdict recall` and `verdict query`: run the Recaller and print the ranked
 * quotes as text or JSON, with `--explain` showing the search terms and every weight applied.
 */
import { nowMs } from "../plan/clock.ts";
import { booleanOption, intOption } from "../plan/args.ts";
import { EXIT, UsageError } from "../errors.ts";
import { type CommandIO, type CommandPlan, transcriptRoots } from "../plan/plan.ts";
import { compileCredentialRules } from "../record/secrets.ts";
import { inline, jsonWithoutRawBreaks, neutralise, truncate } from "../rank/quote.ts";
import { openRecaller, RECALL_QUOTE_CHARS, type RecallAnswer, type RecallOptions } from "../lookup/recall.ts";
import type { SearchHit } from "../rank/score.ts";
import type { Copies } from "../lookup/recall.ts";
import { sourcePosition } from "../record/record.ts";
import { bounded, windowOf } from "./window.ts";

/** Most quotes a look-up may ask for. */
export const MAX_TOP = 50;

export interface LookupRequest {
  readonly plan: CommandPlan;
  readonly io: CommandIO;
  readonly entitiesPath: string | null;
  readonly project: string | null;
  readonly excludeSession: string | null;
}

export function queryText(plan: CommandPlan, command: string): string {
  const text = plan.args.positionals.join(" ").trim();
  if (text === "") {
    throw new UsageError(
      `"verdict ${command}" needs the words to look up`,
      `e.g. verdict ${command} "pg_dump backups"`,
    );
  }
  return text;
}

export async function runLookup(command: string, req: LookupRequest): Promise<number> {
  const { plan, io } = req;
  const query = queryText(plan, command);
  const top = intOption(plan.args, "top", 5, 1, MAX_TOP);
  const window = windowOf(plan);
  const recaller = openRecaller({
    recordsPath: plan.paths.records,
    quoteRoots: [...transcriptRoots(plan.roots), ...plan.roots.docs],
    entitiesPath: req.entitiesPath,
    credentialRules: compileCredentialRules(plan.config.credential_patterns),
  });
  const options: RecallOptions = {
    top,
    asOfMs: nowMs(plan.asOf),
    project: req.project,
    excludeSession: req.excludeSession,
    ...(bounded(window) ? { window } : {}),
  };
  try {
    const answer = await recaller.recall(query, options);
    const explain = booleanOption(plan.args, "explain");
    if (booleanOption(plan.args, "json")) {
      await io.stdout(
        jsonWithoutRawBreaks(JSON.stringify(answerJson(query, plan.asOf, answer, explain), null, 2)) + "\n",
      );
    } else {
      await io.stdout(answerText(answer, explain));
    }
    return EXIT.ok;
  } finally {
    recaller.close();
  }
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

export function answerJson(
  query: string,
  asOf: string | null,
  answer: RecallAnswer,
  explain: boolean,
): unknown {
  const ex = answer.explain;
  return {
    query,
    as_of: asOf,
    hits: answer.hits.map((h, i) => ({
      rank: i + 1,
      id: h.id,
      kind: h.kind,
      origin: h.origin,
      time: h.time,
      project: h.project,
      session: h.session,
      source_file: h.source_file,
      source_line: h.source_line,
      ...(h.source_ref !== undefined ? { source_ref: h.source_ref } : {}),
      score: round(h.score),
      matched: h.matched,
      quote: neutralise(truncate(h.quote, RECALL_QUOTE_CHARS)),
      copies: {
        count: h.copies.count,
        first: h.copies.first,
        last: h.copies.last,
        complete: h.copies.complete,
      },
      state: h.state ?? ["live"],
      ...(explain && ex ? { weights: weightsOf(ex.hits[i]) } : {}),
    })),
    reason: answer.reason,
    ...(explain && ex
      ? {
        explain: {
          terms: ex.terms.map((t) => ({
            term: t.term,
            df: t.df,
            idf: round(t.idf),
            common: t.common,
            from_entity: t.fromEntity,
          })),
          skipped: ex.skipped,
          entities: ex.entities,
          candidates: ex.candidates,
        },
      }
      : {}),
  };
}

function weightsOf(hit: SearchHit | undefined) {
  if (!hit) return null;
  return {
    bm25: round(hit.bm25),
    source: hit.weights.source,
    marker: hit.weights.marker,
    recency: round(hit.weights.recency),
    project: hit.weights.project,
    entity: hit.weights.entity,
    coverage: round(hit.coverage),
  };
}

function date(time: string): string {
  return time.slice(0, 10);
}

/**
 * "  copies: 3, 2026-01-02 to 2026-02-10" for a text found more than once ("at least 3" when not
 * every match was ranked); nothing for a text found once.
 */
export function copiesText(copies: Copies): string {
  if (copies.count < 2) return "";
  const count = copies.complete ? `${copies.count}` : `at least ${copies.count}`;
  return `  copies: ${count}, ${inline(date(copies.first))} to ${inline(date(copies.last))}`;
}

/** "  [retracted on …]" for a record the person marked; nothing for a live one. */
export function stateText(state: readonly string[]): string {
  return state.length === 1 && state[0] === "live" ? "" : `  [${state.map(inline).join("; ")}]`;
}

export function answerText(answer: RecallAnswer, explain: boolean): string {
  const out: string[] = [];
  const ex = answer.explain;
  if (explain && ex) {
    out.push("search terms (rarest first; common words last):");
    for (const t of ex.terms) {
      out.push(
        `  ${t.term}  df=${t.df} idf=${t.idf.toFixed(3)}${t.common ? " common" : ""}${
          t.fromEntity ? ` (alias of ${t.fromEntity})` : ""
        }`,
      );
    }
    for (const s of ex.skipped) {
      out.push(`  ${s.term}  skipped: ${s.reason === "absent" ? "in no record" : "over the term limit"}`);
    }
    out.push(`candidates: ${ex.candidates}`, "");
  }
  if (answer.hits.length === 0) {
    out.push(`no match: ${answer.reason ?? "nothing ranked"}`);
    return out.join("\n") + "\n";
  }
  answer.hits.forEach((h, i) => {
    out.push(
      `${i + 1}. ${date(h.time)}  ${h.kind}  ${inline(h.project) || "-"}  ${
        inline(sourcePosition({ ...h, commit: null }))
      }  score ${h.score.toFixed(4)}  matched: ${h.matched.map(inline).join(", ")}${
        copiesText(h.copies)
      }  id ${h.id}${stateText(h.state ?? ["live"])}`,
    );
    const w = explain ? ex?.hits[i] : undefined;
    if (w) {
      out.push(
        `   bm25 ${w.bm25.toFixed(4)} × source ${w.weights.source} × marker ${w.weights.marker} × recency ${
          w.weights.recency.toFixed(4)
        } × project ${w.weights.project} × entity ${w.weights.entity}  (coverage ${w.coverage.toFixed(2)})`,
      );
    }
    for (const line of neutralise(truncate(h.quote, RECALL_QUOTE_CHARS)).split("\n")) {
      out.push(`   > ${line}`);
    }
  });
  return out.join("\n") + "\n";
}
