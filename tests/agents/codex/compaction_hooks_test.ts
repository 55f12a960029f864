/**
 * `verdict hook pre-compact --agent codex` and `hook session-start --agent codex` through the
 * real CLI: a temp HOME holding a copy of a rollout the real Codex 0.169 wrote
 * (../shared/clients/codex/samples, read from there; skipped with a reason when absent), a real
 * git repository as the session's cwd, and the hook input Codex sends (NOTES.md §4). The client
 * tests (tests/clients/codex/) prove the same with the real binary; these pin each branch.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runCli, tempHome } from "../../cli_helper.ts";
import { makeRepo } from "../../judge/_helpers.ts";

const SAMPLES = fileURLToPath(new URL("../../../../shared/clients/codex/samples/", import.meta.url));
const SAMPLE = (() => {
  try {
    return [...Deno.readDirSync(SAMPLES)].map((e) => e.name).find((n) => n.startsWith("tui.rollout-")) ??
      null;
  } catch {
    return null;
  }
})();
if (SAMPLE === null) console.log(`compaction_hooks_test: skipped, no tui.rollout-* in ${SAMPLES}`);
const SESSION = "01a2307f-f6fb-7de1-83df-04b7b30797ca";

interface Setup {
  readonly env: Record<string, string>;
  readonly rollout: string;
  readonly repo: string;
  readonly handoff: string;
}

async function setup(config: unknown = {}): Promise<Setup> {
  const home = await tempHome();
  const dir = `${home}/.codex/sessions/2026/12/01`;
  await Deno.mkdir(dir, { recursive: true });
  const rollout = `${dir}/${SAMPLE}`;
  await Deno.copyFile(`${SAMPLES}${SAMPLE}`, rollout);
  const repo = await makeRepo(home);
  // The session itself leaves nothing unlanded ("what we decided" on line 21 asks, it decides
  // nothing): three changed files in its repository put it over judge.wait_min.
  await Deno.writeTextFile(`${repo}/app.ts`, "export const a = 2;\n");
  await Deno.writeTextFile(`${repo}/new.ts`, "export {};\n");
  await Deno.writeTextFile(`${repo}/other.ts`, "export {};\n");
  await Deno.writeTextFile(`${home}/config.json`, JSON.stringify(config));
  return {
    env: { HOME: home, VERDICT_CONFIG: `${home}/config.json` },
    rollout,
    repo,
    handoff: `${home}/.local/state/verdict/handoff/${SESSION}.md`,
  };
}

/** What Codex 0.169 sends a PreCompact hook (seen: samples/hook-stdin-log.jsonl). */
function preCompact(s: Setup, trigger: "manual" | "auto") {
  return runCli(["hook", "pre-compact", "--agent", "codex"], {
    env: s.env,
    stdin: JSON.stringify({
      session_id: SESSION,
      turn_id: "01a23080-adc9-7271-84d0-6ebc0b8fdc31",
      transcript_path: s.rollout,
      cwd: s.repo,
      hook_event_name: "PreCompact",
      model: "gpt-5.5",
      trigger,
    }),
  });
}

function sessionStart(s: Setup, source: string) {
  return runCli(["hook", "session-start", "--agent", "codex"], {
    env: s.env,
    stdin: JSON.stringify({
      session_id: SESSION,
      transcript_path: s.rollout,
      cwd: s.repo,
      hook_event_name: "SessionStart",
      model: "gpt-5.5",
      permission_mode: "bypassPermissions",
      source,
    }),
  });
}

Deno.test({
  name: "codex pre-compact: the rollout judged, a handoff with its lines, and only a systemMessage out",
  ignore: SAMPLE === null,
}, async () => {
  const s = await setup();
  const r = await preCompact(s, "manual");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const out = JSON.parse(r.stdout);
  // Codex's PreCompact schema allows no other key than these (anything else fails the hook).
  assert.deepEqual(Object.keys(out), ["systemMessage"]);
  assert.match(out.systemMessage, /^verdict: preserve_first \(over_threshold\): 3 unlanded/);
  assert.ok(out.systemMessage.endsWith(`handoff: ${s.handoff}`), out.systemMessage);
  const handoff = await Deno.readTextFile(s.handoff);
  assert.match(handoff, /\(todos 0, uncommitted 3, questions 0, decisions 0, next_steps 0\)/);
  assert.doesNotMatch(handoff, /what we decided about package managers/);
  assert.match(handoff, /- uncommitted \(git status, .*\): M app\.ts\n/);
  assert.match(handoff, /- uncommitted \(git status, .*\): \?\? new\.ts\n/);
  // The AGENTS.md the session's patch added (line 43) is not on this machine.
  assert.match(handoff, /1 file\(s\) the session wrote are no longer on disk/);
  assert.match(handoff, /the transcript was compacted 1 time\(s\) before/);
});

Deno.test({
  name:
    "codex pre-compact: blocks a manual /compact with continue:false (block_manual), lets the second through",
  ignore: SAMPLE === null,
}, async () => {
  const s = await setup({ judge: { block_manual: true } });
  const first = JSON.parse((await preCompact(s, "manual")).stdout);
  assert.deepEqual(Object.keys(first), ["continue", "stopReason"]);
  assert.equal(first.continue, false);
  assert.ok(first.stopReason.includes(s.handoff), first.stopReason);
  assert.match(first.stopReason, /run \/compact again within 120 s/);
  const second = JSON.parse((await preCompact(s, "manual")).stdout);
  assert.equal(second.continue, undefined, "a second manual request within the window passes");
  assert.match(second.systemMessage, /^verdict: preserve_first/);
  // Never an automatic compaction.
  const auto = await setup({ judge: { block_manual: true } });
  assert.equal(JSON.parse((await preCompact(auto, "auto")).stdout).continue, undefined);
});

Deno.test({
  name: "codex session-start: source compact gives the model the handoff; other sources nothing",
  ignore: SAMPLE === null,
}, async () => {
  const s = await setup();
  await preCompact(s, "auto");
  const r = await sessionStart(s, "compact");
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.hookSpecificOutput.hookEventName, "SessionStart");
  const ctx: string = out.hookSpecificOutput.additionalContext;
  assert.match(ctx, /^\[verdict compaction handoff\]/);
  assert.match(ctx, /- uncommitted \(git status, .*\): M app\.ts\n/);
  for (const source of ["startup", "resume"]) {
    const other = await sessionStart(s, source);
    assert.deepEqual([other.code, other.stdout, other.stderr], [0, "", ""], source);
  }
});
