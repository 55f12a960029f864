import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { asClaudeTranscript } from "../../../src/agents/qwen/judge_lines.ts";
import { extractTranscript } from "../../../src/judge/transcript.ts";
import { QWEN_SAMPLES_DIR } from "./expectations.ts";

const TUI = "-home-dev-project.chats.tui.03c74f7f-f593-412b-85d7-498cb924e08b.jsonl";

Deno.test("qwen judge lines: the real TUI sample judged with the compaction rules, sources pointing into it", () => {
  let text: string;
  try {
    text = Deno.readTextFileSync(fileURLToPath(new URL(TUI, QWEN_SAMPLES_DIR)));
  } catch {
    return console.log(`skipped: ${TUI} is not in ${fileURLToPath(QWEN_SAMPLES_DIR)} (../shared absent)`);
  }
  const out = asClaudeTranscript(text);
  assert.equal(out.split("\n").length, text.split("\n").length, "line for line");
  const facts = extractTranscript(out);
  assert.equal(facts.session, "03c74f7f-f593-412b-85d7-498cb924e08b");
  assert.equal(facts.cwd, "/home/dev/project");
  assert.deepEqual(facts.written, [{ text: "/home/dev/project/QWEN.md", source: "Write, line 20" }]);
  // The pnpm decision is written down in QWEN.md (line 20); "Check with the recall tool what we
  // decided about package managers" (line 7) asks about a decision, it makes none.
  assert.deepEqual(facts.decisions, []);
  assert.equal(facts.malformedLines, 0);
  assert.equal(facts.endedMidTurn, false);
});

Deno.test("qwen judge lines: open todos, failed writes, and a chain relinked past dropped records", () => {
  let n = 0;
  let parent: string | null = null;
  const rec = (type: string, extra: Record<string, unknown>) => {
    const uuid = `u${++n}`;
    const line = JSON.stringify({
      uuid,
      parentUuid: parent,
      sessionId: "s",
      cwd: "/w",
      timestamp: "2026-12-02T10:00:00Z",
      type,
      ...extra,
    });
    parent = uuid;
    return line;
  };
  const call = (id: string, name: string, args: Record<string, unknown>) =>
    rec("assistant", {
      message: { role: "model", parts: [{ text: "Working." }, { functionCall: { id, name, args } }] },
    });
  const result = (id: string, status: string) =>
    rec("tool_result", {
      message: {
        role: "user",
        parts: [{ functionResponse: { id, name: "x", response: { output: "done" } } }],
      },
      toolCallResult: { callId: id, status },
    });
  const lines = [
    rec("user", { provenance: "real_user", message: { parts: [{ text: "Plan the release" }] } }),
    rec("system", { subtype: "file_history_snapshot", systemPayload: {} }),
    call("t1", "todo_write", {
      todos: [{ id: "1", content: "write notes", status: "completed" }, {
        id: "2",
        content: "tag v2",
        status: "pending",
      }],
    }),
    result("t1", "success"),
    rec("system", { subtype: "ui_telemetry", systemPayload: {} }),
    call("w1", "write_file", { file_path: "/w/a.txt", content: "x" }),
    result("w1", "error"),
    call("w2", "write_file", { file_path: "/w/b.txt", content: "y" }),
    result("w2", "success"),
    rec("assistant", { message: { role: "model", parts: [{ text: "Shall I tag it now?" }] } }),
  ];
  const facts = extractTranscript(asClaudeTranscript(lines.join("\n")));
  assert.deepEqual(facts.todos, [{ text: "tag v2 (pending)", source: "TodoWrite, line 3" }]);
  assert.deepEqual(facts.written.map((w) => w.text), ["/w/b.txt"]);
  assert.deepEqual(facts.questions.map((q) => q.text), ["Shall I tag it now?"]);
});
