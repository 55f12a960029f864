/**
 * The helper's warm-up (src/warm/warm_up.ts): once listening it asks itself the archive's newest
 * prompts, before it listens, and drops the answers. It must leave no trace a user could see (no
 * ledger, no output, no prompt counted), keep the archive it opened for the prompts, and end when
 * told or past its time; the answers after it are the in-process bytes (warm_test.ts,
 * kept_archive_test.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "../cli_helper.ts";
import { claudeJson, CONTRADICTION, frame, OFF, ON, removeWorld, startHelper, warmWorld } from "./_warm.ts";
import { KeptArchive } from "../../src/warm/kept_archive.ts";
import { WARM_UP_PROMPTS, warmUp } from "../../src/warm/warm_up.ts";
import type { WarmStatus } from "../../src/warm/wire.ts";

async function status(env: Record<string, string>): Promise<WarmStatus> {
  const s = await frame(env, { op: "status" });
  assert.ok(s !== null, "the helper answers status");
  return s.header.status as WarmStatus;
}

const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);

Deno.test("a started helper warms up on the archive's newest prompts before it listens: one open, no ledger, no prompt counted; its answers are the in-process ones", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  try {
    const s = await status(env);
    assert.ok(s.warmUpPrompts! > 0 && s.warmUpPrompts! <= WARM_UP_PROMPTS, `asked ${s.warmUpPrompts}`);
    assert.equal(s.archiveOpens, 1, "the warm-up opened the archive");
    assert.equal(s.requests, 0, "the warm-up is no prompt answered");
    assert.equal(await exists(`${env.HOME}/.local/state/verdict/seen`), false, "no cooldown ledger written");
    const printed = await runCli(["warm", "status"], { env });
    assert.match(
      printed.stdout,
      new RegExp(`warm-up: asked itself ${s.warmUpPrompts} of the archive's newest`),
    );

    const cold = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...OFF },
      stdin: claudeJson(CONTRADICTION, "c"),
    });
    const warm = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...ON },
      stdin: claudeJson(CONTRADICTION, "w"),
    });
    assert.match(cold.stdout, /pg_dump every night/);
    assert.equal(warm.stdout, cold.stdout);
    const after = await status(env);
    assert.deepEqual(
      [after.requests, after.archiveOpens],
      [1, 1],
      "answered from the archive the warm-up opened",
    );
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("warmUp ends when told, and a run that asks while its open is under way takes the same open", async () => {
  const env = await warmWorld();
  const records = `${env.HOME}/.local/share/verdict/records.db`;
  const base = { recordsPath: records, entitiesPath: null, personas: [] as string[] };
  try {
    // Stopped before it starts: nothing asked.
    const stoppedArchive = new KeptArchive();
    assert.equal(await warmUp({ ...base, source: stoppedArchive, stopped: () => true }), 0);
    stoppedArchive.close();

    const archive = new KeptArchive();
    const run = warmUp({ ...base, source: archive, stopped: () => false });
    // Asked while the warm-up's open is under way.
    const held = await archive.open(records);
    assert.ok(held !== null);
    held.release(true);
    const asked = await run;
    assert.ok(asked > 0 && asked <= WARM_UP_PROMPTS, `asked ${asked}`);
    assert.equal(archive.stats.opens, 1, "one open for the warm-up and the run");
    archive.close();
  } finally {
    await removeWorld(env);
  }
});
