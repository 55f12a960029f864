import assert from "node:assert/strict";
import {
  type ClaudeCarry,
  createClaudeParser,
  isSubagentFile,
  mayMatter,
  memoryWriteText,
} from "../../../src/agents/claude/transcript.ts";
import { isMemoryPath } from "../../../src/agents/memory_files.ts";
import { recordId, type VerdictRecord } from "../../../src/record/record.ts";
import { allFixtureFiles, feed, fixtureLines, fixturePath, spaced } from "../../collect/_feed.ts";

const INTERACTIVE = "claude/interactive-2.1.jsonl";
const SESSION = "9f0c2d1e-5b7a-4c3e-8d21-6a4f0b9e7c55";
const MEMDIR = "/home/dev/.claude/projects/-home-dev-shop/memory";

function parse(rel: string, includeHeadless = false, prefilter = true) {
  const file = fixturePath(rel);
  const parser = createClaudeParser({ file, includeHeadless }, null, { prefilter });
  const records = feed(parser, fixtureLines(rel));
  return { file, parser, records };
}

/** [kind, line, text] of each record, in emission order. */
function summary(records: readonly VerdictRecord[]): [string, number, string][] {
  return records.map((r) => [r.kind, r.source_line, r.text]);
}

const INTERACTIVE_EXPECTED: [string, number, string][] = [
  ["prompt", 4, "Add a retry to the fetch helper"],
  ["note", 6, "# Shop\n\nAlways retry network fetches three times with backoff."],
  ["prompt", 15, "/review the payment module"],
  ["prompt", 20, "What is wrong in this screenshot?"],
  ["note", 27, "- Retries: three, exponential backoff.\n\n- Payment module is reviewed weekly."],
  ["prompt", 34, "Spaced out prompt from a hand-written line"],
  ["prompt", 43, "why does fetch.ts retry forever?"],
  ["note", 45, "Decision: keep the fetch timeout at 10 s."],
  ["note", 42, "My sandbox uses port 8081."],
];

Deno.test("claude parser yields the typed prompts and landed memory writes of a 2.1 cli session", () => {
  const { records, parser } = parse(INTERACTIVE);
  assert.deepEqual(summary(records), INTERACTIVE_EXPECTED);
  // Four damaged lines, and one typed prompt without a usable time.
  assert.equal(parser.malformed, 5);
});

Deno.test("claude parser fills every record field from the entry", () => {
  const { records, file } = parse(INTERACTIVE);
  assert.deepEqual(records[0], {
    id: recordId("prompt", "claude:u-01"),
    kind: "prompt",
    origin: "claude",
    text: "Add a retry to the fetch helper",
    time: "2026-03-02T10:00:00.000Z",
    project: "/home/dev/shop",
    session: SESSION,
    source_file: file,
    source_line: 4,
    commit: null,
  });
  assert.deepEqual(records[4], {
    id: recordId("note", "claude:toolu_m1"),
    kind: "note",
    origin: "claude",
    text: "- Retries: three, exponential backoff.\n\n- Payment module is reviewed weekly.",
    time: "2026-03-02T10:12:00.000Z",
    project: "/home/dev/shop",
    session: SESSION,
    source_file: file,
    source_line: 27,
    commit: null,
  });
  // A hand-written timestamp without milliseconds is normalised.
  assert.equal(records[5]?.time, "2026-03-02T10:14:00.000Z");
});

Deno.test("claude parser gives the same entry the same id in two files", () => {
  const a = createClaudeParser({ file: "/a/one.jsonl", includeHeadless: false }, null);
  const b = createClaudeParser({ file: "/a/two.jsonl", includeHeadless: false }, null);
  const line = fixtureLines(INTERACTIVE)[3] ?? "";
  const [ra] = feed(a, [line], 4);
  const [rb] = feed(b, [line], 120);
  assert.equal(ra?.id, rb?.id);
  assert.notEqual(ra?.source_file, rb?.source_file);
});

Deno.test("claude parser drops headless sessions unless includeHeadless is set", () => {
  assert.deepEqual(summary(parse("claude/headless-2.1.jsonl").records), [
    ["prompt", 5, "Open the release checklist"],
  ]);
  assert.deepEqual(summary(parse("claude/headless-2.1.jsonl", true).records), [
    ["prompt", 2, "Summarise the failing jobs"],
    ["prompt", 3, "List the flaky tests"],
    ["prompt", 4, "Draft the weekly report"],
    ["prompt", 5, "Open the release checklist"],
  ]);
});

Deno.test("claude parser drops a pre-2.1 program-driven prompt and keeps the interactive ones", () => {
  assert.deepEqual(summary(parse("claude/pre-2.1.jsonl").records), [
    ["prompt", 2, "Make the header sticky"],
    ["prompt", 3, "Why does the footer overlap?"],
    ["prompt", 5, "Can you audit the blog build?"],
    ["prompt", 7, "Use the system font stack"],
  ]);
  const withHeadless = summary(parse("claude/pre-2.1.jsonl", true).records).map(([, line]) => line);
  assert.deepEqual(withHeadless, [2, 3, 4, 5, 7]);
});

