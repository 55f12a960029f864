/**
 * `verdict show ID…`: a record as the archive holds it: its fields, its source position, the
 * statements the hint would quote of it, and its state (live, retracted by …, muted, pinned,
 * forgotten). Reads only.
 */
import { sourcePosition, type VerdictRecord } from "../../record/record.ts";
import { EXIT, InputError } from "../../errors.ts";
import { decisionStatements } from "../../gate/decisions.ts";
import { neutralise } from "../../rank/quote.ts";
import { Archive } from "../../store/archive.ts";
import { readMarks } from "../../store/marks.ts";
import { storePaths } from "../../store/paths.ts";
import { forgottenAt } from "../../store/tombstones.ts";
import { booleanOption } from "../../plan/args.ts";
import { checkedIds, recordOrFail, statesOf } from "../marking.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

interface Shown {
  readonly id: string;
  readonly state: readonly string[];
  readonly record: VerdictRecord | null;
  readonly source: string | null;
  readonly quoted: readonly string[];
}

function text(s: Shown): string {
  const lines = [`id:       ${s.id}`, `state:    ${s.state.join("; ")}`];
  const r = s.record;
  if (r === null) return lines.join("\n") + "\n";
  lines.push(
    `kind:     ${r.kind} (${r.origin})`,
    `time:     ${r.time}`,
    `project:  ${r.project || "-"}`,
    `session:  ${r.session ?? "-"}`,
    `source:   ${s.source}`,
  );
  if (s.quoted.length === 0) lines.push("quoted:   (nothing: no decision statement the hint would quote)");
  else {
    lines.push("quoted:");
    for (const q of s.quoted) lines.push(`  > ${neutralise(q).replaceAll("\n", "\n  > ")}`);
  }
  lines.push("text:");
  for (const line of neutralise(r.text).split("\n")) lines.push(`  | ${line}`);
  return lines.join("\n") + "\n";
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const ids = checkedIds(plan.args.positionals, "show");
  const archive = Archive.openForRead(storePaths(plan.paths.records));
  if (archive === null) {
    throw new InputError(
      `There is no archive at "${storePaths(plan.paths.records).db}"`,
      'run "verdict collect" first',
    );
  }
  const shown: Shown[] = [];
  try {
    const marks = readMarks(archive);
    for (const id of ids) {
      const forgotten = archive.recordById(id) === null ? forgottenAt(archive, id) : null;
      if (forgotten !== null) {
        shown.push({
          id,
          state: [`forgotten on ${forgotten.slice(0, 10)}`],
          record: null,
          source: null,
          quoted: [],
        });
        continue;
      }
      const record = recordOrFail(archive, id);
      shown.push({
        id,
        state: statesOf(marks, id),
        record,
        source: sourcePosition(record),
        quoted: decisionStatements(record.text),
      });
    }
  } finally {
    archive.close();
  }
  if (booleanOption(plan.args, "json")) {
    const out = shown.map((s) => ({
      id: s.id,
      state: s.state,
      source: s.source,
      quoted: s.quoted,
      record: s.record,
    }));
    await io.stdout(JSON.stringify(ids.length === 1 ? out[0] : out, null, 2) + "\n");
  } else await io.stdout(shown.map(text).join("\n"));
  return EXIT.ok;
}
