/**
 * A Codex rollout re-framed for the compaction judge (src/agents/codex/judge_lines.ts): the real
 * 0.169 samples (../shared/clients/codex/samples, read from there), then the tool shapes the real
 * binary wrote in the client runs (update_plan, exec_command with its CommandExecution item,
 * a refused request_user_input, a FileChange), written out here line by line.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { asClaudeTranscript } from "../../../src/agents/codex/judge_lines.ts";
import { extractTranscript } from "../../../src/judge/transcript.ts";

const SAMPLES = fileURLToPath(new URL("../../../../shared/clients/codex/samples/", import.meta.url));

function sample(prefix: string): string | null {
  try {
    const name = [...Deno.readDirSync(SAMPLES)].map((e) => e.name).find((n) => n.startsWith(prefix));
    return name ? Deno.readTextFileSync(`${SAMPLES}${name}`) : null;
  } catch {
    return null;
  }
}

Deno.test("codex judge lines: the real TUI rollout, judged with the compaction rules, sources pointing into it", () => {
  const text = sample("tui.rollout-");
  if (text === null) return console.log(`skipped: no tui.rollout-* in ${SAMPLES} (../shared absent)`);
  const out = asClaudeTranscript(text);
  assert.equal(out.split("\n").length, text.split("\n").length, "line for line");
  const facts = extractTranscript(out);
  assert.equal(facts.session, "01a2307f-f6fb-7de1-83df-04b7b30797ca");
  assert.equal(facts.cwd, "/home/dev/project");
  // The apply_patch call on line 43 added AGENTS.md (its FileChange, line 45, says it landed).
  assert.deepEqual(facts.written, [{ text: "/home/dev/project/AGENTS.md", source: "Write, line 43" }]);
  // The pnpm rule (line 10) is written down in that AGENTS.md; "Check with the recall tool what
  // we decided about package managers" (line 21) asks about a decision, it makes none.
  assert.deepEqual(facts.decisions, []);
  assert.equal(facts.compactions, 1, "the /compact at the end");
  assert.deepEqual([facts.todos, facts.questions, facts.nextSteps], [[], [], []]);
  assert.equal(facts.endedMidTurn, false);
  assert.equal(facts.interrupted, false);
  assert.equal(facts.malformedLines, 0);
  // Machine-made input is nobody's prompt: the hint, the environment block, the `!` line.
  for (
    const machine of [
      "VERDICT-HINT",
      "<environment_context>",
      "<user_shell_command>",
      "Another language model",
    ]
  ) {
    const users = out.split("\n").filter((l) => l.includes('"type":"user"') && l.includes(machine));
    assert.deepEqual(users, [], machine);
  }
});

Deno.test("codex judge lines: the real exec-then-resume rollout: one undocumented decision, no double prompt", () => {
  const text = sample("exec-then-resume.");
  if (text === null) return console.log(`skipped: no exec-then-resume.* in ${SAMPLES} (../shared absent)`);
  const facts = extractTranscript(asClaudeTranscript(text));
  assert.equal(facts.session, "01a2307f-eb97-7590-ab20-838e8968a72e");
  assert.deepEqual(facts.decisions, [{
    text: "From now on use pnpm, never npm, in this repo.",
    source: "typed prompt, line 10",
  }]);
  assert.deepEqual([facts.written, facts.todos, facts.questions], [[], [], []]);
});

/** Rollout lines in 0.169's envelope, numbered from 1. */
class Rollout {
  readonly lines: string[] = [];
  #ordinal = 0;

  add(type: string, payload: Record<string, unknown>): number {
    this.lines.push(JSON.stringify({
      timestamp: `2026-12-01T10:00:${String(this.lines.length % 60).padStart(2, "0")}.000Z`,
      ordinal: this.#ordinal++,
      type,
      payload,
    }));
    return this.lines.length;
  }

  meta(cwd = "/w") {
    return this.add("session_meta", { id: "s-1", cwd, originator: "codex-tui", source: "cli" });
  }
  turn() {
    return this.add("event_msg", { type: "task_started", turn_id: `t${this.lines.length}` });
  }
  prompt(text: string) {
    // Both forms Codex writes: the response_item copy first, then the UserMessage item.
    this.add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
    return this.add("event_msg", {
      type: "item_completed",
      item: { type: "UserMessage", id: `u${this.lines.length}`, content: [{ type: "text", text }] },
    });
  }
  say(text: string) {
    return this.add("response_item", {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text }],
    });
  }
  call(id: string, name: string, args: Record<string, unknown>) {
    return this.add("response_item", {
      type: "function_call",
      name,
      arguments: JSON.stringify(args),
      call_id: id,
    });
  }
  output(id: string, output: string, type = "function_call_output") {
    return this.add("response_item", { type, call_id: id, output });
  }
  item(item: Record<string, unknown>) {
    return this.add("event_msg", { type: "item_completed", item });
  }
  get text(): string {
    return this.lines.join("\n") + "\n";
  }
}

