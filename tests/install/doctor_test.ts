/**
 * `verdict doctor` in temp HOMEs: all ok on a fully set-up one, and each broken state reported
 * on its own line with a fix. The real CLI throughout, including the sandbox probe it spawns.
 */
import assert from "node:assert/strict";
import { copyTree, runCli, tempHome } from "../cli_helper.ts";
import { verdictWrapper } from "./_world.ts";

const BIN = "/opt/verdict/bin/verdict";
const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const linux = Deno.build.os === "linux";

interface Check {
  id: string;
  status: "ok" | "warn" | "fail" | "skip";
  message: string;
  fix: string | null;
}

async function doctor(env: Record<string, string>, args: string[] = []) {
  const r = await runCli(["doctor", "--json", ...args], { env });
  assert.equal(r.stderr, "", r.stderr);
  const parsed = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
  const by = (id: string) => parsed.checks.filter((c) => c.id === id);
  return { code: r.code, ok: parsed.ok, checks: parsed.checks, by, one: (id: string) => by(id)[0]! };
}

async function git(dir: string, ...args: string[]) {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

/** A HOME with transcripts, a config with a doc root and a git repo, records, hooks, MCP and the timer. */
async function fullHome(): Promise<Record<string, string>> {
  const home = await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  await copyTree(`${EXAMPLES}codex`, `${home}/.codex`);
  await copyTree(`${EXAMPLES}docs`, `${home}/notes`);
  await Deno.mkdir(`${home}/src/app`, { recursive: true });
  await git(`${home}/src/app`, "init", "-q");
  await git(`${home}/src/app`, "commit", "-q", "--allow-empty", "-m", "backups: nightly pg_dump");
  await Deno.mkdir(`${home}/.config/verdict`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.config/verdict/config.json`,
    JSON.stringify({ doc_roots: ["~/notes"], git_repos: ["~/src/app"] }),
  );
  // A verdict that runs (the hooks and the MCP server are run end to end), and a systemctl that
  // says yes to everything (the user's own systemd is never touched).
  const env = {
    HOME: home,
    VERDICT_BIN: await verdictWrapper(`${home}/opt/verdict/bin`),
    PATH: `${home}/fakebin:${Deno.env.get("PATH")}`,
  };
  await Deno.mkdir(`${home}/fakebin`);
  await Deno.writeTextFile(
    `${home}/fakebin/systemctl`,
    '#!/bin/sh\ncase "$*" in *is-active*) echo active;; esac\nexit 0\n',
    { mode: 0o755 },
  );
  for (const args of [["collect"], ["install"], ["schedule", "install", "--scheduler", "systemd"]]) {
    const r = await runCli(args, { env });
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  }
  return env;
}

Deno.test({
  name: "doctor: all ok on a fully set-up HOME, one line per check, exit 0",
  ignore: !linux,
  fn: async () => {
    const env = await fullHome();
    const d = await doctor(env);
    assert.equal(d.code, 0, JSON.stringify(d.checks, null, 2));
    assert.equal(d.ok, true);
    // Agents this HOME does not have (OpenCode…) are skipped; the rest must all be ok.
    assert.deepEqual(d.checks.filter((c) => c.status !== "skip").map((c) => [c.id, c.status]), [
      ["config", "ok"],
      ["transcripts", "ok"],
      ["roots", "ok"],
      ["records", "ok"],
      ["index", "ok"],
      ["marks", "ok"],
      ["claude hooks", "ok"],
      ["claude hook run", "ok"],
      ["claude mcp run", "ok"],
      ["codex hooks", "ok"],
      ["codex hook run", "ok"],
      ["codex mcp run", "ok"],
      ["mcp", "ok"],
      ["hook trouble", "ok"],
      ["schedule", "ok"],
      ["sandbox", "ok"],
    ]);
    assert.match(d.one("roots").message, /^1 doc root and 1 git repo, all readable$/);
    assert.match(d.one("claude hooks").message, /^UserPromptSubmit, PreCompact, SessionStart\(compact\) in /);
    assert.match(
      d.one("mcp").message,
      /^registered with Claude Code \(.*\.claude\.json\) and Codex \(.*config\.toml\)$/,
    );
    assert.match(d.one("schedule").message, /^systemd runs collect every 60 minutes/);
    // The probe: this program's own sandbox-probe, refused a read of the config file by Deno.
    assert.match(
      d.one("sandbox").message,
      /^Deno refused collect a read of .*\/\.config\/verdict\/config\.json \(outside its roots\)$/,
    );
    const text = await runCli(["doctor"], { env });
    assert.equal(text.code, 0);
    const lines = text.stdout.trimEnd().split("\n").filter((l) => !l.startsWith("skip"));
    assert.equal(lines.length, 17);
    assert.match(lines[0]!, /^ok {4}config {11}.*config\.json parses$/);
    assert.equal(lines[16], "doctor: all ok");
  },
});

Deno.test("doctor: a missing config is fine (defaults); a fresh HOME fails on records, hooks and MCP, with fixes", async () => {
  const home = await tempHome();
  const d = await doctor({ HOME: home, VERDICT_BIN: BIN });
  assert.equal(d.code, 1);
  assert.deepEqual(d.one("config"), {
    id: "config",
    status: "ok",
    message: `no file at ${home}/.config/verdict/config.json; the defaults are in use`,
    fix: null,
  });
  assert.equal(d.one("transcripts").status, "warn");
  assert.deepEqual([d.one("records").status, d.one("records").fix], ["fail", "run verdict collect"]);
  assert.equal(d.one("claude hooks").status, "skip", "no Claude Code here at all");
  assert.deepEqual([d.one("mcp").status, d.one("mcp").fix], ["fail", "run verdict install"]);
  assert.equal(d.one("sandbox").status, "ok");
});

Deno.test("doctor: a malformed config is reported with file, line and column, not thrown (exit 1, not 3)", async () => {
  const home = await tempHome();
  const config = `${home}/config.jsonc`;
  await Deno.writeTextFile(config, '{\n  "doc_roots": ["x"]\n  "git_repos": []\n}\n');
  const d = await doctor({ HOME: home, VERDICT_CONFIG: config });
  assert.equal(d.code, 1);
  assert.equal(d.one("config").status, "fail");
  assert.match(
    d.one("config").message,
    /^Cannot parse config ".*config\.jsonc": ',' or '}' expected at line 3, column 3$/,
  );
  assert.match(d.one("config").fix!, /config\.jsonc:3:3/);
  assert.equal(d.one("roots").status, "skip");
  assert.equal(d.one("sandbox").status, "skip");
  const unknown = `${home}/unknown.json`;
  await Deno.writeTextFile(unknown, '{"doc_root": []}');
  const u = await doctor({ HOME: home, VERDICT_CONFIG: unknown });
  assert.match(u.one("config").message, /Unknown key "doc_root"/);
});

Deno.test("doctor: missing roots are named, each with its fix", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/not-a-repo`);
  const config = `${home}/config.json`;
  await Deno.writeTextFile(config, JSON.stringify({ doc_roots: ["gone"], git_repos: ["not-a-repo"] }));
  const d = await doctor({ HOME: home, VERDICT_CONFIG: config });
  assert.equal(d.code, 1);
  assert.deepEqual(d.one("doc_roots"), {
    id: "doc_roots",
    status: "fail",
    message: `doc root ${home}/gone does not exist`,
    fix: `create it, or remove it from "doc_roots" in ${config}`,
  });
  assert.equal(d.one("git_repos").message, `git repo ${home}/not-a-repo is not a git work tree (no .git)`);
});

