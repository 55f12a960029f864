/**
 * The warm helper keeps the archive open between prompts (src/warm/kept_archive.ts). Whatever a
 * collect (or anything else) did to the archive in between, the helper's next answer must be the
 * in-process hook's, byte for byte, and an answer never pairs an old index with records a collect
 * removed. Real `verdict warm serve` and `verdict collect` processes, real files in a temp HOME;
 * the archive's own database is edited with node:sqlite only to play a newer verdict.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runCli } from "../cli_helper.ts";
import { claudePrompt } from "../collect/_claude_lines.ts";
import { CASES, claudeJson, frame, OFF, ON, removeWorld, startHelper, warmWorld } from "./_warm.ts";
import { KEPT_MAX_RUNS, KeptArchive } from "../../src/warm/kept_archive.ts";
import type { WarmStatus } from "../../src/warm/wire.ts";

const BILLING_PROMPT = "should the billing export job keep writing CSV files or move to parquet?";
const PARQUET = "We decided: the billing export job writes parquet files, never CSV.";

const recordsOf = (env: Record<string, string>) => `${env.HOME}/.local/share/verdict/records.db`;
const indexOf = (env: Record<string, string>) => `${env.HOME}/.local/share/verdict/records.index`;
const billingFile = (env: Record<string, string>) => `${env.HOME}/.claude/projects/-p/s-billing.jsonl`;

async function status(env: Record<string, string>): Promise<WarmStatus> {
  const s = await frame(env, { op: "status" });
  assert.ok(s !== null, "the helper answers status");
  return s.header.status as WarmStatus;
}

let sessions = 0;

/**
 * One prompt through the helper and the same prompt in-process (fresh sessions each, so the
 * cooldown treats both alike); asserts the same code, stdout and stderr, and that the helper
 * answered it. Returns the stdout.
 */
async function same(
  env: Record<string, string>,
  what: string,
  argv: string[] = [],
  stdin: (session: string) => string = (s) => claudeJson(BILLING_PROMPT, s, "/p"),
): Promise<string> {
  const n = ++sessions;
  const before = (await status(env)).requests;
  const warm = await runCli(["hook", "user-prompt", ...argv], {
    env: { ...env, ...ON },
    stdin: stdin(`w-${n}`),
  });
  const cold = await runCli(["hook", "user-prompt", ...argv], {
    env: { ...env, ...OFF },
    stdin: stdin(`c-${n}`),
  });
  assert.deepEqual([warm.code, warm.stdout, warm.stderr], [cold.code, cold.stdout, cold.stderr], what);
  assert.equal((await status(env)).requests, before + 1, `${what}: answered by the helper`);
  return warm.stdout;
}

async function writeBilling(env: Record<string, string>, lines: string[]): Promise<void> {
  await Deno.mkdir(`${env.HOME}/.claude/projects/-p`, { recursive: true });
  await Deno.writeTextFile(billingFile(env), lines.join("\n") + "\n");
}

async function collect(env: Record<string, string>): Promise<void> {
  const r = await runCli(["collect"], { env });
  assert.equal(r.code, 0, r.stderr);
}

/** What the archive's manifest names now: its segment numbers. */
function segments(env: Record<string, string>): number[] {
  const db = new DatabaseSync(recordsOf(env), { readOnly: true });
  try {
    return (db.prepare("SELECT seg FROM segments ORDER BY seg").all() as { seg: number }[]).map((r) => r.seg);
  } finally {
    db.close();
  }
}

