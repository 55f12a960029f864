/**
 * The scheduled collect's generated files and commands for every scheduler, held to golden
 * files (the platform is a parameter, so all of them are generated here on any OS).
 */
import assert from "node:assert/strict";
import {
  cronExpression,
  defaultScheduler,
  installedInterval,
  type ScheduleInput,
  schedulePlan,
  schtasksSchedule,
} from "../../src/install/schedule.ts";
import { assertGolden, GOLDEN_BIN, GOLDEN_ENV } from "./_golden.ts";

const UNIX: Omit<ScheduleInput, "scheduler"> = {
  bin: GOLDEN_BIN,
  intervalMinutes: 60,
  env: GOLDEN_ENV,
  home: "/home/dev",
  configHome: "/home/dev/.config",
};

Deno.test("systemd: a user service and timer under ~/.config/systemd/user, then daemon-reload and enable --now", () => {
  const plan = schedulePlan({ ...UNIX, scheduler: "systemd" });
  assert.deepEqual(plan.files.map((f) => f.path), [
    "/home/dev/.config/systemd/user/verdict-collect.service",
    "/home/dev/.config/systemd/user/verdict-collect.timer",
  ]);
  assertGolden("schedule/systemd/verdict-collect.service", plan.files[0]!.text);
  assertGolden("schedule/systemd/verdict-collect.timer", plan.files[1]!.text);
  assert.deepEqual(plan.activate, [
    ["systemctl", "--user", "daemon-reload"],
    ["systemctl", "--user", "enable", "--now", "verdict-collect.timer"],
  ]);
  assert.deepEqual(plan.deactivate, [["systemctl", "--user", "disable", "--now", "verdict-collect.timer"]]);
  assert.deepEqual(plan.manualInstall, [
    "systemctl --user daemon-reload && systemctl --user enable --now verdict-collect.timer",
  ]);
  assert.equal(installedInterval("systemd", plan.files[1]!.text), 60);
});

Deno.test("launchd: ~/Library/LaunchAgents/dev.verdict.collect.plist with --skip-protected, then launchctl load", () => {
  const plan = schedulePlan({ ...UNIX, home: "/Users/dev", scheduler: "launchd" });
  assert.deepEqual(plan.files.map((f) => f.path), [
    "/Users/dev/Library/LaunchAgents/dev.verdict.collect.plist",
  ]);
  assertGolden("schedule/launchd/dev.verdict.collect.plist", plan.files[0]!.text);
  assert.match(plan.files[0]!.text, /<string>collect<\/string>\n\s*<string>--skip-protected<\/string>/);
  assert.deepEqual(plan.activate, [[
    "launchctl",
    "load",
    "-w",
    "/Users/dev/Library/LaunchAgents/dev.verdict.collect.plist",
  ]]);
  assert.equal(installedInterval("launchd", plan.files[0]!.text), 60);
});

Deno.test("cron: no file, the line to add by hand", () => {
  const plan = schedulePlan({ ...UNIX, scheduler: "cron" });
  assert.deepEqual(plan.files, []);
  assertGolden("schedule/cron.txt", plan.manualInstall.join("\n") + "\n");
  assert.equal(plan.note, null);
});

Deno.test("Windows: the schtasks command to run by hand", () => {
  const plan = schedulePlan({
    scheduler: "schtasks",
    bin: "C:\\Users\\dev\\bin\\verdict.exe",
    intervalMinutes: 60,
    env: { VERDICT_RECORDS: "C:\\Users\\dev\\verdict data\\records.jsonl" },
    home: "C:\\Users\\dev",
    configHome: "C:\\Users\\dev\\.config",
  });
  assert.deepEqual(plan.files, []);
  assertGolden("schedule/schtasks.txt", plan.manualInstall.join("\n") + "\n");
  assert.deepEqual(plan.manualRemove, [
    "Run in a Command Prompt:",
    'schtasks /Delete /F /TN "verdict collect"',
  ]);
});

