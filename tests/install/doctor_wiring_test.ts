/**
 * doctor's end-to-end checks (src/install/wiring.ts): each installed hook command is run through
 * sh as the agent runs it, with a desktop launcher's environment (HOME, PATH=/usr/bin:/bin), and
 * must reach verdict; each installed MCP command must start and list its tools; each host file
 * must load as its agent loads it. Every broken case of an install that "looks" fine fails (exit
 * 1); a working install passes (exit 0).
 */
import assert from "node:assert/strict";
import { copyTree, runCli, tempHome } from "../cli_helper.ts";
import { verdictWrapper } from "./_world.ts";
import { hookCommand } from "../../src/agents/claude/hooks.ts";
import {
  installedPromptHook,
  isInstallShaped,
  jsonMcpEntry,
  tomlDuplicateTable,
  tomlMcpEntry,
} from "../../src/install/wiring.ts";
import { troublePath } from "../../src/gate/health.ts";

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;

interface Check {
  id: string;
  status: string;
  message: string;
  fix: string | null;
}

async function doctor(env: Record<string, string>) {
  const r = await runCli(["doctor", "--json"], { env });
  const parsed = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
  const one = (id: string) => parsed.checks.find((c) => c.id === id);
  return { code: r.code, ok: parsed.ok, checks: parsed.checks, one };
}

async function homeWithHistory(): Promise<string> {
  const home = await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  await copyTree(`${EXAMPLES}codex`, `${home}/.codex`);
  assert.equal((await runCli(["collect"], { env: { HOME: home } })).code, 0);
  return home;
}

Deno.test("the pure readers: a TOML table defined twice, the installed prompt hook, the MCP entries", () => {
  assert.deepEqual(
    tomlDuplicateTable(
      'model = "x"\n[mcp_servers.verdict]\ncommand = "a"\n\n[ mcp_servers . "verdict" ]\ncommand = "b"\n',
    ),
    { table: "mcp_servers.verdict", first: 2, again: 5 },
  );
  assert.equal(tomlDuplicateTable("[a]\n[[b]]\n[[b]]\n[a.b]\n"), null, "array tables repeat by design");
  const command = hookCommand("/opt/v/verdict", {}, "user-prompt", "gemini");
  assert.deepEqual(
    installedPromptHook({ hooks: { BeforeAgent: [{ hooks: [{ type: "command", command }] }] } }),
    { event: "BeforeAgent", command },
  );
  assert.deepEqual(
    installedPromptHook({ hooks: { userPromptSubmitted: [{ type: "command", bash: command }] } }),
    { event: "userPromptSubmitted", command },
  );
  assert.equal(
    installedPromptHook({
      hooks: { UserPromptSubmit: [{ hooks: [{ command: "verdict hook user-prompt" }] }] },
    }),
    null,
  );
  assert.deepEqual(
    jsonMcpEntry({ mcpServers: { verdict: { command: "/v", args: ["mcp"], env: { A: "1" } } } }),
    {
      argv: ["/v", "mcp"],
      env: { A: "1" },
    },
  );
  assert.deepEqual(
    jsonMcpEntry({ mcp: { verdict: { type: "local", command: ["/v", "mcp"], environment: { B: "2" } } } }),
    {
      argv: ["/v", "mcp"],
      env: { B: "2" },
    },
  );
  assert.deepEqual(
    jsonMcpEntry({
      mcpServers: {
        verdict: { transport: { type: "stdio", command: "/v", args: ["mcp"], env: { C: "3" } } },
      },
    }),
    { argv: ["/v", "mcp"], env: { C: "3" } },
  );
  assert.deepEqual(
    tomlMcpEntry(
      '[x]\n[mcp_servers.verdict]\ncommand = "/a b/verdict"\nargs = ["mcp"]\nenv = { VERDICT_RECORDS = "/r.db" }\n[y]\n',
    ),
    { argv: ["/a b/verdict", "mcp"], env: { VERDICT_RECORDS: "/r.db" } },
  );
});

