/**
 * The hook's trouble ledger (src/gate/health.ts) and what the hook does with it: a missed
 * deadline, a missing archive, a config that does not load and a helper's refusal are each
 * counted, never shown in place of a hint and never blocking; once a day at most a prompt's own
 * output says verdict is not working and which command says why. The deadline is injected (the
 * host's clock), never the wall clock's.
 */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../cli_helper.ts";
import { runUserPromptHook } from "../../src/hint/hook_entry.ts";
import type { HintHost } from "../../src/hint/run.ts";
import type { CommandIO } from "../../src/plan/plan.ts";
import {
  describeTrouble,
  openTroubleLedger,
  probePrompt,
  summarize,
  TROUBLE_KEEP_LINES,
  TROUBLE_MAX_BYTES,
  TROUBLE_WINDOW_MS,
  troubleNotice,
  troublePath,
} from "../../src/gate/health.ts";

const DAY = TROUBLE_WINDOW_MS;
const NOW = Date.parse("2026-03-05T12:00:00Z");

Deno.test("summarize counts each kind within the last day; the notice is due once a day at most", () => {
  const line = (t: number, k: string) => JSON.stringify({ t, k });
  const text = [
    line(NOW - DAY - 1, "late"), // outside the window
    line(NOW - 1000, "late"),
    line(NOW - 2000, "late"),
    line(NOW - 3000, "no-archive"),
    "{torn",
    line(NOW - 4000, "bogus"),
    "",
  ].join("\n");
  const s = summarize(text, NOW);
  assert.deepEqual(s.counts, { late: 2, "no-archive": 1, config: 0, refused: 0 });
  assert.equal(s.toldAt, null);
  assert.equal(
    describeTrouble(s),
    "2 prompts answered late (past the hook's deadline, so no hint), 1 prompt answered without an archive in the last day",
  );
  assert.match(
    troubleNotice(s, NOW)!,
    /^verdict is not working as it should: 2 prompts answered late .*; run "verdict doctor" to see why$/,
  );
  const told = summarize(text + line(NOW - 5000, "told") + "\n", NOW);
  assert.equal(troubleNotice(told, NOW), null, "said within the day: not again");
  assert.notEqual(troubleNotice(told, NOW + DAY), null, "a day later it may say it again");
  assert.equal(troubleNotice(summarize("", NOW), NOW), null);
  // Below TROUBLE_NOTICE_MIN a moment of load is not "not working".
  assert.equal(troubleNotice(summarize(line(NOW - 1000, "late") + "\n", NOW), NOW), null);
});

Deno.test("the ledger stays bounded: opened past its size, it keeps the last day's newest lines, renamed into place", async () => {
  const state = await tempHome();
  const path = troublePath(state);
  const old = Array.from({ length: 200 }, (_, i) => JSON.stringify({ t: NOW - DAY - 10_000 - i, k: "late" }));
  const recent = Array.from({ length: 600 }, (_, i) => JSON.stringify({ t: NOW - 600 + i, k: "late" }));
  await Deno.writeTextFile(path, [...old, ...recent].join("\n") + "\n");
  assert.ok((await Deno.stat(path)).size > TROUBLE_MAX_BYTES);
  const ledger = openTroubleLedger(state, NOW);
  assert.equal(ledger.summary.counts.late, TROUBLE_KEEP_LINES);
  ledger.record("config", NOW);
  ledger.close();
  const lines = (await Deno.readTextFile(path)).trimEnd().split("\n");
  assert.equal(lines.length, TROUBLE_KEEP_LINES + 1);
  assert.ok((await Deno.stat(path)).size <= TROUBLE_MAX_BYTES);
  assert.deepEqual(JSON.parse(lines.at(-2)!), { t: NOW - 1, k: "late" }, "the newest are kept");
  assert.deepEqual(JSON.parse(lines.at(-1)!), { t: NOW, k: "config" });
  assert.deepEqual(
    [...Deno.readDirSync(state)].map((e) => e.name),
    ["hook-trouble.jsonl"],
    "no temp file left",
  );
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
});

/** The in-process hook with an injected clock: `elapsed` ms already spent when it starts. */
async function hook(env: Record<string, string>, prompt: string, elapsed = 0) {
  let stdout = "";
  const io: CommandIO = {
    stdout: (t) => Promise.resolve(void (stdout += t)),
    stderr: () => Promise.resolve(),
    stderrIsTerminal: false,
    readStdin: () => Promise.resolve(null),
  };
  const host: HintHost = { elapsedMs: () => elapsed, confine: () => Promise.resolve() };
  const input = JSON.stringify({
    session_id: "s1",
    cwd: "/home/dev/shop",
    hook_event_name: "UserPromptSubmit",
    prompt,
  });
  const code = await runUserPromptHook({ options: {}, positionals: [] }, env, "/", {
    stdin: new TextEncoder().encode(input),
    io,
    host,
  });
  return { code, stdout };
}

