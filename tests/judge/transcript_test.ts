import assert from "node:assert/strict";
import {
  announcedSteps,
  contentTokens,
  extractTranscript,
  isInstructionFile,
  isWrittenDown,
} from "../../src/judge/transcript.ts";
import { TranscriptBuilder } from "./_helpers.ts";

const todos = (...items: Array<[string, string]>) => ({
  todos: items.map(([content, status]) => ({ content, status, activeForm: content })),
});

Deno.test("todos come from the latest successful TodoWrite on the main chain, completed ones left out", () => {
  const t = new TranscriptBuilder();
  t.prompt("build the parser");
  t.tool("TodoWrite", todos(["old item", "pending"]));
  t.tool(
    "TodoWrite",
    todos(["write parser", "completed"], ["write tests", "in_progress"], ["docs", "pending"]),
  );
  t.tool("TodoWrite", todos(["failed write", "pending"]), { ok: false });
  t.say("Done with the parser.");
  const f = extractTranscript(t.text());
  assert.deepEqual(f.todos.map((x) => x.text), ["write tests (in_progress)", "docs (pending)"]);
  assert.match(f.todos[0]!.source, /^TodoWrite, line \d+$/);
});

Deno.test("a sidechain's TodoWrite and an abandoned branch do not count", () => {
  const t = new TranscriptBuilder();
  t.prompt("go");
  t.tool("TodoWrite", todos(["all done", "completed"]));
  const branchPoint = t.say("ok");
  // A subagent's list, inline in the main file (1.0.x).
  t.push({
    type: "assistant",
    message: {
      role: "assistant",
      content: [{ type: "tool_use", id: "side1", name: "TodoWrite", input: todos(["sub", "pending"]) }],
    },
  }, { sidechain: true, parent: null });
  t.push({
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: "side1", content: "ok" }] },
  }, {
    sidechain: true,
  });
  // A rewound branch: the person edited a message, so this TodoWrite is off the main chain.
  const abandoned = t.call("TodoWrite", todos(["abandoned", "pending"]));
  t.result(abandoned);
  t.push({ type: "user", message: { role: "user", content: "edited prompt" }, thinkingMetadata: {} }, {
    parent: branchPoint,
  });
  t.say("All good.");
  assert.deepEqual(extractTranscript(t.text()).todos, []);
});

Deno.test("tasks replay from TaskCreate and TaskUpdate (2.1.x)", () => {
  const t = new TranscriptBuilder();
  t.prompt("go");
  t.tool("TaskCreate", { subject: "migrate db", description: "d" }, {
    structured: { task: { id: "1", subject: "migrate db" } },
  });
  t.tool("TaskCreate", { subject: "write docs", description: "d" }, {
    text: "Task #2 created successfully: write docs",
    structured: {},
  });
  t.tool("TaskCreate", { subject: "dropped", description: "d" }, { structured: { task: { id: "3" } } });
  t.tool("TaskUpdate", { taskId: "1", status: "completed" }, { structured: { success: true } });
  t.tool("TaskUpdate", { taskId: "3", status: "deleted" }, { structured: { success: true } });
  t.tool("TaskUpdate", { taskId: "2", status: "in_progress" }, { structured: { success: true } });
  t.say("Working.");
  assert.deepEqual(extractTranscript(t.text()).todos.map((x) => x.text), ["write docs (in_progress)"]);
});

Deno.test("an AskUserQuestion without an answer is an open question; an answered one is not", () => {
  const q = (question: string) => ({
    questions: [{ question, header: "h", options: [], multiSelect: false }],
  });
  const t = new TranscriptBuilder();
  t.prompt("go");
  t.tool("AskUserQuestion", q("Which port?"), { structured: { answers: { "Which port?": "8080" } } });
  t.call("AskUserQuestion", q("Which database?"));
  const f = extractTranscript(t.text());
  assert.deepEqual(f.questions.map((x) => x.text), ["Which database?"]);
  assert.match(f.questions[0]!.source, /^AskUserQuestion, line \d+$/);
  assert.equal(f.endedMidTurn, true);
  // The person typed after it: answered in chat.
  t.prompt("postgres");
  assert.deepEqual(extractTranscript(t.text()).questions, []);
});

Deno.test("H1: a final assistant turn ending with a question is open until the person types", () => {
  const t = new TranscriptBuilder();
  t.prompt("refactor the module");
  t.tool("Read", { file_path: "/x/a.ts" });
  t.say("I found two ways to do this. Should I split the module into two files, or keep one?");
  const f = extractTranscript(t.text());
  assert.deepEqual(f.questions.map((x) => x.text), [
    "Should I split the module into two files, or keep one?",
  ]);
  t.prompt("split it");
  t.say("Split.");
  assert.deepEqual(extractTranscript(t.text()).questions, []);
});

Deno.test("H1: a question in the middle of a text, or followed by a tool call, is not open", () => {
  const t = new TranscriptBuilder();
  t.prompt("go");
  t.say("Why does it fail? Because the path is wrong. Fixed it.");
  assert.deepEqual(extractTranscript(t.text()).questions, []);
  t.say("Shall I run the tests?");
  t.tool("Bash", { command: "deno test" });
  assert.deepEqual(extractTranscript(t.text()).questions, []);
});

