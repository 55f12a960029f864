/**
 * hook/verdict-hook.sh and the hook snippets: the shim runs $VERDICT_BIN (else verdict on PATH)
 * with the hook sub-command and stdin, and exits 0 silently when there is no binary.
 */
import assert from "node:assert/strict";
import { copyTree, GENEROUS_HOOK_DEADLINE_MS, runCli, tempHome } from "../cli_helper.ts";
import { verdictWrapper } from "./_world.ts";
import { findCommand } from "../../src/cli/commands.ts";

const SHIM = new URL("../../hook/verdict-hook.sh", import.meta.url).pathname;

async function shim(args: string[], env: Record<string, string>, stdin = "") {
  const child = new Deno.Command(SHIM, {
    args,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin)).catch(() => {});
  await w.close().catch(() => {});
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("the shim exits 0 and says nothing when there is no verdict binary at all", async () => {
  const empty = await tempHome();
  const r = await shim(["user-prompt"], { PATH: empty }, '{"prompt":"x"}');
  assert.deepEqual(r, { code: 0, stdout: "", stderr: "" });
  const missing = await shim(["pre-compact"], { PATH: empty, VERDICT_BIN: `${empty}/nope/verdict` }, "{}");
  assert.deepEqual(missing, { code: 0, stdout: "", stderr: "" });
});

Deno.test("the shim runs $VERDICT_BIN, else verdict on PATH, with the sub-command, stdin and exit status", async () => {
  const dir = await tempHome();
  const fake = `${dir}/bin/verdict`;
  await Deno.mkdir(`${dir}/bin`);
  await Deno.writeTextFile(fake, '#!/bin/sh\necho "args: $*"\ncat\nexit 2\n', { mode: 0o755 });
  const viaEnv = await shim(["pre-compact"], { PATH: "/usr/bin:/bin", VERDICT_BIN: fake }, "IN");
  assert.deepEqual(viaEnv, { code: 2, stdout: "args: hook pre-compact\nIN", stderr: "" });
  const viaPath = await shim(["session-start"], { PATH: `${dir}/bin:/usr/bin:/bin` }, "");
  assert.equal(viaPath.stdout, "args: hook session-start\n");
});

Deno.test("through the shim, the real hook prints a hint with verdict nowhere on PATH", async () => {
  const home = await tempHome();
  const examples = new URL("../../examples/", import.meta.url).pathname;
  await copyTree(`${examples}claude`, `${home}/.claude`);
  const env = {
    HOME: home,
    VERDICT_ASOF: "2026-03-05T00:00:00Z",
    VERDICT_SEEN: "",
    VERDICT_HOOK_DEADLINE_MS: GENEROUS_HOOK_DEADLINE_MS,
  };
  assert.equal((await runCli(["collect"], { env })).code, 0);
  const bin = await verdictWrapper(`${home}/bin`);
  const input = JSON.stringify({
    session_id: "live-1",
    cwd: "/home/dev/shop",
    hook_event_name: "UserPromptSubmit",
    prompt: "let us switch the orders db to MySQL and drop the pg_dump backups",
  });
  const r = await shim(["user-prompt"], { ...env, PATH: "/usr/bin:/bin", VERDICT_BIN: bin }, input);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /"hookEventName":"UserPromptSubmit"/);
  const none = await shim(["session-start"], { ...env, PATH: "/usr/bin:/bin", VERDICT_BIN: bin }, "{}");
  assert.deepEqual(none, { code: 0, stdout: "", stderr: "" });
});

Deno.test("the hook snippets run sub-commands the CLI has, on the events they are meant for", async () => {
  const read = async (name: string) =>
    JSON.parse(await Deno.readTextFile(new URL(`../../hook/${name}`, import.meta.url)));
  const user = await read("claude-settings.user-prompt.json");
  assert.deepEqual(Object.keys(user.hooks), ["UserPromptSubmit"]);
  assert.equal(user.hooks.UserPromptSubmit[0].hooks[0].command, "verdict hook user-prompt");
  const compaction = await read("claude-settings.compaction.json");
  for (const groups of Object.values(compaction.hooks) as { hooks: { command: string }[] }[][]) {
    for (const g of groups) {
      for (const h of g.hooks) assert.ok(findCommand(h.command.replace(/^verdict /, "")), h.command);
    }
  }
  assert.ok(findCommand("hook user-prompt"));
});
