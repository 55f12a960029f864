/**
 * The compaction hooks through the real CLI, in a temp HOME holding a copy of a real transcript
 * (jnarowski-full-session-two: TodoWrite + AskUserQuestion) and a real git repository.
 */
import assert from "node:assert/strict";
import { MAX_TRANSCRIPT_BYTES } from "../../src/judge/build.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { denoDir, runCli, tempHome } from "../cli_helper.ts";
import { git, makeRepo, TranscriptBuilder } from "./_helpers.ts";

const REAL =
  new URL("../../../shared/data/transcripts/jnarowski-full-session-two.jsonl", import.meta.url).pathname;
const SESSION = "8a2518dd-ff41-4d5f-83a1-407b03598cc6";
/** ../shared/data sits beside the repository on developer machines and in CI; say so when it does not. */
const HAVE_REAL = await Deno.stat(REAL).then(() => true, () => false);
if (!HAVE_REAL) console.warn(`hook_test: skipping the real-transcript tests: ${REAL} is not present`);

interface Setup {
  readonly home: string;
  readonly repo: string;
  readonly transcript: string;
  readonly env: Record<string, string>;
  readonly handoff: string;
}

async function setup(config: unknown = {}, transcriptText?: string): Promise<Setup> {
  const home = await tempHome();
  const dir = `${home}/.claude/projects/-repo`;
  await Deno.mkdir(dir, { recursive: true });
  const transcript = `${dir}/${SESSION}.jsonl`;
  if (transcriptText === undefined) await Deno.copyFile(REAL, transcript);
  else await Deno.writeTextFile(transcript, transcriptText);
  const repo = await makeRepo(home);
  await Deno.writeTextFile(`${home}/config.json`, JSON.stringify(config));
  return {
    home,
    repo,
    transcript,
    env: { HOME: home, VERDICT_CONFIG: `${home}/config.json` },
    handoff: `${home}/.local/state/verdict/handoff/${SESSION}.md`,
  };
}

async function dirty(repo: string): Promise<void> {
  await Deno.writeTextFile(`${repo}/app.ts`, "export const a = 2;\n");
  await Deno.writeTextFile(`${repo}/README.md`, "# changed\n");
  await Deno.writeTextFile(`${repo}/new.ts`, "export {};\n");
}

function preCompact(s: Setup, trigger: "manual" | "auto") {
  return runCli(["hook", "pre-compact"], {
    env: s.env,
    stdin: JSON.stringify({
      session_id: SESSION,
      transcript_path: s.transcript,
      cwd: s.repo,
      hook_event_name: "PreCompact",
      trigger,
      custom_instructions: "",
    }),
  });
}

function sessionStart(s: Setup, source: string) {
  return runCli(["hook", "session-start"], {
    env: s.env,
    stdin: JSON.stringify({
      session_id: SESSION,
      transcript_path: s.transcript,
      cwd: s.repo,
      hook_event_name: "SessionStart",
      source,
    }),
  });
}

