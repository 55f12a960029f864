/**
 * `verdict replay`: how noisy the hint would have been on the user's own history, and on what.
 * Reads the records file, replays its typed prompts in time order through the hook's own
 * decision (src/replay/replay.ts), and prints each prompt that fired, with what it quoted and the
 * rule that spoke, then a summary.
 */
import { asRecord, type VerdictRecord } from "../../record/record.ts";
import { RECORD_ORIGINS } from "../../agents/registry.ts";
import { compileCredentialRules, holdsCredential } from "../../record/secrets.ts";
import { InputError } from "../../errors.ts";
import { readToEnd } from "../../fsutil/bytes.ts";
import { explainRanking, renderHint } from "../../gate/render.ts";
import { loadEntities } from "../../lookup/recall.ts";
import { oneLine } from "../../rank/quote.ts";
import { replayArchive, replayerFor, type ReplayEvent } from "../../replay/replay.ts";
import { booleanOption, intOption, stringOption } from "../../plan/args.ts";
import { dateOption, projectOption } from "../window.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { storePaths } from "../../store/paths.ts";
import { archiveRecordLines } from "../../store/reader.ts";

/** Characters of a prompt or quote on one line of the text report. */
const LINE_CHARS = 160;
/** Records listed under "quoted most often". */
const MOST_QUOTED = 10;
/** Progress is redrawn every this many prompts (on a terminal only). */
const PROGRESS_EVERY = 250;

interface Window {
  readonly since: string | null;
  readonly until: string | null;
  readonly project: string | null;
  readonly last: number | null;
}

function windowOf(plan: CommandPlan): Window {
  return {
    since: dateOption(plan, "since"),
    until: dateOption(plan, "until"),
    project: projectOption(plan),
    last: stringOption(plan.args, "last") === undefined
      ? null
      : intOption(plan.args, "last", 0, 1, 10_000_000),
  };
}

function inWindow(w: Window, r: VerdictRecord): boolean {
  if (w.since !== null && r.time < w.since) return false;
  if (w.until !== null && r.time >= w.until) return false;
  if (w.project !== null && r.project !== w.project && !r.project.startsWith(`${w.project}/`)) return false;
  return true;
}

/**
 * Every record of the archive (an older verdict's records file before the first collect
 * migrated it); a damaged line is left out (collect reports it).
 */
async function readRecords(recordsPath: string): Promise<VerdictRecord[]> {
  const paths = storePaths(recordsPath);
  const records: VerdictRecord[] = [];
  const take = (line: string) => {
    try {
      const r = asRecord(JSON.parse(line), RECORD_ORIGINS);
      if (r) records.push(r);
    } catch {
      // Damaged line: left out.
    }
  };
  let found = false;
  for (const line of archiveRecordLines(paths)) {
    found = true;
    take(line);
  }
  if (found) return records;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(paths.legacy.records, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new InputError(
        `Cannot replay "${paths.db}": there is no archive yet`,
        'run "verdict collect" first',
      );
    }
    throw err;
  }
  const bytes = await readToEnd(file);
  file.close();
  for (const line of new TextDecoder().decode(bytes ?? new Uint8Array()).split("\n")) {
    if (line !== "") take(line);
  }
  return records;
}

