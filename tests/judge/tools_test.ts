import assert from "node:assert/strict";
import { callCompactionTool, COMPACTION_TOOLS } from "../../src/judge/tools.ts";
import { forbiddenKeyFor } from "../../src/judge/forbidden.ts";
import {
  MANUAL_BLOCK_WINDOW_MS,
  manualBlockDecision,
  safeSessionName,
  withinWindow,
} from "../../src/judge/handoff.ts";
import { CONFIG, RULES, TranscriptBuilder } from "./_helpers.ts";

const EMPTY = {
  session: "s",
  todos: [],
  uncommitted: [],
  questions: [],
  decisions: [],
  next_steps: [],
  risk_hints: [],
};

Deno.test("exactly three compaction tools, none of which screens, filters or picks", () => {
  assert.deepEqual(COMPACTION_TOOLS.map((t) => t.name), [
    "context_verdict_build",
    "context_verdict_judge",
    "context_verdict_verify",
  ]);
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== "object") return;
    for (const [k, x] of Object.entries(v)) {
      if (k !== "properties" && k !== "required") assert.equal(forbiddenKeyFor(k), null, k);
      if (k === "properties") {
        for (const p of Object.keys(x as object)) assert.equal(forbiddenKeyFor(p), null, p);
      }
      walk(x);
    }
  };
  walk(COMPACTION_TOOLS);
  for (const t of COMPACTION_TOOLS) assert.doesNotMatch(t.name, /screen|filter|pick|select|prune/);
});

Deno.test("the tools round-trip plain JSON: build a summary, judge it, verify cases", async () => {
  const ctx = { config: CONFIG, credentialRules: RULES, transcriptRoots: [] };
  const snap = await callCompactionTool("context_verdict_build", {
    summary: { ...EMPTY, todos: ["a", "b", "c"] },
  }, ctx);
  const answer = await callCompactionTool("context_verdict_judge", { snapshot: snap }, ctx) as Record<
    string,
    unknown
  >;
  assert.deepEqual([answer.verdict, answer.reason], ["preserve_first", "over_threshold"]);
  const report = await callCompactionTool("context_verdict_verify", {
    cases: [{ id: "l", label: "lost", summary: { ...EMPTY, todos: ["a", "b", "c"] } }, {
      id: "k",
      label: "keep",
      summary: EMPTY,
    }],
  }, ctx) as Record<string, unknown>;
  assert.deepEqual(report.lostLetThrough, []);
  await assert.rejects(
    () => callCompactionTool("context_verdict_screen", {}, ctx),
    /Unknown compaction tool/,
  );
  await assert.rejects(
    () => callCompactionTool("context_verdict_build", { summary: EMPTY, selection: [1] }, ctx),
    /\$\.selection/,
  );
});

Deno.test("the build tool reads a transcript only under the transcript roots", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const outside = await Deno.realPath(await Deno.makeTempDir());
  const t = new TranscriptBuilder("s-tool", "/nonexistent/x");
  t.prompt("hi");
  t.say("hello");
  await Deno.writeTextFile(`${root}/a.jsonl`, t.text());
  await Deno.writeTextFile(`${outside}/b.jsonl`, t.text());
  const ctx = { config: CONFIG, credentialRules: RULES, transcriptRoots: [root] };
  const snap = await callCompactionTool(
    "context_verdict_build",
    { transcript_path: `${root}/a.jsonl` },
    ctx,
  ) as Record<string, unknown>;
  assert.match(snap.state as string, /^Session: s-tool\n/);
  await assert.rejects(
    () => callCompactionTool("context_verdict_build", { transcript_path: `${outside}/b.jsonl` }, ctx),
    /refusing to read transcript/,
  );
});

Deno.test("the manual-block window: a second request within 120 s passes, once", async () => {
  assert.equal(MANUAL_BLOCK_WINDOW_MS, 120_000);
  assert.ok(withinWindow(1000, 1000 + 120_000));
  assert.ok(!withinWindow(1000, 1000 + 120_001));
  assert.ok(!withinWindow(undefined, 5));
  const dir = await Deno.makeTempDir();
  assert.equal(await manualBlockDecision(dir, "s", 10_000), "block");
  assert.equal(await manualBlockDecision(dir, "s", 70_000), "pass");
  assert.equal(await manualBlockDecision(dir, "s", 80_000), "block");
  assert.equal(
    await manualBlockDecision(dir, "s", 80_000 + 200_000),
    "block",
    "outside the window blocks again",
  );
});

Deno.test("session ids become safe file names", () => {
  assert.equal(safeSessionName("8a2518dd-ff41"), "8a2518dd-ff41");
  assert.equal(safeSessionName("../../etc/passwd"), "__.._etc_passwd");
  assert.equal(safeSessionName(""), "_");
});

Deno.test("context_verdict_build refuses a caller-chosen cwd (git would run outside every root)", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const transcript = `${dir}/s.jsonl`;
  await Deno.writeTextFile(transcript, "");
  await assert.rejects(
    callCompactionTool("context_verdict_build", { transcript_path: transcript, cwd: "/etc" }, {
      config: CONFIG,
      credentialRules: RULES,
      transcriptRoots: [dir],
    }),
    /cwd/,
  );
});