Deno.test("doctor runs only a hook command of the exact form install writes: an entry edited to run more is named, never run", async () => {
  for (
    const command of [
      hookCommand("/opt/v/verdict", {}, "user-prompt"),
      hookCommand("verdict", {}, "user-prompt"),
      hookCommand(
        "/it's $(here) ;x/verdict",
        { VERDICT_RECORDS: "/r it's.db", VERDICT_STATE: "/s" },
        "user-prompt",
        "codex",
      ),
    ]
  ) assert.ok(isInstallShaped(command), command);
  const good = hookCommand("/opt/v/verdict", {}, "user-prompt");
  for (
    const forged of [
      good.replace("test -x /opt/v/verdict && ", "touch /tmp/PWNED; test -x /opt/v/verdict && "),
      good.replace("exec /opt/v/verdict", "exec /opt/v/other"),
      good.replace("exec /opt/v/verdict hook", "exec /opt/v/verdict $(id) hook"),
      good.replace("; exit 0", " | sh; exit 0"),
      good.replace("test -x /opt/v/verdict && ", "test -x /opt/v/verdict && X=$(touch /tmp/PWNED) "),
      hookCommand("/opt/v/verdict", {}, "pre-compact"),
    ]
  ) assert.ok(!isInstallShaped(forged), forged);

  const home = await homeWithHistory();
  const planted = `${home}/PWNED`;
  const bin = await verdictWrapper(`${home}/opt/bin`);
  const forged = hookCommand(bin, {}, "user-prompt").replace("test -x", `touch '${planted}'; test -x`);
  assert.ok(forged.endsWith("# added by verdict install"));
  await Deno.writeTextFile(
    `${home}/.claude/settings.json`,
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: forged }] }] } }),
  );
  const d = await doctor({ HOME: home, VERDICT_BIN: bin });
  const hook = d.one("claude hook run")!;
  assert.equal(hook.status, "fail");
  assert.match(hook.message, /is not a command install writes, so doctor does not run it/);
  assert.equal(
    await Deno.stat(planted).then(() => true, () => false),
    false,
    "doctor ran the forged command",
  );
  assert.equal(d.code, 1);
});

Deno.test("a working install from deno run (the launcher): the hook reaches verdict, the MCP server lists its tools, exit 0", async () => {
  const home = await homeWithHistory();
  assert.equal((await runCli(["install"], { env: { HOME: home } })).code, 0);
  const d = await doctor({ HOME: home });
  assert.equal(d.code, 0, JSON.stringify(d.checks.filter((c) => c.status === "fail"), null, 2));
  for (const agent of ["claude", "codex"]) {
    assert.equal(d.one(`${agent} hook run`)?.status, "ok", agent);
    assert.match(
      d.one(`${agent} hook run`)!.message,
      /run as .* runs it \(sh, PATH=\/usr\/bin:\/bin\) reached verdict/,
    );
    assert.equal(d.one(`${agent} mcp run`)?.status, "ok", agent);
    assert.match(d.one(`${agent} mcp run`)!.message, /lists \d+ tools \(.*verdict_recall/);
  }
});

Deno.test("bare `verdict` entries fail, even with verdict on the shell's PATH: the agent's launcher PATH has none (exit 1)", async () => {
  const home = await homeWithHistory();
  const shellBin = `${home}/shell-bin`;
  await verdictWrapper(shellBin);
  await Deno.writeTextFile(
    `${home}/.claude/settings.json`,
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [{
          hooks: [{ type: "command", command: hookCommand("verdict", {}, "user-prompt"), timeout: 5 }],
        }],
      },
    }),
  );
  await Deno.writeTextFile(
    `${home}/.claude.json`,
    JSON.stringify({ mcpServers: { verdict: { type: "stdio", command: "verdict", args: ["mcp"] } } }),
  );
  // verdict is on doctor's own PATH, as in a shell where someone put it there.
  const d = await doctor({ HOME: home, PATH: `${shellBin}:${Deno.env.get("PATH")}` });
  assert.equal(d.code, 1);
  const hook = d.one("claude hook run")!;
  assert.equal(hook.status, "fail");
  assert.match(hook.message, /never reached verdict: it printed nothing/);
  assert.match(hook.fix!, /^run verdict install --claude with the verdict you use/);
  const mcp = d.one("claude mcp run")!;
  assert.equal(mcp.status, "fail");
  assert.match(mcp.message, /did not list its tools: verdict could not start/);
});

