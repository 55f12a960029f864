/**
 * OpenCode's store reader on OpenCode 1.18.33's real rows (the shared samples, loaded into a
 * database with OpenCode's own schema; the rows stay in the write-ahead log) and on rows added
 * afterwards: exact typed prompts, nothing machine-made, the headless rule, and incremental
 * reads that return only what is new, including rows that settle later.
 */
import assert from "node:assert/strict";
import { readOpenCodeStore } from "../../../src/agents/opencode/store.ts";
import { isRunModePermission, undoRunQuoting } from "../../../src/agents/opencode/prompt.ts";
import type { VerdictRecord } from "../../../src/record/record.ts";
import { type OpenCodeWriter, sampleDb, samplesMissing } from "./_db.ts";
import {
  type Expected,
  PROJECT,
  RUN_RECORDS,
  RUN_SESSION,
  TUI_RECORDS,
  TUI_SESSION,
} from "./expectations.ts";

const missing = samplesMissing();
if (missing) console.log(`opencode store tests: skipped, ${missing}`);

function shape(records: readonly VerdictRecord[]): Expected[] {
  return [...records]
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
    .map((r) => ({ kind: r.kind as "prompt" | "note", session: r.session!, text: r.text, time: r.time }));
}

async function read(file: string, carry: unknown, includeHeadless = false) {
  return await readOpenCodeStore({ file, includeHeadless, carry, report: () => {} });
}

function withSample(fn: (w: OpenCodeWriter, file: string) => Promise<void>) {
  return async () => {
    const dir = await Deno.makeTempDir({ prefix: "verdict-opencode-" });
    const file = `${dir}/opencode.db`;
    const w = sampleDb(file);
    try {
      await fn(w, file);
    } finally {
      w.close();
      await Deno.remove(dir, { recursive: true });
    }
  };
}

