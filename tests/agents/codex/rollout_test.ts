import assert from "node:assert/strict";
import {
  type CodexCarry,
  createCodexParser,
  memoryChanges,
  sessionCounts,
  sniffGeneration,
  userMessageItemText,
  userMessageText,
} from "../../../src/agents/codex/rollout.ts";
import { VERDICT_HINT_MARKER } from "../../../src/record/line_parser.ts";
import { recordId, type VerdictRecord } from "../../../src/record/record.ts";
import { fileURLToPath } from "node:url";
import { allFixtureFiles, feed, fixtureLines, fixturePath, spaced, splitLines } from "../../collect/_feed.ts";

function parse(rel: string, includeHeadless = false, prefilter = true) {
  const file = fixturePath(rel);
  const parser = createCodexParser({ file, includeHeadless }, null, { prefilter });
  return { file, parser, records: feed(parser, fixtureLines(rel)) };
}

function summary(records: readonly VerdictRecord[]): [number, string, string][] {
  return records.map((r) => [r.source_line, r.text, r.project]);
}

const TUI_ID = "019a1b2c-3d4e-7f50-8a6b-1c2d3e4f5a6b";

Deno.test("codex parser reads typed input from user_message events of a TUI session only", () => {
  const { records, parser } = parse("codex/tui-cli.jsonl");
  assert.deepEqual(summary(records), [
    [7, "Fix the flaky login test", "/home/dev/api"],
    [17, "Now add a regression test for the token refresh", "/home/dev/api"],
  ]);
  // One damaged line, and one typed prompt without a usable time.
  assert.equal(parser.malformed, 2);
});

Deno.test("codex parser fills every record field", () => {
  const { records, file } = parse("codex/tui-cli.jsonl");
  assert.deepEqual(records[0], {
    id: recordId("prompt", `codex:${TUI_ID}:7`),
    kind: "prompt",
    origin: "codex",
    text: "Fix the flaky login test",
    time: "2026-03-10T09:00:01.100Z",
    project: "/home/dev/api",
    session: TUI_ID,
    source_file: file,
    source_line: 7,
    commit: null,
  });
});

Deno.test("codex parser reads 0.169 UserMessage items and the memory-file patches that landed", () => {
  const { records, parser } = parse("codex/tui-0.169.jsonl");
  assert.deepEqual(records.map((r) => [r.source_line, r.kind, r.text]), [
    [6, "prompt", "Use yarn workspaces for the monorepo from now on."],
    // line 7, the same prompt as a user_message in the same turn, is not counted twice
    [9, "note", "# Rules\n\n- Yarn workspaces, never npm."],
    [12, "prompt", "Use yarn workspaces for the monorepo from now on."], // typed again, a new turn
    [13, "note", "- Run the linter before committing."],
    // 14 failed, 15 a deletion, 17-18 a ! shell command, 21 an injected skill, 22 image only, 23 a compaction
    [20, "prompt", "$release version 2"],
  ]);
  assert.ok(records.every((r) => r.project === "/home/dev/shop" && r.origin === "codex"));
  assert.equal(records[1]!.id, recordId("note", "codex:019d0000-aaaa-7bbb-8ccc-000000000169:9:0"));
  assert.equal(parser.malformed, 0);
});

Deno.test("userMessageItemText() joins the text parts and applies the typed-text rules", () => {
  const item = (content: unknown) => ({ type: "UserMessage", content });
  assert.equal(
    userMessageItemText(
      item([{ type: "text", text: " a " }, { type: "image" }, { type: "text", text: "b" }]),
    ),
    "a \nb",
  );
  assert.equal(userMessageItemText(item([{ type: "image" }])), null);
  assert.equal(userMessageItemText(item("text")), null);
  assert.equal(userMessageItemText(item([{ type: "text", text: "<environment_context>x" }])), null);
  assert.equal(userMessageItemText(item([{ type: "text", text: `see ${VERDICT_HINT_MARKER} here` }])), null);
});

