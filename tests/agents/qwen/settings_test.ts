/**
 * Install, uninstall and doctor for Qwen Code's settings.json: the pure edits (every other byte
 * kept; a second install changes nothing; uninstall gives the original bytes back), refusals
 * (a foreign mcpServers.verdict, a malformed file, a hooks event that is not a list), the real
 * sample settings, the CLI's dry-run diff, and doctor's honesty about hooks Qwen will not run.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  installQwenSettings,
  qwenMcpState,
  uninstallQwenSettings,
} from "../../../src/agents/qwen/settings.ts";
import { sandboxed, turnedOff } from "../../../src/agents/qwen/doctor.ts";
import { HostFileError } from "../../../src/hostfile/errors.ts";
import { runCli, tempHome } from "../../cli_helper.ts";
import { QWEN_SAMPLES_DIR } from "./expectations.ts";

const BIN = "/opt/verdict/bin/verdict";
const ENV = { VERDICT_RECORDS: "/data/records.jsonl" };
const PATH = "/h/.qwen/settings.json";

/** Settings as a person keeps them: auth, model, their own hook and MCP server, odd spacing. */
const USER_SETTINGS = `{
  "security": {"auth": {"selectedType": "openai"}},
  "model": { "name": "qwen3-coder-plus" },
  "hooks": {
    "UserPromptSubmit": [
      { "hooks": [ { "type": "command", "command": "~/bin/log-prompt.sh", "timeout": 2000 } ] }
    ]
  },
  "mcpServers": {
    "github": { "command": "gh-mcp", "args": [] }
  },
  "$version": 4
}
`;

const command = (sub: string) =>
  `test -x /opt/verdict/bin/verdict && VERDICT_RECORDS=/data/records.jsonl exec /opt/verdict/bin/verdict hook ${sub} ` +
  "--agent qwen; exit 0 # added by verdict install";

Deno.test("qwen install: three hooks in ms with --agent qwen and mcpServers.verdict, every other byte kept, idempotent", () => {
  const r = installQwenSettings(USER_SETTINGS, PATH, BIN, ENV);
  assert.deepEqual(r.changes, [
    "UserPromptSubmit hook added",
    "PreCompact hook added",
    "SessionStart(compact) hook added",
    "mcpServers.verdict added",
  ]);
  const after = JSON.parse(r.text);
  assert.equal(after.hooks.UserPromptSubmit.length, 2);
  assert.equal(after.hooks.UserPromptSubmit[0].hooks[0].command, "~/bin/log-prompt.sh");
  assert.deepEqual(after.hooks.UserPromptSubmit[1].hooks[0], {
    type: "command",
    command: command("user-prompt"),
    timeout: 5000,
  });
  assert.deepEqual(after.hooks.PreCompact[0].hooks[0], {
    type: "command",
    command: command("pre-compact"),
    timeout: 30000,
    statusMessage: "verdict: checking for unlanded work",
  });
  assert.equal(after.hooks.SessionStart[0].matcher, "compact");
  assert.equal(after.hooks.SessionStart[0].hooks[0].command, command("session-start"));
  // No `type` and no `trust`: the shape `qwen mcp add` writes; confirmation stays the person's call.
  assert.deepEqual(after.mcpServers.verdict, { command: BIN, args: ["mcp"], env: ENV });
  assert.deepEqual(after.mcpServers.github, { command: "gh-mcp", args: [] });
  assert.ok(r.text.startsWith('{\n  "security": {"auth": {"selectedType": "openai"}},\n  "model": { "name"'));
  const again = installQwenSettings(r.text, PATH, BIN, ENV);
  assert.deepEqual(again.changes, []);
  assert.equal(again.text, r.text);
  assert.equal(qwenMcpState(r.text, PATH), "ours");
});

Deno.test("qwen uninstall gives back the original bytes, from a person's file and from none", () => {
  const installed = installQwenSettings(USER_SETTINGS, PATH, BIN, ENV).text;
  const removed = uninstallQwenSettings(installed, PATH);
  assert.deepEqual(removed.changes, [
    "UserPromptSubmit hook removed",
    "PreCompact hook removed",
    "SessionStart(compact) hook removed",
    "mcpServers.verdict removed",
  ]);
  assert.equal(removed.text, USER_SETTINGS);
  assert.deepEqual(uninstallQwenSettings(USER_SETTINGS, PATH).changes, []);
  const fresh = installQwenSettings("", PATH, BIN, {});
  assert.deepEqual(JSON.parse(uninstallQwenSettings(fresh.text, PATH).text), {});
});

