/**
 * `verdict export`: every record of the archive as JSON lines on stdout, oldest first (time, then
 * id): the records file format of docs/records.md, for jq, backups and other tools.
 */
import { readLines } from "../../collect/lines.ts";
import { archiveRecordLines } from "../../store/reader.ts";
import { storePaths } from "../../store/paths.ts";
import { EXIT } from "../../errors.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

/** Lines are written out in batches of about this many characters. */
const BATCH_CHARS = 1 << 20;

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const paths = storePaths(plan.paths.records);
  let batch = "";
  let count = 0;
  const emit = async (line: string) => {
    batch += line + "\n";
    count++;
    if (batch.length >= BATCH_CHARS) {
      await io.stdout(batch);
      batch = "";
    }
  };
  let found = false;
  for (const line of archiveRecordLines(paths)) {
    found = true;
    await emit(line);
  }
  if (!found) {
    // Not migrated yet: the older verdict's records file is already in this format.
    try {
      const lines: string[] = [];
      await readLines(paths.legacy.records, 0, 0, (text) => void lines.push(text));
      for (const line of lines) await emit(line);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  if (batch) await io.stdout(batch);
  if (count === 0) await io.stderr(`export: no records in ${paths.db}; run "verdict collect" first\n`);
  return EXIT.ok;
}
