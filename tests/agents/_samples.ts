/**
 * The real client samples (`../shared/clients/<agent>/samples/`, read from there at test time) as
 * tests lay them out. Each agent's `tests/agents/<id>/samples.ts` exports one `AgentSamples`: it
 * puts the agent's real session files in a HOME exactly where the agent writes them, and says
 * which records collect must yield from them (decided by hand, in the agent's expectations.ts).
 * The agent's own collect test uses its set alone; tests/agents/all_agents_home_test.ts puts
 * every set in one HOME. `assertCollectsExactly` is the end-to-end check both run.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { asRecord, type VerdictRecord } from "../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../src/agents/registry.ts";
import { exportedRecords, runCli, tempHome } from "../cli_helper.ts";

/** One record collect must yield, with where it comes from in the laid-out HOME. */
export interface SampleRecord {
  readonly kind: "prompt" | "note";
  /** The agent's registry id. */
  readonly origin: string;
  readonly session: string | null;
  readonly project: string;
  readonly time: string;
  readonly text: string;
  /** The file in HOME (for a database: the database). */
  readonly file: string;
  /** Its 1-based line (0 for a database row). */
  readonly line: number;
}

/** What one agent's samples became in a HOME. */
export interface LaidOut {
  readonly agent: string;
  /** Sample file name → where it was put. */
  readonly files: ReadonlyMap<string, string>;
  /** What collect must yield with the default options. */
  readonly records: readonly SampleRecord[];
  /** The prompts include_headless adds (`-p`, `exec` and `run` sessions). */
  readonly headless: readonly SampleRecord[];
  /** Ends what the lay-out left open (OpenCode's writer holds its database and log open). */
  close(): void;
}

export interface AgentSamples {
  /** The registry id (src/agents/registry.ts). */
  readonly agent: string;
  /** Why the samples cannot be used (a test prints it and skips), or null when they are there. */
  missing(): string | null;
  /** Puts the real sessions, and the side files the agent writes beside them, in `home`. */
  layOut(home: string): Promise<LaidOut>;
  /** Puts the agent's own settings files, as the sample runs left them, in `home`. */
  layOutSettings(home: string): Promise<void>;
}

/** `../shared/clients/<folder>/samples/` as a path (with the trailing slash). */
export function clientSamplesDir(folder: string): string {
  return fileURLToPath(new URL(`../../../shared/clients/${folder}/samples/`, import.meta.url));
}

/** Why the named files are not all in `dir`, or null. */
export function missingIn(dir: string, names: readonly string[]): string | null {
  for (const name of names) {
    try {
      if (!Deno.statSync(`${dir}${name}`).isFile) return `${dir}${name} is not a file`;
    } catch {
      return `${dir}${name} is absent`;
    }
  }
  return null;
}

/** Copies `from` to `to`, making `to`'s folder first. The copy is writable, as the agent's own is. */
export async function place(from: string, to: string): Promise<string> {
  await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
  await Deno.writeFile(to, await Deno.readFile(from));
  return to;
}

/** The archive collect wrote (a records path), one record a line as export prints it. */
export async function readRecords(file: string): Promise<VerdictRecord[]> {
  return (await exportedRecords(file)).split("\n").filter((l) => l !== "").map((l) =>
    asRecord(JSON.parse(l), RECORD_ORIGINS)!
  );
}

/** One line saying everything that must match about a record (the id aside: it is derived). */
export function describe(r: SampleRecord | VerdictRecord): string {
  const file = "file" in r ? r.file : r.source_file;
  const line = "line" in r ? r.line : r.source_line;
  return `${r.origin} ${r.kind} ${file}:${line} session=${r.session} project=${r.project} ${r.time} ` +
    JSON.stringify(r.text);
}

function described(records: readonly (SampleRecord | VerdictRecord)[]): string[] {
  return records.map(describe).sort();
}

/**
 * Texts that only a program writes (hook context, the probe's hint, shell escapes, compaction
 * summaries, slash commands): none may be in any record. The exact
 * comparison already excludes them; this names the leak when one happens.
 */
const MACHINE_MADE = [
  "VERDICT-HINT",
  "<hook_context>",
  "qwen:user-prompt-submit-context",
  "<bash-input>",
  "<user_shell_command>",
  "<local-command",
  "The following tool was executed by the user",
  "This session is being continued",
  "CONTEXT CHECKPOINT",
];

/**
 * Runs the real `verdict collect` in `home` (laid out with `sets`) and requires: exactly the
 * union of the sets' records, with origin, session, project, time, file and line, nothing else;
 * a second collect adding nothing and leaving the records byte for byte as they were; and
 * include_headless, set between two plain collects (no --full: each file's state remembers the
 * options it was read under), adding exactly the sets' headless prompts, and taking them away
 * again when it is unset.
 */
