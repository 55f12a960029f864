/**
 * OpenCode's wiring through the real CLI in a temp HOME: install writes the hint plugin and
 * mcp.verdict into a commented opencode.json without touching anything else, is idempotent,
 * shows a diff and writes nothing on --dry-run, refuses foreign files; doctor checks it;
 * uninstall deletes the plugin and gives opencode.json back byte for byte. The plugin itself is
 * run (imported as a module) against a stand-in verdict to prove what it adds to a message.
 */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../../cli_helper.ts";
import { installOpenCodeMcp } from "../../../src/agents/opencode/mcp.ts";
import { isOurPlugin, pluginProgram, pluginSource } from "../../../src/agents/opencode/plugin.ts";

const BIN = "/opt/verdict/bin/verdict";
const AS_OF = "2026-11-29T12:00:00Z";

const USER_CONFIG = `{
  // my provider, by hand
  "$schema": "https://opencode.ai/config.json",
  "provider": { "fake": { "npm": "@ai-sdk/openai-compatible", "options": { "baseURL": "http://127.0.0.1:1/v1" } } },
  "mcp": {
    /* another server */
    "other": { "type": "remote", "url": "http://127.0.0.1:9/mcp", "enabled": false },
  },
  "model": "fake/m",
}
`;

async function home(config: string | null): Promise<{ home: string; config: string; plugin: string }> {
  const h = await tempHome();
  await Deno.mkdir(`${h}/.config/opencode`, { recursive: true });
  if (config !== null) await Deno.writeTextFile(`${h}/.config/opencode/opencode.json`, config);
  return {
    home: h,
    config: `${h}/.config/opencode/opencode.json`,
    plugin: `${h}/.config/opencode/plugin/verdict.js`,
  };
}

const env = (h: string) => ({ HOME: h, VERDICT_BIN: BIN, VERDICT_ASOF: AS_OF });

Deno.test("opencode install: plugin and mcp.verdict added, comments kept; idempotent; uninstall restores the bytes", async () => {
  const w = await home(USER_CONFIG);
  const dry = await runCli(["install", "--opencode", "--dry-run"], { env: env(w.home) });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /\+\/\/ verdict-opencode-plugin: written by "verdict install"/);
  assert.match(dry.stdout, /\+\s+"verdict": \{/);
  assert.match(dry.stdout, /dry run: nothing was written/);
  assert.equal(await Deno.readTextFile(w.config), USER_CONFIG);
  await assert.rejects(Deno.stat(w.plugin), Deno.errors.NotFound);

  const r = await runCli(["install", "--opencode"], { env: env(w.home) });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /OpenCode hint plugin: .*plugin\/verdict\.js created: hint plugin added/);
  assert.match(r.stdout, /OpenCode MCP server: .*opencode\.json updated: mcp\.verdict added/);
  const plugin = await Deno.readTextFile(w.plugin);
  assert.ok(isOurPlugin(plugin));
  assert.equal(pluginProgram(plugin), BIN);
  const config = await Deno.readTextFile(w.config);
  for (
    const kept of ["// my provider, by hand", "/* another server */", '"model": "fake/m",', '"other": {']
  ) {
    assert.ok(config.includes(kept), `lost: ${kept}`);
  }
  assert.match(
    config,
    /"verdict": \{\s+"type": "local",\s+"command": \[\s+"\/opt\/verdict\/bin\/verdict",\s+"mcp"\s+\],\s+"enabled": true/,
  );

  const again = await runCli(["install", "--opencode"], { env: env(w.home) });
  assert.match(again.stdout, /nothing to do: verdict is already installed/);

  const doctor = JSON.parse((await runCli(["doctor", "--json"], { env: env(w.home) })).stdout);
  const plug = doctor.checks.find((c: { id: string }) => c.id === "opencode plugin");
  assert.equal(plug.status, "ok", plug.message);
  assert.match(doctor.checks.find((c: { id: string }) => c.id === "mcp").message, /OpenCode/);

  const u = await runCli(["uninstall", "--opencode"], { env: env(w.home) });
  assert.equal(u.code, 0, u.stderr);
  assert.match(u.stdout, /OpenCode hint plugin: .* removed: hint plugin deleted/);
  await assert.rejects(Deno.stat(w.plugin), Deno.errors.NotFound);
  // No backup is claimed for a file wholly verdict's (none is kept).
  assert.doesNotMatch(u.stdout, /backup: .*plugin/);
  assert.equal(await Deno.readTextFile(w.config), USER_CONFIG);
  const after = JSON.parse((await runCli(["doctor", "--json"], { env: env(w.home) })).stdout);
  assert.equal(after.checks.find((c: { id: string }) => c.id === "opencode plugin").status, "fail");
});

