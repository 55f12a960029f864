/**
 * `verdict report --html FILE`: one self-contained page (src/report/html.ts): the decisions per
 * project with a search box, replay's figures per week as small plots, and the records quoted most
 * often with the commands that act on them. Reads the archive, replays the hint over the typed
 * prompts of the window (as `verdict replay` does), writes FILE (through a temp file and a rename).
 */
import { RECORD_ORIGINS } from "../../agents/registry.ts";
import { asRecord, type VerdictRecord } from "../../record/record.ts";
import { compileCredentialRules, holdsCredential } from "../../record/secrets.ts";
import { resolvePath } from "../../config/paths.ts";
import { EXIT, InputError, UsageError } from "../../errors.ts";
import { writeTextFileAtomic } from "../../fsutil/atomic.ts";
import { loadEntities } from "../../lookup/recall.ts";
import { type ReplayedPrompt, replayFigures } from "../../report/figures.ts";
import { type QuotedRecord, renderReport } from "../../report/html.ts";
import { replayArchive, replayerFor } from "../../replay/replay.ts";
import { storePaths } from "../../store/paths.ts";
import { archiveRecordLines } from "../../store/reader.ts";
import { intOption, stringOption } from "../../plan/args.ts";
import { nowMs } from "../../plan/clock.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { archiveDecisions } from "./decisions.ts";
import { inWindow, windowOf } from "../window.ts";

/** The page's file: --html FILE, absolute. */
export function reportFile(plan: CommandPlan): string {
  const file = stringOption(plan.args, "html");
  if (file === undefined) {
    throw new UsageError(
      '"verdict report" needs --html FILE',
      "e.g. verdict report --html ~/verdict-report.html",
    );
  }
  return resolvePath(file, plan.cwd, plan.paths.home);
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const file = reportFile(plan);
  const window = windowOf(plan);
  const last = stringOption(plan.args, "last") === undefined
    ? null
    : intOption(plan.args, "last", 0, 1, 10_000_000);
  const paths = storePaths(plan.paths.records);
  const rules = compileCredentialRules(plan.config.credential_patterns);
  const records: VerdictRecord[] = [];
  for (const line of archiveRecordLines(paths)) {
    const r = asRecord(JSON.parse(line), RECORD_ORIGINS);
    // An archive older than a credential rule may still hold what it matches: never show it.
    if (r && !holdsCredential(r.text, rules)) records.push(r);
  }
  if (records.length === 0) {
    throw new InputError(
      `Cannot report on "${paths.db}": there is no archive yet, or it is empty`,
      'run "verdict collect" first',
    );
  }
  let targets = records.filter((r) => r.kind === "prompt" && inWindow(window, r));
  if (last !== null) {
    targets = targets.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.id < b.id ? -1 : 1))
      .slice(-last);
  }
  const selected = new Set(targets.map((r) => r.id));
  const replayer = replayerFor(records, {
    entities: await loadEntities(plan.config.entities),
    personas: plan.config.hook_personas,
  });
  const replayed: ReplayedPrompt[] = [];
  for (const e of replayArchive(replayer, records, (r) => selected.has(r.id))) {
    const v = e.outcome.verdict;
    replayed.push({ time: e.prompt.time, fired: v.speak, rule: v.rule, quoted: e.quoted.map((r) => r.id) });
    if (io.stderrIsTerminal && replayed.length % 250 === 0) {
      await io.stderr(`\rreport: replayed ${replayed.length}/${selected.size} prompts`);
    }
  }
  if (io.stderrIsTerminal && replayed.length >= 250) await io.stderr("\r\x1b[K");
  const figures = replayFigures(replayed);
  const byId = new Map(records.map((r) => [r.id, r]));
  const quoted = new Map<string, QuotedRecord>();
  for (const q of figures.mostQuoted) {
    const r = byId.get(q.id);
    if (r) quoted.set(q.id, { id: r.id, time: r.time, kind: r.kind, project: r.project, text: r.text });
  }
  const decisions = archiveDecisions(plan.paths.records, window).map((p) => ({
    ...p,
    // The same credential screen as the records above.
    decisions: p.decisions.filter((d) => !d.statements.some((s) => holdsCredential(s, rules))),
  })).filter((p) => p.decisions.length > 0);
  const html = renderReport({
    madeAt: new Date(nowMs(plan.asOf)).toISOString(),
    archive: paths.db,
    records: records.length,
    decisions,
    figures,
    quoted,
  });
  await writeTextFileAtomic(file, html, 0o600);
  const total = decisions.reduce((n, p) => n + p.decisions.length, 0);
  await io.stdout(
    `report: ${total} decision(s) in ${decisions.length} project(s), ${figures.prompts} prompt(s) replayed (${figures.fired} hinted) → ${file}\n`,
  );
  return EXIT.ok;
}