Deno.test("odd paths are quoted for each scheduler's own syntax", () => {
  const odd = { ...UNIX, bin: "/opt/my verdict/50%/$HOME/verdict", env: { VERDICT_CONFIG: "/c/<a&b>.json" } };
  const service = schedulePlan({ ...odd, scheduler: "systemd" }).files[0]!.text;
  assert.match(service, /^ExecStart="\/opt\/my verdict\/50%%\/\$\$HOME\/verdict" collect$/m);
  assert.match(service, /^Environment="VERDICT_CONFIG=\/c\/<a&b>.json"$/m);
  const plist = schedulePlan({ ...odd, scheduler: "launchd" }).files[0]!.text;
  assert.match(plist, /<string>\/c\/&lt;a&amp;b&gt;.json<\/string>/);
  const cron = schedulePlan({ ...odd, scheduler: "cron" }).manualInstall[1]!;
  assert.equal(
    cron,
    "0 * * * * VERDICT_CONFIG='/c/<a&b>.json' '/opt/my verdict/50\\%/$HOME/verdict' collect --quiet",
  );
});

/**
 * What cron does with a crontab line (crontab(5)): the command is what follows the five time
 * fields; an unescaped % ends it (the rest becomes stdin, lines at each further %), and `\%`
 * stands for a %. Then `sh -c` runs the command.
 */
function cronCommand(line: string): { command: string; stdin: string } {
  const rest = line.split(" ").slice(5).join(" ");
  let command = "";
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "\\" && rest[i + 1] === "%") {
      command += "%";
      i++;
    } else if (rest[i] === "%") {
      return { command, stdin: rest.slice(i + 1).replaceAll("%", "\n") };
    } else {
      command += rest[i];
    }
  }
  return { command, stdin: "" };
}

Deno.test("cron: a % in the program's path or an environment value reaches the command as a %", async () => {
  const dir = await Deno.makeTempDir({ prefix: "verdict-cron-" });
  try {
    const binDir = `${dir}/50% off/%d`;
    await Deno.mkdir(binDir, { recursive: true });
    const bin = `${binDir}/verdict`;
    await Deno.writeTextFile(bin, '#!/bin/sh\nprintf "%s|%s|%s\\n" "$0" "$VERDICT_CONFIG" "$*" > "$OUT"\n');
    await Deno.chmod(bin, 0o755);
    const config = `${dir}/100%.json`;
    const line = schedulePlan({ ...UNIX, bin, env: { VERDICT_CONFIG: config }, scheduler: "cron" })
      .manualInstall[1]!;
    const { command, stdin } = cronCommand(line);
    assert.equal(stdin, "", `cron would cut the command at a %: ${line}`);
    const out = `${dir}/out.txt`;
    const run = await new Deno.Command("/bin/sh", { args: ["-c", command], env: { OUT: out } }).output();
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    assert.equal(await Deno.readTextFile(out), `${bin}|${config}|collect --quiet\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("intervals: cron and Task Scheduler say when they cannot keep one exactly", () => {
  assert.deepEqual(cronExpression(15), { expr: "*/15 * * * *", exact: true });
  assert.deepEqual(cronExpression(45), { expr: "*/45 * * * *", exact: false });
  assert.deepEqual(cronExpression(120), { expr: "0 */2 * * *", exact: true });
  assert.deepEqual(cronExpression(1440), { expr: "0 0 * * *", exact: true });
  assert.match(
    schedulePlan({ ...UNIX, scheduler: "cron", intervalMinutes: 45 }).note!,
    /cannot run every 45 minutes/,
  );
  assert.deepEqual(schtasksSchedule(90), { args: ["/SC", "MINUTE", "/MO", "90"], exact: true });
  assert.deepEqual(schtasksSchedule(2880), { args: ["/SC", "DAILY", "/MO", "2"], exact: true });
  assert.equal(schtasksSchedule(1500).exact, false);
  assert.equal(
    installedInterval(
      "systemd",
      schedulePlan({ ...UNIX, scheduler: "systemd", intervalMinutes: 30 }).files[1]!.text,
    ),
    30,
  );
});

Deno.test("the default scheduler follows the OS", () => {
  assert.deepEqual(["linux", "darwin", "windows", "freebsd"].map(defaultScheduler), [
    "systemd",
    "launchd",
    "schtasks",
    "cron",
  ]);
});
