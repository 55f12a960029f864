/**
 * Install, uninstall and doctor for Gemini CLI's settings.json: the pure edits (every other byte
 * kept, comments included; a second install changes nothing; uninstall gives the original bytes
 * back), the refusals (a foreign mcpServers.verdict, a malformed file, hooks that are not a list),
 * the CLI's dry-run diff, and doctor's honesty about hooks Gemini CLI will not run.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  geminiMcpState,
  installGeminiSettings,
  uninstallGeminiSettings,
} from "../../../src/agents/gemini/settings.ts";
import { turnedOff } from "../../../src/agents/gemini/doctor.ts";
import { mcpBlocked } from "../../../src/agents/gemini_family/settings_file.ts";
import { HostFileError } from "../../../src/hostfile/errors.ts";
import { runCli, tempHome } from "../../cli_helper.ts";
import { SAMPLES_DIR } from "./expectations.ts";

const BIN = "/opt/verdict/bin/verdict";
const ENV = { VERDICT_RECORDS: "/data/records.jsonl" };
const PATH = "/h/.gemini/settings.json";

/** A settings file as a person keeps it: comments, their own hook and MCP server, odd spacing. */
const USER_SETTINGS = `{
  // my settings
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "ui": {"theme": "GitHub"},
  "hooks": {
    "BeforeAgent": [
      { "hooks": [ { "type": "command", "command": "~/bin/log-prompt.sh", "name": "log" } ] }
    ]
  },
  "mcpServers": {
    "github": { "command": "gh-mcp", "args": [] }
  }
}
`;

Deno.test("gemini install: adds the BeforeAgent hook and mcpServers.verdict, keeps every other byte, and is idempotent", () => {
  const r = installGeminiSettings(USER_SETTINGS, PATH, BIN, ENV);
  assert.deepEqual(r.changes, ["BeforeAgent hook added", "mcpServers.verdict added"]);
  const after = JSON.parse(r.text.replace(/^\s*\/\/.*$/m, ""));
  assert.equal(after.hooks.BeforeAgent.length, 2);
  assert.deepEqual(after.hooks.BeforeAgent[0].hooks[0].command, "~/bin/log-prompt.sh");
  const ours = after.hooks.BeforeAgent[1].hooks[0];
  assert.equal(ours.type, "command");
  assert.equal(ours.name, "verdict-hint");
  assert.equal(ours.timeout, 5000);
  assert.equal(
    ours.command,
    "test -x /opt/verdict/bin/verdict && VERDICT_RECORDS=/data/records.jsonl exec /opt/verdict/bin/verdict " +
      "hook user-prompt --agent gemini; exit 0 # added by verdict install",
  );
  assert.deepEqual(after.mcpServers.verdict, { command: BIN, args: ["mcp"], env: ENV });
  assert.deepEqual(after.mcpServers.github, { command: "gh-mcp", args: [] });
  assert.ok(
    r.text.startsWith('{\n  // my settings\n  "security": { "auth": { "selectedType": "gemini-api-key" } },'),
  );
  assert.ok(r.text.includes('"ui": {"theme": "GitHub"},'));
  const again = installGeminiSettings(r.text, PATH, BIN, ENV);
  assert.deepEqual(again.changes, []);
  assert.equal(again.text, r.text);
  assert.equal(geminiMcpState(r.text, PATH), "ours");
});

Deno.test("gemini uninstall: gives back the original bytes; a trust the person added is kept on update", () => {
  const installed = installGeminiSettings(USER_SETTINGS, PATH, BIN, ENV).text;
  const removed = uninstallGeminiSettings(installed, PATH);
  assert.deepEqual(removed.changes, ["BeforeAgent hook removed", "mcpServers.verdict removed"]);
  assert.equal(removed.text, USER_SETTINGS);
  assert.deepEqual(uninstallGeminiSettings(USER_SETTINGS, PATH).changes, []);
  // From nothing and back to nothing's content.
  const fresh = installGeminiSettings("", PATH, BIN, {});
  assert.deepEqual(JSON.parse(uninstallGeminiSettings(fresh.text, PATH).text), {});
  // The person trusts verdict's server (no confirmation per call); a new binary keeps that.
  const trusted = installed.replace(
    '"args": [\n        "mcp"\n      ],',
    '"args": [\n        "mcp"\n      ],\n      "trust": true,',
  );
  assert.notEqual(trusted, installed);
  const moved = installGeminiSettings(trusted, PATH, "/usr/local/bin/verdict", ENV);
  assert.deepEqual(moved.changes, ["BeforeAgent hook updated", "mcpServers.verdict updated"]);
  assert.equal(JSON.parse(moved.text.replace(/^\s*\/\/.*$/m, "")).mcpServers.verdict.trust, true);
});