Deno.test({
  name: "opencode store: the sample's typed prompts and its AGENTS.md note, nothing machine-made",
  ignore: missing !== null,
  fn: withSample(async (_w, file) => {
    assert.ok(Deno.statSync(`${file}-wal`).size > 0, "the sample rows are in the log");
    const r = await read(file, null);
    assert.equal(r.whole, true);
    assert.equal(r.skipped, 0);
    assert.deepEqual(shape(r.records), TUI_RECORDS);
    for (const rec of r.records) {
      assert.equal(rec.origin, "opencode");
      assert.equal(rec.project, PROJECT);
      assert.equal(rec.source_file, file);
      assert.doesNotMatch(rec.text, /VERDICT-HINT|The following tool was executed|^"/);
      // The database has no lines: the position is the row OpenCode names (message, or tool part).
      assert.equal(rec.source_line, 0);
      assert.match(rec.source_ref ?? "", rec.kind === "prompt" ? /^msg_[0-9A-Za-z]+$/ : /^prt_[0-9A-Za-z]+$/);
    }
    const withHeadless = await read(file, null, true);
    assert.deepEqual(shape(withHeadless.records), [...RUN_RECORDS, ...TUI_RECORDS]);
  }),
});

Deno.test({
  name: "opencode store: a second read returns only what is new, and nothing when nothing changed",
  ignore: missing !== null,
  fn: withSample(async (w, file) => {
    const first = await read(file, null);
    assert.equal(first.changed, true, "a first read is a change");
    const again = await read(file, first.carry);
    assert.deepEqual(again.records, []);
    assert.equal(again.bytes, 0, "an unchanged database and log are not even opened");
    assert.equal(again.changed, false, "and are not counted as read");
    w.message("msg_z1", TUI_SESSION, 1796111000000, { role: "user" });
    w.part("prt_z1", "msg_z1", TUI_SESSION, 1796111000000, {
      type: "text",
      text: "Deploy with the blue-green script.",
    });
    w.part("prt_z1v", "msg_z1", TUI_SESSION, 1796111000000, {
      type: "text",
      text: "[verdict recall] x",
      synthetic: true,
    });
    const next = await read(file, again.carry);
    assert.equal(next.whole, false);
    assert.equal(next.changed, true);
    assert.deepEqual(next.records.map((r) => r.text), ["Deploy with the blue-green script."]);
    assert.deepEqual((await read(file, next.carry)).records, []);
  }),
});

Deno.test({
  name: "opencode store: a message read before its parts, and a write still running, settle on a later read",
  ignore: missing !== null,
  fn: withSample(async (w, file) => {
    const first = await read(file, null);
    w.message("msg_z2", TUI_SESSION, 1796111000000, { role: "user" });
    const early = await read(file, first.carry);
    assert.deepEqual(early.records, []);
    w.part("prt_z2", "msg_z2", TUI_SESSION, 1796111000001, {
      type: "text",
      text: "Keep the changelog in CHANGES.md.",
    });
    const running = {
      type: "tool",
      tool: "edit",
      callID: "c1",
      state: {
        status: "running",
        input: { filePath: "/home/dev/project/AGENTS.md", oldString: "a", newString: "- Keep a changelog." },
      },
    };
    w.message("msg_z3", TUI_SESSION, 1796111000002, { role: "assistant" });
    w.part("prt_z3", "msg_z3", TUI_SESSION, 1796111000002, running);
    const mid = await read(file, early.carry);
    assert.deepEqual(mid.records.map((r) => r.text), ["Keep the changelog in CHANGES.md."]);
    w.updatePart("prt_z3", {
      ...running,
      state: { ...running.state, status: "completed", time: { start: 1796111000003 } },
    });
    const done = await read(file, mid.carry);
    assert.deepEqual(done.records.map((r) => [r.kind, r.text]), [["note", "- Keep a changelog."]]);
    // A failed write never becomes a note.
    w.part("prt_z4", "msg_z3", TUI_SESSION, 1796111000004, {
      ...running,
      state: { ...running.state, status: "error", error: "denied" },
    });
    assert.deepEqual((await read(file, done.carry)).records, []);
  }),
});

Deno.test({
  name: "opencode store: subagent sessions yield nothing; a deleted newest row forces a whole re-read",
  ignore: missing !== null,
  fn: withSample(async (w, file) => {
    const first = await read(file, null);
    w.session({
      id: "ses_child",
      project_id: "080221cd6f406d4bdefd4e2020a9f0f2e4edc6a2",
      parent_id: TUI_SESSION,
      slug: "child",
      directory: PROJECT,
      title: "subagent",
      version: "1.18.33",
      time_created: 1796111000000,
      time_updated: 1796111000000,
    });
    w.message("msg_c1", "ses_child", 1796111000000, { role: "user" });
    w.part("prt_c1", "msg_c1", "ses_child", 1796111000000, {
      type: "text",
      text: "Search the repo for npm usages.",
    });
    const child = await read(file, first.carry);
    assert.deepEqual(child.records, []);
    w.db.exec("DELETE FROM part WHERE id = 'prt_c1'");
    w.db.exec("DELETE FROM message WHERE id = 'msg_c1'");
    const again = await read(file, child.carry);
    assert.equal(again.whole, true, "the carry's newest row is gone: read it all again");
    assert.deepEqual(shape(again.records), TUI_RECORDS);
  }),
});

Deno.test("opencode prompt rule: run's quoting is undone only where run made it; its permission rules mark it", () => {
  assert.equal(undoRunQuoting('"From now on use pnpm, never npm."'), "From now on use pnpm, never npm.");
  assert.equal(undoRunQuoting('fix "the flaky test" now'), "fix the flaky test now");
  assert.equal(undoRunQuoting('"say \\"hi\\" twice"'), 'say "hi" twice');
  assert.equal(undoRunQuoting('"use pnpm"\npiped text "kept"'), 'use pnpm\npiped text "kept"');
  assert.equal(undoRunQuoting("plain words"), "plain words");
  assert.equal(undoRunQuoting('"unterminated'), '"unterminated');
  assert.equal(undoRunQuoting('"nospace"'), '"nospace"');
  const run = [
    { permission: "question", action: "deny", pattern: "*" },
    { permission: "plan_enter", action: "deny", pattern: "*" },
    { permission: "plan_exit", action: "deny", pattern: "*" },
  ];
  assert.equal(isRunModePermission(JSON.stringify(run)), true);
  assert.equal(isRunModePermission(run.slice(0, 2)), false);
  assert.equal(isRunModePermission(null), false);
  assert.equal(isRunModePermission("[]"), false);
  assert.equal(isRunModePermission("not json"), false);
});

Deno.test({
  name: "opencode store: the run session's prompts count with include_headless, unquoted",
  ignore: missing !== null,
  fn: withSample(async (_w, file) => {
    const r = await read(file, null, true);
    assert.deepEqual(shape(r.records).filter((x) => x.session === RUN_SESSION), RUN_RECORDS);
  }),
});