Deno.test("claude parser yields nothing from subagent transcripts", () => {
  for (const rel of ["claude/agent-d4e5f6.jsonl", `claude/${SESSION}/subagents/agent-a1b2c3.jsonl`]) {
    assert.deepEqual(parse(rel, true).records, [], rel);
  }
  assert.equal(isSubagentFile("/h/.claude/projects/p/agent-1.jsonl"), true);
  assert.equal(isSubagentFile("C:\\h\\.claude\\projects\\p\\s\\subagents\\x.jsonl"), true);
  assert.equal(isSubagentFile("/h/.claude/projects/p/5c03.jsonl"), false);
  assert.equal(isSubagentFile("/h/projects/agent-smith/5c03.jsonl"), false);
});

Deno.test("claude parser resumed from its carry at any line yields what one pass yields", () => {
  const lines = fixtureLines(INTERACTIVE);
  const file = fixturePath(INTERACTIVE);
  const whole = feed(createClaudeParser({ file, includeHeadless: false }, null), lines);
  for (let cut = 0; cut <= lines.length; cut++) {
    const first = createClaudeParser({ file, includeHeadless: false }, null);
    const got = feed(first, lines.slice(0, cut));
    // The carry goes through the collector's state file as JSON.
    const carry = JSON.parse(JSON.stringify(first.carry())) as ClaudeCarry;
    const second = createClaudeParser({ file, includeHeadless: false }, carry);
    got.push(...feed(second, lines.slice(cut), cut + 1));
    assert.deepEqual(got, whole, `cut after line ${cut}`);
  }
});

Deno.test("claude parser keeps a write awaiting its result in the carry and emits it when the file grows", () => {
  const lines = fixtureLines(INTERACTIVE);
  const file = fixturePath(INTERACTIVE);
  const first = createClaudeParser({ file, includeHeadless: false }, null);
  feed(first, lines.slice(0, 42));
  assert.deepEqual(first.carry().pending.map((p) => [p.toolUseId, p.line]), [["toolu_p1", 42]]);
  // Nothing else arrives: no note.
  assert.deepEqual(first.drain(), []);
  const second = createClaudeParser({ file, includeHeadless: false }, first.carry());
  const got = feed(second, [lines[48] ?? ""], 49);
  assert.deepEqual(summary(got), [["note", 42, "My sandbox uses port 8081."]]);
  assert.deepEqual(second.carry().pending, []);
});

Deno.test("claude parser emits no note when the result never arrives or is an error", () => {
  const { records } = parse(INTERACTIVE);
  const noteIds = records.filter((r) => r.kind === "note").map((r) => r.id);
  for (const id of ["toolu_e1", "toolu_c2", "toolu_s1", "toolu_t1"]) {
    assert.ok(!noteIds.includes(recordId("note", `claude:${id}`)), id);
  }
});

Deno.test("claude parser drain() hands records over once", () => {
  const file = fixturePath(INTERACTIVE);
  const parser = createClaudeParser({ file, includeHeadless: false }, null);
  const lines = fixtureLines(INTERACTIVE);
  parser.line(lines[3] ?? "", 4);
  assert.equal(parser.drain().length, 1);
  assert.deepEqual(parser.drain(), []);
});

Deno.test("claude parser never throws on odd shapes and counts what is not a JSON object", () => {
  const odd = [
    "null",
    '"a string"',
    "{}",
    '{"type":"user"}',
    '{"type":"user","message":null}',
    '{"type":"user","message":{"content":[null,1,"x",{"type":"text"}]}}',
    '{"type":"user","message":{"content":{"type":"text","text":"object content"}}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":5,"name":"Write"}]}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"MultiEdit",' +
    '"input":{"file_path":"/a/CLAUDE.md","edits":"nope"}}]}}',
    '{"type":"assistant","message":{"content":"tool_use CLAUDE.md"}}',
    '{"type":"user","toolUseResult":"Error","message":{"content":[{"type":"tool_result","tool_use_id":{}}]}}',
    '{"type":"attachment","attachment":{"type":"brand_new_kind","user":"x"}}',
    '{"type":"user","message":{"content":"\\ud800 lone surrogate typed"},"timestamp":"2026-01-01T00:00:00Z"}',
  ];
  for (const prefilter of [true, false]) {
    const parser = createClaudeParser({ file: "/x/s.jsonl", includeHeadless: true }, null, { prefilter });
    const got = feed(parser, odd);
    assert.deepEqual(summary(got), [["prompt", 13, "\ud800 lone surrogate typed"]]);
    assert.equal(parser.malformed, 2, `prefilter ${prefilter}`);
  }
  const junk = [{ pending: [null, 5, { toolUseId: 7 }, { toolUseId: "t" }] }, { pending: 5 }, "old", 3, []];
  for (const carry of junk) {
    const parser = createClaudeParser(
      { file: "/x/s.jsonl", includeHeadless: false },
      carry as unknown as ClaudeCarry,
    );
    assert.deepEqual(parser.carry().pending, [], JSON.stringify(carry));
  }
});