Deno.test("gemini install refuses a foreign mcpServers.verdict, a malformed file and a hooks event that is not a list", () => {
  const foreign = '{"mcpServers": {"verdict": {"command": "python3", "args": ["stub.py"]}}}';
  assert.throws(() => installGeminiSettings(foreign, PATH, BIN, ENV), (e: unknown) => {
    assert.ok(e instanceof HostFileError);
    assert.match(
      e.message,
      /refusing to replace mcpServers\.verdict in ".*": it was not written by "verdict install"/,
    );
    assert.match(e.hint ?? "", /gemini mcp remove verdict/);
    return true;
  });
  assert.deepEqual(uninstallGeminiSettings(foreign, PATH).changes, []);
  assert.throws(() => installGeminiSettings('{"hooks": {"BeforeAgent": {}}}', PATH, BIN, ENV), HostFileError);
  assert.throws(() => installGeminiSettings("[1, 2]", PATH, BIN, ENV), HostFileError);
  assert.throws(() => installGeminiSettings('{"hooks": ', PATH, BIN, ENV));
});

Deno.test({
  name: "gemini install refuses the real sample settings.json: its mcpServers.verdict is another program",
  ignore: (() => {
    try {
      return !Deno.statSync(fileURLToPath(new URL("settings.json", SAMPLES_DIR))).isFile;
    } catch {
      console.log("gemini settings_test: the sample settings.json is absent; skipped");
      return true;
    }
  })(),
  fn: async () => {
    const text = await Deno.readTextFile(new URL("settings.json", SAMPLES_DIR));
    assert.equal(geminiMcpState(text, PATH), "other");
    assert.throws(() => installGeminiSettings(text, PATH, BIN, ENV), HostFileError);
  },
});

Deno.test("gemini doctor rules: hooks switched off, or the MCP server kept from starting, are said", () => {
  assert.equal(turnedOff({}), null);
  assert.match(turnedOff({ hooksConfig: { enabled: false } })!, /hooksConfig\.enabled is false/);
  assert.match(turnedOff({ hooksConfig: { disabled: ["verdict-hint"] } })!, /hooksConfig\.disabled lists/);
  assert.equal(mcpBlocked({ mcp: { allowed: ["verdict", "github"] } }), null);
  assert.match(mcpBlocked({ mcp: { allowed: ["github"] } })!, /mcp\.allowed does not list "verdict"/);
  assert.match(mcpBlocked({ mcp: { excluded: ["verdict"] } })!, /mcp\.excluded lists "verdict"/);
});

Deno.test("verdict install --gemini: a dry-run diff first, then the file; doctor passes, and fails once hooks are disabled", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.gemini/tmp`, { recursive: true });
  await Deno.writeTextFile(`${home}/.gemini/settings.json`, USER_SETTINGS);
  const env = { HOME: home, VERDICT_BIN: BIN, VERDICT_ASOF: "2026-12-01T00:00:00Z" };
  const dry = await runCli(["install", "--gemini", "--dry-run"], { env });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^\+.*hook user-prompt --agent gemini; exit 0 # added by verdict install/m);
  assert.match(dry.stdout, /^\+ {4}"verdict": \{$/m);
  assert.equal(await Deno.readTextFile(`${home}/.gemini/settings.json`), USER_SETTINGS);
  const wet = await runCli(["install", "--gemini"], { env });
  assert.equal(wet.code, 0, wet.stderr);
  assert.match(wet.stdout, /Gemini CLI hooks and MCP server: .*settings\.json updated/);
  const doctor = async () =>
    JSON.parse((await runCli(["doctor", "--json"], { env })).stdout).checks as {
      id: string;
      status: string;
      message: string;
    }[];
  const hooks = (await doctor()).filter((c) => c.id === "gemini hooks");
  assert.deepEqual(hooks.map((c) => c.status), ["ok"], JSON.stringify(hooks));
  assert.match(hooks[0]!.message, /BeforeAgent in .*settings\.json \(user hooks need no trust step\)/);
  const text = await Deno.readTextFile(`${home}/.gemini/settings.json`);
  await Deno.writeTextFile(
    `${home}/.gemini/settings.json`,
    text.replace(
      '"ui": {"theme": "GitHub"},',
      '"ui": {"theme": "GitHub"}, "hooksConfig": {"enabled": false},',
    ),
  );
  const off = (await doctor()).find((c) => c.id === "gemini hooks")!;
  assert.equal(off.status, "fail");
  assert.match(off.message, /will not run verdict's hooks: hooksConfig\.enabled is false/);
  const un = await runCli(["uninstall", "--gemini"], { env });
  assert.equal(un.code, 0, un.stderr);
  assert.ok(!(await Deno.readTextFile(`${home}/.gemini/settings.json`)).includes("verdict"));
});