Deno.test("a Codex config.toml holding a second [mcp_servers.verdict] table is a problem (exit 1)", async () => {
  const home = await homeWithHistory();
  const bin = await verdictWrapper(`${home}/opt/bin`);
  assert.equal((await runCli(["install", "--codex"], { env: { HOME: home, VERDICT_BIN: bin } })).code, 0);
  const config = `${home}/.codex/config.toml`;
  await Deno.writeTextFile(config, `[mcp_servers.verdict]\ncommand = "verdict"\nargs = ["mcp"]\n\n`, {
    append: true,
  });
  const d = await doctor({ HOME: home, VERDICT_BIN: bin });
  assert.equal(d.code, 1);
  const files = d.one("codex files")!;
  assert.equal(files.status, "fail");
  assert.match(
    files.message,
    /config\.toml defines \[mcp_servers\.verdict\] twice \(lines \d+ and \d+\): Codex cannot load it/,
  );
});

Deno.test("hook trouble of the last day: a warning for one or two prompts, a failure from the three that make the hook say so", async () => {
  const home = await homeWithHistory();
  const bin = await verdictWrapper(`${home}/opt/bin`);
  assert.equal((await runCli(["install"], { env: { HOME: home, VERDICT_BIN: bin } })).code, 0);
  const state = `${home}/.local/state/verdict`;
  await Deno.mkdir(state, { recursive: true });
  const now = Date.now();
  const late = (n: number) =>
    Array.from({ length: n }, (_, i) => JSON.stringify({ t: now - 60_000 * i, k: "late" })).join("\n") + "\n";
  await Deno.writeTextFile(troublePath(state), late(2));
  const some = await doctor({ HOME: home, VERDICT_BIN: bin });
  assert.equal(some.one("hook trouble")?.status, "warn");
  assert.equal(some.code, 0, JSON.stringify(some.checks.filter((c) => c.status === "fail")));
  await Deno.writeTextFile(troublePath(state), late(12));
  const d = await doctor({ HOME: home, VERDICT_BIN: bin });
  const t = d.one("hook trouble")!;
  assert.equal(t.status, "fail");
  assert.equal(t.message, "12 prompts answered late (past the hook's deadline, so no hint) in the last day");
  assert.match(t.fix!, /^late answers: .*verdict warm status/);
  assert.equal(d.code, 1);
});

Deno.test("a collect timer whose files are there but that systemd never activated (no user bus) fails", async () => {
  const home = await homeWithHistory();
  const bin = await verdictWrapper(`${home}/opt/bin`);
  await Deno.mkdir(`${home}/nobus`);
  await Deno.writeTextFile(
    `${home}/nobus/systemctl`,
    '#!/bin/sh\necho "Failed to connect to bus: No medium found" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  const env = { HOME: home, VERDICT_BIN: bin, PATH: `${home}/nobus:${Deno.env.get("PATH")}` };
  assert.equal((await runCli(["install"], { env })).code, 0);
  assert.equal((await runCli(["schedule", "install", "--scheduler", "systemd"], { env })).code, 4);
  const d = await doctor(env);
  const s = d.one("schedule")!;
  assert.equal(s.status, "fail");
  assert.match(
    s.message,
    /^systemd has the collect job every 60 minutes but it is not active \(Failed to connect to bus/,
  );
  assert.equal(d.code, 1);
});
