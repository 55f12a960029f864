/**
 * `verdict retract | unretract | mute | unmute ID…`: what a person says about records, kept in the
 * archive beside them (src/store/marks.ts) in one transaction under the collect lock. A retracted
 * decision is never shown as current by the hint (what replaced it, or that it no longer holds);
 * a muted record is never hinted (with --here: not in this project). Recall still finds both,
 * marked.
 */
import { existingArchive, inTransaction, withArchive } from "../../collect/edit.ts";
import { EXIT, InputError, UsageError } from "../../errors.ts";
import { clearMark, readMarks, setMark } from "../../store/marks.ts";
import { booleanOption, stringOption } from "../../plan/args.ts";
import { nowMs } from "../../plan/clock.ts";
import { checkedIds, recordOrFail, statesOf } from "../marking.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const command = plan.command;
  const ids = checkedIds(plan.args.positionals, command);
  const at = new Date(nowMs(plan.asOf)).toISOString();
  const by = stringOption(plan.args, "by");
  const why = stringOption(plan.args, "why");
  const here = booleanOption(plan.args, "here");
  if (by !== undefined) checkedIds([by], command);
  if (by !== undefined && ids.includes(by)) {
    throw new UsageError(
      `--by ${by} names the record being retracted`,
      "--by names the record that replaces it",
    );
  }
  if (why !== undefined && why.trim() === "") {
    throw new UsageError("--why needs a reason", 'e.g. --why "we moved to pnpm"');
  }
  const paths = existingArchive(plan.paths.records);
  const states = await withArchive(paths, (archive) => {
    const before = readMarks(archive);
    // Every id is checked before anything changes. Undoing a mark needs only the mark: its record
    // may have left the archive since (doctor names such marks).
    const marked = (id: string) =>
      command === "unretract" ? before.retracted.has(id) : command === "unmute" && before.muted.has(id);
    for (const id of ids) if (!marked(id)) recordOrFail(archive, id);
    if (by !== undefined) recordOrFail(archive, by);
    inTransaction(archive, () => {
      for (const id of ids) {
        switch (command) {
          case "retract":
            setMark(archive, id, "retracted", "", at, { by: by ?? null, why: why ?? null });
            break;
          case "unretract":
            if (!before.retracted.has(id)) throw new InputError(`Record ${id} is not retracted`);
            clearMark(archive, id, "retracted", null);
            break;
          case "mute":
            setMark(archive, id, "muted", here ? plan.cwd : "", at, {});
            break;
          case "unmute": {
            const scopes = before.muted.get(id) ?? [];
            if (here ? !scopes.includes(plan.cwd) : scopes.length === 0) {
              throw new InputError(`Record ${id} is not muted${here ? ` in ${plan.cwd}` : ""}`);
            }
            clearMark(archive, id, "muted", here ? plan.cwd : null);
            break;
          }
        }
      }
    });
    const after = readMarks(archive);
    return Promise.resolve(ids.map((id) => ({ id, state: statesOf(after, id) })));
  });
  if (booleanOption(plan.args, "json")) await io.stdout(JSON.stringify(states, null, 2) + "\n");
  else await io.stdout(states.map((s) => `${s.id}: ${s.state.join("; ")}\n`).join(""));
  return EXIT.ok;
}
