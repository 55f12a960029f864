/**
 * `verdict schedule install|remove|status` end to end in a temp HOME. systemctl is a small
 * script on PATH that logs its arguments (the user's real systemd is never touched), or absent.
 */
import assert from "node:assert/strict";
import { copyTree, runCli, tempHome } from "../cli_helper.ts";
import { schedulePlan } from "../../src/install/schedule.ts";

const linux = Deno.build.os === "linux";
const BIN = "/opt/verdict/bin/verdict";

async function fakeSystemctl(home: string, exitCode = 0): Promise<{ path: string; log: string }> {
  const dir = `${home}/fakebin`;
  await Deno.mkdir(dir, { recursive: true });
  const log = `${home}/systemctl.log`;
  await Deno.writeTextFile(
    `${dir}/systemctl`,
    `#!/bin/sh\necho "$*" >> '${log}'\n` +
      (exitCode === 0
        ? `case "$*" in *is-active*) echo active;; esac\nexit 0\n`
        : `echo "Failed to connect to bus: No medium found" >&2\nexit ${exitCode}\n`),
    { mode: 0o755 },
  );
  return { path: dir, log };
}

const readLog = async (log: string) =>
  (await Deno.readTextFile(log).catch(() => "")).trim().split("\n").filter(Boolean);

Deno.test({
  name: "schedule install writes the systemd unit and timer, then reloads and enables the timer",
  ignore: !linux,
  fn: async () => {
    const home = await tempHome();
    const sys = await fakeSystemctl(home);
    const env = { HOME: home, PATH: sys.path, VERDICT_BIN: BIN, VERDICT_RECORDS: `${home}/r.jsonl` };
    const r = await runCli(["schedule", "install"], { env });
    assert.equal(r.code, 0, r.stderr);
    const expected = schedulePlan({
      scheduler: "systemd",
      bin: BIN,
      intervalMinutes: 60,
      env: { VERDICT_RECORDS: `${home}/r.jsonl` },
      home,
      configHome: `${home}/.config`,
    });
    for (const f of expected.files) assert.equal(await Deno.readTextFile(f.path), f.text);
    assert.deepEqual(await readLog(sys.log), [
      "--user daemon-reload",
      "--user enable --now verdict-collect.timer",
    ]);
    assert.equal(
      r.stdout,
      [
        `schedule: systemd runs "${BIN} collect" every 60 minutes`,
        `  created ${home}/.config/systemd/user/verdict-collect.service`,
        `  created ${home}/.config/systemd/user/verdict-collect.timer`,
        "  ran: systemctl --user daemon-reload",
        "  ran: systemctl --user enable --now verdict-collect.timer",
        "done: systemd runs verdict collect from now on",
        "",
      ].join("\n"),
    );
    // Again: the files are unchanged; enabling is repeated (harmless) in case it was disabled.
    const again = await runCli(["schedule", "install"], { env });
    assert.match(again.stdout, /unchanged .*verdict-collect\.timer/);
  },
});

Deno.test({
  name:
    "schedule install without systemctl (or when it fails) keeps the files, says what to run by hand and exits 4",
  ignore: !linux,
  fn: async () => {
    const home = await tempHome();
    const r = await runCli(["schedule", "install"], {
      env: { HOME: home, PATH: `${home}/nothing`, VERDICT_BIN: BIN },
    });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stdout, /could not run "systemctl --user daemon-reload": /);
    assert.match(
      r.stdout,
      /not activated: the files are in place, but nothing runs them yet; run this by hand:\n {2}systemctl --user daemon-reload && systemctl --user enable --now verdict-collect\.timer\n$/,
    );
    assert.ok(await Deno.stat(`${home}/.config/systemd/user/verdict-collect.timer`));
    const sys = await fakeSystemctl(home, 1);
    const failing = await runCli(["schedule", "install"], {
      env: { HOME: home, PATH: sys.path, VERDICT_BIN: BIN },
    });
    assert.equal(failing.code, 4, failing.stderr);
    assert.match(
      failing.stdout,
      /could not run "systemctl --user daemon-reload": Failed to connect to bus: No medium found/,
    );
    assert.deepEqual(await readLog(sys.log), ["--user daemon-reload"], "stops at the first failure");
    // The files are there, but the timer is not running: status says so rather than "yes".
    const status = await runCli(["schedule", "status"], {
      env: { HOME: home, PATH: sys.path, VERDICT_BIN: BIN },
    });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^timer: not active \(Failed to connect to bus: No medium found\)$/m);
    assert.doesNotMatch(status.stdout, /^timer: active$/m);
  },
});

