import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { type CopilotCarry, createCopilotParser } from "../../../src/agents/copilot/events.ts";
import { VERDICT_HINT_MARKER } from "../../../src/record/line_parser.ts";
import type { VerdictRecord } from "../../../src/record/record.ts";
import { feed, spaced, splitLines } from "../../collect/_feed.ts";
import { COPILOT_EXPECTATIONS, COPILOT_SAMPLES_DIR, type CopilotExpected } from "./expectations.ts";

function samplePath(name: string): string | null {
  const path = fileURLToPath(new URL(name, COPILOT_SAMPLES_DIR));
  try {
    Deno.statSync(path);
    return path;
  } catch {
    return null;
  }
}

function shape(records: readonly VerdictRecord[], kind: string): CopilotExpected[] {
  return records.filter((r) => r.kind === kind).map((r) => ({
    line: r.source_line,
    time: r.time,
    text: r.text,
  }));
}

for (const exp of COPILOT_EXPECTATIONS) {
  Deno.test(`copilot parser on the real sample ${exp.file}: exactly the typed prompts and landed notes`, () => {
    const path = samplePath(exp.file);
    if (path === null) {
      console.log(`skipped: ${exp.file} is not in ${fileURLToPath(COPILOT_SAMPLES_DIR)} (../shared absent)`);
      return;
    }
    const lines = splitLines(Deno.readTextFileSync(path));
    for (const includeHeadless of [false, true]) {
      for (const style of [(l: string) => l, spaced]) {
        const parser = createCopilotParser({ file: path, includeHeadless }, null);
        const records = feed(parser, lines.map(style));
        const prompts = includeHeadless
          ? [...exp.prompts, ...exp.headlessPrompts].sort((a, b) => a.line - b.line)
          : exp.prompts;
        assert.deepEqual(
          shape(records, "prompt"),
          prompts,
          `${exp.why} (includeHeadless ${includeHeadless})`,
        );
        assert.deepEqual(shape(records, "note"), exp.notes, exp.why);
        for (const r of records) {
          assert.equal(r.origin, "copilot");
          assert.equal(r.session, exp.session);
          assert.equal(r.project, exp.project);
          assert.equal(r.source_file, path);
        }
        assert.equal(parser.malformed, 0);
      }
    }
  });

  Deno.test(`copilot parser on ${exp.file}: resumed from its carry after any line, it yields the same`, () => {
    const path = samplePath(exp.file);
    if (path === null) return console.log(`skipped: ${exp.file} absent`);
    const lines = splitLines(Deno.readTextFileSync(path));
    const whole = feed(createCopilotParser({ file: path, includeHeadless: false }, null), lines);
    for (let cut = 0; cut <= lines.length; cut++) {
      const first = createCopilotParser({ file: path, includeHeadless: false }, null);
      const a = feed(first, lines.slice(0, cut));
      const carry = JSON.parse(JSON.stringify(first.carry())) as CopilotCarry;
      const b: VerdictRecord[] = feed(
        createCopilotParser({ file: path, includeHeadless: false }, carry),
        lines.slice(cut),
        cut + 1,
      );
      assert.deepEqual([...a, ...b], whole, `cut after line ${cut}`);
    }
  });
}

// ---- the rules, one shape each (the real samples hold only some of them)

let n = 0;
function ev(type: string, data: Record<string, unknown>): string {
  n++;
  return JSON.stringify({
    type,
    data,
    id: `e-${n}`,
    timestamp: `2026-12-02T10:00:${String(n).padStart(2, "0")}.000Z`,
  });
}
const start = () =>
  ev("session.start", { sessionId: "s-1", copilotVersion: "1.0.102", context: { cwd: "/home/dev/app" } });
const system = (interactive: boolean) =>
  ev("system.message", {
    role: "system",
    content: interactive
      ? "You are the GitHub Copilot CLI. You are an interactive tool that helps users."
      : "You are the GitHub Copilot CLI. You are running in non-interactive mode and have no way to ask.",
  });
