import assert from "node:assert/strict";
import {
  createHistoryParser,
  historyDedupKey,
  historyPromptText,
} from "../../../src/agents/claude/history.ts";
import { recordId, type VerdictRecord } from "../../../src/record/record.ts";
import { feed, fixtureLines, fixturePath } from "../../collect/_feed.ts";

const HISTORY = "history/history.jsonl";
const SESSION = "9f0c2d1e-5b7a-4c3e-8d21-6a4f0b9e7c55";

function parse() {
  const file = fixturePath(HISTORY);
  const parser = createHistoryParser({ file, includeHeadless: false }, null);
  return { file, parser, records: feed(parser, fixtureLines(HISTORY)) };
}

function summary(records: readonly VerdictRecord[]): [number, string, string | null][] {
  return records.map((r) => [r.source_line, r.text, r.session]);
}

Deno.test("history parser yields typed prompts and drops commands, bash mode and injected text", () => {
  const { records, parser } = parse();
  assert.deepEqual(summary(records), [
    [1, "Add a retry to the fetch helper", SESSION],
    [3, "/review the payment module", SESSION],
    [7, "/Users/dev/Desktop/shot.png what is wrong here?", SESSION],
    [8, "Summarise this log [Pasted text #1 +42 lines]", SESSION],
    [9, "Make the header sticky", null],
    [13, "Keep   the\n  retries   at three", SESSION],
  ]);
  // Two damaged lines and one prompt without a usable time: skipped, all counted.
  assert.equal(parser.malformed, 3);
});

Deno.test("history parser fills the record from display, timestamp, project and sessionId", () => {
  const { records, file } = parse();
  assert.deepEqual(records[0], {
    id: recordId("prompt", `claude-history:${SESSION}:1772445600000`),
    kind: "prompt",
    origin: "claude",
    text: "Add a retry to the fetch helper",
    time: "2026-03-02T10:00:00.000Z",
    project: "/home/dev/shop",
    session: SESSION,
    source_file: file,
    source_line: 1,
    commit: null,
  });
  assert.equal(records[4]?.id, recordId("prompt", "claude-history::1756713600000"));
  assert.equal(records[4]?.project, "/Users/dev/blog");
});

Deno.test("history parser carries nothing and resumes at any line", () => {
  const lines = fixtureLines(HISTORY);
  const whole = parse().records;
  for (let cut = 0; cut <= lines.length; cut++) {
    const first = createHistoryParser({ file: fixturePath(HISTORY), includeHeadless: false }, null);
    const got = feed(first, lines.slice(0, cut));
    const carry = JSON.parse(JSON.stringify(first.carry()));
    const second = createHistoryParser({ file: fixturePath(HISTORY), includeHeadless: false }, carry);
    got.push(...feed(second, lines.slice(cut), cut + 1));
    assert.deepEqual(got, whole, `cut after line ${cut}`);
  }
});

Deno.test("historyPromptText() keeps slash commands only with their arguments", () => {
  assert.equal(historyPromptText("/clear"), null);
  assert.equal(historyPromptText("  /plugin:deploy  "), null);
  assert.equal(historyPromptText("/deploy staging now"), "/deploy staging now");
  assert.equal(historyPromptText("/tmp/x is full"), "/tmp/x is full");
  assert.equal(historyPromptText("!git status"), null);
  assert.equal(historyPromptText("<bash-input>ls</bash-input>"), null);
  assert.equal(historyPromptText("[Request interrupted by user]"), null);
  assert.equal(historyPromptText("   "), null);
});

Deno.test("historyDedupKey() matches a transcript prompt of the same session despite whitespace", () => {
  const transcript = "Keep the retries\r\nat three ";
  const history = "  Keep   the retries at three";
  assert.equal(historyDedupKey(SESSION, transcript), historyDedupKey(SESSION, history));
  assert.notEqual(historyDedupKey(SESSION, history), historyDedupKey("other", history));
  assert.notEqual(historyDedupKey(null, history), historyDedupKey(SESSION, history));
  assert.notEqual(historyDedupKey(SESSION, "Keep the retries"), historyDedupKey(SESSION, history));
});

Deno.test("history parser never throws on odd lines", () => {
  const parser = createHistoryParser({ file: "/h/history.jsonl", includeHeadless: false }, null);
  const odd = [
    "null",
    "[]",
    "{}",
    '{"display":5}',
    '{"display":"x","timestamp":"soon"}',
    '{"display":"ok","timestamp":0}',
  ];
  assert.deepEqual(summary(feed(parser, odd)), [[6, "ok", null]]);
  // "null" and "[]" are no entries; "soon" is no time: all three counted.
  assert.equal(parser.malformed, 3);
});
