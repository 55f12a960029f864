/**
 * Migration of an archive an older verdict wrote (records.jsonl, records.jsonl.idx,
 * records.jsonl.state.json) by the first collect that finds it (src/collect/migrate.ts): every
 * record kept, the collector's state carried over when it still describes the file (so the
 * collect after it reads nothing again), the old file kept as .migrated, the hint the same
 * before, during and after. The old trio is made as the older verdict wrote it: its records
 * file is what `export` prints, its state file the older collector's shape holding the per-file
 * states the transcript reader keeps (the same reader wrote both).
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { storePaths } from "../../src/store/paths.ts";
import { exportedRecords, runCli } from "../cli_helper.ts";
import { hintAnswers, sha256File, type World, world } from "../store/_world.ts";

interface Legacy {
  readonly records: string;
  readonly index: string;
  readonly state: string;
  readonly lock: string;
  /** The records file's lines, as written. */
  readonly exported: string;
}

/**
 * Turns `w`'s collected archive into the trio an older verdict left (and removes the archive).
 * With `state: false`, no state file (an older verdict killed before writing it, or a lost one).
 */
async function makeLegacy(w: World, state = true): Promise<Legacy> {
  const paths = storePaths(w.records);
  const exported = await exportedRecords(w.records);
  const db = new DatabaseSync(w.records, { readOnly: true });
  const rows = db.prepare("SELECT key, value FROM sources").all() as { key: string; value: string }[];
  const meta = new Map(
    (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((
      r,
    ) => [r.key, r.value]),
  );
  db.close();
  const legacy = {
    records: paths.legacy.records,
    index: paths.legacy.index,
    state: paths.legacy.state,
    lock: paths.legacy.lock,
    exported,
  };
  await Deno.writeTextFile(legacy.records, exported, { mode: 0o600 });
  // The older index file: its bytes do not matter, only that it goes.
  await Deno.writeFile(legacy.index, new Uint8Array(4096).fill(7));
  await Deno.writeTextFile(legacy.lock, "");
  if (state) {
    const info = await Deno.stat(legacy.records);
    const transcripts: Record<string, unknown> = {};
    for (const r of rows) if (r.key.startsWith("t:")) transcripts[r.key.slice(2)] = JSON.parse(r.value);
    const one = (key: string) => {
      const row = rows.find((r) => r.key === key);
      return row ? JSON.parse(row.value) : null;
    };
    await Deno.writeTextFile(
      legacy.state,
      JSON.stringify({
        version: 1,
        rulesDigest: meta.get("rules"),
        recordsSize: info.size,
        recordsMtimeMs: info.mtime!.getTime(),
        byKind: JSON.parse(meta.get("by_kind")!),
        transcripts,
        docs: one("docs"),
        git: one("git"),
      }),
    );
  }
  for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(`${paths.db}${suffix}`).catch(() => {});
  await Deno.remove(paths.segments, { recursive: true });
  return legacy;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("an older verdict's archive is migrated by the next collect without loss; the collect reads nothing again and the hint is the same", async () => {
  const w = await world();
  const answer = await hintAnswers(w);
  assert.match(answer, /\[verdict recall\]/);
  const legacy = await makeLegacy(w);
  const legacyHash = await sha256File(legacy.records);
  const count = legacy.exported.split("\n").filter(Boolean).length;

  // Before any collect the hint ranks the old file as it is.
  assert.equal(await hintAnswers(w), answer, "the hint over the old file");

  const collect = await runCli(["collect"], { env: w.env });
  assert.equal(collect.code, 0, collect.stderr);
  assert.match(
    collect.stderr,
    new RegExp(`migrated ${count} records from ${legacy.records} .*kept as ${legacy.records}\\.migrated`),
  );
  // The old state still describes every source: nothing is read again, nothing is new.
  assert.match(collect.stderr, new RegExp(`0 new, ${count} records .*; 0 file\\(s\\) read`));
  assert.equal(await exportedRecords(w.records), legacy.exported, "every record, as it was");
  assert.equal(await sha256File(`${legacy.records}.migrated`), legacyHash, "the old file is kept whole");
  for (const gone of [legacy.records, legacy.index, legacy.state, legacy.lock]) {
    assert.equal(await exists(gone), false, `${gone} is gone`);
  }
  assert.equal(await hintAnswers(w), answer, "the hint over the migrated archive");

  // And it stays incremental: a grown transcript adds only its new line.
  const session = `${w.home}/.claude/projects/-home-dev-shop/6f1c2a7e-3b1d-4c55-9a0e-2d7f1e5b8c01.jsonl`;
  const typed = (await Deno.readTextFile(session)).split("\n").find((l) => l.includes('"uuid":"u-0003"'))!;
  await Deno.writeTextFile(
    session,
    JSON.stringify({
      ...JSON.parse(typed),
      uuid: "after-migration",
      promptId: "p-after",
      timestamp: "2026-03-04T09:00:00.000Z",
      message: { role: "user", content: "From now on the orders service logs in JSON" },
    }) + "\n",
    { append: true },
  );
  const grown = await runCli(["collect"], { env: w.env });
  assert.equal(grown.code, 0, grown.stderr);
  assert.match(grown.stderr, new RegExp(`1 new, ${count + 1} records .*; 1 file\\(s\\) read`));
  const again = await runCli(["collect"], { env: w.env });
  assert.match(again.stderr, /nothing new/);
});

Deno.test("without its state file the old archive is migrated whole, the sources read again, and no record doubled", async () => {
  const w = await world();
  const answer = await hintAnswers(w);
  const legacy = await makeLegacy(w, false);
  const count = legacy.exported.split("\n").filter(Boolean).length;
  const collect = await runCli(["collect"], { env: w.env });
  assert.equal(collect.code, 0, collect.stderr);
  assert.match(collect.stderr, new RegExp(`migrated ${count} records`));
  assert.match(collect.stderr, new RegExp(`0 new, ${count} records .*; [1-9]\\d* file\\(s\\) read`));
  assert.equal(await exportedRecords(w.records), legacy.exported);
  assert.equal(await hintAnswers(w), answer);
});

Deno.test("a state file that describes another records file is not trusted: the sources are read again, nothing lost", async () => {
  const w = await world();
  const legacy = await makeLegacy(w);
  // The records file changed after the state was written (edited by hand, restored from a backup).
  await Deno.writeTextFile(legacy.records, legacy.exported + "\n");
  const collect = await runCli(["collect"], { env: w.env });
  assert.equal(collect.code, 0, collect.stderr);
  assert.match(collect.stderr, /; [1-9]\d* file\(s\) read/);
  assert.equal(await exportedRecords(w.records), legacy.exported);
});

Deno.test("a collect killed between the migration's commit and the old file's rename is finished by the next, never imported twice", async () => {
  const w = await world();
  const legacy = await makeLegacy(w);
  const info = await Deno.stat(legacy.records);
  const bytes = await Deno.readFile(legacy.records);
  const first = await runCli(["collect"], { env: w.env });
  assert.equal(first.code, 0, first.stderr);
  // As a kill right after the commit leaves it: the old trio still in place, same size and time.
  await Deno.remove(`${legacy.records}.migrated`);
  await Deno.writeFile(legacy.records, bytes);
  await Deno.utime(legacy.records, info.atime!, info.mtime!);
  await Deno.writeFile(legacy.index, new Uint8Array(64));
  const next = await runCli(["collect"], { env: w.env });
  assert.equal(next.code, 0, next.stderr);
  assert.doesNotMatch(next.stderr, /migrated/);
  assert.equal(await exists(legacy.records), false);
  assert.equal(await exists(legacy.index), false);
  assert.deepEqual(await Deno.readFile(`${legacy.records}.migrated`), bytes);
  assert.equal(await exportedRecords(w.records), legacy.exported);
});

Deno.test("an old records file beside an archive that already holds records is left alone and reported", async () => {
  const w = await world();
  const exported = await exportedRecords(w.records);
  const legacy = storePaths(w.records).legacy.records;
  await Deno.writeTextFile(legacy, exported);
  const collect = await runCli(["collect"], { env: w.env });
  assert.equal(collect.code, 0, collect.stderr);
  assert.match(collect.stderr, /an older records file sits beside the archive and was not imported/);
  assert.equal(await Deno.readTextFile(legacy), exported);
  assert.equal(await exportedRecords(w.records), exported);
});
