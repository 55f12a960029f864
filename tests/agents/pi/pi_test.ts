/**
 * pi: the session parser on real 0.73.1 sessions (tests/fixtures/agents/pi/samples/, written by
 * the client test's story and rewritten to /home/dev), the extension install writes and removes,
 * the doctor's reading of settings.json, the re-framing for the compaction judge, and the hook
 * dialect. Each sample's records were decided by hand, line by line (docs/pi.md).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createPiParser, isPiMemoryPath, typedText } from "../../../src/agents/pi/session.ts";
import {
  EXTENSION_MARKER,
  extensionProgram,
  extensionSource,
  installExtension,
  uninstallExtension,
} from "../../../src/agents/pi/extension.ts";
import { excludingEntries } from "../../../src/agents/pi/doctor.ts";
import { asClaudeTranscript } from "../../../src/agents/pi/judge_lines.ts";
import { dialect } from "../../../src/agents/pi/hook_dialect.ts";
import { HostFileError } from "../../../src/hostfile/errors.ts";
import { feed, spaced, splitLines } from "../../collect/_feed.ts";
import { PI_EXPECTATIONS } from "./expectations.ts";

const SAMPLES = fileURLToPath(new URL("../../fixtures/agents/pi/samples/", import.meta.url));

for (const exp of PI_EXPECTATIONS) {
  Deno.test(`pi parser on the real sample ${exp.file}: exactly the typed prompts and landed notes`, () => {
    const path = `${SAMPLES}${exp.file}`;
    const lines = splitLines(Deno.readTextFileSync(path));
    for (const includeHeadless of [false, true]) {
      for (const style of [(l: string) => l, spaced]) {
        const records = feed(createPiParser({ file: path, includeHeadless }, null), lines.map(style));
        const got = (kind: string) =>
          records.filter((r) => r.kind === kind).map((r) => ({
            line: r.source_line,
            time: r.time,
            text: r.text,
          }));
        const prompts = includeHeadless ? [...exp.prompts, ...exp.headlessPrompts] : exp.prompts;
        assert.deepEqual(got("prompt"), prompts, `${exp.file} includeHeadless=${includeHeadless}`);
        assert.deepEqual(got("note"), exp.notes);
        for (const r of records) {
          assert.equal(r.origin, "pi");
          assert.equal(r.session, exp.session);
          assert.equal(r.project, "/home/dev/project");
          assert.ok(r.id.length > 0);
        }
      }
    }
  });
}

Deno.test("pi parser: resumed from its carry at every line, it yields what one pass yields", () => {
  const path = `${SAMPLES}tui-a.jsonl`;
  const lines = splitLines(Deno.readTextFileSync(path));
  const whole = feed(createPiParser({ file: path, includeHeadless: false }, null), lines);
  for (let cut = 1; cut < lines.length; cut++) {
    const first = createPiParser({ file: path, includeHeadless: false }, null);
    const a = feed(first, lines.slice(0, cut));
    const carry = JSON.parse(JSON.stringify(first.carry()));
    const b = feed(createPiParser({ file: path, includeHeadless: false }, carry), lines.slice(cut), cut + 1);
    assert.deepEqual([...a, ...b], whole, `cut after line ${cut}`);
  }
});

Deno.test("pi parser: a skill command counts only its typed arguments; hint text, failed writes and junk yield nothing", () => {
  const at = "2026-12-07T01:00:00.000Z";
  const user = (id: string, text: string) =>
    JSON.stringify({
      type: "message",
      id,
      parentId: null,
      timestamp: at,
      message: { role: "user", content: [{ type: "text", text }] },
    });
  const lines = [
    JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: at, cwd: "/w" }),
    user(
      "a1",
      '<skill name="deploy" location="/w/.pi/skills/deploy/SKILL.md">\nSteps…\n</skill>\n\nonly to staging',
    ),
    user("a2", '<skill name="deploy" location="/w/.pi/skills/deploy/SKILL.md">\nSteps…\n</skill>'),
    user("a3", "[verdict recall] an old decision"),
    JSON.stringify({
      type: "message",
      id: "a4",
      parentId: null,
      timestamp: at,
      message: {
        role: "assistant",
        content: [{
          type: "toolCall",
          id: "c1",
          name: "write",
          arguments: { path: "/w/CLAUDE.md", content: "x" },
        }],
      },
    }),
    JSON.stringify({
      type: "message",
      id: "a5",
      timestamp: at,
      message: { role: "toolResult", toolCallId: "c1", isError: true, content: [] },
    }),
    "{not json",
    user("a6", "   "),
  ];
  const parser = createPiParser({ file: "/f.jsonl", includeHeadless: false }, null);
  const records = feed(parser, lines);
  assert.deepEqual(records.map((r) => r.text), ["only to staging"]);
  assert.equal(parser.malformed, 1);
  assert.equal(typedText("plain"), "plain");
  assert.ok(isPiMemoryPath("/w/.pi/SYSTEM.md") && isPiMemoryPath("/h/.pi/agent/APPEND_SYSTEM.md"));
  assert.ok(isPiMemoryPath("/w/AGENTS.md") && !isPiMemoryPath("/w/README.md"));
});

Deno.test("pi extension: install writes it, a second install changes nothing, uninstall deletes exactly it", () => {
  const path = "/h/.pi/agent/extensions/verdict.ts";
  const env = { VERDICT_HOME: "/h/.local/share/verdict" };
  const first = installExtension("", path, "/opt/verdict/bin/verdict", env);
  assert.deepEqual(first.changes, ["extension added"]);
  assert.ok(first.text.startsWith(EXTENSION_MARKER));
  assert.equal(first.text, extensionSource("/opt/verdict/bin/verdict", env));
  assert.equal(extensionProgram(first.text), "/opt/verdict/bin/verdict");
  for (const hook of ["user-prompt", "pre-compact", "session-start"]) {
    assert.ok(first.text.includes(`"${hook}"`));
  }
  // It runs the absolute command and holds no verdict code.
  assert.ok(!/from ["']\.|import\(["']\./.test(first.text));
  const again = installExtension(first.text, path, "/opt/verdict/bin/verdict", env);
  assert.deepEqual(again.changes, []);
  assert.equal(again.text, first.text);
  const moved = installExtension(first.text, path, "/usr/bin/verdict", env);
  assert.deepEqual(moved.changes, ["extension updated"]);
  assert.equal(extensionProgram(moved.text), "/usr/bin/verdict");
  const gone = uninstallExtension(moved.text, path);
  assert.equal(gone.remove, true);
  assert.deepEqual(gone.changes, ["extension deleted"]);
});

Deno.test("pi extension: someone else's file at that path is refused by install and left by uninstall", () => {
  const path = "/h/.pi/agent/extensions/verdict.ts";
  const theirs = "export default function (pi) {}\n";
  assert.throws(() => installExtension(theirs, path, "/v", {}), HostFileError);
  const left = uninstallExtension(theirs, path);
  assert.equal(left.text, theirs);
  assert.notEqual(left.remove, true);
  assert.deepEqual(left.changes, []);
});

Deno.test("pi extension: a path with quotes and backslashes is embedded as a literal, not as code", () => {
  const bin = '/opt/my "odd"\\dir/verdict";process.exit(1);//';
  const text = extensionSource(bin, { X: '"' });
  assert.equal(extensionProgram(text), bin);
  assert.equal(text.split("\n").filter((l) => l.startsWith("const VERDICT = ")).length, 1);
});

Deno.test("pi doctor: settings.json entries that exclude the extension are named; others are not", () => {
  assert.deepEqual(excludingEntries({ extensions: ["-extensions/verdict.ts", "!**/*", "./mine.ts"] }), [
    "-extensions/verdict.ts",
    "!**/*",
  ]);
  assert.deepEqual(excludingEntries({ extensions: ["-extensions/other.ts", "+extensions/verdict.ts"] }), []);
  assert.deepEqual(excludingEntries({}), []);
  assert.deepEqual(excludingEntries(null), []);
});

