/**
 * The benches time the per-prompt hook started with binaryLikeRunFlags (src/task_flags.ts):
 * no lock and no deno.json read, as the compiled binary starts. That stands in for the installed
 * hook only if the hook started that way is the same program: the same flags otherwise, and the
 * same bytes printed, in-process and through the warm helper, as the hook started with the
 * verdict task's flags.
 */
import assert from "node:assert/strict";
import { binaryLikeRunFlags, lockFlags, MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { denoDir, GENEROUS_HOOK_DEADLINE_MS } from "../cli_helper.ts";
import { answered, CASES, OFF, ON, removeWorld, startHelper, warmWorld } from "../warm/_warm.ts";

async function hook(
  flags: readonly string[],
  argv: readonly string[],
  stdin: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, MAIN_TS, "hook", "user-prompt", ...argv],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
      VERDICT_HOOK_DEADLINE_MS: GENEROUS_HOOK_DEADLINE_MS,
      ...env,
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

Deno.test("binaryLikeRunFlags are the verdict task's flags less the lock, with --no-config", () => {
  const task = verdictRunFlags();
  const like = binaryLikeRunFlags();
  assert.equal(like[0], "--no-config");
  for (const lock of lockFlags()) {
    assert.ok(task.includes(lock), `the task passes ${lock}`);
    assert.ok(!like.includes(lock), `binaryLikeRunFlags passes ${lock}`);
  }
  assert.deepEqual(like.slice(1), task.filter((w) => !lockFlags().includes(w)));
  // Every permission, unstable and V8 flag is kept, in order.
  assert.ok(like.some((w) => w.startsWith("--v8-flags=")));
  assert.ok(like.includes("--allow-read") && like.includes("--no-prompt"));
});

Deno.test("the hook started like the binary prints what the task's hook prints, in-process and via the helper", async () => {
  const env = await warmWorld();
  try {
    const off = { ...env, ...OFF };
    let fired = 0;
    for (const [i, c] of CASES.entries()) {
      const task = await hook(verdictRunFlags(), c.argv, c.stdin(`task-${i}`), off);
      const like = await hook(binaryLikeRunFlags(), c.argv, c.stdin(`like-${i}`), off);
      assert.equal(task.code, 0, c.name);
      assert.equal(like.code, 0, c.name);
      assert.equal(like.stdout, task.stdout, `${c.name}: in-process`);
      if (task.stdout.includes("[verdict recall]")) fired++;
    }
    assert.ok(fired > 0, "no case fired: the comparison would hold for a hook that prints nothing");

    const helper = await startHelper(env);
    try {
      const on = { ...env, ...ON };
      for (const [i, c] of CASES.entries()) {
        const inProcess = await hook(verdictRunFlags(), c.argv, c.stdin(`ref-${i}`), off);
        const like = await hook(binaryLikeRunFlags(), c.argv, c.stdin(`warm-like-${i}`), on);
        const task = await hook(verdictRunFlags(), c.argv, c.stdin(`warm-task-${i}`), on);
        assert.equal(like.stdout, inProcess.stdout, `${c.name}: via the helper, started like the binary`);
        assert.equal(task.stdout, inProcess.stdout, `${c.name}: via the helper, started as the task`);
        // Both were the helper's answers: to it, a hook started either way is this build.
        assert.equal(await answered(env), 2 * (i + 1), `${c.name}: answered by the helper`);
      }
    } finally {
      await helper.stop();
    }
  } finally {
    await removeWorld(env);
  }
});
