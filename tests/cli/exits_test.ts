/**
 * Exit codes and pipes as the tools people use behave: a reader that closes the pipe early ends
 * the command quietly with 0; a misspelled path is an error (exit 3) saying what to do, never
 * "nothing new" or "no records yet"; `verdict hook` typed alone lists its sub-commands.
 */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../cli_helper.ts";
import { verdictWrapper } from "../install/_world.ts";

/** A Claude Code project with `n` distinct prompts, each a decision. */
async function manyPrompts(home: string, n: number): Promise<void> {
  const dir = `${home}/.claude/projects/-home-dev-shop`;
  await Deno.mkdir(dir, { recursive: true });
  const session = "6f1c2a7e-3b1d-4c55-9a0e-2d7f1e5b8c01";
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const minute = String(i % 60).padStart(2, "0");
    const hour = String(Math.floor(i / 60) % 24).padStart(2, "0");
    lines.push(JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      userType: "external",
      cwd: "/home/dev/shop",
      sessionId: session,
      type: "user",
      message: {
        role: "user",
        content: `We decided: service number ${i} keeps its queue in Redis stream ${i}, retried ${i} times.`,
      },
      uuid: `u-${i}`,
      timestamp: `2026-03-${String(1 + Math.floor(i / 1440)).padStart(2, "0")}T${hour}:${minute}:00.000Z`,
    }));
  }
  await Deno.writeTextFile(`${dir}/${session}.jsonl`, lines.join("\n") + "\n");
}

/** Runs `bin args | head -n 1` in bash: the command's own exit status and its stderr. */
async function intoHead(bin: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command("bash", {
    args: ["-c", `"$@" 2>"$ERR" | head -n 1 >/dev/null; echo "\${PIPESTATUS[0]}"`, "bash", bin, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: Number(new TextDecoder().decode(out.stdout).trim()),
    stderr: await Deno.readTextFile(env.ERR!),
  };
}

Deno.test("verdict export | head -1 and verdict replay | head end quietly with exit 0", async () => {
  const home = await tempHome();
  await manyPrompts(home, 1500);
  const env = { HOME: home, VERDICT_ASOF: "2026-03-05T00:00:00Z" };
  assert.equal((await runCli(["collect"], { env })).code, 0);
  const bin = await verdictWrapper(`${home}/bin`);
  const run = { ...env, PATH: "/usr/bin:/bin", ERR: `${home}/err.txt` };
  // More than a pipe holds, so the writer meets the closed pipe.
  const full = await runCli(["export"], { env });
  assert.ok(full.stdout.length > 256 * 1024, `export printed only ${full.stdout.length} bytes`);
  const exported = await intoHead(bin, ["export"], run);
  assert.deepEqual(exported, { code: 0, stderr: "" });
  const replayed = await intoHead(bin, ["replay", "--explain"], run);
  assert.deepEqual(replayed, { code: 0, stderr: "" });
});

Deno.test("a missing archive named with --records is exit 3 with what to do", async () => {
  const home = await tempHome();
  for (const args of [["export"], ["recall", "pg_dump"], ["hint", "--plain"]]) {
    const r = await runCli([...args, "--records", `${home}/nope/x.db`], { env: { HOME: home }, stdin: "x" });
    assert.equal(r.code, 3, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /^verdict: no archive at .*\/nope\/x\.db \(given with --records\)$/m);
    assert.match(r.stderr, /^hint: check the path; leave --records out for the default archive/m);
  }
  // Without --records, an empty default archive is no error: nothing collected yet.
  const plain = await runCli(["export"], { env: { HOME: home } });
  assert.equal(plain.code, 0, plain.stderr);
});

Deno.test("verdict hook alone prints its sub-commands and exits 3; a real hook still never fails loudly", async () => {
  const home = await tempHome();
  const alone = await runCli(["hook"], { env: { HOME: home } });
  assert.equal(alone.code, 3);
  assert.match(alone.stderr, /"verdict hook" needs a sub-command: user-prompt, pre-compact, session-start/);
  const unknown = await runCli(["hook", "user-prmpt"], { env: { HOME: home } });
  assert.equal(unknown.code, 3);
  const broken = await runCli(["hook", "session-start"], {
    env: { HOME: home, VERDICT_CONFIG: `${home}/broken.json` },
    stdin: "not json",
  });
  assert.equal(broken.code, 0, broken.stderr);
});

Deno.test("collect: --git-repo on a folder that is no repository is exit 3; missing configured roots are warned at every collect", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/plain`);
  const r = await runCli(["collect", "--git-repo", `${home}/plain`], { env: { HOME: home } });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /is not a git work tree/);
  assert.match(r.stderr, /^hint: give the folder of a git clone/m);
  const config = `${home}/config.json`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({ doc_roots: [`${home}/notes-typo`], git_repos: [`${home}/plain`] }),
  );
  for (const extra of [[], ["--quiet"]]) {
    const c = await runCli(["collect", ...extra], { env: { HOME: home, VERDICT_CONFIG: config } });
    assert.equal(c.code, 0, c.stderr);
    assert.match(
      c.stderr,
      /^collect: warning: .*\/notes-typo \(in "doc_roots" of .*config\.json\) is not a directory/m,
    );
    assert.match(
      c.stderr,
      /^collect: warning: .*\/plain \(in "git_repos" of .*config\.json\) is not a git work tree/m,
    );
  }
});