Deno.test("pi judge lines: line for line; typed prompts, tool calls and results become Claude transcript entries", () => {
  const text = Deno.readTextFileSync(`${SAMPLES}tui-a.jsonl`);
  const out = asClaudeTranscript(text).split("\n");
  assert.equal(out.length, text.split("\n").length);
  const parsed = out.map((l) => (l === "" ? null : JSON.parse(l)));
  // Header, model and thinking changes, the mode entry: dropped.
  assert.deepEqual(parsed.slice(0, 4), [null, null, null, null]);
  assert.equal(parsed[4].type, "user");
  assert.equal(
    parsed[4].message.content,
    "From now on use pnpm, never npm, to install packages in this repo.",
  );
  assert.equal(parsed[4].sessionId, "01a24e28-4c4c-77d5-9c85-54ae741f46c2");
  assert.equal(parsed[4].cwd, "/home/dev/project");
  assert.equal(parsed[4].parentUuid, null, "relinked past the dropped entries");
  const write = parsed[7].message.content[0];
  assert.deepEqual([write.type, write.name, write.input.file_path], [
    "tool_use",
    "Write",
    "/home/dev/project/AGENTS.md",
  ]);
  const result = parsed[8].message.content[0];
  assert.deepEqual([result.type, result.tool_use_id, result.is_error], ["tool_result", "call_2", false]);
  // The ! line, the compaction and the handoff message: dropped.
  assert.equal(parsed[10], null);
  assert.equal(parsed[11], null);
  assert.equal(parsed[13], null);
  assert.equal(
    parsed[12].parentUuid,
    parsed[9].uuid,
    "the prompt after the compaction hangs on the last kept entry",
  );
});

Deno.test("pi dialect: Claude's input; a flat additionalContext out, the verdict as systemMessage, never a block", () => {
  const input = dialect.read({
    hook_event_name: "PreCompact",
    session_id: "s",
    transcript_path: "/t.jsonl",
    cwd: "/w",
  });
  assert.deepEqual([input.event, input.session, input.transcript, input.cwd], [
    "pre-compact",
    "s",
    "/t.jsonl",
    "/w",
  ]);
  assert.equal(dialect.canBlockCompaction, false);
  assert.deepEqual(dialect.render("user-prompt", { notice: "N", context: "C" }), { additionalContext: "C" });
  assert.deepEqual(dialect.render("session-start", { context: "H" }), { additionalContext: "H" });
  assert.deepEqual(dialect.render("pre-compact", { notice: "N", context: "C" }), { systemMessage: "N" });
  assert.equal(dialect.render("user-prompt", {}), null);
});
