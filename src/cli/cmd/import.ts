/**
 * `verdict import FILE`: merges an archive exported on another machine (`verdict export`, JSON
 * lines) into this one, in one transaction under the collect lock: a record whose id is here
 * already is kept as it is (nothing duplicated, so importing twice changes nothing), one a forget
 * here removed stays out (its tombstone), one holding a credential is dropped. A line that is not
 * a record stops the import before anything is written (exit 3, naming the line).
 */
import { RECORD_ORIGINS } from "../../agents/registry.ts";
import { withArchive } from "../../collect/edit.ts";
import { readLines } from "../../collect/lines.ts";
import { asRecord } from "../../record/record.ts";
import { compileCredentialRules, holdsCredential } from "../../record/secrets.ts";
import { EXIT, InputError, UsageError } from "../../errors.ts";
import { storePaths } from "../../store/paths.ts";
import { sweepSegments } from "../../store/sweep.ts";
import { ArchiveUpdate } from "../../store/update.ts";
import { booleanOption } from "../../plan/args.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

interface Imported {
  readonly read: number;
  readonly added: number;
  readonly present: number;
  readonly forgotten: number;
  readonly credentials: number;
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const [file, ...rest] = plan.args.positionals;
  if (file === undefined || rest.length > 0) {
    throw new UsageError(
      '"verdict import" takes one file: an export from another machine',
      "verdict import records.jsonl",
    );
  }
  try {
    if (!(await Deno.stat(file)).isFile) throw new InputError(`"${file}" is not a file`);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new InputError(`Cannot import "${file}": there is no such file`);
    }
    throw err;
  }
  const rules = compileCredentialRules(plan.config.credential_patterns);
  const paths = storePaths(plan.paths.records);
  const summary = await withArchive(paths, async (archive): Promise<Imported> => {
    const update = new ArchiveUpdate(archive, []);
    let read = 0;
    let added = 0;
    let present = 0;
    let credentials = 0;
    let bad: string | null = null;
    try {
      const result = await readLines(file, 0, 0, (text, lineNo) => {
        if (bad !== null) return;
        let r;
        try {
          r = asRecord(JSON.parse(text), RECORD_ORIGINS);
        } catch {
          r = null;
        }
        if (r === null) {
          bad = `line ${lineNo} is not a record of docs/records.md`;
          return;
        }
        read++;
        if (holdsCredential(r.text, rules)) credentials++;
        else if (update.importRecord(r)) added++;
        else present++;
      });
      if (bad === null && result.invalidUtf8 + result.oversized > 0) {
        bad = "a line is not UTF-8 or is too long";
      }
      if (bad !== null) {
        throw new InputError(
          `Cannot import "${file}": ${bad}; nothing was imported`,
          'import what "verdict export" prints',
        );
      }
      update.updateLexicon();
      await update.index();
      update.commit();
    } catch (err) {
      update.rollback();
      throw err;
    }
    await sweepSegments(archive);
    const forgotten = update.refused;
    return { read, added, present: present - forgotten, forgotten, credentials };
  });
  if (booleanOption(plan.args, "json")) await io.stdout(JSON.stringify(summary) + "\n");
  else {
    await io.stdout(
      `import: ${summary.added} new of ${summary.read} record(s); ${summary.present} already here, ` +
        `${summary.forgotten} forgotten here, ${summary.credentials} holding a credential dropped\n`,
    );
  }
  return EXIT.ok;
}