Deno.test({
  name: "doctor: stale records warn, a stale index fails, each with its fix",
  ignore: !linux,
  fn: async () => {
    const env = await fullHome();
    const later = await doctor(env, ["--as-of", new Date(Date.now() + 3 * 86_400_000).toISOString()]);
    assert.equal(later.one("records").status, "warn");
    assert.match(later.one("records").message, /last collected 3 days ago$/);
    assert.equal(later.code, 0, "a warning alone is not a failure");
    // An index file damaged or gone: the index cannot serve, and the next collect rebuilds it.
    const segments = `${env.HOME}/.local/share/verdict/records.index`;
    for await (const e of Deno.readDir(segments)) await Deno.truncate(`${segments}/${e.name}`, 64);
    const d = await doctor(env);
    assert.equal(d.code, 1);
    assert.deepEqual([d.one("index").status, d.one("index").fix], [
      "fail",
      "run verdict collect (it rebuilds the index)",
    ]);
    assert.match(d.one("index").message, /cannot serve: .*seg-\d+\.vix .*truncated/);
    assert.equal((await runCli(["collect"], { env })).code, 0);
    assert.equal((await doctor(env)).one("index").status, "ok");
  },
});

Deno.test({
  name: "doctor: hooks not registered, MCP not registered, schedule not installed",
  ignore: !linux,
  fn: async () => {
    const env = await fullHome();
    assert.equal((await runCli(["uninstall", "--claude"], { env })).code, 0);
    const noHooks = await doctor(env);
    assert.equal(noHooks.code, 1);
    assert.deepEqual(noHooks.one("claude hooks"), {
      id: "claude hooks",
      status: "fail",
      message:
        `not registered in ${env.HOME}/.claude/settings.json: UserPromptSubmit, PreCompact, SessionStart(compact)`,
      fix: "run verdict install --claude",
    });
    assert.match(noHooks.one("mcp").message, /^registered with Codex/);
    assert.equal((await runCli(["uninstall"], { env })).code, 0);
    const noMcp = await doctor(env);
    assert.deepEqual([noMcp.one("mcp").status, noMcp.one("mcp").fix], ["fail", "run verdict install"]);
    const rm = await runCli(["schedule", "remove"], { env: { ...env, PATH: `${env.HOME}/none` } });
    assert.equal(rm.code, 0, rm.stderr);
    const noTimer = await doctor(env);
    assert.deepEqual([noTimer.one("schedule").status, noTimer.one("schedule").fix], [
      "warn",
      "run verdict schedule install",
    ]);
    // Hooks left pointing at another binary are out of date.
    assert.equal(
      (await runCli(["install", "--claude"], { env: { ...env, VERDICT_BIN: "/old/verdict" } })).code,
      0,
    );
    const moved = await doctor(env);
    assert.equal(moved.one("claude hooks").status, "warn");
    assert.equal(
      moved.one("claude hooks").message,
      `the hooks run /old/verdict, but this verdict is ${env.VERDICT_BIN}`,
    );
    // A hook that runs a program that is not there never reaches verdict: a failure, not "ok".
    assert.equal(moved.one("claude hook run").status, "fail");
    assert.equal(moved.code, 1);
  },
});

