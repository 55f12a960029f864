/**
 * Versions checked on open (src/store/archive.ts, src/store/reader.ts): an archive verdict cannot
 * read as it is — another program's database, not SQLite at all, a newer store format — is
 * refused by name and left as it is, and the hook stays silent; an index built by another
 * analysis (tokenizer, markers, CJK words) or a segment of another layout, or a damaged one, is
 * never read as current: the hint ranks the records without it and says the same, and the next
 * collect rebuilds it.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ANALYSIS_VERSION } from "../../src/rank/analysis_version.ts";
import { STORE_FORMAT_VERSION } from "../../src/store/archive.ts";
import { storePaths } from "../../src/store/paths.ts";
import { runCli } from "../cli_helper.ts";
import { CONTRADICTION, hintAnswers, sha256File, type World, world } from "./_world.ts";

async function segmentFiles(w: World): Promise<string[]> {
  const dir = storePaths(w.records).segments;
  const names = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).filter((n) =>
    n.endsWith(".vix")
  );
  return names.sort().map((n) => `${dir}/${n}`);
}

function meta(w: World, key: string): string | null {
  const db = new DatabaseSync(w.records, { readOnly: true });
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row?.value ?? null;
  } finally {
    db.close();
  }
}

function setMeta(w: World, key: string, value: string): void {
  const db = new DatabaseSync(w.records);
  try {
    db.prepare("UPDATE meta SET value = ? WHERE key = ?").run(value, key);
  } finally {
    db.close();
  }
}

async function doctorLine(w: World, id: string): Promise<string> {
  const r = await runCli(["doctor"], { env: w.env });
  return r.stdout.split("\n").find((l) => new RegExp(`^\\w+\\s+${id}\\s`).test(l)) ?? `(no ${id} line)`;
}

Deno.test("an archive verdict cannot read (another program's database, not SQLite, a newer format) is refused by name and left as it is", async () => {
  const w = await world();
  const good = await Deno.readFile(w.records);
  const cases: { name: string; make: () => Promise<void>; message: RegExp; hint: RegExp }[] = [
    {
      name: "a newer store format",
      make: async () => {
        await Deno.writeFile(w.records, good);
        const db = new DatabaseSync(w.records);
        db.exec(`PRAGMA user_version = ${STORE_FORMAT_VERSION + 1}`);
        db.close();
      },
      message: new RegExp(`it was written by a newer verdict \\(store format ${STORE_FORMAT_VERSION + 1}`),
      hint: /upgrade verdict/,
    },
    {
      name: "another program's SQLite database",
      make: async () => {
        await Deno.remove(w.records);
        const db = new DatabaseSync(w.records);
        db.exec("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('mine')");
        db.close();
      },
      message: /it is an SQLite database but not a verdict archive/,
      hint: /move this file away/,
    },
    {
      name: "not SQLite at all",
      make: () => Deno.writeTextFile(w.records, "my notes, not a database\n".repeat(200)),
      message: /it is not a verdict archive \(not an SQLite database\)/,
      hint: /move this file away/,
    },
  ];
  for (const c of cases) {
    await c.make();
    const before = await sha256File(w.records);
    const collect = await runCli(["collect"], { env: w.env });
    assert.notEqual(collect.code, 0, c.name);
    assert.match(
      collect.stderr,
      new RegExp(`Cannot open the archive "${w.records}": ${c.message.source}`),
      `${c.name}: ${collect.stderr}`,
    );
    assert.match(collect.stderr, new RegExp(`hint: .*${c.hint.source}`), c.name);
    const exported = await runCli(["export"], { env: w.env });
    assert.notEqual(exported.code, 0, c.name);
    assert.match(exported.stderr, c.message, c.name);
    const hook = await runCli(["hook", "user-prompt"], {
      env: w.env,
      stdin: JSON.stringify({ session_id: "s", cwd: "/home/dev/shop", prompt: CONTRADICTION }),
    });
    assert.deepEqual([hook.code, hook.stdout, hook.stderr], [0, "", ""], `${c.name}: the hook is silent`);
    const doctor = await doctorLine(w, "records");
    assert.match(doctor, /^FAIL\s+records/, c.name);
    assert.match(doctor, c.message, c.name);
    assert.match(doctor, new RegExp(`fix: .*${c.hint.source}`), c.name);
    assert.equal(await sha256File(w.records), before, `${c.name}: the file is left as it was`);
  }
});

Deno.test("an index built by another analysis is never read as current: the hint answers the same without it, and the next collect rebuilds it", async () => {
  const w = await world();
  const answer = await hintAnswers(w);
  assert.match(answer, /\[verdict recall\]/);
  const segmentsBefore = await segmentFiles(w);
  // As an older verdict (another tokenizer or markers) would have left it.
  setMeta(w, "analysis", String(ANALYSIS_VERSION - 1));
  assert.equal(await hintAnswers(w), answer, "ranked in memory, the same answer");
  assert.match(await doctorLine(w, "index"), /^FAIL\s+index .*analysis|^FAIL\s+index/);
  const collect = await runCli(["collect"], { env: w.env });
  assert.equal(collect.code, 0, collect.stderr);
  assert.equal(meta(w, "analysis"), String(ANALYSIS_VERSION));
  const segmentsAfter = await segmentFiles(w);
  assert.notDeepEqual(segmentsAfter, segmentsBefore, "the index was written again");
  assert.match(await doctorLine(w, "index"), /^ok\s+index/i);
  assert.equal(await hintAnswers(w), answer);
});

Deno.test("a segment of another layout, or cut short, is not misread: the hint answers the same without it, and the next collect rebuilds it", async () => {
  const w = await world();
  const answer = await hintAnswers(w);
  const damage: { name: string; apply: (file: string) => Promise<void> }[] = [
    {
      name: "another segment format",
      apply: async (file) => {
        const f = await Deno.open(file, { read: true, write: true });
        await f.seek(8, Deno.SeekMode.Start); // the format version, after the 8-byte magic
        await f.write(new Uint8Array([99, 0, 0, 0]));
        f.close();
      },
    },
    {
      // As this verdict before format 2 wrote it: its entries are 4 bytes shorter, never misread.
      name: "the previous segment format (1)",
      apply: async (file) => {
        const f = await Deno.open(file, { read: true, write: true });
        await f.seek(8, Deno.SeekMode.Start);
        await f.write(new Uint8Array([1, 0, 0, 0]));
        f.close();
      },
    },
    {
      name: "cut short",
      apply: async (file) => {
        const size = (await Deno.stat(file)).size;
        await Deno.truncate(file, Math.floor(size / 2));
      },
    },
    { name: "missing", apply: (file) => Deno.remove(file) },
  ];
  for (const d of damage) {
    for (const file of await segmentFiles(w)) await d.apply(file);
    assert.equal(await hintAnswers(w), answer, `${d.name}: the same answer`);
    assert.match(await doctorLine(w, "index"), /^FAIL\s+index .*cannot serve/, d.name);
    const collect = await runCli(["collect"], { env: w.env });
    assert.equal(collect.code, 0, `${d.name}: ${collect.stderr}`);
    assert.match(await doctorLine(w, "index"), /^ok\s+index/i, d.name);
    assert.equal(await hintAnswers(w), answer, `${d.name}: after the rebuild`);
  }
});
