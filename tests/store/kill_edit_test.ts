/**
 * Crash safety of `verdict forget` and `verdict import`, against real processes: forgets are SIGKILLed at seeded
 * random moments (while they take the lock, delete rows, rewrite the segments that indexed the
 * records, commit, sweep or empty the log). After every kill the archive must hold exactly the
 * records it held before that forget or exactly those less the forgotten ones (never a mix),
 * SQLite's integrity check must pass and its index must rank as one built from scratch over the
 * same records; the tombstones must be there exactly when the records are gone. Imports are
 * killed the same way: the archive holds the old records or the old with all the imported ones.
 */
import { RECORD_ORIGINS } from "../../src/agents/registry.ts";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { syntheticText } from "../../bench/hint_bench_data.ts";
import { seededRandom } from "../../scripts/seeded_random.ts";
import { promptLine } from "../../bench/scale_history.ts";
import { asRecord, type VerdictRecord } from "../../src/record/record.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { search } from "../../src/rank/score.ts";
import { storePaths } from "../../src/store/paths.ts";
import { openArchiveReader } from "../../src/store/reader.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { denoDir, exportedRecords, runCli, tempHome } from "../cli_helper.ts";

const ROUNDS = 12;
const AS_OF = "2026-06-01T00:00:00Z";

async function writeHistory(home: string, seed = 77, first = 0): Promise<void> {
  const r = seededRandom(seed);
  for (let s = first; s < first + 30; s++) {
    const dir = `${home}/.claude/projects/-home-dev-forget${s % 3}`;
    await Deno.mkdir(dir, { recursive: true });
    const session = `f0f0f0f0-0000-4000-8000-${String(s).padStart(12, "0")}`;
    const lines: string[] = [];
    for (let k = 0; k < 60; k++) {
      const ms = Date.parse("2025-01-01T00:00:00Z") + (s * 100 + k) * 60_000;
      lines.push(promptLine(session, `/home/dev/forget${s % 3}`, `f${s}-${k}`, ms, syntheticText(r)));
    }
    await Deno.writeTextFile(`${dir}/${session}.jsonl`, lines.map((l) => l + "\n").join(""));
  }
}

function parse(exported: string): VerdictRecord[] {
  return exported.split("\n").filter((l) => l !== "").map((l) => asRecord(JSON.parse(l), RECORD_ORIGINS)!);
}

/** SQLite says the archive is whole, its index ranks as one built now from its records. */
async function assertConsistent(records: string, exported: string, label: string): Promise<void> {
  const paths = storePaths(records);
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
    const list = parse(exported);
    assert.equal(reader.corpus.docCount, list.length, `${label}: the index counts the records`);
    const mem = buildMemoryIndex(list);
    for (const q of ["deploy the auth service with pnpm", "数据库 备份 以后", "migrate the config"]) {
      const options = { mode: "recall" as const, nowMs: Date.parse(AS_OF), top: 10 };
      const strip = (hits: readonly { doc: number }[]) => hits.map((h) => ({ ...h, doc: undefined }));
      assert.deepEqual(
        strip(search(reader.corpus, q, options).hits),
        strip(search(mem, q, options).hits),
        `${label}: ${q}`,
      );
    }
  } finally {
    reader.close();
  }
}

function tombstones(records: string): number {
  const db = new DatabaseSync(storePaths(records).db, { readOnly: true });
  try {
    return Number((db.prepare("SELECT count(*) AS n FROM tombstones").get() as { n: number }).n);
  } finally {
    db.close();
  }
}