/** Plays another verdict writing the archive: `sql` in one transaction. */
function edit(env: Record<string, string>, sql: string): void {
  const db = new DatabaseSync(recordsOf(env));
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

const BUMP_GENERATION = "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'";

Deno.test("a kept archive answers 50 prompts, and again after a reopen, with the in-process hook's bytes; it is opened once until a collect changes it", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  try {
    let fired = 0;
    for (let round = 0; round < 5; round++) {
      for (const c of CASES) {
        if ((await same(env, `${c.name}, round ${round}`, c.argv, c.stdin)) !== "") fired++;
      }
    }
    assert.ok(fired >= 20, `prompts fired (${fired})`);
    let s = await status(env);
    assert.equal(s.requests, 50);
    // Prompts refused before the archive is read (small talk, no hook) never open it.
    assert.equal(s.archiveOpens, 1, "opened once for 50 prompts");
    assert.ok((s.archiveReused ?? 0) >= 30, `kept for the rest (${s.archiveReused})`);

    await writeBilling(env, [claudePrompt(1, PARQUET, "s-billing")]);
    await collect(env);
    assert.match(await same(env, "after the collect"), /writes parquet files/);
    for (const c of CASES) await same(env, `${c.name}, after the reopen`, c.argv, c.stdin);
    s = await status(env);
    assert.equal(s.archiveOpens, 2, "opened again once, after the collect");
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("collects that merge segments, remove the records the kept index names, delete the archive or build a new one from scratch: each next answer is the in-process one", async () => {
  const env = await warmWorld();
  await writeBilling(env, [claudePrompt(1, PARQUET, "s-billing")]);
  await collect(env);
  const helper = await startHelper(env);
  try {
    assert.match(await same(env, "the archive as collected"), /writes parquet files/);

    // New small segments merge with the tail (src/store/policy.ts); two collects later the files
    // the kept index opened are gone from disk.
    const before = segments(env);
    for (let i = 2; i <= 4; i++) {
      await writeBilling(env, [
        claudePrompt(1, PARQUET, "s-billing"),
        ...Array.from(
          { length: i - 1 },
          (_, k) =>
            claudePrompt(k + 2, `the nightly billing job also mails report ${k} to finance`, "s-billing"),
        ),
      ]);
      await collect(env);
      await same(env, `after merge collect ${i}`);
    }
    const after = segments(env);
    assert.ok(
      after.every((seg) => !before.includes(seg)),
      `segments replaced by merges: ${before} → ${after}`,
    );
    for (const seg of before) {
      assert.ok(
        !(await Deno.stat(`${indexOf(env)}/seg-${seg}.vix`).then(() => true, () => false)),
        `seg-${seg} removed`,
      );
    }

    // The file rewritten from its start: its old records (the decision the kept index names) go.
    await writeBilling(env, [
      claudePrompt(1, "We decided: the billing export job keeps CSV for now.", "s-billing"),
    ]);
    await collect(env);
    const rewritten = await same(env, "after the records were removed");
    assert.doesNotMatch(rewritten, /parquet files/, "a removed record is never quoted");
    assert.match(rewritten, /keeps CSV/);

    // The archive deleted: silent, as in-process.
    await Deno.remove(recordsOf(env));
    for (const side of ["-wal", "-shm"]) await Deno.remove(recordsOf(env) + side).catch(() => {});
    await Deno.remove(indexOf(env), { recursive: true });
    assert.equal(await same(env, "the archive deleted"), "");

    // A new archive from scratch at the same path (its generation starts again, so only the file's
    // identity tells it from the old one).
    await writeBilling(env, [claudePrompt(1, PARQUET, "s-billing")]);
    await collect(env);
    assert.match(await same(env, "a new archive from scratch"), /writes parquet files/);

    // The same, built elsewhere and moved over the kept one while the helper holds it.
    const elsewhere = `${env.HOME}/elsewhere/records.db`;
    await writeBilling(env, [
      claudePrompt(1, "We decided: the billing export job writes JSON lines.", "s-billing"),
    ]);
    const r = await runCli(["collect"], { env: { ...env, VERDICT_RECORDS: elsewhere } });
    assert.equal(r.code, 0, r.stderr);
    await Deno.remove(indexOf(env), { recursive: true });
    // The log beside the kept file is the old archive's (the helper's connection keeps it): it
    // must not be replayed onto the new one.
    for (const side of ["-wal", "-shm"]) await Deno.remove(recordsOf(env) + side).catch(() => {});
    await Deno.rename(`${env.HOME}/elsewhere/records.index`, indexOf(env));
    await Deno.rename(elsewhere, recordsOf(env));
    const moved = await same(env, "an archive moved over the kept one");
    assert.match(moved, /writes JSON lines/);
    assert.doesNotMatch(moved, /parquet/);
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("a newer store format or an index of another analysis version, written in place, gives the in-process answer", async () => {
  const env = await warmWorld();
  await writeBilling(env, [claudePrompt(1, PARQUET, "s-billing")]);
  await collect(env);
  const helper = await startHelper(env);
  try {
    assert.match(await same(env, "as collected"), /writes parquet files/);
    // Another verdict's collect rebuilt the index under another analysis: the hint ranks the
    // records in memory, and the answer is the same.
    edit(env, `BEGIN; UPDATE meta SET value = '0' WHERE key = 'analysis'; ${BUMP_GENERATION}; COMMIT;`);
    assert.match(await same(env, "an index of another analysis"), /writes parquet files/);
    // A newer verdict raised the store format and changed nothing else: this one must not read it.
    edit(env, "PRAGMA user_version = 99");
    assert.equal(await same(env, "a newer store format"), "", "silent, as in-process");
    assert.equal((await status(env)).archiveOpens, 3);
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

/** The helper's open files: all of them, and those of the archive (database, log, segments). */
async function openFiles(
  pid: number,
  env: Record<string, string>,
): Promise<{ all: number; archive: string[] }> {
  const archive: string[] = [];
  let all = 0;
  const root = `${env.HOME}/.local/share/verdict/`;
  for await (const fd of Deno.readDir(`/proc/${pid}/fd`)) {
    all++;
    const target = await Deno.readLink(`/proc/${pid}/fd/${fd.name}`).catch(() => "");
    if (target.startsWith(root)) archive.push(target.slice(root.length));
  }
  return { all, archive: archive.sort() };
}

Deno.test("20 reopens leave the helper with the open files it had: a superseded archive's are closed", async () => {
  const env = await warmWorld();
  await writeBilling(env, [claudePrompt(1, PARQUET, "s-billing")]);
  await collect(env);
  const helper = await startHelper(env);
  try {
    await same(env, "first");
    const pid = helper.child.pid;
    const first = await openFiles(pid, env);
    assert.ok(first.archive.some((f) => f.startsWith("records.index/")), `segments open: ${first.archive}`);
    for (let i = 0; i < 20; i++) {
      edit(env, BUMP_GENERATION);
      await same(env, `reopen ${i}`);
    }
    assert.equal((await status(env)).archiveOpens, 21);
    const after = await openFiles(pid, env);
    assert.deepEqual(after.archive, first.archive, "no file of a superseded archive is left open");
    // A connection being closed as this counts may come and go; 20 reopens leaking would be 20 or more.
    assert.ok(after.all <= first.all + 2, `open files ${first.all} → ${after.all}`);
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("KeptArchive: the same corpus while nothing changed; a record removed under a held corpus reads as gone, and the next run gets a fresh one; the old one closes once released", async () => {
  const env = await warmWorld();
  await writeBilling(env, [claudePrompt(1, PARQUET, "s-billing")]);
  await collect(env);
  const kept = new KeptArchive();
  try {
    const a = await kept.open(recordsOf(env));
    assert.ok(a !== null);
    const corpus = a.loaded;
    a.release(true);
    const b = await kept.open(recordsOf(env));
    assert.equal(b?.loaded, corpus, "kept: the same corpus");
    // The billing decision's document in the kept index.
    let doc = -1;
    for (let d = 0; d < corpus.corpus.docSlots; d++) {
      if (corpus.record(d)?.text === PARQUET) doc = d;
    }
    assert.ok(doc >= 0, "the decision is in the index");
    // A collect removes it while this run holds the corpus: the record reads as gone (the run
    // says nothing), never as another record's text.
    await writeBilling(env, [
      claudePrompt(1, "We decided: the billing export job keeps CSV for now.", "s-billing"),
    ]);
    await collect(env);
    assert.equal(b!.loaded.record(doc), null);
    const c = await kept.open(recordsOf(env));
    assert.notEqual(c?.loaded, corpus, "a fresh corpus after the collect");
    assert.ok(c!.loaded.corpus.docSlots > 0);
    // The old corpus is still readable by the run holding it, and closed once released.
    assert.doesNotThrow(() => corpus.record(doc));
    b!.release(true);
    assert.throws(() => corpus.record(doc), "closed once its last run released it");
    c!.release(false);
    const d = await kept.open(recordsOf(env));
    assert.notEqual(d?.loaded, c!.loaded, "an untrusted release drops the kept corpus");
    d!.release(true);
    assert.deepEqual(kept.stats, { opens: 3, reused: 1 });
    assert.ok(KEPT_MAX_RUNS >= 100);
  } finally {
    kept.close();
    await removeWorld(env);
  }
});

Deno.test("KeptArchive: the entity list is parsed again when its text changes, and an unreadable one fails as in-process", async () => {
  const env = await warmWorld();
  const path = `${env.HOME}/entities.tsv`;
  const kept = new KeptArchive();
  await Deno.writeTextFile(path, "postgres\tpg,pgsql\n");
  const one = await kept.entities(path);
  assert.equal(await kept.entities(path), one, "unchanged text: the same list");
  await Deno.writeTextFile(path, "mariadbs\tmd,mysql\n"); // the same size, within one clock tick
  const two = await kept.entities(path);
  assert.notEqual(two, one);
  assert.deepEqual(
    JSON.stringify(two),
    JSON.stringify(await (await import("../../src/lookup/recall.ts")).loadEntities(path)),
  );
  await Deno.remove(path);
  await assert.rejects(() => kept.entities(path), /Cannot read entity list/);
  assert.deepEqual(await kept.entities(null), []);
  await removeWorld(env);
});

Deno.test("a client that does not say it printed the answer leaves the archive kept: delivery is the client's, not the archive's", async () => {
  const env = await warmWorld();
  await writeBilling(env, [claudePrompt(1, PARQUET, "s-billing")]);
  await collect(env);
  const helper = await startHelper(env);
  try {
    for (let i = 0; i < 3; i++) {
      // A raw request that reads the answer and never acknowledges it.
      const a = await frame(
        env,
        { cwd: "/p" },
        new TextEncoder().encode(claudeJson(BILLING_PROMPT, `noack-${i}`, "/p")),
      );
      assert.match(a?.body ?? "", /writes parquet files/, `answer ${i} fired`);
    }
    await same(env, "after three answers nobody printed");
    assert.equal((await status(env)).archiveOpens, 1);
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});
