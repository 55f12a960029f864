/**
 * `verdict compact judge [--snapshot FILE|-] [--local] [--json]`: one verdict for a snapshot.
 * Exit 0 with any verdict; 2 when the state is over budget; 3 when the snapshot is refused.
 */
import { booleanOption, stringOption } from "../../plan/args.ts";
import { UsageError } from "../../errors.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { type JudgeAnswer, judgeSnapshot } from "../../judge/judge.ts";
import { describeCounts } from "../../judge/rules.ts";
import { readJsonInput } from "./compact_build.ts";

const MAX_SNAPSHOT_BYTES = 16 * 1024 * 1024;

export function formatAnswer(a: JudgeAnswer): string {
  const lines = [
    `${a.verdict} (${a.reason})`,
    `session: ${a.session}`,
    `unlanded: ${describeCounts(a.counts)}`,
    `why: ${a.reasonText}`,
  ];
  if (a.score !== null) lines.push(`score: ${a.score}`);
  if (a.verdict === "wait") {
    lines.push("wait is not permission: land or write down the work before compacting");
  }
  return lines.join("\n") + "\n";
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  if (plan.args.positionals.length > 0) {
    throw new UsageError(
      `Unexpected argument "${plan.args.positionals[0]}" for "verdict compact judge"`,
      "pass the snapshot with --snapshot FILE, or on stdin",
    );
  }
  const value = await readJsonInput(stringOption(plan.args, "snapshot"), io, "snapshot", MAX_SNAPSHOT_BYTES);
  const answer = await judgeSnapshot(value, {
    config: plan.config.judge,
    localOnly: booleanOption(plan.args, "local"),
  });
  await io.stdout(booleanOption(plan.args, "json") ? JSON.stringify(answer) + "\n" : formatAnswer(answer));
  return 0;
}
