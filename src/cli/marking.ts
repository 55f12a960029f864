/**
 * What the commands that take record ids share (show, forget, retract, unretract, mute, unmute,
 * remember, decisions): checking an id's shape, finding its record, and saying its state.
 */
import { RECORD_ORIGINS } from "../agents/registry.ts";
import type { VerdictRecord } from "../record/record.ts";
import { asRecord } from "../record/record.ts";
import { InputError } from "../errors.ts";
import type { Archive } from "../store/archive.ts";
import { describeMarks, type Marks } from "../store/marks.ts";

export { describeMarks as statesOf };
import { forgottenAt } from "../store/tombstones.ts";

/** A record id: its kind's initial and 16 hex digits (src/collect/record.ts recordId). */
const ID_SHAPE = /^[pndct][0-9a-f]{16}$/;

const WHERE_IDS = 'ids are printed by "verdict replay", "recall", "query", "decisions" and "hint --explain"';

/** The ids of a command line, each checked for its shape (an input error names the bad one). */
export function checkedIds(ids: readonly string[], command: string): string[] {
  if (ids.length === 0) {
    throw new InputError(
      `"verdict ${command}" needs a record id`,
      `e.g. verdict ${command} p04d4b5f7876b4275; ${WHERE_IDS}`,
    );
  }
  for (const id of ids) {
    if (!ID_SHAPE.test(id)) {
      throw new InputError(
        `"${id}" is not a record id (a kind letter p, n, d, c or t and 16 hex digits)`,
        WHERE_IDS,
      );
    }
  }
  return [...new Set(ids)];
}

/** The record `id` names, or an input error that says whether it was forgotten. */
export function recordOrFail(archive: Archive, id: string): VerdictRecord {
  const row = archive.recordById(id);
  if (row !== null) return asRecord(JSON.parse(row.line), RECORD_ORIGINS)!;
  const forgotten = forgottenAt(archive, id);
  if (forgotten !== null) {
    throw new InputError(
      `Record ${id} was forgotten on ${forgotten.slice(0, 10)}`,
      "it is no longer in the archive",
    );
  }
  throw new InputError(`No record with id ${id} in ${archive.paths.db}`, WHERE_IDS);
}

/** The records that replace others (`retract --by`), by the id they replace. */
export function supersededBy(marks: Marks): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, r] of marks.retracted) if (r.by) out.set(id, r.by);
  return out;
}
