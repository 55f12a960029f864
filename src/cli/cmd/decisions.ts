/**
 * `verdict decisions [--project DIR] [--since DATE] [--json | --markdown]`: per project, newest
 * first, the statements verdict treats as decisions, each with its date, id and state
 * (src/report/decisions.ts). `--markdown` writes a digest a person may keep in the repository.
 * Reads only.
 */
import { RECORD_ORIGINS } from "../../agents/registry.ts";
import { asRecord, type VerdictRecord } from "../../record/record.ts";
import { EXIT, UsageError } from "../../errors.ts";
import { inline, oneLine } from "../../rank/quote.ts";
import { type DecisionEntry, decisionsOf, type ProjectDecisions } from "../../report/decisions.ts";
import { Archive } from "../../store/archive.ts";
import { readMarks } from "../../store/marks.ts";
import { storePaths } from "../../store/paths.ts";
import { booleanOption } from "../../plan/args.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { inWindow, type RecordWindow, windowOf } from "../window.ts";

/** Characters of a statement on one line of the text and Markdown lists. */
const STATEMENT_CHARS = 300;

/** The decisions of the archive at `recordsPath` within `window` (none when there is no archive). */
export function archiveDecisions(recordsPath: string, window: RecordWindow): ProjectDecisions[] {
  const paths = storePaths(recordsPath);
  const archive = Archive.openForRead(paths);
  if (archive === null) return [];
  try {
    const marks = readMarks(archive);
    const records = (function* () {
      for (const row of archive.st("SELECT line FROM records").iterate() as Iterable<{ line: string }>) {
        const r = asRecord(JSON.parse(row.line), RECORD_ORIGINS);
        if (r) yield r;
      }
    })();
    return decisionsOf(
      records,
      marks,
      (r) => inWindow(window, r),
      (r: VerdictRecord) => r.source_file === paths.remembered,
    );
  } finally {
    archive.close();
  }
}

function stateText(e: DecisionEntry): string {
  return e.state.length === 1 && e.state[0] === "live" ? "" : `  [${e.state.map(inline).join("; ")}]`;
}

function text(projects: readonly ProjectDecisions[]): string {
  const out: string[] = [];
  for (const p of projects) {
    out.push(`${inline(p.project) || "(no project)"}: ${p.decisions.length} decision(s)`);
    for (const e of p.decisions) {
      const copies = e.copies > 1 ? `  (said ${e.copies} times)` : "";
      out.push(`  ${e.time.slice(0, 10)}  ${e.id}  ${e.kind}${stateText(e)}${copies}`);
      for (const s of e.statements) out.push(`    ${oneLine(s, STATEMENT_CHARS)}`);
    }
    out.push("");
  }
  return out.join("\n");
}

/** A statement as one line of Markdown that cannot open a block of its own. */
function mdLine(s: string): string {
  return oneLine(s, STATEMENT_CHARS).replace(/[<>]/g, (c) => (c === "<" ? "&lt;" : "&gt;"));
}

function markdown(projects: readonly ProjectDecisions[]): string {
  const out = [
    "# Decisions",
    "",
    "Written by `verdict decisions --markdown`: per project, newest first, the statements verdict treats",
    "as decisions. Each names its record (`verdict show ID`); a retracted, superseded or muted one says so.",
  ];
  for (const p of projects) {
    out.push("", `## ${mdLine(p.project) || "(no project)"}`, "");
    for (const e of p.decisions) {
      const state = e.state.length === 1 && e.state[0] === "live"
        ? ""
        : ` · ${e.state.map(mdLine).join("; ")}`;
      const copies = e.copies > 1 ? ` · said ${e.copies} times` : "";
      out.push(`- **${e.time.slice(0, 10)}** ${e.statements.map(mdLine).join(" ")}  `);
      out.push(`  \`${e.id}\` · ${e.kind}${state}${copies}`);
    }
  }
  return out.join("\n") + "\n";
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const json = booleanOption(plan.args, "json");
  const md = booleanOption(plan.args, "markdown");
  if (json && md) throw new UsageError("Give --json or --markdown, not both");
  if (plan.args.positionals.length > 0) {
    throw new UsageError(
      `"verdict decisions" takes no words ("${plan.args.positionals[0]}")`,
      "verdict decisions --help",
    );
  }
  const projects = archiveDecisions(plan.paths.records, windowOf(plan));
  if (json) await io.stdout(JSON.stringify({ projects }, null, 2) + "\n");
  else if (md) await io.stdout(markdown(projects));
  else if (projects.length === 0) await io.stdout("no decisions found\n");
  else await io.stdout(text(projects));
  return EXIT.ok;
}
