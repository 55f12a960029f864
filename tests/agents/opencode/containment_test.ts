/**
 * OpenCode's store is read only where OpenCode keeps it: a write-ahead log beside it that is a
 * link (to a file outside, here one holding a secret) is refused and the store skipped with a
 * reason, nothing of the link's target reaches the records; the collect Worker's permissions
 * name the database and its log and nothing else of OpenCode's folder.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { findCommand } from "../../../src/cli/commands.ts";
import { permissionsFor } from "../../../src/cli/grants.ts";
import { parseArgs } from "../../../src/plan/args.ts";
import { buildPlan } from "../../../src/cli/main.ts";
import { exportedRecords, runCli, tempHome } from "../../cli_helper.ts";

const FIXTURE_DB = fileURLToPath(
  new URL("../../fixtures/agents/opencode/home/.local/share/opencode/opencode.db", import.meta.url),
);

Deno.test("opencode collect: a -wal that is a link is never followed; the store is skipped with a reason", async () => {
  const home = await tempHome();
  const dir = `${home}/.local/share/opencode`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.copyFile(FIXTURE_DB, `${dir}/opencode.db`);
  await Deno.writeTextFile(`${home}/outside-secret.txt`, "TOPSECRET");
  await Deno.symlink(`${home}/outside-secret.txt`, `${dir}/opencode.db-wal`);
  const r = await runCli(["collect"], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /opencode\.db-wal is not a regular file \(a link is never followed\)/);
  const records = await exportedRecords(`${home}/.local/share/verdict/records.jsonl`);
  assert.doesNotMatch(records, /TOPSECRET|"origin":"opencode"/);
  // Without the link the same store is read.
  await Deno.remove(`${dir}/opencode.db-wal`);
  const ok = await runCli(["collect"], { env: { HOME: home } });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(await exportedRecords(`${home}/.local/share/verdict/records.jsonl`), /"origin":"opencode"/);
  await Deno.remove(home, { recursive: true });
});

Deno.test("opencode collect: the Worker may read the database and its log, not the rest of OpenCode's folder", async () => {
  const home = await tempHome();
  const dir = `${home}/.local/share/opencode`;
  await Deno.mkdir(`${dir}/log`, { recursive: true });
  await Deno.copyFile(FIXTURE_DB, `${dir}/opencode.db`);
  const spec = findCommand("collect")!;
  const plan = await buildPlan(spec, parseArgs([], spec.options, "collect"), { HOME: home }, home, null);
  const read = permissionsFor("collect", plan).read;
  assert.ok(read.includes(`${dir}/opencode.db`));
  assert.ok(read.includes(`${dir}/opencode.db-wal`));
  assert.ok(!read.includes(dir) && !read.some((p) => p.startsWith(`${dir}/log`)), read.join("\n"));
  // OpenCode's -shm (verdict's own archive has one of its own, which collect may read).
  assert.ok(!read.some((p) => p.startsWith(dir) && p.endsWith("-shm")), "the -shm is never read");
  await Deno.remove(home, { recursive: true });
});