Deno.test("claude parser's fast path yields exactly what parsing every line yields, on every fixture", () => {
  for (const rel of allFixtureFiles()) {
    for (const variant of ["compact", "spaced"] as const) {
      const lines = fixtureLines(rel).map((l) => (variant === "spaced" ? spaced(l) : l));
      for (const includeHeadless of [false, true]) {
        const file = rel.includes("agent-") ? `/p/${rel.replaceAll("/", "_")}` : fixturePath(rel);
        const fast = createClaudeParser({ file, includeHeadless }, null);
        const slow = createClaudeParser({ file, includeHeadless }, null, { prefilter: false });
        const label = `${rel} ${variant} headless=${includeHeadless}`;
        assert.deepEqual(feed(fast, lines), feed(slow, lines), label);
        assert.equal(fast.malformed, slow.malformed, label);
        assert.deepEqual(fast.carry(), slow.carry(), label);
      }
    }
  }
});

Deno.test("mayMatter() skips tool results unless they answer a pending memory write", () => {
  const result = '{"type":"user","message":{"content":[{"type":"tool_result","content":"' + "x".repeat(1000) +
    '","tool_use_id":"toolu_9"}]},"toolUseResult":{"stdout":"x"}}';
  assert.equal(mayMatter(result, new Map()), false);
  assert.equal(mayMatter(result, new Map([["toolu_1", 0]])), false);
  assert.equal(mayMatter(result, new Map([["toolu_9", 0]])), true);
  // Typed text that quotes the key is escaped in JSON, so it still counts as a candidate.
  const typed = JSON.stringify({ type: "user", message: { content: 'what is "tool_use_id": in the API?' } });
  assert.equal(mayMatter(typed, new Map()), true);
  const spacedKey =
    '{"type": "user", "message": {"content": [{"tool_use_id" : "t", "type": "tool_result"}]}}';
  assert.equal(mayMatter(spacedKey, new Map()), false);
  assert.equal(
    mayMatter('{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}', new Map()),
    false,
  );
  assert.equal(mayMatter('{"type":"summary","summary":"CLAUDE.md tool_use"}', new Map()), false);
});

Deno.test("memoryWriteText() takes Write content, Edit new_string, MultiEdit and NotebookEdit text", () => {
  const use = (name: string, input: Record<string, unknown>) =>
    memoryWriteText({ type: "tool_use", id: "t", name, input });
  assert.equal(use("Write", { file_path: "/p/CLAUDE.md", content: "a\n" }), "a");
  assert.equal(use("Edit", { file_path: "/p/AGENTS.md", old_string: "x", new_string: "b" }), "b");
  assert.equal(
    use("MultiEdit", {
      file_path: "/p/CLAUDE.local.md",
      edits: [{ new_string: "c" }, { new_string: "d" }, 5],
    }),
    "c\n\nd",
  );
  assert.equal(use("NotebookEdit", { notebook_path: "/p/memory/n.ipynb", new_source: "e" }), "e");
  assert.equal(use("Write", { file_path: "/p/README.md", content: "f" }), null);
  assert.equal(use("Read", { file_path: "/p/CLAUDE.md" }), null);
  assert.equal(use("Edit", { file_path: "/p/CLAUDE.md", old_string: "x", new_string: "  " }), null);
  assert.equal(use("Write", { file_path: 5, content: "g" }), null);
});

Deno.test("isMemoryPath() matches memory base names and a memory directory segment", () => {
  for (
    const p of [
      "/r/CLAUDE.md",
      "/r/.claude/CLAUDE.md",
      "/r/CLAUDE.local.md",
      "/r/AGENTS.md",
      "/r/AGENTS.override.md",
    ]
  ) {
    assert.equal(isMemoryPath(p), true, p);
  }
  assert.equal(isMemoryPath(`${MEMDIR}/MEMORY.md`), true);
  assert.equal(isMemoryPath(`${MEMDIR}/decisions.md`), true);
  assert.equal(isMemoryPath("C:\\Users\\d\\.claude\\projects\\p\\memory\\topic.md"), true);
  for (
    const p of ["/r/claude.md.bak", "/r/memory.md", "/r/src/memory_pool.ts", "/r/.claude/settings.local.json"]
  ) {
    assert.equal(isMemoryPath(p), false, p);
  }
});
