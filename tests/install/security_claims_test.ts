/**
 * Claims SECURITY.md makes that no other test covered: file modes of what verdict stores, the
 * launcher giving up its broad base permissions, and the permission sets of the commands that
 * touch files outside verdict's own (install, schedule, doctor) and of the MCP servers.
 */
import assert from "node:assert/strict";
import { copyTree, denoDir, runCli, tempHome } from "../cli_helper.ts";
import { verdictRunFlags } from "../../src/task_flags.ts";
import { buildPlan } from "../../src/cli/main.ts";
import { findCommand } from "../../src/cli/commands.ts";
import { parseArgs } from "../../src/plan/args.ts";
import { permissionsFor } from "../../src/cli/grants.ts";
import { encodeJob, JOB_OPTION } from "../../src/install/jobs.ts";
import { schedulePlan } from "../../src/install/schedule.ts";
import type { CommandPlan } from "../../src/plan/plan.ts";
import { homeWithHostFiles } from "./_world.ts";

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;

Deno.test("stored files are private: the archive, its log and index files 0600 in 0700 folders", async () => {
  const home = await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  const r = await runCli(["collect"], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  const dir = `${home}/.local/share/verdict`;
  assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(`${dir}/records.index`)).mode! & 0o777, 0o700);
  const files = ["records.db", "records.lock"];
  for (const name of ["records.db-wal", "records.db-shm"]) {
    if (await Deno.stat(`${dir}/${name}`).then(() => true, () => false)) files.push(name);
  }
  for (const e of await Array.fromAsync(Deno.readDir(`${dir}/records.index`))) {
    files.push(`records.index/${e.name}`);
  }
  assert.ok(files.some((f) => f.startsWith("records.index/seg-")), "no index segment was written");
  for (const name of files) assert.equal((await Deno.stat(`${dir}/${name}`)).mode! & 0o777, 0o600, name);
});

Deno.test("install's backups keep the mode of the file they copy", async () => {
  const home = await homeWithHostFiles();
  await Deno.chmod(`${home}/.claude.json`, 0o600);
  await Deno.chmod(`${home}/.claude/settings.json`, 0o644);
  const env = { HOME: home, VERDICT_BIN: "/opt/verdict/bin/verdict", VERDICT_ASOF: "2026-11-29T12:00:00Z" };
  assert.equal((await runCli(["install", "--claude"], { env })).code, 0);
  const mode = async (p: string) => (await Deno.stat(p)).mode! & 0o777;
  assert.equal(await mode(`${home}/.claude.json.verdict-backup-20261129T120000Z`), 0o600);
  assert.equal(await mode(`${home}/.claude.json`), 0o600);
  assert.equal(await mode(`${home}/.claude/settings.json.verdict-backup-20261129T120000Z`), 0o644);
});

Deno.test("the launcher holds no permission of its own once the command's Worker is running", async () => {
  const home = await tempHome();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), new URL("./_launcher_probe.ts", import.meta.url).pathname],
    env: { HOME: home, PATH: Deno.env.get("PATH") ?? "", DENO_DIR: denoDir() },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const report = JSON.parse(new TextDecoder().decode(out.stderr).trim().split("\n").pop()!);
  assert.equal(report.code, 0, "the probe's read outside the roots was refused");
  assert.deepEqual([report.before.read, report.before.write, report.before.run, report.before.env], [
    "granted",
    "granted",
    "granted",
    "granted",
  ]);
  for (const [name, state] of Object.entries(report.after)) assert.notEqual(state, "granted", name);
});

async function planFor(command: string, argv: string[], env: Record<string, string>): Promise<CommandPlan> {
  const spec = findCommand(command)!;
  return await buildPlan(spec, parseArgs(argv, spec.options, command), env, env.HOME!, null);
}

const withJob = (plan: CommandPlan, job: unknown): CommandPlan => ({
  ...plan,
  args: { ...plan.args, options: { ...plan.args.options, [JOB_OPTION]: encodeJob(job) } },
});

Deno.test("permission table: the MCP servers write nothing but the call log and run only git", async () => {
  const home = await tempHome();
  const mcp = permissionsFor("mcp", await planFor("mcp", [], { HOME: home }));
  assert.deepEqual([mcp.write, mcp.net, mcp.run], [[], [], ["git"]]);
  const logged = permissionsFor(
    "serve",
    await planFor("serve", [], { HOME: home, VERDICT_CALL_LOG: `${home}/calls.jsonl` }),
  );
  assert.deepEqual(logged.write, [`${home}/calls.jsonl`]);
  assert.deepEqual(logged.net, ["127.0.0.1:8933"]);
});

Deno.test("permission table: schedule runs only systemctl or launchctl, nothing for cron; doctor runs only itself", async () => {
  const home = await tempHome();
  const base = { bin: "/v", intervalMinutes: 60, env: {}, home, configHome: `${home}/.config` };
  const job = (scheduler: "systemd" | "launchd" | "cron", action = "install", dryRun = false) => ({
    action,
    dryRun,
    plan: schedulePlan({ ...base, scheduler }),
    bin: "/v",
    intervalMinutes: 60,
    records: `${home}/r.jsonl`,
    collectState: `${home}/r.jsonl.state.json`,
    now: 0,
  });
  const plan = await planFor("schedule install", [], { HOME: home });
  const p = (j: unknown, cmd = "schedule install") => permissionsFor(cmd, withJob(plan, j));
  assert.deepEqual(p(job("systemd")).run, ["systemctl"]);
  assert.deepEqual(p(job("systemd")).write, [
    `${home}/.config/systemd/user/verdict-collect.service`,
    `${home}/.config/systemd/user/verdict-collect.service.tmp`,
    `${home}/.config/systemd/user/verdict-collect.timer`,
    `${home}/.config/systemd/user/verdict-collect.timer.tmp`,
  ]);
  assert.deepEqual(p(job("launchd")).run, ["launchctl"]);
  assert.deepEqual([p(job("cron")).run, p(job("cron")).write], [[], []]);
  assert.deepEqual([p(job("systemd", "install", true)).run, p(job("systemd", "install", true)).write], [
    [],
    [],
  ]);
  assert.deepEqual(p(job("systemd", "status"), "schedule status").write, []);
  assert.deepEqual(p(job("systemd")).net, []);

  const doctorPlan = await planFor("doctor", [], { HOME: home });
  const d = permissionsFor(
    "doctor",
    withJob(doctorPlan, {
      now: 0,
      config: { path: `${home}/c.json`, exists: false, error: null },
      transcriptRoots: [],
      docRoots: [],
      gitRepos: [],
      records: `${home}/r`,
      index: `${home}/r.idx`,
      collectState: `${home}/r.state.json`,
      agents: [
        {
          id: "claude",
          present: false,
          files: [{ role: "claude-settings", path: `${home}/s.json` }, {
            role: "claude-config",
            path: `${home}/c2.json`,
          }],
        },
        { id: "codex", present: false, files: [{ role: "codex-config", path: `${home}/c.toml` }] },
      ],
      scheduler: "systemd",
      scheduleFiles: [],
      bin: "verdict",
      probe: { argv: ["/opt/verdict", "sandbox-probe"], path: "/etc/hostname" },
    }),
  );
  assert.deepEqual([d.run, d.write, d.net], [["/opt/verdict"], [], []]);
  // Without a job (e.g. probed through sandbox-probe --as) these commands get nothing.
  assert.deepEqual(permissionsFor("doctor", doctorPlan), { read: [], write: [], net: [], run: [] });
  assert.deepEqual(permissionsFor("install", doctorPlan), { read: [], write: [], net: [], run: [] });
});