Deno.test("qwen install refuses a foreign mcpServers.verdict, a malformed file and a hooks event that is not a list", () => {
  const foreign = '{"mcpServers": {"verdict": {"command": "python3", "args": ["stub.py"]}}}';
  assert.throws(() => installQwenSettings(foreign, PATH, BIN, ENV), (e: unknown) => {
    assert.ok(e instanceof HostFileError);
    assert.match(
      e.message,
      /refusing to replace mcpServers\.verdict in ".*": it was not written by "verdict install"/,
    );
    assert.match(e.hint ?? "", /qwen mcp remove verdict/);
    return true;
  });
  assert.deepEqual(uninstallQwenSettings(foreign, PATH).changes, []);
  assert.throws(
    () => installQwenSettings('{"hooks": {"UserPromptSubmit": {}}}', PATH, BIN, ENV),
    HostFileError,
  );
  assert.throws(() => installQwenSettings("[1, 2]", PATH, BIN, ENV), HostFileError);
  assert.throws(() => installQwenSettings('{"hooks": ', PATH, BIN, ENV));
});

Deno.test("qwen install on the real sample settings.json: its mcpServers.verdict (a probe) is refused, nothing written", () => {
  let text: string;
  try {
    text = Deno.readTextFileSync(fileURLToPath(new URL("settings.json", QWEN_SAMPLES_DIR)));
  } catch {
    return console.log("skipped: the Qwen sample settings.json is absent (../shared)");
  }
  assert.equal(qwenMcpState(text, PATH), "other");
  assert.throws(() => installQwenSettings(text, PATH, BIN, ENV), HostFileError);
  // Without that entry the sample takes verdict's hooks beside the probe's own.
  const without = text.replace(/"mcpServers": \{.*\},\n/, "");
  assert.notEqual(without, text);
  const r = installQwenSettings(without, PATH, BIN, ENV);
  assert.equal(JSON.parse(r.text).hooks.UserPromptSubmit.length, 2);
  assert.equal(uninstallQwenSettings(r.text, PATH).text, without);
});

Deno.test("qwen doctor rules: hooks turned off (disableAllHooks) fail, an execution sandbox warns", () => {
  assert.equal(turnedOff({}), null);
  assert.match(turnedOff({ disableAllHooks: true })!, /disableAllHooks is true/);
  assert.equal(sandboxed({ tools: {} }), null);
  assert.match(
    sandboxed({ tools: { executionSandbox: { filesystem: "read-only", network: "off" } } })!,
    /executionSandbox/,
  );
});

Deno.test("verdict install --qwen: a dry-run diff first, then the file; doctor passes, and fails once hooks are off", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.qwen`, { recursive: true });
  await Deno.writeTextFile(`${home}/.qwen/settings.json`, USER_SETTINGS);
  const env = { HOME: home, VERDICT_BIN: BIN, VERDICT_ASOF: "2026-12-01T00:00:00Z" };
  const dry = await runCli(["install", "--qwen", "--dry-run"], { env });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^\+.*hook user-prompt --agent qwen; exit 0 # added by verdict install/m);
  assert.equal(await Deno.readTextFile(`${home}/.qwen/settings.json`), USER_SETTINGS);
  const wet = await runCli(["install", "--qwen"], { env });
  assert.equal(wet.code, 0, wet.stderr);
  assert.match(wet.stdout, /Qwen Code hooks and MCP server: .*settings\.json updated/);
  const doctor = async () =>
    JSON.parse((await runCli(["doctor", "--json"], { env })).stdout).checks as {
      id: string;
      status: string;
      message: string;
    }[];
  const hooks = (await doctor()).filter((c) => c.id === "qwen hooks");
  assert.deepEqual(hooks.map((c) => c.status), ["ok"], JSON.stringify(hooks));
  assert.match(
    hooks[0]!.message,
    /UserPromptSubmit, PreCompact, SessionStart\(compact\) in .*\(user hooks need no trust step\)/,
  );
  const text = await Deno.readTextFile(`${home}/.qwen/settings.json`);
  await Deno.writeTextFile(
    `${home}/.qwen/settings.json`,
    text.replace('"$version": 4', '"$version": 4, "disableAllHooks": true'),
  );
  const off = (await doctor()).find((c) => c.id === "qwen hooks")!;
  assert.equal(off.status, "fail");
  assert.match(off.message, /will not run verdict's hooks: disableAllHooks is true/);
  const un = await runCli(["uninstall", "--qwen"], { env });
  assert.equal(un.code, 0, un.stderr);
  assert.ok(!(await Deno.readTextFile(`${home}/.qwen/settings.json`)).includes("verdict"));
});
