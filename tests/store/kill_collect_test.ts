/**
 * Crash safety of the store, against real processes: `verdict collect` is SIGKILLed at random
 * moments (while it reads, stages, merges, writes segments, commits or sweeps), over a history
 * that grows, is appended to and has a file rewritten between rounds. After every kill the
 * archive must hold exactly the records it held before that collect or exactly those a full
 * collect of the history gives (never a mix), and its index must rank them as an index built
 * from scratch over the same records does; the next collect must then run at once, complete, and
 * leave what a full collect leaves, byte for byte.
 *
 * The kill moments come from a seeded generator (VERDICT_KILL_SEED, printed) spread over the
 * time an uninterrupted collect takes in the same run.
 */
import assert from "node:assert/strict";
import { syntheticText } from "../../bench/hint_bench_data.ts";
import { seededRandom } from "../../scripts/seeded_random.ts";
import { promptLine } from "../../bench/scale_history.ts";
import { asRecord, type VerdictRecord } from "../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../src/agents/registry.ts";
import type { Corpus } from "../../src/rank/bm25.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { search, type SearchOptions } from "../../src/rank/score.ts";
import { sqliteFiles, storePaths } from "../../src/store/paths.ts";
import { openArchiveReader } from "../../src/store/reader.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { denoDir, exportedRecords, runCli, tempHome } from "../cli_helper.ts";
import { DatabaseSync } from "node:sqlite";

/** Changes to the history, each collected by a collect that is killed, then by one let finish. */
const STEPS = 12;
const AS_OF = "2026-06-01T00:00:00Z";
const SESSION_PREFIX = "k111c011-0000-4000-8000-";

interface World {
  readonly home: string;
  readonly env: Record<string, string>;
  readonly records: string;
}

function projectDir(home: string, p: number): string {
  return `${home}/.claude/projects/-home-dev-kill${p}`;
}

/** Session `s`'s prompts `from` to `to` (exclusive), as Claude Code writes them. */
function sessionLines(s: number, from: number, to: number, variant: number): string {
  const session = `${SESSION_PREFIX}${String(s).padStart(12, "0")}`;
  const r = seededRandom(1000 * s + 7 * variant + 1);
  const lines: string[] = [];
  for (let k = 0; k < to; k++) {
    const text = syntheticText(r); // drawn for every k, so a prefix is the same text
    if (k < from) continue;
    const ms = Date.parse("2025-01-01T00:00:00Z") + (s * 1000 + k) * 60_000;
    lines.push(promptLine(session, `/home/dev/kill${s % 3}`, `u${s}-${k}-${variant}`, ms, text));
  }
  return lines.map((l) => l + "\n").join("");
}

function sessionFile(home: string, s: number): string {
  return `${projectDir(home, s % 3)}/${SESSION_PREFIX}${String(s).padStart(12, "0")}.jsonl`;
}

/** Step `step`'s change to the history: new sessions, a grown one, and (after the first) a rewritten one. */
async function growHistory(home: string, step: number): Promise<void> {
  for (let p = 0; p < 3; p++) await Deno.mkdir(projectDir(home, p), { recursive: true });
  const sizes = [40, 8, 25, 15];
  const first = step * 100;
  for (let s = first; s < first + sizes[step % sizes.length]!; s++) {
    await Deno.writeTextFile(sessionFile(home, s), sessionLines(s, 0, 100, 0));
  }
  if (step > 0) {
    // A live session grows (read from its offset), another is rewritten shorter (its records replaced).
    await Deno.writeTextFile(sessionFile(home, first - 100), sessionLines(first - 100, 100, 160, 0), {
      append: true,
    });
    await Deno.writeTextFile(sessionFile(home, first - 99), sessionLines(first - 99, 0, 30, step));
  }
}

function spawnCollect(world: World): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, "collect", "--quiet"],
    env: { ...world.env, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: denoDir() },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
}

/** The records of `exported` (export's JSONL). */
function parse(exported: string): VerdictRecord[] {
  return exported.split("\n").filter((l) => l !== "").map((l) => asRecord(JSON.parse(l), RECORD_ORIGINS)!);
}

/** A search's result with document numbers left out (they differ between indexes). */
function comparable(corpus: Corpus, query: string, options: SearchOptions) {
  const r = search(corpus, query, options);
  return { ...r, hits: r.hits.map((h) => ({ ...h, doc: undefined })) };
}

const QUERIES = [
  "deploy the auth service with pnpm",
  "数据库 备份 以后",
  "we decided to use postgres for orders",
  "svc_1-7 rollout",
  "the build cache",
  "migrate the config",
];

/** The archive is whole: SQLite says so, and its index ranks as one built now from its records. */
async function assertConsistent(world: World, exported: string, label: string): Promise<void> {
  const paths = storePaths(world.records);
  const db = new DatabaseSync(paths.db, { readOnly: true });
  try {
    const check = db.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[];
    assert.deepEqual(check.map((r) => r.integrity_check), ["ok"], label);
  } finally {
    db.close();
  }
  const reader = await openArchiveReader(paths);
  assert.ok(reader, label);
  try {
    const records = parse(exported);
    assert.equal(reader.corpus.docCount, records.length, `${label}: the index counts the records`);
    const mem = buildMemoryIndex(records);
    const nowMs = Date.parse(AS_OF);
    for (const q of QUERIES) {
      for (
        const options of [
          { mode: "hint" as const, nowMs, top: 10, project: "/home/dev/kill1", minCandidateIdf: 0 },
          { mode: "recall" as const, nowMs, top: 10 },
        ]
      ) {
        assert.deepEqual(
          comparable(reader.corpus, q, options),
          comparable(mem, q, options),
          `${label}: query ${JSON.stringify(q)} (${options.mode})`,
        );
      }
    }
  } finally {
    reader.close();
  }
}

