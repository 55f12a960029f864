/**
 * What the warm helper reads again for every prompt, although it now reads each of them once per
 * request and synchronously (docs/hook_startup.md, "The helper's own time"): the config (parsed
 * again only when its text changed), the session's cooldown ledger (written by other hook
 * processes too), the ledger folder (made again when it is gone), and the request itself read
 * in chunks. Each answer is compared with the in-process hook's, byte for byte.
 */
import assert from "node:assert/strict";
import { runCli } from "../cli_helper.ts";
import {
  claudeJson,
  CONTRADICTION,
  hintRequest,
  OFF,
  ON,
  provedConn,
  removeWorld,
  startHelper,
  until,
  warmWorld,
} from "./_warm.ts";
import { readFrame } from "../../src/warm/wire.ts";
import { WARM_READ_CHUNK } from "../../src/warm/serve.ts";
import { writeAll } from "../../src/fsutil/bytes.ts";

const hook = (env: Record<string, string>, on: boolean, stdin: string) =>
  runCli(["hook", "user-prompt"], { env: { ...env, ...(on ? ON : OFF) }, stdin });

/** The in-process hook's answer and the helper's for the same prompt in two fresh sessions. */
async function both(env: Record<string, string>, prompt: string, tag: string) {
  const cold = await hook(env, false, claudeJson(prompt, `cold-${tag}`));
  const warm = await hook(env, true, claudeJson(prompt, `warm-${tag}`));
  return { cold: [cold.code, cold.stdout], warm: [warm.code, warm.stdout] };
}

Deno.test("a config edit between two prompts is honoured on the next one, even one keeping the file's size and mtime", async () => {
  const env = await warmWorld({ hook_personas: ["shop"] }, true);
  const helper = await startHelper(env);
  const config = `${env.HOME}/.config/verdict/config.json`;
  try {
    const first = await both(env, CONTRADICTION, "1");
    assert.match(String(first.warm[1]), /pg_dump every night/, "the persona is listed: it fires");
    assert.deepEqual(first.warm, first.cold);
    // Another persona, the same length, the old mtime put back: only the text says it changed.
    const stat = await Deno.stat(config);
    await Deno.writeTextFile(config, JSON.stringify({ hook_personas: ["shoq"] }));
    await Deno.utime(config, stat.atime!, stat.mtime!);
    assert.equal((await Deno.stat(config)).size, stat.size);
    const second = await both(env, CONTRADICTION, "2");
    assert.deepEqual(second.cold, [0, ""], "in-process, the persona is not listed now");
    assert.deepEqual(second.warm, second.cold, "nor through the helper");
    await Deno.remove(config);
    const third = await both(env, CONTRADICTION, "3");
    assert.match(String(third.warm[1]), /pg_dump every night/, "no config: the defaults, no personas");
    assert.deepEqual(third.warm, third.cold);
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("the cooldown ledger is the file's truth at every prompt: an in-process hook's record is seen, a removed ledger folder is made again", async () => {
  const env = await warmWorld({}, true);
  const helper = await startHelper(env);
  const ledgers = `${env.HOME}/.local/state/verdict/seen`;
  try {
    // Session s1: another hook process (in-process) shows the decision first.
    const shownCold = await hook(env, false, claudeJson(CONTRADICTION, "s1"));
    assert.match(shownCold.stdout, /pg_dump every night/);
    const afterCold = await hook(env, false, claudeJson(CONTRADICTION, "c1"));
    const againCold = await hook(env, false, claudeJson(CONTRADICTION, "c1"));
    // The helper's answer for s1 now is what the in-process hook says on a session's second prompt.
    const warm = await hook(env, true, claudeJson(CONTRADICTION, "s1"));
    assert.equal(warm.stdout, againCold.stdout, "the record the other process wrote holds it back");
    assert.notEqual(warm.stdout, afterCold.stdout, "a first prompt would have shown it");

    // The ledger folder removed between prompts: made again (0700), the ledger 0600, and it holds.
    await Deno.remove(ledgers, { recursive: true });
    const fresh = await hook(env, true, claudeJson(CONTRADICTION, "s2"));
    assert.equal(fresh.stdout, afterCold.stdout, "a session with no ledger gets the decision");
    // The helper records a hint once the client says it printed it, after the hook has answered:
    // under load the record can land a moment after the hook process ends.
    const readLedger = () => Deno.readTextFile(`${ledgers}/s2.jsonl`).catch(() => "");
    await until(async () => (await readLedger()) !== "", 10_000, "the helper to record the hint it answered");
    assert.equal((await Deno.stat(ledgers)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(`${ledgers}/s2.jsonl`)).mode! & 0o777, 0o600);
    assert.match(await readLedger(), /"session":"s2"/);
    const held = await hook(env, true, claudeJson(CONTRADICTION, "s2"));
    assert.equal(held.stdout, againCold.stdout, "and the next prompt of that session is held back");
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("a request sent in pieces, and one larger than a read chunk, are answered with the in-process bytes", async () => {
  const env = await warmWorld({}, true);
  const helper = await startHelper(env);
  try {
    // A long prompt: the decision's words, then filler past one read chunk.
    const long = `${CONTRADICTION} ${"and more about the schedule of the weekly sync ".repeat(900)}`;
    assert.ok(long.length > 2 * WARM_READ_CHUNK);
    for (const [name, prompt, pieces] of [["in pieces", CONTRADICTION, 7], ["long", long, 1]] as const) {
      const cold = await hook(env, false, claudeJson(prompt, `cold-${name}`));
      const stdin = claudeJson(prompt, `warm-${name}`);
      const bytes = hintRequest(env, { cwd: "/home/dev/shop" }, new TextEncoder().encode(stdin));
      const conn = await provedConn(env);
      try {
        const step = Math.ceil(bytes.length / pieces);
        for (let off = 0; off < bytes.length; off += step) {
          await writeAll(conn, bytes.subarray(off, off + step));
          if (pieces > 1) await new Promise((r) => setTimeout(r, 20));
        }
        const answer = await readFrame(conn, 8 << 20);
        assert.equal(answer.header.refused, undefined, name);
        assert.equal(new TextDecoder().decode(answer.body), cold.stdout, name);
        if (name === "in pieces") assert.match(cold.stdout, /pg_dump every night/, "a prompt that fires");
      } finally {
        conn.close();
      }
    }
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});