Deno.test({
  name: "pre-compact on a real transcript and a dirty repo: preserve_first, a handoff with sources, no block",
  ignore: !HAVE_REAL,
}, async () => {
  const s = await setup();
  await dirty(s.repo);
  const r = await preCompact(s, "auto");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const out = JSON.parse(r.stdout);
  assert.equal(out.decision, undefined, "an automatic compaction is never blocked");
  assert.match(
    out.systemMessage,
    /^verdict: preserve_first \(over_threshold\): 3 unlanded \(todos 0, uncommitted 3/,
  );
  const handoff = await Deno.readTextFile(s.handoff);
  assert.match(handoff, /^# verdict handoff\n/);
  assert.match(handoff, new RegExp(`- uncommitted \\(git status, ${s.repo}\\): M README\\.md\n`));
  assert.match(handoff, /- uncommitted \(git status, .*\): \?\? new\.ts\n/);
  assert.match(handoff, /Verdict: preserve_first \(over_threshold\)/);
  assert.match(handoff, /file\(s\) the session wrote are no longer on disk/);
  // Deterministic apart from the time line.
  await preCompact(s, "auto");
  const again = await Deno.readTextFile(s.handoff);
  const strip = (t: string) => t.replace(/^Written: .*$/m, "");
  assert.equal(strip(again), strip(handoff));
});

Deno.test({
  name:
    "pre-compact blocks a manual compaction on preserve_first with block_manual, then lets the second through",
  ignore: !HAVE_REAL,
}, async () => {
  const s = await setup({ judge: { block_manual: true } });
  await dirty(s.repo);
  const first = await preCompact(s, "manual");
  assert.equal(first.code, 0, first.stderr);
  const out = JSON.parse(first.stdout);
  assert.equal(out.decision, "block");
  assert.ok(out.reason.includes(s.handoff), out.reason);
  assert.match(out.reason, /run \/compact again within 120 s/);
  const second = await preCompact(s, "manual");
  assert.equal(second.code, 0);
  assert.equal(
    JSON.parse(second.stdout).decision,
    undefined,
    "a second manual request within the window passes",
  );
  const third = await preCompact(s, "manual");
  assert.equal(JSON.parse(third.stdout).decision, "block", "the window was used up by the second request");
});

Deno.test({
  name: "pre-compact never blocks an automatic compaction, nor a manual one without block_manual",
  ignore: !HAVE_REAL,
}, async () => {
  const blocking = await setup({ judge: { block_manual: true } });
  await dirty(blocking.repo);
  assert.equal(JSON.parse((await preCompact(blocking, "auto")).stdout).decision, undefined);
  const plain = await setup();
  await dirty(plain.repo);
  assert.equal(JSON.parse((await preCompact(plain, "manual")).stdout).decision, undefined);
});

Deno.test({
  name: "pre-compact on wait does not block: wait is not permission, but it is not preserve_first either",
  ignore: !HAVE_REAL,
}, async () => {
  const s = await setup({ judge: { block_manual: true } });
  await Deno.writeTextFile(`${s.repo}/app.ts`, "export const a = 9;\n");
  const r = await preCompact(s, "manual");
  const out = JSON.parse(r.stdout);
  assert.equal(out.decision, undefined);
  assert.match(out.systemMessage, /^verdict: wait \(no_service\)/);
  assert.match(await Deno.readTextFile(s.handoff), /- uncommitted \(git status, .*\): M app\.ts/);
});

Deno.test({
  name: "pre-compact on a clean session prints nothing and removes a stale handoff",
  ignore: !HAVE_REAL,
}, async () => {
  const s = await setup();
  await dirty(s.repo);
  await preCompact(s, "auto");
  await git(s.repo, "add", ".");
  await git(s.repo, "commit", "-q", "-m", "land it");
  const r = await preCompact(s, "auto");
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""]);
  await assert.rejects(() => Deno.stat(s.handoff), Deno.errors.NotFound);
});

Deno.test({
  name: "session-start after a compaction gives the model the handoff's unlanded items",
  ignore: !HAVE_REAL,
}, async () => {
  const s = await setup();
  await dirty(s.repo);
  await preCompact(s, "auto");
  const r = await sessionStart(s, "compact");
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.hookSpecificOutput.hookEventName, "SessionStart");
  const ctx: string = out.hookSpecificOutput.additionalContext;
  assert.match(ctx, /^\[verdict compaction handoff\]/);
  assert.match(ctx, /reference, not instructions/);
  assert.match(ctx, /Verdict: preserve_first/);
  assert.match(ctx, /- uncommitted \(git status, .*\): \?\? new\.ts/);
  const other = await sessionStart(s, "startup");
  assert.deepEqual([other.code, other.stdout, other.stderr], [0, "", ""]);
});

Deno.test({ name: "the hooks are silent and harmless on bad input", ignore: !HAVE_REAL }, async () => {
  const s = await setup();
  for (const stdin of ["", "not json", "[]", JSON.stringify({ transcript_path: "relative.jsonl" })]) {
    for (const cmd of ["pre-compact", "session-start"]) {
      const r = await runCli(["hook", cmd], { env: s.env, stdin });
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""], `${cmd} ${stdin}`);
    }
  }
  const missing = await runCli(["hook", "pre-compact"], {
    env: s.env,
    stdin: JSON.stringify({
      session_id: "x",
      transcript_path: `${s.home}/nope.jsonl`,
      cwd: s.repo,
      trigger: "manual",
    }),
  });
  assert.deepEqual([missing.code, missing.stdout, missing.stderr], [0, "", ""]);
});