/**
 * What is on disk for an archive, for a failure's message: each SQLite file's size, and what a
 * connection reads from them (an archive that reads as empty after a collect that succeeded
 * was seen once; this says whether its file, its log or the reading lost the records).
 */
async function describeArchive(records: string): Promise<string> {
  const paths = storePaths(records);
  const files: string[] = [];
  for (const f of sqliteFiles(paths.db)) {
    const name = f.slice(f.lastIndexOf("/") + 1);
    try {
      files.push(`${name} ${(await Deno.stat(f)).size} bytes`);
    } catch {
      files.push(`${name} absent`);
    }
  }
  let read: string;
  try {
    const db = new DatabaseSync(paths.db, { readOnly: true });
    try {
      const pages = db.prepare("PRAGMA page_count").get() as { page_count: number };
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number };
      const rows = tables.n > 0
        ? db.prepare("SELECT count(*) AS n FROM records").get() as { n: number }
        : null;
      read = `${pages.page_count} pages, ${tables.n} schema entries, ${rows?.n ?? "no"} records`;
    } finally {
      db.close();
    }
  } catch (err) {
    read = `unreadable: ${err instanceof Error ? err.message : String(err)}`;
  }
  return `${files.join(", ")}; read: ${read}`;
}

/** The number of records in an export. */
const recordCount = (exported: string) => exported === "" ? 0 : exported.split("\n").length - 1;

/** What a full collect of the history gives, in a records path of its own. */
async function fullCollect(world: World, step: number): Promise<{ exported: string; path: string }> {
  const path = `${world.home}/full-${step}.db`;
  const r = await runCli(["collect", "--out", path, "--quiet"], { env: world.env });
  assert.equal(r.code, 0, r.stderr);
  return { exported: await exportedRecords(path), path };
}

Deno.test("collect SIGKILLed at random moments leaves the old or the new archive; the next collect completes and equals a full collect", async () => {
  const seed = Number(Deno.env.get("VERDICT_KILL_SEED") ?? "20260601");
  console.log(`kill moments from VERDICT_KILL_SEED=${seed}`);
  const random = seededRandom(seed);
  const home = await tempHome();
  const world: World = {
    home,
    env: { HOME: home, VERDICT_ASOF: AS_OF },
    records: `${home}/.local/share/verdict/records.db`,
  };
  let killed = 0;
  const outcomes = { old: 0, new: 0 };
  let before = "";
  // How long a collect of one step's news takes here (the kill lands within it); first a guess.
  let span = 1500;
  try {
    for (let step = 0; step < STEPS; step++) {
      await growHistory(home, step);
      const expected = await fullCollect(world, step);
      const delay = Math.floor(random() * span);
      const child = spawnCollect(world);
      await new Promise((r) => setTimeout(r, delay));
      try {
        child.kill("SIGKILL");
      } catch {
        // It had finished: this one was not killed.
      }
      const status = await child.status;
      await child.stderr.cancel();
      if (status.signal === "SIGKILL") killed++;
      const label = `step ${step}, kill at ${delay} ms (${status.signal ?? `exit ${status.code}`})`;
      let after = "";
      try {
        await Deno.stat(storePaths(world.records).db);
        after = await exportedRecords(world.records);
      } catch (err) {
        // Killed before the first collect created the archive: nothing, as before.
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      }
      if (after !== before && after !== expected.exported) {
        assert.fail(
          `${label}: the archive is neither the old nor the new one: ${recordCount(after)} records, ` +
            `old ${recordCount(before)}, new ${recordCount(expected.exported)}; ${await describeArchive(
              world.records,
            )}`,
        );
      }
      if (after === before) outcomes.old++;
      else outcomes.new++;
      if (after !== "") await assertConsistent(world, after, label);

      // The next collect runs at once (no lock in the way), completes, and leaves what a full one does.
      const t = performance.now();
      const next = await runCli(["collect", "--quiet"], { env: world.env });
      span = Math.max(300, performance.now() - t);
      assert.equal(next.code, 0, `${label}: ${next.stderr}`);
      before = await exportedRecords(world.records);
      if (recordCount(before) !== recordCount(expected.exported)) {
        assert.fail(
          `${label}: the collect after the kill left ${recordCount(before)} records, a full collect ` +
            `${recordCount(expected.exported)}; ${await describeArchive(world.records)}`,
        );
      }
      assert.equal(before, expected.exported, `${label}: the collect after the kill equals a full collect`);
      await assertConsistent(world, before, `${label}, then a collect`);
      if (step % 4 === 3 || step === STEPS - 1) await assertSameHints(world, expected.path);
    }
    console.log(
      `${killed} of ${STEPS} collects killed; ${outcomes.old} left the old archive, ${outcomes.new} the new`,
    );
    assert.ok(killed >= STEPS / 2, `only ${killed} of ${STEPS} collects were killed before they finished`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

/** The hint answers over the archive as over the full collect's, byte for byte (--explain too). */
async function assertSameHints(world: World, full: string): Promise<void> {
  const env = { ...world.env, VERDICT_SEEN: "" };
  for (const q of QUERIES) {
    const stdin = JSON.stringify({ session_id: "live", cwd: "/home/dev/kill1", prompt: q });
    const ours = await runCli(["hint", "--explain"], { env, stdin });
    const theirs = await runCli(["hint", "--explain", "--records", full], { env, stdin });
    assert.equal(ours.code, 0, ours.stderr);
    assert.equal(ours.stdout, theirs.stdout, `hint for ${JSON.stringify(q)}`);
    assert.equal(ours.stderr, theirs.stderr, `hint --explain for ${JSON.stringify(q)}`);
  }
}