Deno.test("memoryChanges() keeps landed adds and updates of memory files only", () => {
  const fc = (status: string, changes: unknown) => ({ type: "FileChange", status, changes });
  assert.deepEqual(memoryChanges(fc("completed", { "/p/AGENTS.md": { type: "add", content: "x\n" } })), [
    "x",
  ]);
  assert.deepEqual(memoryChanges(fc("failed", { "/p/AGENTS.md": { type: "add", content: "x" } })), []);
  assert.deepEqual(memoryChanges(fc("completed", { "/p/README.md": { type: "add", content: "x" } })), []);
  assert.deepEqual(
    memoryChanges(
      fc("completed", { "/p/CLAUDE.md": { type: "update", unified_diff: "--- a\n+++ b\n@@\n-old\n+new\n" } }),
    ),
    ["new"],
  );
  assert.deepEqual(memoryChanges(fc("completed", { "/p/AGENTS.md": { type: "delete" } })), []);
});

Deno.test("codex parser accepts a TUI originator when source is absent and takes the cwd from turn_context", () => {
  const { records } = parse("codex/tui-originator.jsonl");
  assert.deepEqual(summary(records), [
    [6, "Rename the --verbose flag to --debug", "/home/dev/cli-tool"],
    [9, "And update the README", "/home/dev/cli-tool/sub"],
  ]);
  // The second session_meta (line 7) does not change the file's session.
  assert.ok(records.every((r) => r.session === "0199812e-4a5b-7c6d-8e9f-0a1b2c3d4e5f"));
});

Deno.test("codex parser yields nothing for exec, IDE, subagent and MCP sessions", () => {
  for (
    const rel of [
      "codex/exec.jsonl",
      "codex/exec-no-source.jsonl",
      "codex/vscode.jsonl",
      "codex/vscode-no-source.jsonl",
      "codex/subagent.jsonl",
      "codex/mcp.jsonl",
    ]
  ) {
    const { records, parser } = parse(rel);
    assert.deepEqual(records, [], rel);
    assert.equal(parser.malformed, 0, rel);
  }
});

Deno.test("codex parser counts codex exec prompts only with includeHeadless", () => {
  for (const rel of ["codex/exec.jsonl", "codex/exec-no-source.jsonl"]) {
    assert.deepEqual(summary(parse(rel, true).records), [[4, "Run the nightly report", "/srv/reports"]], rel);
  }
  for (
    const rel of [
      "codex/vscode.jsonl",
      "codex/vscode-no-source.jsonl",
      "codex/subagent.jsonl",
      "codex/mcp.jsonl",
    ]
  ) {
    assert.deepEqual(parse(rel, true).records, [], rel);
  }
});

Deno.test("codex parser recognises the direct and legacy generations and yields nothing from them", () => {
  for (
    const [rel, generation] of [["codex/direct.jsonl", "direct"], ["codex/legacy.jsonl", "legacy"]] as const
  ) {
    const { records, parser } = parse(rel, true);
    assert.deepEqual(records, [], rel);
    assert.equal(parser.carry().generation, generation);
    assert.equal(parser.malformed, 0);
  }
});

Deno.test("codex parser yields nothing before a session_meta has been seen", () => {
  const lines = fixtureLines("codex/tui-cli.jsonl");
  const parser = createCodexParser({ file: "/c/r.jsonl", includeHeadless: true }, null);
  assert.deepEqual(feed(parser, lines.slice(1), 2), []);
});

Deno.test("codex parser resumed from its carry at any line yields what one pass yields", () => {
  for (const rel of ["codex/tui-cli.jsonl", "codex/tui-originator.jsonl", "codex/tui-0.169.jsonl"]) {
    const lines = fixtureLines(rel);
    const file = fixturePath(rel);
    const whole = feed(createCodexParser({ file, includeHeadless: false }, null), lines);
    assert.ok(whole.length > 0);
    for (let cut = 0; cut <= lines.length; cut++) {
      const first = createCodexParser({ file, includeHeadless: false }, null);
      const got = feed(first, lines.slice(0, cut));
      const carry = JSON.parse(JSON.stringify(first.carry())) as CodexCarry;
      const second = createCodexParser({ file, includeHeadless: false }, carry);
      got.push(...feed(second, lines.slice(cut), cut + 1));
      assert.deepEqual(got, whole, `${rel} cut after line ${cut}`);
    }
  }
});