Deno.test("opencode install: a foreign plugin file or mcp.verdict is refused, and nothing is written", async () => {
  const w = await home(USER_CONFIG);
  await Deno.mkdir(`${w.home}/.config/opencode/plugin`);
  await Deno.writeTextFile(w.plugin, "export const Mine = async () => ({});\n");
  const r = await runCli(["install", "--opencode"], { env: env(w.home) });
  assert.equal(r.code, 3);
  assert.match(
    r.stderr,
    /refusing to overwrite ".*plugin\/verdict\.js": it was not written by "verdict install"/,
  );
  assert.equal(await Deno.readTextFile(w.config), USER_CONFIG, "all files planned before any is written");
  const u = await runCli(["uninstall", "--opencode"], { env: env(w.home) });
  assert.equal(u.code, 0);
  assert.match(u.stdout, /this plugin was not written by verdict install; left as is/);
  assert.equal(await Deno.readTextFile(w.plugin), "export const Mine = async () => ({});\n");
  const doctor = JSON.parse((await runCli(["doctor", "--json"], { env: env(w.home) })).stdout);
  assert.equal(doctor.checks.find((c: { id: string }) => c.id === "opencode plugin").status, "warn");

  const v = await home(
    `{ "mcp": { "verdict": { "type": "local", "command": ["/bin/sh", "-c", "evil"] } } }\n`,
  );
  const r2 = await runCli(["install", "--opencode"], { env: env(v.home) });
  assert.equal(r2.code, 3);
  assert.match(r2.stderr, /refusing to replace mcp\.verdict/);
  await assert.rejects(Deno.stat(v.plugin), Deno.errors.NotFound);

  const bad = await home(`{ "mcp": [ }`);
  const r3 = await runCli(["install", "--opencode"], { env: env(bad.home) });
  assert.equal(r3.code, 3);
  assert.match(r3.stderr, /Cannot parse ".*opencode\.json"/);
});

Deno.test("opencode install: a timeout the person added to mcp.verdict is kept when install brings it up to date", () => {
  const path = "/h/.config/opencode/opencode.json";
  const old =
    `{ "mcp": { "verdict": { "type": "local", "command": ["/old/verdict", "mcp"], "timeout": 9000 } } }\n`;
  const r = installOpenCodeMcp(old, path, BIN, {});
  assert.deepEqual(r.changes, ["mcp.verdict updated"]);
  assert.deepEqual(JSON.parse(r.text).mcp.verdict, {
    type: "local",
    command: [BIN, "mcp"],
    enabled: true,
    timeout: 9000,
  });
  assert.deepEqual(installOpenCodeMcp(r.text, path, BIN, {}).changes, [], "a second run changes nothing");
});

/** Imports a plugin source as a module and runs its chat.message hook on one typed part. */
async function runPlugin(source: string, prompt: string) {
  const mod = await import(`data:text/javascript;base64,${btoa(unescape(encodeURIComponent(source)))}`);
  const hooks = await mod.VerdictHint({ directory: "/home/dev/project" });
  const typed = { id: "prt_1", sessionID: "ses_1", messageID: "msg_1", type: "text", text: prompt };
  const output = { message: {}, parts: [typed] as Record<string, unknown>[] };
  await hooks["chat.message"]({ sessionID: "ses_1" }, output);
  return output.parts;
}

Deno.test("opencode plugin: adds the hook's context as one synthetic part, from nested or flat output; else nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "verdict-plugin-" });
  try {
    const stdinLog = `${dir}/stdin.json`;
    const fake = (name: string, body: string) => {
      const path = `${dir}/${name}`;
      Deno.writeTextFileSync(path, `#!/bin/sh\ncat > '${stdinLog}'\n${body}\n`, { mode: 0o755 });
      return path;
    };
    const nested = fake(
      "nested",
      `printf '%s' '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"[verdict recall] use pnpm"}}'`,
    );
    const parts = await runPlugin(
      pluginSource(nested, { VERDICT_RECORDS: "/r.jsonl" }),
      "which package manager?",
    );
    assert.equal(parts.length, 2);
    assert.deepEqual(
      { id: parts[1]!.id, text: parts[1]!.text, synthetic: parts[1]!.synthetic, type: parts[1]!.type },
      { id: "prt_1verdict", text: "[verdict recall] use pnpm", synthetic: true, type: "text" },
    );
    assert.deepEqual(JSON.parse(await Deno.readTextFile(stdinLog)), {
      hook_event_name: "UserPromptSubmit",
      session_id: "ses_1",
      cwd: "/home/dev/project",
      prompt: "which package manager?",
    });
    const flat = fake("flat", `printf '%s' '{"additionalContext":"[verdict recall] flat"}'`);
    assert.equal((await runPlugin(pluginSource(flat, {}), "q"))[1]!.text, "[verdict recall] flat");
    assert.equal((await runPlugin(pluginSource(fake("silent", "exit 0"), {}), "q")).length, 1);
    assert.equal((await runPlugin(pluginSource(fake("junk", "echo not json; exit 1"), {}), "q")).length, 1);
    assert.equal((await runPlugin(pluginSource(`${dir}/missing`, {}), "q")).length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("opencode plugin: a program path with quotes, backslashes and newlines is embedded as data, never as code", () => {
  const bin = `/tmp/a"b\\c\n";process.exit(1);//\u2028'`;
  const source = pluginSource(bin, { VERDICT_RECORDS: `x"; throw 1; "` });
  assert.equal(pluginProgram(source), bin);
  assert.doesNotMatch(source, /^";process\.exit/m);
  // It still parses as a module (a syntax error would throw here).
  new Function(source.replace(/^import .*$/m, "").replace(/^export /gm, ""));
});