Deno.test("doctor: a settings file that does not parse is a finding with its line and column", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.claude`);
  await Deno.writeTextFile(`${home}/.claude/settings.json`, '{"hooks": {]}');
  const d = await doctor({ HOME: home });
  assert.equal(d.one("claude hooks").status, "fail");
  assert.match(
    d.one("claude hooks").message,
    /^Cannot parse ".*settings\.json": Property name expected at line 1, column 12$/,
  );
  assert.match(d.one("claude hooks").fix!, /settings\.json:1:12$/);
});

Deno.test("doctor: a Codex hook that Codex will not run (untrusted, edited, turned off) fails, with the way to trust it", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.codex`);
  const env = { HOME: home, VERDICT_BIN: BIN };
  assert.equal((await runCli(["install", "--codex"], { env })).code, 0);
  const ok = await doctor(env);
  assert.equal(ok.one("codex hooks").status, "ok");
  assert.equal(
    ok.one("codex hooks").message,
    `UserPromptSubmit, PreCompact, SessionStart(compact) in ${home}/.codex/hooks.json, trusted`,
  );
  const config = `${home}/.codex/config.toml`;
  const installed = await Deno.readTextFile(config);
  const key = `${home}/.codex/hooks.json:user_prompt_submit:0:0`;
  // The trust entry gone (a config restored from before, or never recorded): Codex skips the hook.
  await Deno.writeTextFile(config, installed.replace(/\n\[hooks\.state\.[^\n]*\n[^\n]*\n/, "\n"));
  const untrusted = await doctor(env);
  assert.equal(untrusted.code, 1);
  assert.deepEqual(untrusted.one("codex hooks"), {
    id: "codex hooks",
    status: "fail",
    message:
      `Codex will not run verdict's UserPromptSubmit hook: it is not trusted (no [hooks.state] entry for ${key})`,
    fix: "run verdict install --codex (it records trust for the hooks it writes), or in Codex type /hooks, " +
      'select each verdict hook and press "t"',
  });
  // The hook edited after it was trusted: its hash no longer matches.
  await Deno.writeTextFile(config, installed);
  const hooks = `${home}/.codex/hooks.json`;
  await Deno.writeTextFile(hooks, (await Deno.readTextFile(hooks)).replace('"timeout": 5', '"timeout": 9'));
  const edited = await doctor(env);
  assert.equal(edited.one("codex hooks").status, "fail");
  assert.match(edited.one("codex hooks").message, /trusts another version of it$/);
  // install brings both back in line.
  assert.equal((await runCli(["install", "--codex"], { env })).code, 0);
  assert.equal((await doctor(env)).one("codex hooks").status, "ok");
  // Turned off in Codex.
  await Deno.writeTextFile(
    config,
    (await Deno.readTextFile(config)).replace("trusted_hash", "enabled = false\ntrusted_hash"),
  );
  const off = await doctor(env);
  assert.match(off.one("codex hooks").message, /it is turned off/);
  assert.equal(off.one("codex hooks").fix, "in Codex, type /hooks and turn it on");
});