Deno.test("codex parser's fast path yields exactly what parsing every line yields, on every fixture", () => {
  for (const rel of allFixtureFiles()) {
    for (const variant of ["compact", "spaced"] as const) {
      const lines = fixtureLines(rel).map((l) => (variant === "spaced" ? spaced(l) : l));
      for (const includeHeadless of [false, true]) {
        const file = fixturePath(rel);
        const fast = createCodexParser({ file, includeHeadless }, null);
        const slow = createCodexParser({ file, includeHeadless }, null, { prefilter: false });
        const label = `${rel} ${variant} headless=${includeHeadless}`;
        assert.deepEqual(feed(fast, lines), feed(slow, lines), label);
        assert.equal(fast.malformed, slow.malformed, label);
        assert.equal(fast.carry().generation, slow.carry().generation, label);
      }
    }
  }
});

Deno.test("codex parser never throws on odd lines or a damaged carry", () => {
  const odd = [
    '{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s","source":"cli"}}',
    "null",
    "[1]",
    '{"type":"event_msg"}',
    '{"type":"event_msg","payload":{"type":"user_message"}}',
    '{"type":"event_msg","payload":{"type":"user_message","message":{"text":"x"}}}',
    '{"type":"turn_context","payload":{"cwd":5}}',
    '{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":"x"}}}',
    '{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[7,{"type":"text"}]}}}',
    '{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","status":"completed","changes":[1]}}}',
    '{"type":"event_msg","payload":{"type":"item_completed","item":"FileChange"}}',
    '{"timestamp":"2026-01-01T00:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"ok"}}',
  ];
  for (const prefilter of [true, false]) {
    const parser = createCodexParser({ file: "/c/r.jsonl", includeHeadless: false }, null, { prefilter });
    assert.deepEqual(summary(feed(parser, odd)), [[12, "ok", ""]]);
    assert.equal(parser.malformed, 2);
  }
  for (const carry of [{ generation: "weird", counts: "yes" }, "old", 5, []]) {
    const parser = createCodexParser(
      { file: "/c/r.jsonl", includeHeadless: false },
      carry as unknown as CodexCarry,
    );
    assert.deepEqual(parser.carry(), {
      generation: "unknown",
      session: null,
      counts: null,
      metaCwd: "",
      turnCwd: "",
      turnPrompts: [],
    });
  }
});

Deno.test("sessionCounts() trusts source first and falls back to the originator only without it", () => {
  const cases: [Record<string, unknown>, boolean, boolean][] = [
    [{ source: "cli", originator: "Codex Desktop" }, true, true],
    [{ source: "exec", originator: "codex_exec" }, false, true],
    [{ source: "vscode", originator: "codex_cli_rs" }, false, false],
    // Codex 0.169's TUI through its app-server daemon (seen); the extension and the app are not it.
    [{ source: "vscode", originator: "codex-tui" }, true, true],
    [{ source: "vscode", originator: "codex_vscode" }, false, false],
    [{ source: "vscode", originator: "Codex Desktop" }, false, false],
    [{ source: "exec", originator: "codex-tui" }, false, true],
    [{ source: "mcp" }, false, false],
    [{ source: { subagent: "review" }, originator: "codex_cli_rs" }, false, false],
    [{ originator: "codex_cli_rs" }, true, true],
    [{ originator: "codex-tui" }, true, true],
    [{ originator: "codex_exec" }, false, true],
    [{ originator: "codex_vscode" }, false, false],
    [{ originator: "Codex Desktop" }, false, false],
    [{}, false, false],
  ];
  for (const [meta, plain, headless] of cases) {
    assert.equal(sessionCounts(meta, false), plain, JSON.stringify(meta));
    assert.equal(sessionCounts(meta, true), headless, JSON.stringify(meta));
  }
});