Deno.test("schedule install: interval from the config, --interval overrides; bounds checked", async () => {
  const home = await tempHome();
  const config = `${home}/config.json`;
  await Deno.writeTextFile(config, JSON.stringify({ schedule_interval_minutes: 30 }));
  const env = { HOME: home, PATH: `${home}/nothing`, VERDICT_BIN: BIN, VERDICT_CONFIG: config };
  const dry = await runCli(["schedule", "install", "--scheduler", "systemd", "--dry-run"], { env });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^OnUnitActiveSec=30min$/m);
  assert.match(dry.stdout, /^Environment="VERDICT_CONFIG=.*\/config\.json"$/m);
  assert.match(dry.stdout, /^would run: systemctl --user enable --now verdict-collect\.timer$/m);
  assert.match(dry.stdout, /^dry run: nothing was written$/m);
  await assert.rejects(Deno.stat(`${home}/.config`), Deno.errors.NotFound);
  const over = await runCli([
    "schedule",
    "install",
    "--scheduler",
    "launchd",
    "--interval",
    "15",
    "--dry-run",
  ], { env });
  assert.match(over.stdout, /<integer>900<\/integer>/);
  assert.match(over.stdout, /<string>--skip-protected<\/string>/);
  const bad = await runCli(["schedule", "install", "--interval", "2"], { env });
  assert.equal(bad.code, 3);
  assert.match(bad.stderr, /Option "--interval" must be between 5 and 10080, got 2/);
});

Deno.test("schedule install from source without VERDICT_BIN schedules the launcher it writes, never a bare word", async () => {
  const home = await tempHome();
  const r = await runCli(["schedule", "install", "--scheduler", "cron"], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  const launcher = `${home}/.local/share/verdict/bin/verdict`;
  assert.ok(r.stdout.includes(`\n0 * * * * ${launcher} collect --quiet\n`), r.stdout);
  assert.match(await Deno.readTextFile(launcher), /^#!\/bin\/sh\n/);
});

Deno.test("cron and Task Scheduler: the line or command is printed, nothing is written", async () => {
  const home = await tempHome();
  const env = { HOME: home, VERDICT_BIN: BIN };
  const cron = await runCli(["schedule", "install", "--scheduler", "cron", "--interval", "30"], { env });
  assert.equal(cron.code, 0, cron.stderr);
  assert.match(cron.stdout, /^\*\/30 \* \* \* \* \/opt\/verdict\/bin\/verdict collect --quiet$/m);
  const win = await runCli(["schedule", "install", "--scheduler", "schtasks"], { env });
  assert.match(win.stdout, /^schtasks \/Create \/F \/SC MINUTE \/MO 60 \/TN "verdict collect" \/TR /m);
  const rm = await runCli(["schedule", "remove", "--scheduler", "schtasks"], { env });
  assert.match(rm.stdout, /schtasks \/Delete \/F \/TN "verdict collect"/);
  assert.deepEqual([...Deno.readDirSync(home)], []);
});

Deno.test({
  name:
    "schedule status: installed or not, the interval, the timer's state, when collect last ran, the counts",
  ignore: !linux,
  fn: async () => {
    const home = await tempHome();
    const sys = await fakeSystemctl(home);
    await copyTree(new URL("../../examples/claude", import.meta.url).pathname, `${home}/.claude`);
    const env = { HOME: home, PATH: sys.path, VERDICT_BIN: BIN };
    const before = await runCli(["schedule", "status"], { env });
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /^installed: no \(/m);
    assert.match(before.stdout, /^last collect: none yet \(no records at .*records\.db\)$/m);
    assert.equal((await runCli(["schedule", "install", "--interval", "20"], { env })).code, 0);
    assert.equal((await runCli(["collect"], { env })).code, 0);
    const after = await runCli(["schedule", "status"], { env });
    assert.match(after.stdout, /^installed: yes, every 20 minutes \(/m);
    assert.match(after.stdout, /^timer: active$/m);
    assert.match(
      after.stdout,
      /^last collect: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \((under a minute|\d+ minutes?) ago\)$/m,
    );
    assert.match(after.stdout, /^records: \d+ \(prompt \d+, note \d+, doc \d+, commit 0, tag 0\) in /m);
    const json = JSON.parse((await runCli(["schedule", "status", "--json"], { env })).stdout);
    assert.equal(json.installed, true);
    assert.equal(json.intervalMinutes, 20);
    assert.equal(typeof json.byKind.prompt, "number");
  },
});

Deno.test({
  name:
    "schedule remove disables the timer, deletes both files and reloads; a second remove has nothing to do",
  ignore: !linux,
  fn: async () => {
    const home = await tempHome();
    const sys = await fakeSystemctl(home);
    const env = { HOME: home, PATH: sys.path, VERDICT_BIN: BIN };
    assert.equal((await runCli(["schedule", "install"], { env })).code, 0);
    const dry = await runCli(["schedule", "remove", "--dry-run"], { env });
    assert.match(dry.stdout, /^would remove .*verdict-collect\.service$/m);
    assert.ok(await Deno.stat(`${home}/.config/systemd/user/verdict-collect.service`));
    await Deno.remove(sys.log);
    const r = await runCli(["schedule", "remove"], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await readLog(sys.log), [
      "--user disable --now verdict-collect.timer",
      "--user daemon-reload",
    ]);
    assert.deepEqual([...Deno.readDirSync(`${home}/.config/systemd/user`)], []);
    assert.match(r.stdout, /^done: systemd no longer runs verdict collect$/m);
    const again = await runCli(["schedule", "remove"], { env });
    assert.match(again.stdout, /^schedule: not installed .*; nothing to remove$/m);
  },
});