Deno.test("codex judge lines: update_plan is the todo list; the last successful one counts", () => {
  const r = new Rollout();
  r.meta();
  r.turn();
  r.prompt("plan the release");
  r.call("c1", "update_plan", {
    plan: [{ step: "write notes", status: "in_progress" }, { step: "tag", status: "pending" }],
  });
  r.output("c1", "Plan updated");
  const last = r.call("c2", "update_plan", {
    explanation: "notes done",
    plan: [{ step: "write notes", status: "completed" }, { step: "tag", status: "in_progress" }],
  });
  r.output("c2", "Plan updated");
  r.say("Tagging next.");
  const facts = extractTranscript(asClaudeTranscript(r.text));
  assert.deepEqual(facts.todos, [{ text: "tag (in_progress)", source: `TodoWrite, line ${last}` }]);
});

Deno.test("codex judge lines: a landed patch is a write, a failed one is not; moves name the new path", () => {
  const r = new Rollout();
  r.meta("/w");
  r.turn();
  r.prompt("write the files");
  const patch = r.add("response_item", {
    type: "custom_tool_call",
    name: "apply_patch",
    call_id: "p1",
    input:
      "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.txt\n*** Move to: c.txt\n@@\n-y\n+z\n*** End Patch\n",
  });
  r.item({
    type: "FileChange",
    id: "p1",
    status: "completed",
    changes: {
      "/w/a.txt": { type: "add", content: "x\n" },
      "/w/b.txt": { type: "update", unified_diff: "@@ -1 +1 @@\n-y\n+z\n", move_path: "/w/c.txt" },
      "/w/old.txt": { type: "delete", content: "gone\n" },
    },
  });
  r.output("p1", "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess.\n", "custom_tool_call_output");
  r.add("response_item", { type: "custom_tool_call", name: "apply_patch", call_id: "p2", input: "…" });
  r.item({
    type: "FileChange",
    id: "p2",
    status: "failed",
    changes: { "/w/d.txt": { type: "add", content: "d" } },
  });
  r.output("p2", "Exit code: 1\nOutput:\nverification failed\n", "custom_tool_call_output");
  r.say("Done.");
  const facts = extractTranscript(asClaudeTranscript(r.text));
  assert.deepEqual(facts.written, [
    { text: "/w/a.txt", source: `Write, line ${patch}` },
    { text: "/w/c.txt", source: `Edit, line ${patch}` },
  ]);
});

Deno.test("codex judge lines: a decision written into AGENTS.md by a patch, or committed by a shell command, is landed", () => {
  const decided = (land: (r: Rollout) => void) => {
    const r = new Rollout();
    r.meta();
    r.turn();
    r.prompt("From now on we always use Postgres for the job queue.");
    land(r);
    r.say("Noted.");
    return extractTranscript(asClaudeTranscript(r.text)).decisions.map((d) => d.text);
  };
  assert.deepEqual(decided(() => {}), ["From now on we always use Postgres for the job queue."]);
  assert.deepEqual(
    decided((r) => {
      r.add("response_item", { type: "custom_tool_call", name: "apply_patch", call_id: "p", input: "…" });
      r.item({
        type: "FileChange",
        id: "p",
        status: "completed",
        changes: { "/w/AGENTS.md": { type: "update", unified_diff: "@@\n+- Job queue: always Postgres.\n" } },
      });
      r.output("p", "Exit code: 0\n", "custom_tool_call_output");
    }),
    [],
  );
  const commit = (exit: number) => (r: Rollout) => {
    r.call("g", "exec_command", { cmd: "git commit -am 'Always use Postgres for the job queue'" });
    r.item({
      type: "CommandExecution",
      id: "g",
      status: exit === 0 ? "completed" : "failed",
      exit_code: exit,
    });
    r.output("g", `Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code ${exit}\nOutput:\n`);
  };
  assert.deepEqual(decided(commit(0)), []);
  // A commit that failed (seen: exit 128, no identity) put nothing down.
  assert.deepEqual(decided(commit(128)), ["From now on we always use Postgres for the job queue."]);
});

