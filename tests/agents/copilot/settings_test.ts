/**
 * Install, uninstall and doctor for Copilot CLI: the hook in settings.json (camelCase events,
 * handlers directly in each event's list, `bash` and `timeoutSec`) and the MCP server in
 * mcp-config.json; every other byte kept, idempotent, reversible, refusals, the real sample
 * files, the CLI's dry-run diff, and doctor's honesty about hooks and folder trust.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  copilotHookStatus,
  installCopilotHooks,
  uninstallCopilotHooks,
} from "../../../src/agents/copilot/hooks.ts";
import {
  copilotMcpState,
  installCopilotMcp,
  uninstallCopilotMcp,
} from "../../../src/agents/copilot/settings.ts";
import { HostFileError } from "../../../src/hostfile/errors.ts";
import { runCli, tempHome } from "../../cli_helper.ts";
import { COPILOT_SAMPLES_DIR } from "./expectations.ts";

const BIN = "/opt/verdict/bin/verdict";
const ENV = { VERDICT_RECORDS: "/data/records.jsonl" };
const SETTINGS = "/h/.copilot/settings.json";
const MCP = "/h/.copilot/mcp-config.json";

const USER_SETTINGS = `{
  "banner": "never",
  "hooks": {
    "userPromptSubmitted": [ {"type": "command", "bash": "~/bin/log-prompt.sh", "timeoutSec": 3} ],
    "agentStop": [ {"type": "command", "bash": "notify-send done"} ]
  }
}
`;

const COMMAND =
  "test -x /opt/verdict/bin/verdict && VERDICT_RECORDS=/data/records.jsonl exec /opt/verdict/bin/verdict " +
  "hook user-prompt --agent copilot; exit 0 # added by verdict install";

function sample(name: string): string | null {
  try {
    return Deno.readTextFileSync(fileURLToPath(new URL(name, COPILOT_SAMPLES_DIR)));
  } catch {
    console.log(`skipped: the Copilot sample ${name} is absent (../shared)`);
    return null;
  }
}

Deno.test("copilot install: the userPromptSubmitted handler beside the person's, every other byte kept, idempotent, reversible", () => {
  const r = installCopilotHooks(USER_SETTINGS, SETTINGS, BIN, ENV);
  assert.deepEqual(r.changes, ["userPromptSubmitted hook added"]);
  const after = JSON.parse(r.text);
  assert.deepEqual(after.hooks.userPromptSubmitted, [
    { type: "command", bash: "~/bin/log-prompt.sh", timeoutSec: 3 },
    { type: "command", bash: COMMAND, timeoutSec: 5 },
  ]);
  assert.deepEqual(after.hooks.agentStop, [{ type: "command", bash: "notify-send done" }]);
  assert.ok(
    r.text.startsWith(
      '{\n  "banner": "never",\n  "hooks": {\n    "userPromptSubmitted": [ {"type": "command",',
    ),
  );
  assert.deepEqual(installCopilotHooks(r.text, SETTINGS, BIN, ENV), { text: r.text, changes: [], notes: [] });
  assert.deepEqual(copilotHookStatus(r.text, SETTINGS).map((s) => [s.state, s.program]), [[
    "installed",
    BIN,
  ]]);
  const back = uninstallCopilotHooks(r.text, SETTINGS);
  assert.deepEqual(back.changes, ["userPromptSubmitted hook removed"]);
  assert.equal(back.text, USER_SETTINGS);
  // From nothing and back; a newer binary updates the handler in place.
  const fresh = installCopilotHooks("", SETTINGS, BIN, {});
  assert.deepEqual(JSON.parse(uninstallCopilotHooks(fresh.text, SETTINGS).text), {});
  const moved = installCopilotHooks(r.text, SETTINGS, "/usr/local/bin/verdict", ENV);
  assert.deepEqual(moved.changes, ["userPromptSubmitted hook updated"]);
  assert.equal(JSON.parse(moved.text).hooks.userPromptSubmitted.length, 2);
});

Deno.test("copilot install refuses a hooks event that is not a list and a malformed file; a hand-wired hook is left", () => {
  assert.throws(
    () => installCopilotHooks('{"hooks": {"userPromptSubmitted": {}}}', SETTINGS, BIN, ENV),
    HostFileError,
  );
  assert.throws(() => installCopilotHooks("[]", SETTINGS, BIN, ENV), HostFileError);
  assert.throws(() => installCopilotHooks('{"hooks": ', SETTINGS, BIN, ENV));
  const hand =
    '{"hooks": {"userPromptSubmitted": [{"type": "command", "bash": "verdict hook user-prompt --agent copilot"}]}}';
  const r = installCopilotHooks(hand, SETTINGS, BIN, ENV);
  assert.deepEqual([r.changes, r.text], [[], hand]);
  assert.match(r.notes[0]!, /wired by hand is already there/);
  assert.deepEqual(uninstallCopilotHooks(hand, SETTINGS).changes, []);
});

Deno.test("copilot MCP: mcpServers.verdict in mcp-config.json; the one `copilot mcp add` writes is verdict's own", () => {
  const r = installCopilotMcp(
    '{"mcpServers": {"github": {"type": "http", "url": "https://x"}}}\n',
    MCP,
    BIN,
    ENV,
  );
  assert.deepEqual(JSON.parse(r.text).mcpServers.verdict, {
    type: "stdio",
    command: BIN,
    args: ["mcp"],
    env: ENV,
  });
  assert.equal(copilotMcpState(r.text, MCP), "ours");
  assert.deepEqual(JSON.parse(uninstallCopilotMcp(r.text, MCP).text), {
    mcpServers: { github: { type: "http", url: "https://x" } },
  });
  assert.equal(uninstallCopilotMcp(installCopilotMcp("", MCP, BIN, ENV).text, MCP).remove, true);
  const added = JSON.stringify({
    mcpServers: { verdict: { type: "local", command: BIN, args: ["mcp"], tools: ["*"] } },
  });
  assert.equal(copilotMcpState(added, MCP), "ours");
  assert.deepEqual(uninstallCopilotMcp(added, MCP).changes, ["mcpServers.verdict removed"]);
});

Deno.test("copilot install on the real sample files: the probe hooks stay, the probe's MCP entry is refused", () => {
  const settings = sample("settings.json");
  const mcp = sample("mcp-config.json");
  if (settings === null || mcp === null) return;
  const r = installCopilotHooks(settings, SETTINGS, BIN, ENV);
  assert.equal(JSON.parse(r.text).hooks.userPromptSubmitted.length, 3);
  assert.equal(uninstallCopilotHooks(r.text, SETTINGS).text, settings);
  assert.equal(copilotMcpState(mcp, MCP), "other");
  assert.throws(() => installCopilotMcp(mcp, MCP, BIN, ENV), (e: unknown) => {
    assert.ok(e instanceof HostFileError);
    assert.match(e.hint ?? "", /copilot mcp remove verdict/);
    return true;
  });
});

Deno.test("verdict install --copilot: a dry-run diff first, then both files; doctor tells hooks and trust; uninstall", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.copilot`, { recursive: true });
  await Deno.writeTextFile(`${home}/.copilot/settings.json`, USER_SETTINGS);
  const trust = sample("config.json") ?? '{ "trustedFolders": ["/home/dev/project"] }\n';
  await Deno.writeTextFile(`${home}/.copilot/config.json`, trust);
  const env = { HOME: home, VERDICT_BIN: BIN, VERDICT_ASOF: "2026-12-01T00:00:00Z" };
  const dry = await runCli(["install", "--copilot", "--dry-run"], { env });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /hook user-prompt --agent copilot; exit 0 # added by verdict install/);
  assert.equal(await Deno.readTextFile(`${home}/.copilot/settings.json`), USER_SETTINGS);
  const wet = await runCli(["install", "--copilot"], { env });
  assert.equal(wet.code, 0, wet.stderr);
  assert.match(wet.stdout, /Copilot CLI hook: .*settings\.json updated/);
  assert.match(wet.stdout, /Copilot CLI MCP server: .*mcp-config\.json created/);
  assert.equal(
    await Deno.readTextFile(`${home}/.copilot/config.json`),
    trust,
    "install never edits the trust list",
  );
  const doctor = async () =>
    (JSON.parse((await runCli(["doctor", "--json"], { env })).stdout).checks as {
      id: string;
      status: string;
      message: string;
    }[]).filter((c) => c.id === "copilot hooks");
  const ok = await doctor();
  assert.deepEqual(ok.map((c) => c.status), ["ok"], JSON.stringify(ok));
  assert.match(
    ok[0]!.message,
    /userPromptSubmitted in .*settings\.json \(user hooks run in any folder; .*1 folder trusted in .*config\.json\)/,
  );
  const text = await Deno.readTextFile(`${home}/.copilot/settings.json`);
  await Deno.writeTextFile(
    `${home}/.copilot/settings.json`,
    text.replace('"banner": "never",', '"banner": "never", "disableAllHooks": true,'),
  );
  const off = await doctor();
  assert.equal(off[0]!.status, "fail");
  assert.match(off[0]!.message, /will not run verdict's hooks: disableAllHooks is true/);
  await Deno.writeTextFile(`${home}/.copilot/settings.json`, text);
  const un = await runCli(["uninstall", "--copilot"], { env });
  assert.equal(un.code, 0, un.stderr);
  assert.equal(await Deno.readTextFile(`${home}/.copilot/settings.json`), USER_SETTINGS);
  // install created mcp-config.json, so uninstall takes it away again.
  await assert.rejects(() => Deno.stat(`${home}/.copilot/mcp-config.json`), Deno.errors.NotFound);
});
