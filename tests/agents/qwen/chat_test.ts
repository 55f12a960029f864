import assert from "node:assert/strict";
import { createQwenParser, typedText } from "../../../src/agents/qwen/chat.ts";
import { VERDICT_HINT_MARKER } from "../../../src/record/line_parser.ts";
import type { VerdictRecord } from "../../../src/record/record.ts";
import { feed } from "../../collect/_feed.ts";
import { sampleParserTests } from "../_sample_parser.ts";
import { QWEN_EXPECTATIONS, QWEN_SAMPLES_DIR } from "./expectations.ts";

sampleParserTests({
  origin: "qwen",
  dir: QWEN_SAMPLES_DIR,
  expectations: QWEN_EXPECTATIONS,
  open: createQwenParser,
});

// ---- the rules, one shape each (the real samples hold only some of them)

const S = "5e1f0000-0000-4000-8000-000000000001";
let uuidN = 0;
function rec(type: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    uuid: `u-${++uuidN}`,
    sessionId: S,
    timestamp: `2026-12-02T10:00:${String(uuidN).padStart(2, "0")}.000Z`,
    type,
    cwd: "/home/dev/app",
    version: "0.24.4",
    ...extra,
  });
}
const user = (parts: unknown[], extra: Record<string, unknown> = {}) =>
  rec("user", { provenance: "real_user", message: { role: "user", parts }, ...extra });
const snapshot = () =>
  rec("system", { provenance: "system", subtype: "file_history_snapshot", systemPayload: {} });
const texts = (records: readonly VerdictRecord[]) => records.map((r) => `${r.kind}:${r.text}`);

function run(lines: string[], includeHeadless = false): VerdictRecord[] {
  return feed(createQwenParser({ file: "/q/chats/s.jsonl", includeHeadless }, null), lines);
}

Deno.test("qwen parser: a prompt without hook context is its text parts, up to an @file expansion", () => {
  const records = run([
    user([{ text: "Review @src/a.ts please" }, { text: "\n--- Content from referenced files ---" }, {
      text: "export const a = 1;",
    }]),
    snapshot(),
    user([{ text: "line one" }, { text: "line two" }, { inlineData: { mimeType: "image/png", data: "AA" } }]),
    snapshot(),
  ]);
  assert.deepEqual(texts(records), ["prompt:Review @src/a.ts please", "prompt:line one\nline two"]);
});

Deno.test("qwen parser: displayText wins over parts that hold the hook's text", () => {
  const records = run([
    user([{ text: "use pnpm" }, {
      text: "<qwen:user-prompt-submit-context>\nX\n</qwen:user-prompt-submit-context>",
    }], {
      systemPayload: { displayText: "use pnpm", hookContext: "X" },
    }),
    snapshot(),
    // Without a displayText the wrapper part is cut off too.
    user([{ text: "use yarn" }, {
      text: "<qwen:user-prompt-submit-context>\nY\n</qwen:user-prompt-submit-context>",
    }]),
    snapshot(),
  ]);
  assert.deepEqual(texts(records), ["prompt:use pnpm", "prompt:use yarn"]);
});

Deno.test("qwen parser: machine-made user records never become prompts", () => {
  const records = run([
    rec("user", { subtype: "cron", provenance: "system", message: { parts: [{ text: "cron fired" }] } }),
    rec("user", {
      subtype: "notification",
      provenance: "system",
      message: { parts: [{ text: "agent done" }] },
    }),
    rec("user", {
      subtype: "goal_runtime",
      provenance: "goal_runtime",
      message: { parts: [{ text: "goal" }] },
    }),
    rec("system", { subtype: "slash_command", systemPayload: { phase: "invocation", rawCommand: "/stats" } }),
    rec("tool_result", {
      message: { role: "user", parts: [{ functionResponse: { id: "c1", response: {} } }] },
    }),
    user([{ text: `${VERDICT_HINT_MARKER} quoted` }]),
    user([{ text: "   " }]),
    snapshot(),
  ], true);
  assert.deepEqual(texts(records), []);
  assert.equal(typedText(JSON.parse(user([{ text: "typed" }], { provenance: "system" }))), null);
});

Deno.test("qwen parser: headless prompts (no snapshot before the next user record) count only with includeHeadless", () => {
  const lines = [user([{ text: "first, headless" }]), user([{ text: "second, interactive" }]), snapshot()];
  assert.deepEqual(texts(run(lines)), ["prompt:second, interactive"]);
  assert.deepEqual(texts(run(lines, true)), ["prompt:first, headless", "prompt:second, interactive"]);
  // Text typed while a tool ran can only be interactive: it counts at once.
  assert.deepEqual(texts(run([user([{ text: "stop, use pnpm" }], { subtype: "mid_turn_user_message" })])), [
    "prompt:stop, use pnpm",
  ]);
});

Deno.test("qwen parser: a memory-file write is a note only when its tool result succeeded", () => {
  const call = (id: string, name: string, args: Record<string, unknown>) =>
    rec("assistant", { message: { role: "model", parts: [{ functionCall: { id, name, args } }] } });
  const result = (id: string, status: string) =>
    rec("tool_result", {
      message: { role: "user", parts: [{ functionResponse: { id, name: "x", response: {} } }] },
      toolCallResult: { callId: id, status },
    });
  const records = run([
    call("c1", "write_file", { file_path: "/home/dev/app/QWEN.md", content: "# Rules\n- pnpm\n" }),
    result("c1", "success"),
    call("c2", "edit", { file_path: "/home/dev/app/AGENTS.md", old_string: "a", new_string: "- never npm" }),
    result("c2", "error"),
    call("c3", "save_memory", { fact: "The user prefers pnpm." }),
    result("c3", "success"),
    call("c4", "write_file", { file_path: "/home/dev/app/src/index.ts", content: "x" }),
    result("c4", "success"),
    call("c5", "write_file", { file_path: "/home/dev/app/QWEN.md", content: "never answered" }),
  ]);
  assert.deepEqual(texts(records), ["note:# Rules\n- pnpm", "note:The user prefers pnpm."]);
});

Deno.test("qwen parser: a typed prompt or memory write without a usable time is skipped and counted", () => {
  const parser = createQwenParser({ file: "/q/chats/s.jsonl", includeHeadless: true }, null);
  const noTime = (extra: Record<string, unknown>) =>
    JSON.stringify({ uuid: "n1", sessionId: S, cwd: "/w", ...extra });
  const records = feed(parser, [
    noTime({
      type: "user",
      provenance: "real_user",
      message: { parts: [{ text: "use pnpm" }] },
      timestamp: "1e20",
    }),
    noTime({
      type: "assistant",
      message: { parts: [{ functionCall: { id: "c1", name: "save_memory", args: { fact: "pnpm" } } }] },
    }),
  ]);
  assert.deepEqual(records, []);
  assert.equal(parser.malformed, 2);
});
