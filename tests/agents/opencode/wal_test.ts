/**
 * A damaged write-ahead log beside OpenCode's database: SQLite ignores a log whose header it
 * would not accept (a page size it never writes, a wrong checksum, a foreign magic) and reads
 * the database alone; collect must do the same, never lose the whole store.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { exportedRecords, runCli, tempHome } from "../../cli_helper.ts";

const FIXTURE_DB = fileURLToPath(
  new URL("../../fixtures/agents/opencode/home/.local/share/opencode/opencode.db", import.meta.url),
);

/**
 * A WAL naming `pageSize` in its header, with a header checksum that holds (so only the page
 * size is wrong), then a frame header carrying the log's salts (so a reader goes on into it).
 */
function walHeader(pageSize: number, checksumHolds = true): Uint8Array {
  const b = new Uint8Array(32 + 4096);
  const dv = new DataView(b.buffer);
  dv.setUint32(0, 0x377f0682); // little-endian checksums
  dv.setUint32(4, 3007000);
  dv.setUint32(8, pageSize);
  dv.setUint32(12, 0);
  dv.setUint32(16, 0x11223344);
  dv.setUint32(20, 0x55667788);
  let s0 = 0;
  let s1 = 0;
  for (let i = 0; i < 24; i += 8) {
    s0 = (s0 + dv.getUint32(i, true) + s1) >>> 0;
    s1 = (s1 + dv.getUint32(i + 4, true) + s0) >>> 0;
  }
  dv.setUint32(24, checksumHolds ? s0 : s0 ^ 1);
  dv.setUint32(28, s1);
  b.fill(0x5a, 32);
  dv.setUint32(32, 1); // page 1
  dv.setUint32(36, 1); // a commit frame
  dv.setUint32(40, 0x11223344);
  dv.setUint32(44, 0x55667788);
  return b;
}

Deno.test("opencode collect: a -wal whose header SQLite would not accept is ignored and the database is read", async () => {
  const home = await tempHome();
  const dir = `${home}/.local/share/opencode`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.copyFile(FIXTURE_DB, `${dir}/opencode.db`);
  const clean = await runCli(["collect"], { env: { HOME: home } });
  assert.equal(clean.code, 0, clean.stderr);
  const want = (await exportedRecords(`${home}/.local/share/verdict/records.jsonl`)).split("\n")
    .filter((l) => l.includes('"origin":"opencode"')).length;
  assert.ok(want > 0, "the fixture database holds OpenCode records");
  // Page sizes SQLite never writes (not a power of two, too small, too big, zero), and a
  // header whose checksum fails.
  const logs = [
    walHeader(1001),
    walHeader(1000),
    walHeader(7),
    walHeader(256),
    walHeader(131072),
    walHeader(0),
    walHeader(4096, false),
  ];
  for (const [i, log] of logs.entries()) {
    const h = `${home}/case-${i}`;
    await Deno.mkdir(`${h}/.local/share/opencode`, { recursive: true });
    await Deno.copyFile(FIXTURE_DB, `${h}/.local/share/opencode/opencode.db`);
    await Deno.writeFile(`${h}/.local/share/opencode/opencode.db-wal`, log);
    const r = await runCli(["collect"], { env: { HOME: h } });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /DataView|outside the bounds|skipped/i, `case ${i}: ${r.stderr}`);
    const got = (await exportedRecords(`${h}/.local/share/verdict/records.jsonl`)).split("\n")
      .filter((l) => l.includes('"origin":"opencode"')).length;
    assert.equal(got, want, `case ${i}: ${r.stderr}`);
  }
  await Deno.remove(home, { recursive: true });
});