Deno.test("doctor: an MCP entry named verdict that runs another program is named, never counted as registered", async () => {
  const home = await tempHome();
  const env = { HOME: home, VERDICT_BIN: BIN };
  await Deno.mkdir(`${home}/.claude`, { recursive: true });
  await Deno.mkdir(`${home}/.gemini`, { recursive: true });
  const stub = { command: "python3", args: ["/home/dev/tools/mcp_stub.py"] };
  await Deno.writeTextFile(`${home}/.claude.json`, JSON.stringify({ mcpServers: { verdict: stub } }));
  const only = await doctor(env);
  assert.deepEqual(only.one("mcp"), {
    id: "mcp",
    status: "fail",
    message:
      `the MCP server is registered with none of Claude Code, Codex, Gemini CLI, OpenCode, Qwen Code, ` +
      `Copilot CLI or Cline CLI; the "verdict" server in Claude Code (${home}/.claude.json) runs another program, not ` +
      `"verdict mcp"`,
    fix: "remove or rename that entry by hand, then run verdict install",
  });
  // install agrees: it will not replace that entry.
  assert.equal((await runCli(["install", "--claude"], { env })).code, 3);
  // verdict's own server with Gemini CLI beside the foreign one: registered, with a warning.
  assert.equal((await runCli(["install", "--gemini"], { env })).code, 0);
  const both = await doctor(env);
  assert.equal(both.one("mcp").status, "warn");
  assert.equal(
    both.one("mcp").message,
    `registered with Gemini CLI (${home}/.gemini/settings.json); the "verdict" server in Claude Code ` +
      `(${home}/.claude.json) runs another program, not "verdict mcp"`,
  );
});