function shortSession(s: string | null): string {
  return s === null ? "no session" : s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function eventText(e: ReplayEvent, explain: boolean): string {
  const p = e.prompt;
  const v = e.outcome.verdict;
  const head = `${p.time.slice(0, 16).replace("T", " ")}  ${p.project || "no project"}  ${
    shortSession(p.session)
  }`;
  if (!v.speak) {
    return explain
      ? `${head}\n  prompt: ${oneLine(p.text, LINE_CHARS)}\n  silent (${v.rule}): ${v.detail}\n\n`
      : "";
  }
  const lines = [head, `  prompt: ${oneLine(p.text, LINE_CHARS)}`];
  lines.push(`  notice: ${renderHint(e.quotes).notice}`);
  for (const q of e.quotes) {
    const r = q.record;
    lines.push(
      `  quoted: ${r.id} (${r.time.slice(0, 10)}, ${r.kind}, ${r.project || "no project"}): ${
        oneLine(q.text, LINE_CHARS)
      }`,
    );
  }
  lines.push(`  rule: spoke: ${v.checks.filter((c) => c.rule === "spoke").map((c) => c.detail).join(" | ")}`);
  if (explain) lines.push(...explainRanking(e.outcome.result, v).map((l) => `  ${l}`));
  return lines.join("\n") + "\n\n";
}

interface Summary {
  readonly records: number;
  readonly prompts: number;
  readonly fired: number;
  readonly byRule: Record<string, number>;
  readonly mostQuoted: { record: VerdictRecord; count: number }[];
  readonly first: string | null;
  readonly last: string | null;
}

function summarize(records: number, events: readonly ReplayEvent[]): Summary {
  const byRule: Record<string, number> = {};
  const quoted = new Map<string, { record: VerdictRecord; count: number }>();
  for (const e of events) {
    const rule = e.outcome.verdict.rule;
    byRule[rule] = (byRule[rule] ?? 0) + 1;
    for (const r of e.quoted) {
      const q = quoted.get(r.id) ?? { record: r, count: 0 };
      q.count++;
      quoted.set(r.id, q);
    }
  }
  const mostQuoted = [...quoted.values()].sort((a, b) =>
    b.count - a.count || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0)
  ).slice(0, MOST_QUOTED);
  return {
    records,
    prompts: events.length,
    fired: events.filter((e) => e.outcome.verdict.speak).length,
    byRule: Object.fromEntries(Object.entries(byRule).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
    mostQuoted,
    first: events[0]?.prompt.time ?? null,
    last: events.at(-1)?.prompt.time ?? null,
  };
}

function share(n: number, d: number): string {
  return d === 0 ? "0%" : `${(100 * n / d).toFixed(1)}%`;
}

function summaryText(s: Summary, path: string): string {
  const span = s.first ? ` (${s.first.slice(0, 10)} → ${s.last!.slice(0, 10)})` : "";
  const lines = [
    `replayed ${s.prompts} prompt(s)${span} of ${path} (${s.records} records)`,
    `fired on ${s.fired} of ${s.prompts} prompts (${share(s.fired, s.prompts)})`,
    `by rule: ${Object.entries(s.byRule).map(([k, v]) => `${k} ${v}`).join(", ") || "-"}`,
  ];
  if (s.mostQuoted.length > 0) {
    lines.push("quoted most often:");
    for (const q of s.mostQuoted) {
      lines.push(
        `  ${String(q.count).padStart(4)}×  ${q.record.id} (${q.record.time.slice(0, 10)}): ${
          oneLine(q.record.text, LINE_CHARS - 30)
        }`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

function recordJson(r: VerdictRecord) {
  return { id: r.id, kind: r.kind, time: r.time, project: r.project, session: r.session, text: r.text };
}

function eventJson(e: ReplayEvent, explain: boolean) {
  const v = e.outcome.verdict;
  return {
    prompt: recordJson(e.prompt),
    fired: v.speak,
    rule: v.rule,
    detail: v.detail,
    ...(v.speak
      ? {
        notice: renderHint(e.quotes).notice,
        quotes: e.quotes.map((q) => ({ ...recordJson(q.record), quote: q.text })),
      }
      : {}),
    ...(explain ? { checks: v.checks.map((c) => ({ id: c.id, rule: c.rule, detail: c.detail })) } : {}),
  };
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const window = windowOf(plan);
  const json = booleanOption(plan.args, "json");
  const explain = booleanOption(plan.args, "explain");
  const entities = await loadEntities(plan.config.entities);
  // An archive older than a credential rule may still hold what it matches: never replay it.
  const rules = compileCredentialRules(plan.config.credential_patterns);
  const records = (await readRecords(plan.paths.records)).filter((r) => !holdsCredential(r.text, rules));
  let targets = records.filter((r) => r.kind === "prompt" && inWindow(window, r));
  if (window.last !== null) {
    targets = [...targets].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.id < b.id ? -1 : 1))
      .slice(-window.last);
  }
  const selected = new Set(targets.map((r) => r.id));
  const replayer = replayerFor(records, { entities, personas: plan.config.hook_personas });
  const events: ReplayEvent[] = [];
  const progress = io.stderrIsTerminal && !json;
  for (const e of replayArchive(replayer, records, (r) => selected.has(r.id))) {
    events.push(e);
    if (!json) {
      const text = eventText(e, explain);
      if (text) await io.stdout(text);
    }
    if (progress && events.length % PROGRESS_EVERY === 0) {
      await io.stderr(`\rreplay: ${events.length}/${selected.size} prompts`);
    }
  }
  if (progress && events.length >= PROGRESS_EVERY) await io.stderr("\r\x1b[K");
  const summary = summarize(records.length, events);
  if (json) {
    await io.stdout(
      JSON.stringify(
        {
          records: summary.records,
          prompts: summary.prompts,
          fired: summary.fired,
          share: summary.prompts === 0 ? 0 : Math.round(10_000 * summary.fired / summary.prompts) / 10_000,
          by_rule: summary.byRule,
          most_quoted: summary.mostQuoted.map((q) => ({ ...recordJson(q.record), count: q.count })),
          events: events.filter((e) => explain || e.outcome.verdict.speak).map((e) => eventJson(e, explain)),
        },
        null,
        2,
      ) + "\n",
    );
  } else {
    await io.stdout(summaryText(summary, plan.paths.records));
  }
  return 0;
}