Deno.test("forget SIGKILLed at random moments leaves the old or the new archive, never one between", async () => {
  const seed = Number(Deno.env.get("VERDICT_KILL_SEED") ?? "20261207");
  console.log(`kill moments from VERDICT_KILL_SEED=${seed}`);
  const random = seededRandom(seed);
  const home = await tempHome();
  const env = { HOME: home, VERDICT_ASOF: AS_OF };
  const records = `${home}/.local/share/verdict/records.db`;
  try {
    await writeHistory(home);
    assert.equal((await runCli(["collect", "--quiet"], { env })).code, 0);
    let before = await exportedRecords(records);
    let span = 1500;
    // A kill that came after the forget finished moves the next ones earlier: how long a forget
    // takes depends on the machine, and the kills must land while it runs, whatever its speed.
    let shrink = 1;
    let killed = 0;
    const outcomes = { old: 0, new: 0 };
    let round = 0;
    for (; round < ROUNDS || (killed < ROUNDS / 4 && round < 3 * ROUNDS); round++) {
      const list = parse(before);
      const ids = Array.from({ length: 3 }, () => list[Math.floor(random() * list.length)]!.id);
      const unique = [...new Set(ids)];
      const expected = list.filter((r) => !unique.includes(r.id)).map((r) => JSON.stringify(r));
      const stonesBefore = tombstones(records);
      // Most of a forget is starting Deno and loading its code (its commit comes in about its last
      // tenth): the kills land around its end.
      const delay = Math.floor(span * shrink * (0.8 + 0.3 * random()));
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, "forget", ...unique],
        env: { ...env, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: denoDir() },
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      const t = performance.now();
      await new Promise((r) => setTimeout(r, delay));
      try {
        child.kill("SIGKILL");
      } catch {
        // It had finished.
      }
      const status = await child.status;
      await child.stderr.cancel();
      if (status.signal === "SIGKILL") killed++;
      else {
        span = Math.max(300, performance.now() - t);
        shrink *= 0.8;
      }
      console.log(`round ${round}: delay ${delay} of ${Math.round(span)}, ${status.signal}`);
      const label = `round ${round}, kill at ${delay} ms (${status.signal ?? `exit ${status.code}`})`;
      const after = await exportedRecords(records);
      const newState = expected.map((l) => l + "\n").join("");
      // export's lines are the stored lines; compare as records.
      const same = (a: string, b: string) =>
        JSON.stringify(parse(a).map((r) => r.id)) === JSON.stringify(parse(b).map((r) => r.id));
      if (same(after, before)) {
        outcomes.old++;
        assert.equal(tombstones(records), stonesBefore, `${label}: no tombstone without the forget`);
      } else if (same(after, newState)) {
        outcomes.new++;
        assert.ok(
          tombstones(records) >= stonesBefore + 2 * unique.length,
          `${label}: the tombstones came with it`,
        );
      } else {
        assert.fail(
          `${label}: ${parse(after).length} records, neither ${list.length} nor ${expected.length}`,
        );
      }
      await assertConsistent(records, after, label);
      if (same(after, before)) {
        // Run again to completion: the lock is free at once. Its time spreads the next kill.
        const t = performance.now();
        const r = await runCli(["forget", ...unique], { env });
        span = Math.max(300, performance.now() - t);
        assert.equal(r.code, 0, `${label}: ${r.stderr}`);
      }
      before = await exportedRecords(records);
      assert.ok(same(before, newState), label);
      await assertConsistent(records, before, `${label}, then completed`);
    }
    console.log(
      `${killed} of ${round} forgets killed; ${outcomes.old} left the old archive, ${outcomes.new} the new`,
    );
    assert.ok(killed >= ROUNDS / 4, `only ${killed} of ${round} forgets were killed before they finished`);
    // Every forgotten record stays out of a full collect of the same history.
    assert.equal((await runCli(["collect", "--full", "--quiet"], { env })).code, 0);
    assert.equal(parse(await exportedRecords(records)).length, parse(before).length);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

/** Spawns `verdict <args>` and SIGKILLs it after `delay` ms; whether the kill landed. */
async function killedRun(env: Record<string, string>, args: string[], delay: number): Promise<boolean> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, ...args],
    env: { ...env, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: denoDir() },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  await new Promise((r) => setTimeout(r, delay));
  try {
    child.kill("SIGKILL");
  } catch {
    // It had finished.
  }
  const status = await child.status;
  await child.stderr.cancel();
  return status.signal === "SIGKILL";
}

Deno.test("import SIGKILLed at random moments leaves the old archive or the old with every imported record, never one between", async () => {
  const seed = Number(Deno.env.get("VERDICT_KILL_SEED") ?? "20261207") + 1;
  console.log(`kill moments from VERDICT_KILL_SEED=${seed - 1} (+1)`);
  const random = seededRandom(seed);
  const home = await tempHome();
  const other = await tempHome();
  const env = { HOME: home, VERDICT_ASOF: AS_OF };
  const records = `${home}/.local/share/verdict/records.db`;
  try {
    await writeHistory(home);
    await writeHistory(other, 91, 100);
    assert.equal((await runCli(["collect", "--quiet"], { env })).code, 0);
    assert.equal((await runCli(["collect", "--quiet"], { env: { ...env, HOME: other } })).code, 0);
    const theirs = (await exportedRecords(`${other}/.local/share/verdict/records.db`)).split("\n").filter((
      l,
    ) => l !== "");
    const ids = (exported: string) => parse(exported).map((r) => r.id).sort();
    let span = 1500;
    let shrink = 1; // as for forget: a kill that came too late moves the next ones earlier
    let killed = 0;
    const outcomes = { old: 0, new: 0 };
    const rounds = 8;
    const per = Math.floor(theirs.length / rounds);
    for (let round = 0; round < rounds; round++) {
      const file = `${home}/import-${round}.jsonl`;
      const slice = theirs.slice(round * per, (round + 1) * per);
      await Deno.writeTextFile(file, slice.map((l) => l + "\n").join(""));
      const before = await exportedRecords(records);
      const expected = [...ids(before), ...slice.map((l) => JSON.parse(l).id as string)].sort();
      const delay = Math.floor(span * shrink * (0.8 + 0.3 * random()));
      if (await killedRun(env, ["import", file], delay)) killed++;
      else shrink *= 0.7;
      const after = await exportedRecords(records);
      const label = `round ${round}, kill at ${delay} ms`;
      const got = ids(after);
      if (JSON.stringify(got) === JSON.stringify(ids(before))) outcomes.old++;
      else if (JSON.stringify(got) === JSON.stringify(expected)) outcomes.new++;
      else {assert.fail(
          `${label}: ${got.length} records, neither ${ids(before).length} nor ${expected.length}`,
        );}
      await assertConsistent(records, after, label);
      // Import again to completion (twice changes nothing); its time spreads the next kill.
      const t = performance.now();
      const r = await runCli(["import", file], { env });
      span = Math.max(300, performance.now() - t);
      assert.equal(r.code, 0, `${label}: ${r.stderr}`);
      const done = await exportedRecords(records);
      assert.deepEqual(ids(done), expected, label);
      await assertConsistent(records, done, `${label}, then completed`);
    }
    console.log(
      `${killed} of ${rounds} imports killed; ${outcomes.old} left the old archive, ${outcomes.new} the new`,
    );
    assert.ok(killed >= rounds / 4, `only ${killed} of ${rounds} imports were killed before they finished`);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(other, { recursive: true });
  }
});
