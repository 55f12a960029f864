/**
 * install then uninstall gives back the bytes install found, for the shapes a person's files
 * really have: their own empty containers, a blank or one-line file, a last line without a line
 * break, a TOML value that looks like a table; install keeps the newest backups only, refuses a
 * file nested too deep with its name, and never undoes an agent's write made while it plans.
 * The real CLI in a temp HOME.
 */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../cli_helper.ts";
import { GOLDEN_BIN, GOLDEN_ENV } from "./_golden.ts";
import { MAX_JSON_DEPTH } from "../../src/config/jsonc.ts";
import { KEEP_BACKUPS } from "../../src/install/jobs.ts";
import { applyJob, planJob } from "../../src/install/install.ts";
import type { InstallJob } from "../../src/install/jobs.ts";
import { LEDGER_FILE } from "../../src/install/ledger.ts";

function env(home: string, asOf = "2026-11-29T12:00:00Z"): Record<string, string> {
  return { HOME: home, VERDICT_BIN: GOLDEN_BIN, ...GOLDEN_ENV, VERDICT_ASOF: asOf };
}

/** Writes `files` (path under HOME → text), installs `agent`, uninstalls it; returns the texts after. */
async function roundTrip(
  agent: string,
  files: Record<string, string>,
): Promise<{ home: string; installed: Record<string, string | null>; after: Record<string, string | null> }> {
  const home = await tempHome();
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(`${home}/${rel}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${home}/${rel}`, text);
  }
  const read = async () =>
    Object.fromEntries(
      await Promise.all(
        Object.keys(files).map(async (rel) => [
          rel,
          await Deno.readTextFile(`${home}/${rel}`).catch(() => null),
        ]),
      ),
    );
  const i = await runCli(["install", `--${agent}`], { env: env(home) });
  assert.equal(i.code, 0, i.stderr);
  const installed = await read();
  const u = await runCli(["uninstall", `--${agent}`], { env: env(home, "2026-11-29T12:00:01Z") });
  assert.equal(u.code, 0, u.stderr);
  return { home, installed, after: await read() };
}

Deno.test("uninstall keeps a person's own empty mcpServers in Gemini CLI's settings.json, byte for byte", async () => {
  const original = '{\n  "theme": "dark",\n  "mcpServers": {}\n}\n';
  const { installed, after } = await roundTrip("gemini", { ".gemini/settings.json": original });
  assert.match(installed[".gemini/settings.json"]!, /"verdict"/);
  assert.equal(after[".gemini/settings.json"], original);
});

Deno.test("uninstall removes the containers install created (nothing of verdict's left, original bytes back)", async () => {
  const original = '{\n  "theme": "dark"\n}\n';
  const { installed, after } = await roundTrip("gemini", { ".gemini/settings.json": original });
  assert.match(installed[".gemini/settings.json"]!, /"hooks"/);
  assert.equal(after[".gemini/settings.json"], original);
});

for (const original of ['{"hooks": {}}\n', "{}\n", '{\n  "hooks": {},\n  "note": "mine"\n}\n', "{}"]) {
  Deno.test(`Codex uninstall keeps the person's own hooks.json ${JSON.stringify(original)} as it was`, async () => {
    const { installed, after } = await roundTrip("codex", {
      ".codex/hooks.json": original,
      ".codex/config.toml": 'model = "o4"\n',
    });
    assert.match(installed[".codex/hooks.json"]!, /UserPromptSubmit/);
    assert.equal(after[".codex/hooks.json"], original);
    assert.equal(after[".codex/config.toml"], 'model = "o4"\n');
  });
}

Deno.test("Codex uninstall deletes the hooks.json install created", async () => {
  const { installed, after } = await roundTrip("codex", { ".codex/config.toml": 'model = "o4"\n' });
  assert.equal(after[".codex/config.toml"], 'model = "o4"\n');
  assert.equal(installed[".codex/config.toml"]!.includes("[mcp_servers.verdict]"), true);
  assert.equal(
    await Deno.stat(`${(await roundTrip("codex", {})).home}/.codex/hooks.json`).catch(() => null),
    null,
  );
});

Deno.test("a config.toml without a final newline comes back without one", async () => {
  const original = 'model = "o4"\n[profiles.fast]\nmodel = "mini"';
  const { installed, after } = await roundTrip("codex", { ".codex/config.toml": original });
  assert.notEqual(installed[".codex/config.toml"], original);
  assert.equal(after[".codex/config.toml"], original);
});

for (const blank of ["", "\n", "  \n"]) {
  Deno.test(`an empty settings.json (${JSON.stringify(blank)}) comes back empty, not as {}`, async () => {
    const { installed, after } = await roundTrip("claude", {
      ".claude/settings.json": blank,
      ".claude.json": "{}\n",
    });
    assert.match(installed[".claude/settings.json"]!, /UserPromptSubmit/);
    assert.equal(after[".claude/settings.json"], blank);
    assert.equal(after[".claude.json"], "{}\n");
  });
}