function ledgerLines(home: string): { k: string }[] {
  try {
    return Deno.readTextFileSync(troublePath(`${home}/.local/state/verdict`)).trimEnd().split("\n").map((l) =>
      JSON.parse(l)
    );
  } catch {
    return [];
  }
}

const HINTED = "let us switch the orders db to MySQL and drop the pg_dump backups";

Deno.test("a missed deadline (injected clock) is counted once, prints nothing; a later prompt says so once a day", async () => {
  const home = await tempHome();
  const examples = new URL("../../examples/claude", import.meta.url).pathname;
  await Deno.mkdir(`${home}/.claude`, { recursive: true });
  for (const e of ["projects", "history.jsonl"]) {
    await new Deno.Command("cp", { args: ["-r", `${examples}/${e}`, `${home}/.claude/`] }).output();
  }
  assert.equal((await runCli(["collect"], { env: { HOME: home } })).code, 0);
  const env = { HOME: home, VERDICT_SEEN: "" };
  // In time, the hint is printed and nothing is counted.
  const inTime = await hook(env, HINTED, 0);
  assert.match(inTime.stdout, /pg_dump/);
  assert.deepEqual(ledgerLines(home), []);
  // Past the deadline: silent, exit 0, one "late" each.
  for (let i = 1; i <= 3; i++) {
    const late = await hook(env, HINTED, 5_000);
    assert.deepEqual(late, { code: 0, stdout: "" });
    assert.deepEqual(ledgerLines(home).map((l) => l.k), Array(i).fill("late"));
    if (i < 3) assert.equal((await hook(env, "what is the weather like today", 0)).stdout, "", "not yet");
  }
  // The next prompt that has no hint of its own tells the person, in Claude Code's systemMessage.
  const told = await hook(env, "what is the weather like today", 0);
  const shown = JSON.parse(told.stdout);
  assert.match(
    shown.systemMessage,
    /^verdict is not working as it should: 3 prompts answered late .*run "verdict doctor" to see why$/,
  );
  assert.equal(shown.hookSpecificOutput, undefined, "nothing reaches the model");
  assert.deepEqual(ledgerLines(home).map((l) => l.k), ["late", "late", "late", "told"]);
  // Not again the same day.
  assert.equal((await hook(env, "what is the weather like today", 0)).stdout, "");
  // A hint is never replaced by the notice.
  assert.doesNotMatch((await hook(env, HINTED, 0)).stdout, /not working/);
});

Deno.test("a missing archive and a config that does not load are counted; the doctor's probe is answered at once", async () => {
  const home = await tempHome();
  const none = await hook({ HOME: home, VERDICT_SEEN: "" }, "switch the db to MySQL", 0);
  assert.equal(none.code, 0);
  assert.deepEqual(ledgerLines(home).map((l) => l.k), ["no-archive"]);
  await Deno.writeTextFile(`${home}/bad.json`, "{ not json");
  const broken = await hook({ HOME: home, VERDICT_CONFIG: `${home}/bad.json` }, "anything", 0);
  assert.deepEqual(broken, { code: 0, stdout: "" });
  assert.deepEqual(ledgerLines(home).map((l) => l.k), ["no-archive", "config"]);
  const probe = await hook({ HOME: home, VERDICT_SEEN: "" }, probePrompt("0123456789abcdef"), 0);
  assert.match(probe.stdout, /verdict doctor: probe 0123456789abcdef answered/);
  assert.doesNotMatch(probe.stdout, /not working/);
  // Another prompt of the probe's shape but not its form is an ordinary prompt.
  const near = await hook({ HOME: home, VERDICT_SEEN: "" }, "verdict doctor probe xyz", 0);
  assert.doesNotMatch(near.stdout, /probe xyz answered/);
});

Deno.test("warm status reports the hook's trouble of the last day", async () => {
  const home = await tempHome();
  const state = `${home}/.local/state/verdict`;
  await Deno.mkdir(state, { recursive: true });
  const now = Date.now();
  await Deno.writeTextFile(
    troublePath(state),
    Array.from({ length: 12 }, (_, i) => JSON.stringify({ t: now - 1000 * i, k: "late" })).join("\n") + "\n",
  );
  const r = await runCli(["warm", "status"], { env: { HOME: home } });
  assert.match(
    r.stdout,
    /^ {2}hook: 12 prompts answered late \(past the hook's deadline, so no hint\) in the last day \(run "verdict doctor" to see why\)$/m,
  );
  const clean = await tempHome();
  const c = await runCli(["warm", "status"], { env: { HOME: clean } });
  assert.match(c.stdout, /^ {2}hook: no trouble counted in the last day$/m);
});