Deno.test("decisions: typed prompts with a marker, unless written to an instruction file or a commit after them", () => {
  const t = new TranscriptBuilder();
  t.prompt("We decided to use Postgres for the job queue, not Redis.");
  t.prompt("From now on, always run deno fmt before committing.");
  t.prompt("what time is it?");
  t.tool("Edit", {
    file_path: "/p/CLAUDE.md",
    old_string: "",
    new_string: "- Job queue: Postgres (not Redis), decided in the queue session.",
  });
  t.say("Noted in CLAUDE.md.");
  const f = extractTranscript(t.text());
  assert.deepEqual(f.decisions.map((x) => x.text), ["From now on, always run deno fmt before committing."]);
  assert.match(f.decisions[0]!.source, /^typed prompt, line 2$/);
  t.tool("Bash", { command: 'git commit -m "Always run deno fmt before committing"' });
  assert.deepEqual(extractTranscript(t.text()).decisions, []);
});

Deno.test("decisions: a failed memory write does not count as written down", () => {
  const t = new TranscriptBuilder();
  t.prompt("We decided to use Postgres for the job queue.");
  t.tool("Write", { file_path: "/p/CLAUDE.md", content: "Job queue uses Postgres." }, { ok: false });
  assert.equal(extractTranscript(t.text()).decisions.length, 1);
});

Deno.test("H2 token overlap: 60% of the decision's content tokens in one later write", () => {
  assert.deepEqual([...contentTokens("We'll use the Postgres queue!")].sort(), ["postgres", "queue"]);
  assert.ok(isWrittenDown("we will use postgres for the queue", ["Queue: Postgres."]));
  assert.ok(!isWrittenDown("use postgres for the job queue and redis for the cache", ["Queue: Postgres."]));
  assert.ok(!isWrittenDown("ok", ["ok"]), "no content tokens: cannot be matched, stays unlanded");
  assert.ok(isWrittenDown("以后都用中文写提交信息", ["提交信息以后都用中文写"]));
});

Deno.test("instruction and memory files are recognised by name and folder", () => {
  for (
    const p of [
      "/p/CLAUDE.md",
      "/p/AGENTS.md",
      "/h/.claude/projects/x/memory/db.md",
      "/p/.claude/rules/a.md",
      "/p/docs/adr/0001.md",
    ]
  ) {
    assert.ok(isInstructionFile(p), p);
  }
  for (const p of ["/p/src/claude.ts", "/p/README.md", "/p/memory.ts"]) assert.ok(!isInstructionFile(p), p);
});

Deno.test("H3: announced steps after the last tool call are next steps; carried-out ones are not", () => {
  const t = new TranscriptBuilder();
  t.prompt("go");
  t.say("Next, I'll read the config.");
  t.tool("Read", { file_path: "/p/config.json" });
  t.say("The config is fine. Next, I'll update the schema. I'll now also regenerate the types.");
  const f = extractTranscript(t.text());
  assert.deepEqual(f.nextSteps.map((x) => x.text), [
    "Next, I'll update the schema.",
    "I'll now also regenerate the types.",
  ]);
});

Deno.test("H3: a Next steps list yields one step per item", () => {
  assert.deepEqual(
    announcedSteps("Done.\n\n**Next steps:**\n1. Run the migration\n2. Deploy to staging\n\nThat's all."),
    ["Run the migration", "Deploy to staging"],
  );
  assert.deepEqual(announcedSteps("Next steps: update the changelog"), ["update the changelog"]);
  assert.deepEqual(announcedSteps("I read it. Next steps:\n- Split the file\n- Fix imports"), [
    "Split the file",
    "Fix imports",
  ]);
  assert.deepEqual(announcedSteps("I've finished. Everything passes."), []);
  assert.deepEqual(announcedSteps("接下来我会更新文档。"), ["接下来我会更新文档。"]);
});

Deno.test("written files: successful Write/Edit/MultiEdit/NotebookEdit only", () => {
  const t = new TranscriptBuilder();
  t.prompt("go");
  t.tool("Write", { file_path: "/p/a.ts", content: "x" });
  t.tool("Edit", { file_path: "/p/b.ts", old_string: "a", new_string: "b" }, { ok: false });
  t.tool("MultiEdit", { file_path: "/p/c.ts", edits: [] });
  t.tool("NotebookEdit", { notebook_path: "/p/n.ipynb", new_source: "" });
  t.say("done");
  assert.deepEqual(extractTranscript(t.text()).written.map((w) => w.text), [
    "/p/a.ts",
    "/p/c.ts",
    "/p/n.ipynb",
  ]);
});

Deno.test("an interrupt at the end, malformed lines and compact boundaries become facts", () => {
  const t = new TranscriptBuilder();
  t.prompt("go");
  t.push({
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    logicalParentUuid: "u-1",
  }, { parent: null });
  t.say("continuing");
  t.interrupt();
  const f = extractTranscript(t.text() + "{not json\n");
  assert.equal(f.interrupted, true);
  assert.equal(f.endedMidTurn, false);
  assert.equal(f.malformedLines, 1);
  assert.equal(f.compactions, 1);
  assert.equal(f.session, "s-test");
});

Deno.test("the real jnarowski-full-session-two transcript: everything closed, one file written", async (t) => {
  const path = new URL("../../../shared/data/transcripts/jnarowski-full-session-two.jsonl", import.meta.url);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    t.step({ name: "skipped: ../shared/data is not present", ignore: true, fn: () => {} });
    return;
  }
  const f = extractTranscript(text);
  assert.equal(f.session, "8a2518dd-ff41-4d5f-83a1-407b03598cc6");
  assert.deepEqual(f.todos, [], "the last TodoWrite marks both items completed");
  assert.deepEqual(f.questions, [], "the AskUserQuestion at line 18 was answered at line 19");
  assert.deepEqual(f.written.map((w) => w.source), ["Edit, line 39"]);
});