export async function assertCollectsExactly(home: string, sets: readonly LaidOut[]): Promise<void> {
  const env = { HOME: home };
  const archive = `${home}/.local/share/verdict/records.db`;
  const want = sets.flatMap((s) => s.records);
  const first = await runCli(["collect"], { env });
  assert.equal(first.code, 0, first.stderr);
  const got = await readRecords(archive);
  assert.deepEqual(described(got), described(want), "the records are exactly the hand-decided ones");
  assert.match(first.stderr, new RegExp(`\\b${want.length} new, ${want.length} records\\b`), first.stderr);
  const text = await exportedRecords(archive);
  for (const marker of MACHINE_MADE) assert.ok(!text.includes(marker), `a record holds "${marker}"`);

  const before = await exportedRecords(archive);
  const again = await runCli(["collect"], { env });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, new RegExp(`nothing new, ${want.length} records`), again.stderr);
  assert.equal(await exportedRecords(archive), before, "a second collect changed the records");

  const config = `${home}/include-headless.json`;
  await Deno.writeTextFile(config, '{ "include_headless": true }\n');
  const extra = sets.flatMap((s) => s.headless);
  const h = await runCli(["collect"], { env: { ...env, VERDICT_CONFIG: config } });
  assert.equal(h.code, 0, h.stderr);
  assert.match(
    h.stderr,
    new RegExp(
      `\\b${extra.length === 0 ? "(0|nothing)" : extra.length} new, ${want.length + extra.length} records\\b`,
    ),
    h.stderr,
  );
  assert.deepEqual(
    described(await readRecords(archive)),
    described([...want, ...extra]),
    "include_headless adds exactly the headless prompts",
  );
  const off = await runCli(["collect"], { env });
  assert.equal(off.code, 0, off.stderr);
  assert.deepEqual(
    described(await readRecords(archive)),
    described(want),
    "include_headless unset again takes the headless prompts away",
  );
  assert.equal(
    await exportedRecords(archive),
    before,
    "unset again, the archive is as the first collect left it",
  );
}

/** A hand-decided record of an expectations file: where, when, what. */
export interface ExpectedEntry {
  readonly line: number;
  readonly time: string;
  readonly text: string;
}

/** The hand-decided expectations of one sample file, in the shape the agents' files share. */
export interface FileExpectation {
  readonly session: string | null;
  readonly project: string;
  readonly prompts: readonly ExpectedEntry[];
  readonly notes: readonly ExpectedEntry[];
  readonly headlessPrompts: readonly ExpectedEntry[];
}

/** The records (and headless prompts) `agent`'s sample files, placed at `file`, must yield. */
export function expectedFrom(
  agent: string,
  placed: readonly { readonly file: string; readonly expectation: FileExpectation }[],
): Pick<LaidOut, "records" | "headless"> {
  const of = (file: string, e: FileExpectation, kind: SampleRecord["kind"], list: readonly ExpectedEntry[]) =>
    list.map((x): SampleRecord => ({
      kind,
      origin: agent,
      session: e.session,
      project: e.project,
      time: x.time,
      text: x.text,
      file,
      line: x.line,
    }));
  return {
    records: placed.flatMap(({ file, expectation: e }) => [
      ...of(file, e, "prompt", e.prompts),
      ...of(file, e, "note", e.notes),
    ]),
    headless: placed.flatMap(({ file, expectation: e }) => of(file, e, "prompt", e.headlessPrompts)),
  };
}

/** Writes the gzip file `from` unpacked to `to` (making `to`'s folder first). */
export async function placeUnpacked(from: string, to: string): Promise<string> {
  await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
  const input = await Deno.open(from);
  const output = await Deno.open(to, { write: true, create: true, truncate: true });
  await input.readable.pipeThrough(new DecompressionStream("gzip")).pipeTo(output.writable);
  return to;
}

/**
 * Registers the agent's own end-to-end test: its samples alone in a temp HOME, through
 * assertCollectsExactly. Skipped, with the reason printed, when its samples are absent.
 */
export function collectTestOf(samples: AgentSamples, name: string): void {
  const missing = samples.missing();
  if (missing) console.log(`${samples.agent} samples: "${name}" skipped, ${missing}`);
  Deno.test({
    name,
    ignore: missing !== null,
    fn: async () => {
      const home = await tempHome();
      const set = await samples.layOut(home);
      try {
        await assertCollectsExactly(home, [set]);
      } finally {
        set.close();
      }
    },
  });
}
