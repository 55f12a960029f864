import assert from "node:assert/strict";
import { createCopilotParser } from "../../../src/agents/copilot/events.ts";
import { VERDICT_HINT_MARKER } from "../../../src/record/line_parser.ts";
import type { VerdictRecord } from "../../../src/record/record.ts";
import { feed } from "../../collect/_feed.ts";
import { sampleParserTests } from "../_sample_parser.ts";
import { COPILOT_EXPECTATIONS, COPILOT_SAMPLES_DIR } from "./expectations.ts";

sampleParserTests({
  origin: "copilot",
  dir: COPILOT_SAMPLES_DIR,
  expectations: COPILOT_EXPECTATIONS,
  open: createCopilotParser,
});

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