Deno.test("codex judge lines: the item's status alone, or the exit code alone, marks a failed command", () => {
  const committed = (land: (r: Rollout) => void) => {
    const r = new Rollout();
    r.meta();
    r.turn();
    r.prompt("From now on we always use Postgres for the job queue.");
    land(r);
    r.say("Hm.");
    return extractTranscript(asClaudeTranscript(r.text)).decisions.length === 0;
  };
  const COMMIT = "git commit -m 'Always use Postgres for the job queue'";
  assert.equal(
    committed((r) => {
      r.call("g", "shell", { command: ["bash", "-lc", COMMIT] });
      r.output("g", "Exit code: 1\nOutput:\nnothing to commit\n");
    }),
    false,
  );
  assert.equal(
    committed((r) => {
      r.call("g", "exec_command", { cmd: COMMIT });
      r.item({ type: "CommandExecution", id: "g", status: "declined" });
      r.output("g", "rejected by user");
    }),
    false,
  );
  assert.equal(
    committed((r) => {
      r.call("g", "shell_command", { command: COMMIT });
      r.output("g", "Exit code: 0\nOutput:\n[main 1a2b3c4] Always use Postgres for the job queue\n");
    }),
    true,
  );
});

Deno.test("codex judge lines: request_user_input is an open question, unless Codex refused to ask it", () => {
  const ask = (output: string | null, typedAfter: boolean) => {
    const r = new Rollout();
    r.meta();
    r.turn();
    r.prompt("set up the queue");
    r.call("q", "request_user_input", {
      questions: [{ id: "db", header: "DB", question: "Postgres or Redis?", options: [] }],
    });
    if (output !== null) r.output("q", output);
    if (typedAfter) {
      r.turn();
      r.prompt("never mind");
      r.say("OK.");
    }
    return extractTranscript(asClaudeTranscript(r.text)).questions.map((q) => q.text);
  };
  // Asked and not answered (the session was compacted while it waited).
  assert.deepEqual(ask(null, false), ["Postgres or Redis?"]);
  // Outside Plan mode Codex refuses the tool (seen): nobody was asked anything.
  assert.deepEqual(ask("request_user_input is unavailable in Default mode", false), []);
  // The person typed after it: answered in the chat, or moved on.
  assert.deepEqual(ask(null, true), []);
});

Deno.test("codex judge lines: an interrupted turn is an interrupt; an aborted compaction task is nothing", () => {
  const r = new Rollout();
  r.meta();
  r.turn();
  r.prompt("run the tests");
  r.call("x", "exec_command", { cmd: "deno test" });
  r.add("event_msg", { type: "turn_aborted", reason: "interrupted" });
  assert.equal(extractTranscript(asClaudeTranscript(r.text)).interrupted, true);
  const c = new Rollout();
  c.meta();
  c.turn();
  c.prompt("hello");
  c.say("Hi.");
  c.turn(); // the compaction task a PreCompact hook stopped
  c.add("event_msg", { type: "turn_aborted", reason: "interrupted" });
  const facts = extractTranscript(asClaudeTranscript(c.text));
  assert.equal(facts.interrupted, false);
  assert.equal(facts.endedMidTurn, false);
});

Deno.test("codex judge lines: H3 next steps and the final question come from the assistant's last words", () => {
  const r = new Rollout();
  r.meta();
  r.turn();
  r.prompt("fix the parser");
  r.call("x", "exec_command", { cmd: "deno test" });
  r.item({ type: "CommandExecution", id: "x", status: "completed", exit_code: 0 });
  r.output("x", "Process exited with code 0\n");
  r.say("Tests pass. Next, I'll update the changelog.\n\nShould I also bump the version?");
  const facts = extractTranscript(asClaudeTranscript(r.text));
  assert.deepEqual(facts.nextSteps.map((s) => s.text), ["Next, I'll update the changelog."]);
  assert.deepEqual(facts.questions.map((q) => q.text), ["Should I also bump the version?"]);
});

Deno.test("codex judge lines: malformed lines stay for the judge to count; a FileChange without its call is dropped", () => {
  const r = new Rollout();
  r.meta();
  r.turn();
  r.prompt("hello");
  r.lines.push("{not json", "[1, 2]");
  r.item({
    type: "FileChange",
    id: "nobody",
    status: "completed",
    changes: { "/w/x": { type: "add", content: "" } },
  });
  r.say("Hi.");
  const out = asClaudeTranscript(r.text);
  const facts = extractTranscript(out);
  assert.equal(facts.malformedLines, 2);
  assert.deepEqual(facts.written, []);
  assert.equal(out.split("\n").length, r.text.split("\n").length);
});
