/**
 * `verdict compact verify --corpus FILE [--local] [--json]`: runs a labelled corpus and reports
 * both rates. Exit 1 when a lost case was judged safe_to_compact; 3 for a bad or one-label corpus.
 */
import { booleanOption, stringOption } from "../../plan/args.ts";
import { EXIT, UsageError } from "../../errors.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { verifyCorpusFile, type VerifyReport } from "../../judge/verify.ts";

function pct(rate: number | null): string {
  return rate === null ? "n/a (all skipped)" : `${(rate * 100).toFixed(1)}%`;
}

export function formatReport(r: VerifyReport): string {
  const judgedLost = r.results.filter((c) => c.label === "lost" && c.outcome !== "skip").length;
  const judgedKeep = r.results.filter((c) => c.label === "keep" && c.outcome !== "skip").length;
  const lines = [
    `cases: ${r.cases} (lost ${r.lost}, keep ${r.keep}), skipped ${r.skipped.length}${
      r.allSkipped ? " (all skipped)" : ""
    }`,
    `lost let through as safe_to_compact: ${r.lostLetThrough.length}/${judgedLost} = ${
      pct(r.lostLetThroughRate)
    }`,
    `keep refused (over-conservative): ${r.keepRefused.length}/${judgedKeep} = ${pct(r.keepRefusedRate)}`,
  ];
  if (r.lostLetThrough.length > 0) lines.push(`DANGEROUS, lost let through: ${r.lostLetThrough.join(", ")}`);
  if (r.keepRefused.length > 0) lines.push(`keep refused: ${r.keepRefused.join(", ")}`);
  if (r.skipped.length > 0) {
    lines.push(`SKIP (needed the absent or unreachable service): ${r.skipped.join(", ")}`);
  }
  return lines.join("\n") + "\n";
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const corpus = stringOption(plan.args, "corpus");
  if (corpus === undefined || corpus === "-") {
    throw new UsageError(
      '"verdict compact verify" needs --corpus FILE',
      'e.g. "--corpus examples/compaction-corpus.jsonl"',
    );
  }
  const report = await verifyCorpusFile(corpus, {
    config: plan.config.judge,
    localOnly: booleanOption(plan.args, "local"),
  });
  await io.stdout(booleanOption(plan.args, "json") ? JSON.stringify(report) + "\n" : formatReport(report));
  return report.lostLetThrough.length > 0 ? EXIT.finding : EXIT.ok;
}