Deno.test("userMessageText() rejects injected blocks, non-plain kinds, empty text and our hint", () => {
  assert.equal(userMessageText({ message: "  fix it \n" }), "fix it");
  assert.equal(userMessageText({ message: "fix it", kind: "plain" }), "fix it");
  assert.equal(userMessageText({ message: "fix it", kind: "environment_context" }), null);
  for (
    const injected of [
      "<environment_context>\n<cwd>/a</cwd>\n</environment_context>",
      "<user_instructions>be brief</user_instructions>",
      "# AGENTS.md instructions for /a\n\n<INSTRUCTIONS>x</INSTRUCTIONS>",
      "<turn_aborted>x</turn_aborted>",
      "  <user_shell_command>ls</user_shell_command>",
      `see ${VERDICT_HINT_MARKER} above`,
      "   ",
    ]
  ) {
    assert.equal(userMessageText({ message: injected }), null, injected);
  }
  assert.equal(userMessageText({ message: 5 }), null);
});

Deno.test("sniffGeneration() tells envelope, direct and legacy first lines apart", () => {
  assert.equal(sniffGeneration({ timestamp: "t", type: "session_meta", payload: {} }), "envelope");
  assert.equal(sniffGeneration({ id: "x", timestamp: "t", instructions: null }), "direct");
  assert.equal(sniffGeneration({ record_type: "state" }), "legacy");
  assert.equal(sniffGeneration({ something: "else" }), "envelope");
});

/** Rollouts the real Codex 0.169.0 wrote (../shared/clients/codex/samples), read from there. */
const SAMPLES = fileURLToPath(new URL("../../../../shared/clients/codex/samples/", import.meta.url));
const samplesPresent = (() => {
  try {
    return Deno.statSync(SAMPLES).isDirectory;
  } catch {
    return false;
  }
})();
if (!samplesPresent) {
  console.log(`rollout_test: the real 0.169 samples are skipped, ${SAMPLES} is not present`);
}

function parseSample(prefix: string, includeHeadless: boolean): VerdictRecord[] {
  const name = [...Deno.readDirSync(SAMPLES)].map((e) => e.name).find((n) => n.startsWith(prefix))!;
  const parser = createCodexParser({ file: `${SAMPLES}${name}`, includeHeadless }, null);
  const records = feed(parser, splitLines(Deno.readTextFileSync(`${SAMPLES}${name}`)));
  assert.equal(parser.malformed, 0);
  return records;
}

Deno.test({
  name: "codex parser on a real 0.169 TUI rollout yields the four typed prompts and the AGENTS.md patch",
  ignore: !samplesPresent,
  fn() {
    const got = parseSample("tui.rollout-", false).map((r) => [r.source_line, r.kind, r.text]);
    assert.deepEqual(got, [
      [10, "prompt", "From now on use pnpm, never npm, in this repo."],
      [21, "prompt", "Check with the recall tool what we decided about package managers."],
      [41, "prompt", "Please record that rule in AGENTS.md."],
      [45, "note", "# Agent rules\n\n- Use pnpm, never npm."],
      [57, "prompt", "Which command installs lodash here?"],
      // not the `!git status --short` at 65-66, the hook context, nor the compaction at 73
    ]);
  },
});

Deno.test({
  name: "codex parser on a real 0.169 exec-then-resume rollout yields its prompts only with includeHeadless",
  ignore: !samplesPresent,
  fn() {
    assert.deepEqual(parseSample("exec-then-resume.rollout-", false), []);
    assert.deepEqual(parseSample("exec-then-resume.rollout-", true).map((r) => [r.source_line, r.text]), [
      [10, "From now on use pnpm, never npm, in this repo."],
      [22, "Which command installs lodash here?"],
    ]);
  },
});