Deno.test("a settings file written on one line gets its entries on that line, and comes back byte for byte", async () => {
  const original = '{"theme":"dark","hooks":{},"mcpServers":{}}';
  const { installed, after } = await roundTrip("gemini", { ".gemini/settings.json": original });
  const text = installed[".gemini/settings.json"]!;
  assert.equal(text.includes("\n"), false, text);
  assert.match(text, /"BeforeAgent":\[/);
  assert.equal(after[".gemini/settings.json"], original);
});

Deno.test("a TOML multi-line string or array holding [mcp_servers.verdict] is a value, not a table: install goes ahead", async () => {
  const original = [
    'notes = """',
    "[mcp_servers.verdict]",
    'command = "not a table"',
    '"""',
    "literal = '''",
    "[mcp_servers.verdict]",
    "'''",
    "list = [",
    '  "a", # [mcp_servers.verdict]',
    "  [1, 2],",
    "]",
    "",
  ].join("\n");
  const { installed, after } = await roundTrip("codex", { ".codex/config.toml": original });
  assert.match(installed[".codex/config.toml"]!, /^\[mcp_servers\.verdict\]$/m);
  assert.equal(after[".codex/config.toml"], original);
});

Deno.test("a real [mcp_servers.verdict] table after a multi-line string is still refused", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.codex`, { recursive: true });
  const text = 'notes = """\nx\n"""\n[mcp_servers.verdict]\ncommand = "other"\n';
  await Deno.writeTextFile(`${home}/.codex/config.toml`, text);
  const r = await runCli(["install", "--codex"], { env: env(home) });
  assert.equal(r.code, 3, r.stdout);
  assert.match(r.stderr, /line 4 holds a \[mcp_servers\.verdict\] table/);
  assert.equal(await Deno.readTextFile(`${home}/.codex/config.toml`), text);
});

Deno.test("a settings.json nested deeper than the bound is refused with exit 3, naming the file; nothing written", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.claude`, { recursive: true });
  const deep = `{"a": ${"[".repeat(5000)}${"]".repeat(5000)}}\n`;
  await Deno.writeTextFile(`${home}/.claude/settings.json`, deep);
  await Deno.writeTextFile(`${home}/.claude.json`, "{}\n");
  const r = await runCli(["install", "--claude"], { env: env(home) });
  assert.equal(r.code, 3, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`\\.claude/settings\\.json.*Nested deeper than ${MAX_JSON_DEPTH} levels`),
  );
  assert.doesNotMatch(r.stderr, /call stack/);
  assert.equal(await Deno.readTextFile(`${home}/.claude/settings.json`), deep);
  assert.equal(await Deno.readTextFile(`${home}/.claude.json`), "{}\n");
});

Deno.test(`install and uninstall keep the newest ${KEEP_BACKUPS} backups of each file`, async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.gemini`, { recursive: true });
  await Deno.writeTextFile(`${home}/.gemini/settings.json`, '{\n  "theme": "dark"\n}\n');
  for (let i = 0; i < 6; i++) {
    const action = i % 2 === 0 ? "install" : "uninstall";
    const r = await runCli([action, "--gemini"], { env: env(home, `2026-11-29T12:00:0${i}Z`) });
    assert.equal(r.code, 0, r.stderr);
  }
  const backups: string[] = [];
  for await (const e of Deno.readDir(`${home}/.gemini`)) {
    if (e.name.startsWith("settings.json.verdict-backup-")) backups.push(e.name);
  }
  backups.sort();
  assert.deepEqual(backups, [3, 4, 5].map((i) => `settings.json.verdict-backup-20261129T12000${i}Z`));
});

Deno.test("an agent's write between install's plan and its write is kept: the file is planned again", async () => {
  const home = await tempHome();
  const path = `${home}/.claude.json`;
  await Deno.writeTextFile(path, '{\n  "numStartups": 1\n}\n');
  const job: InstallJob = {
    action: "install",
    dryRun: false,
    bin: GOLDEN_BIN,
    env: {},
    skipped: [],
    ledger: `${home}/${LEDGER_FILE}`,
    files: [{ role: "claude-config", path, real: path, agentPath: path, backup: `${path}.verdict-backup-X` }],
  };
  const reports = await planJob(job);
  assert.equal(reports[0]!.status, "updated");
  // The agent rewrites its file after the plan (as Claude Code does with ~/.claude.json).
  await Deno.writeTextFile(path, '{\n  "numStartups": 2,\n  "tipsHistory": {}\n}\n');
  await applyJob(job, reports);
  const after = JSON.parse(await Deno.readTextFile(path));
  assert.equal(after.numStartups, 2, "the agent's write was undone");
  assert.deepEqual(after.tipsHistory, {});
  assert.equal(typeof after.mcpServers.verdict, "object", "verdict's entry is there");
  assert.equal(
    await Deno.readTextFile(`${path}.verdict-backup-X`),
    '{\n  "numStartups": 2,\n  "tipsHistory": {}\n}\n',
    "the backup holds what was replaced",
  );
});
