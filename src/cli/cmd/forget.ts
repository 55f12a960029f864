/**
 * `verdict forget ID… | --match TEXT [--dry-run] [--yes]`: records leave the archive and its
 * index at once (src/collect/edit.ts forgetRecords), in one transaction, and a tombstone (hashes,
 * never the text) keeps later collects and imports from storing them again while their source
 * still holds them. `--match` lists what it would forget and asks first.
 */
import { RECORD_ORIGINS } from "../../agents/registry.ts";
import { asRecord, type VerdictRecord } from "../../record/record.ts";
import { existingArchive, forgetRecords, withArchive } from "../../collect/edit.ts";
import { EXIT, InputError, UsageError } from "../../errors.ts";
import { oneLine } from "../../rank/quote.ts";
import type { Archive } from "../../store/archive.ts";
import { booleanOption, stringOption } from "../../plan/args.ts";
import { nowMs } from "../../plan/clock.ts";
import { checkedIds, recordOrFail } from "../marking.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

/** Records whose text holds `text` (case folded for ASCII), oldest first. */
function matching(archive: Archive, text: string): VerdictRecord[] {
  const rows = archive.st(
    "SELECT line FROM records WHERE instr(lower(json_extract(line, '$.text')), lower(?)) > 0 ORDER BY time, id",
  ).all(text) as { line: string }[];
  return rows.map((r) => asRecord(JSON.parse(r.line), RECORD_ORIGINS)!);
}

function listed(r: VerdictRecord): string {
  return `  ${r.id}  ${r.time.slice(0, 10)}  ${r.kind}  ${r.project || "-"}  "${oneLine(r.text, 70)}"`;
}

/** Asks on the terminal; false when the answer is not yes. */
async function confirm(io: CommandIO, question: string): Promise<boolean> {
  await io.stderr(`${question} [y/N] `);
  const buf = new Uint8Array(64);
  const n = await Deno.stdin.read(buf);
  const answer = new TextDecoder().decode(buf.subarray(0, n ?? 0)).trim().toLowerCase();
  return answer === "y" || answer === "yes";
}

function stdinIsTerminal(): boolean {
  try {
    return Deno.stdin.isTerminal();
  } catch {
    return false;
  }
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const match = stringOption(plan.args, "match");
  const dryRun = booleanOption(plan.args, "dry-run");
  const yes = booleanOption(plan.args, "yes");
  const json = booleanOption(plan.args, "json");
  if (match !== undefined && plan.args.positionals.length > 0) {
    throw new UsageError("Give record ids or --match TEXT, not both", "verdict forget --help");
  }
  if (match !== undefined && match.trim().length < 3) {
    throw new UsageError("--match needs at least 3 characters", "a shorter text matches too much to forget");
  }
  const ids = match === undefined ? checkedIds(plan.args.positionals, "forget") : [];
  const at = new Date(nowMs(plan.asOf)).toISOString();
  const paths = existingArchive(plan.paths.records);
  return await withArchive(paths, async (archive) => {
    const targets = match === undefined
      ? ids.map((id) => recordOrFail(archive, id))
      : matching(archive, match);
    if (targets.length === 0) {
      if (json) await io.stdout(JSON.stringify({ forgotten: [], dry_run: dryRun }) + "\n");
      else await io.stderr(`forget: no record holds "${match}"\n`);
      return EXIT.ok;
    }
    if (dryRun || match !== undefined) {
      await io.stderr(
        `${dryRun ? "would forget" : "forget"} ${targets.length} record(s):\n${
          targets.map(listed).join("\n")
        }\n`,
      );
    }
    if (dryRun) {
      if (json) {
        await io.stdout(JSON.stringify({ forgotten: targets.map((r) => r.id), dry_run: true }) + "\n");
      }
      return EXIT.ok;
    }
    if (match !== undefined && !yes) {
      if (!stdinIsTerminal()) {
        throw new InputError(
          `Not forgetting ${targets.length} record(s) matched by --match without a confirmation`,
          "stdin is not a terminal to ask on: check the list with --dry-run, then add --yes",
        );
      }
      if (!(await confirm(io, `Forget these ${targets.length} record(s)?`))) {
        await io.stderr("forget: nothing forgotten\n");
        return EXIT.ok;
      }
    }
    const gone = await forgetRecords(
      archive,
      targets.map((r) => r.id),
      at,
      (m) => void io.stderr(`forget: ${m}\n`),
    );
    if (json) await io.stdout(JSON.stringify({ forgotten: gone.map((r) => r.id), dry_run: false }) + "\n");
    else await io.stdout(`forgot ${gone.length} record(s): ${gone.map((r) => r.id).join(", ")}\n`);
    return EXIT.ok;
  });
}