const typed = (content: string) => ev("user.message", { content, transformedContent: `<x>${content}</x>` });
const texts = (records: readonly VerdictRecord[]) => records.map((r) => `${r.kind}:${r.text}`);
function run(lines: string[], includeHeadless = false): VerdictRecord[] {
  return feed(createCopilotParser({ file: "/c/s/events.jsonl", includeHeadless }, null), lines);
}

Deno.test("copilot parser: a prompt waits for the session's mode; headless ones count only with includeHeadless", () => {
  const tui = [start(), typed("use pnpm"), system(true), typed("and yarn never")];
  assert.deepEqual(texts(run(tui)), ["prompt:use pnpm", "prompt:and yarn never"]);
  const headless = [start(), typed("scripted"), system(false), typed("more")];
  assert.deepEqual(texts(run(headless)), []);
  assert.deepEqual(texts(run(headless, true)), ["prompt:scripted", "prompt:more"]);
  // A system prompt in words no rule knows (a later version) counts as interactive: nothing typed is lost.
  assert.deepEqual(texts(run([start(), typed("x"), ev("system.message", { content: "Hello." })])), [
    "prompt:x",
  ]);
  const r = run(tui)[0]!;
  assert.deepEqual([r.origin, r.session, r.project], ["copilot", "s-1", "/home/dev/app"]);
});

Deno.test("copilot parser: machine-made events never become prompts", () => {
  const records = run([
    start(),
    system(true),
    ev("hook.end", { hookType: "userPromptSubmitted", output: { additionalContext: "ctx" } }),
    ev("tool.user_requested", { toolName: "local_shell", arguments: { command: "git status" } }),
    ev("session.compaction_complete", { summaryContent: "summary of the session" }),
    ev("assistant.message", { content: "I will use pnpm.", toolRequests: [] }),
    typed(`${VERDICT_HINT_MARKER} quoted`),
    typed("   "),
  ], true);
  assert.deepEqual(texts(records), []);
});

Deno.test("copilot parser: a memory-file write is a note only when its tool call succeeded", () => {
  const ask = (id: string, name: string, args: Record<string, unknown>) =>
    ev("assistant.message", { content: "", toolRequests: [{ toolCallId: id, name, arguments: args }] });
  const done = (id: string, success: boolean) => ev("tool.execution_complete", { toolCallId: id, success });
  const records = run([
    start(),
    ask("c1", "create", { path: "/home/dev/app/.github/copilot-instructions.md", file_text: "- pnpm\n" }),
    done("c1", true),
    ask("c2", "edit", { path: "/home/dev/app/AGENTS.md", old_str: "a", new_str: "- never npm" }),
    done("c2", false),
    ask("c3", "edit", { path: "/home/dev/app/CLAUDE.md", old_str: "a", new_str: "- yarn is banned" }),
    done("c3", true),
    ask("c4", "create", { path: "/home/dev/app/src/a.ts", file_text: "x" }),
    done("c4", true),
  ]);
  assert.deepEqual(texts(records), ["note:- pnpm", "note:- yarn is banned"]);
});

Deno.test("copilot parser: a typed prompt or memory write without a usable time is skipped and counted", () => {
  const parser = createCopilotParser({ file: "/c/s/events.jsonl", includeHeadless: true }, null);
  const records = feed(parser, [
    start(),
    JSON.stringify({ type: "user.message", data: { content: "use pnpm" }, id: "u1", timestamp: "1e20" }),
    JSON.stringify({
      type: "assistant.message",
      data: {
        toolRequests: [{
          toolCallId: "c1",
          name: "create",
          arguments: { path: "/w/AGENTS.md", file_text: "x" },
        }],
      },
      id: "a1",
    }),
  ]);
  assert.deepEqual(records, []);
  assert.equal(parser.malformed, 2);
});
