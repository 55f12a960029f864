import assert from "node:assert/strict";
import { runCli, tempHome } from "../cli_helper.ts";
import { workerPermissions } from "../../src/sandbox/permissions.ts";
import { permissionsFor } from "../../src/cli/grants.ts";
import { buildPlan } from "../../src/cli/main.ts";
import { findCommand } from "../../src/cli/commands.ts";
import { parseArgs } from "../../src/plan/args.ts";

async function homeWithTranscript(): Promise<{ home: string; transcript: string; outside: string }> {
  const home = await tempHome();
  const dir = `${home}/.claude/projects/-p`;
  await Deno.mkdir(dir, { recursive: true });
  const transcript = `${dir}/s.jsonl`;
  await Deno.writeTextFile(transcript, "{}\n");
  const outside = `${home}/outside-secret.txt`;
  await Deno.writeTextFile(outside, "TOPSECRET\n");
  return { home, transcript, outside };
}

Deno.test("collect's sandbox: Deno refuses a direct read outside the roots", async () => {
  const { home, outside } = await homeWithTranscript();
  const r = await runCli(["sandbox-probe", "--as", "collect", "--read", outside], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^refused: collect cannot read .*Requires read access/);
  const etc = await runCli(["sandbox-probe", "--as", "collect", "--read", "/etc/hostname"], {
    env: { HOME: home },
  });
  assert.equal(etc.code, 0, etc.stderr);
  assert.match(etc.stdout, /refused/);
});

Deno.test("collect's sandbox: a read inside the transcript root is allowed (the probe can fail)", async () => {
  const { home, transcript } = await homeWithTranscript();
  const r = await runCli(["sandbox-probe", "--as", "collect", "--read", transcript], { env: { HOME: home } });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^allowed: collect read /);
});

Deno.test("recall's sandbox refuses reading the config file and the home directory", async () => {
  const { home } = await homeWithTranscript();
  await Deno.mkdir(`${home}/.config/verdict`, { recursive: true });
  await Deno.writeTextFile(`${home}/.config/verdict/config.json`, "{}");
  for (const path of [`${home}/.config/verdict/config.json`, `${home}/.bashrc`]) {
    const r = await runCli(["sandbox-probe", "--as", "recall", "--read", path], { env: { HOME: home } });
    assert.equal(r.code, 0, `${path}: ${r.stdout}${r.stderr}`);
  }
});

Deno.test("a symlink inside a root that points outside is followed by Deno itself (why we check real paths)", async () => {
  const { home, outside } = await homeWithTranscript();
  const link = `${home}/.claude/projects/-p/escape.jsonl`;
  await Deno.symlink(outside, link);
  const r = await runCli(["sandbox-probe", "--as", "collect", "--read", link], { env: { HOME: home } });
  // Deno checks the path as written: this read goes through, so collect's own containment
  // check (tests/collect/collect_test.ts) is what keeps the target out of the records.
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^allowed/);
});

async function planFor(command: string, argv: string[], home: string) {
  const spec = findCommand(command)!;
  return await buildPlan(spec, parseArgs(argv, spec.options, command), { HOME: home }, home, null);
}

Deno.test("permission table: collect gets no net, runs only git, writes only its own files", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/docs`);
  const plan = await planFor("collect", ["--doc-root", `${home}/docs`], home);
  const p = permissionsFor("collect", plan);
  assert.deepEqual(p.net, []);
  assert.deepEqual(p.run, ["git"]);
  // The archive's own files only: records.db (and SQLite's files beside it), records.index/,
  // records.lock, and the older verdict's records.jsonl files it migrates.
  const base = `${home}/.local/share/verdict/records.`;
  for (const w of p.write) assert.ok(w.startsWith(base), `unexpected write grant ${w}`);
  assert.ok(p.write.includes(`${base}db`) && p.write.includes(`${base}index`), "the archive is writable");
  assert.ok(p.read.includes(`${home}/docs`));
  const worker = workerPermissions(p);
  assert.equal(worker.env, false);
  assert.equal(worker.sys, false);
  assert.equal(worker.ffi, false);
  assert.equal(worker.net, false);
});

Deno.test("permission table: recall and query write nothing, run nothing, reach no network", async () => {
  const home = await tempHome();
  for (const cmd of ["recall", "query"]) {
    const argv = cmd === "query" ? ["--as-of", "2026-01-01T00:00:00Z", "x"] : ["x"];
    const p = permissionsFor(cmd, await planFor(cmd, argv, home));
    assert.deepEqual([p.write, p.run, p.net], [[], [], []], cmd);
  }
});

Deno.test("permission table: serve may listen on its own address only", async () => {
  const home = await tempHome();
  const p = permissionsFor("serve", await planFor("serve", ["--port", "9123"], home));
  assert.deepEqual(p.net, ["127.0.0.1:9123"]);
});
