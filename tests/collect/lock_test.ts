/**
 * The collect lock (src/collect/lock.ts), against real processes: a SIGKILLed collect must not
 * keep the next one out; a live one must; what the lock file says (a pid, a time) never decides.
 */
import assert from "node:assert/strict";
import { storePaths } from "../../src/store/paths.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { denoDir, runCli, tempHome } from "../cli_helper.ts";

const SESSION = "1ock0000-0000-4000-8000-000000000001";

/** A Claude history big enough that a collect runs for a while (large tool results, some prompts). */
async function bigHistory(home: string, files: number): Promise<void> {
  const dir = `${home}/.claude/projects/-home-dev-lock`;
  await Deno.mkdir(dir, { recursive: true });
  const blob = "lorem ipsum dolor sit amet ".repeat(8000);
  for (let f = 0; f < files; f++) {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      const ts = new Date(Date.parse("2026-01-01T00:00:00Z") + (f * 100 + i) * 60_000).toISOString();
      const base = { cwd: "/home/dev/lock", sessionId: `${SESSION}-${f}`, version: "2.1.100", timestamp: ts };
      lines.push(JSON.stringify({
        ...base,
        type: "user",
        uuid: `p-${f}-${i}`,
        message: { role: "user", content: `We decided to name step ${f}-${i} after the lock` },
      }));
      lines.push(JSON.stringify({
        ...base,
        type: "user",
        uuid: `r-${f}-${i}`,
        toolUseResult: { stdout: "" },
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: blob }] },
      }));
    }
    await Deno.writeTextFile(`${dir}/${SESSION.slice(0, -1)}${f}.jsonl`, lines.join("\n") + "\n");
  }
}

function recordsOf(home: string): string {
  return `${home}/.local/share/verdict/records.db`;
}

function spawnCollect(home: string, args: string[] = []): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, "collect", ...args],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: denoDir(), HOME: home },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
}

/** Waits until the lock file names `pid` (the holder writes it right after taking the lock). */
async function lockNames(lockPath: string, pid: number, child: Deno.ChildProcess): Promise<boolean> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const text = await Deno.readTextFile(lockPath).catch(() => "");
    if (text.includes(`"pid":${pid}`)) return true;
    const done = await Promise.race([
      child.status.then(() => true),
      new Promise((r) => setTimeout(r, 2, false)),
    ]);
    if (done) return false;
  }
  return false;
}

Deno.test("a SIGKILLed collect holding the lock does not keep the next collect out, whenever it dies", async () => {
  const home = await tempHome();
  await bigHistory(home, 30);
  const lock = storePaths(recordsOf(home)).lock;
  let killedHolding = 0;
  for (let trial = 0; trial < 5; trial++) {
    const child = spawnCollect(home, ["--full"]);
    const holding = await lockNames(lock, child.pid, child);
    if (holding) {
      // At a different moment each trial: right after the lock, or well into reading.
      await new Promise((r) => setTimeout(r, trial * 40));
      try {
        child.kill("SIGKILL");
      } catch {
        // It finished first: this trial kills nothing.
      }
    }
    const status = await child.status;
    await child.stderr.cancel();
    if (status.signal === "SIGKILL") killedHolding++;
    const started = performance.now();
    const next = await runCli(["collect"], { env: { HOME: home } });
    assert.equal(next.code, 0, `trial ${trial}: the next collect was refused: ${next.stderr}`);
    assert.doesNotMatch(next.stderr, /another collect is running/);
    assert.ok(performance.now() - started < 60_000);
  }
  assert.ok(killedHolding >= 3, `only ${killedHolding} of 5 collects were killed while holding the lock`);
});

Deno.test("a live collect's lock refuses a second collect, naming its holder; released, the next goes on", async () => {
  const home = await tempHome();
  await bigHistory(home, 1);
  const lock = storePaths(recordsOf(home)).lock;
  await Deno.mkdir(`${home}/.local/share/verdict`, { recursive: true });
  const holder = await Deno.open(lock, { read: true, write: true, create: true });
  try {
    assert.ok(await holder.tryLock(true));
    await holder.write(
      new TextEncoder().encode(JSON.stringify({ pid: 4242, since: "2026-01-01T00:00:00.000Z" })),
    );
    const refused = await runCli(["collect"], { env: { HOME: home } });
    assert.equal(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, /another collect is running \(pid 4242, since 2026-01-01T00:00:00\.000Z\)/);
    assert.match(refused.stderr, /hint: wait for it to finish/);
    await assert.rejects(Deno.stat(storePaths(recordsOf(home)).db), Deno.errors.NotFound);
  } finally {
    holder.close();
  }
  const next = await runCli(["collect"], { env: { HOME: home } });
  assert.equal(next.code, 0, next.stderr);
});

Deno.test("a lock file naming a live pid (a recycled one, or one from another boot) but unlocked is not in the way", async () => {
  const home = await tempHome();
  await bigHistory(home, 1);
  const lock = storePaths(recordsOf(home)).lock;
  await Deno.mkdir(`${home}/.local/share/verdict`, { recursive: true });
  // This test process is alive: a pid check would take it for the holder.
  await Deno.writeTextFile(lock, JSON.stringify({ pid: Deno.pid, since: new Date().toISOString() }));
  const first = await runCli(["collect"], { env: { HOME: home } });
  assert.equal(first.code, 0, first.stderr);
  // An empty lock file, as an older verdict left it after a crash, moments ago.
  await Deno.writeTextFile(lock, "");
  const second = await runCli(["collect", "--full"], { env: { HOME: home } });
  assert.equal(second.code, 0, second.stderr);
});
