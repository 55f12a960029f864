/**
 * `verdict export`: every record of the archive as JSON lines on stdout, oldest first (time, then
 * id): the records file format of docs/records.md, for jq, backups and other tools. A record
 * holding a credential is withheld, as every text leaving the process is screened: an archive
 * may predate a rule (the next collect removes such records).
 */
import { readLines } from "../../collect/lines.ts";
import { compileCredentialRules, holdsCredential } from "../../record/secrets.ts";
import { archiveRecordLines } from "../../store/reader.ts";
import { storePaths } from "../../store/paths.ts";
import { EXIT } from "../../errors.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

/** Lines are written out in batches of about this many characters. */
const BATCH_CHARS = 1 << 20;

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const paths = storePaths(plan.paths.records);
  const rules = compileCredentialRules(plan.config.credential_patterns);
  let batch = "";
  let count = 0;
  let withheld = 0;
  const emit = async (line: string) => {
    if (holdsCredential(textOf(line), rules)) {
      withheld++;
      return;
    }
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
  if (count === 0 && withheld === 0) {
    await io.stderr(`export: no records in ${paths.db}; run "verdict collect" first\n`);
  }
  if (withheld > 0) {
    await io.stderr(
      `export: ${withheld} record(s) withheld: they hold a credential; "verdict collect" removes them from the archive\n`,
    );
  }
  return EXIT.ok;
}

/** A record line's text (the whole line when it does not parse, so it is screened all the same). */
function textOf(line: string): string {
  try {
    const text = (JSON.parse(line) as { text?: unknown }).text;
    return typeof text === "string" ? text : line;
  } catch {
    return line;
  }
}