Deno.test("pre-compact reports open todos and an unanswered question with their transcript lines", async () => {
  const t = new TranscriptBuilder(SESSION, "/placeholder");
  t.prompt("set up the db");
  t.tool("TodoWrite", { todos: [{ content: "write schema", status: "pending", activeForm: "writing" }] });
  t.call("AskUserQuestion", {
    questions: [{ question: "Postgres or SQLite?", header: "db", options: [], multiSelect: false }],
  });
  const s = await setup({}, t.text());
  await Deno.writeTextFile(`${s.repo}/app.ts`, "changed\n");
  const r = await preCompact(s, "auto");
  assert.match(JSON.parse(r.stdout).systemMessage, /^verdict: preserve_first \(over_threshold\): 3 unlanded/);
  const handoff = await Deno.readTextFile(s.handoff);
  assert.match(handoff, /- todo \(TodoWrite, line 2\): write schema \(pending\)\n/);
  assert.match(handoff, /- question \(AskUserQuestion, line 4\): Postgres or SQLite\?\n/);
});

Deno.test("the handoff and the session-start context never hold a credential from the transcript", async () => {
  const token = "ghp_FAKEfakeFAKEfakeFAKEfake0123";
  const t = new TranscriptBuilder(SESSION, "/placeholder");
  t.prompt("We decided the staging password is hunter2, from now on always use it");
  t.prompt(`From now on we always deploy with ${token} on the runner`);
  t.tool("TodoWrite", {
    todos: [{ content: `rotate ${token} next week`, status: "pending", activeForm: "x" }],
  });
  const s = await setup({}, t.text());
  const r = await preCompact(s, "auto");
  assert.equal(r.code, 0, r.stderr);
  assert.match(JSON.parse(r.stdout).systemMessage, /^verdict: preserve_first/);
  const handoff = await Deno.readTextFile(s.handoff);
  assert.doesNotMatch(handoff, /hunter2|ghp_/);
  // The items still count and keep their sources; only their text is withheld.
  assert.match(handoff, /- decision \(typed prompt, line 1\): \[verdict: credential removed\]\n/);
  assert.match(handoff, /- todo \(TodoWrite, line 3\): \[verdict: credential removed\]\n/);
  const start = await sessionStart(s, "compact");
  assert.equal(start.code, 0);
  assert.match(start.stdout, /verdict compaction handoff/);
  assert.doesNotMatch(start.stdout, /hunter2|ghp_/);
  // A handoff written before a rule caught it (or edited by hand) is screened on its way back.
  await Deno.writeTextFile(
    s.handoff,
    `# verdict handoff\n\n- decision (typed prompt, line 9): deploy key ${token}\n`,
  );
  const again = await sessionStart(s, "compact");
  assert.match(again.stdout, /verdict compaction handoff/);
  assert.doesNotMatch(again.stdout, /ghp_/);
});

Deno.test("pre-compact given a FIFO, /dev/zero, /dev/urandom or an oversized file as transcript_path is silent, quick and exits 0", async () => {
  const s = await setup({}, "");
  const fifo = `${s.home}/.claude/projects/-repo/fifo.jsonl`;
  assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  const sparse = `${s.home}/.claude/projects/-repo/huge.jsonl`;
  const f = await Deno.open(sparse, { write: true, create: true });
  await f.truncate(MAX_TRANSCRIPT_BYTES + 1); // a hole: no disk used, still too large
  f.close();
  for (const path of [fifo, "/dev/zero", "/dev/urandom", sparse]) {
    const started = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, "hook", "pre-compact"],
      env: { PATH: Deno.env.get("PATH") ?? "", DENO_DIR: denoDir(), ...s.env },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
    await ReadableStream.from([
      new TextEncoder().encode(JSON.stringify({
        session_id: SESSION,
        transcript_path: path,
        cwd: s.repo,
        hook_event_name: "PreCompact",
        trigger: "manual",
      })),
    ]).pipeTo(child.stdin);
    const out = await child.output();
    clearTimeout(guard);
    const took = performance.now() - started;
    assert.equal(out.code, 0, path);
    assert.equal(new TextDecoder().decode(out.stdout), "", path);
    assert.ok(took < 10_000, `${path}: ${took.toFixed(0)} ms`);
  }
});
