import assert from "node:assert/strict";
import { parseJunit, summarize } from "./run.ts";
import { type ClientId, CLIENTS } from "./harness/versions.ts";

/** Every client at its pinned version, with `over` replacing some. */
function versions(over: Partial<Record<ClientId, string>>): Record<ClientId, string> {
  const all = Object.fromEntries(Object.values(CLIENTS).map((c) => [c.id, c.pinned])) as Record<
    ClientId,
    string
  >;
  return { ...all, ...over };
}

/** The line of each client the report has no test of (those after Claude Code and Codex). */
const OTHERS = Object.values(CLIENTS).filter((c) => c.id !== "claude-code" && c.id !== "codex")
  .map((c) => `${c.label} ${c.pinned} (pinned): no test ran`);

const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="deno test" tests="4" failures="1" errors="0" time="1.0">
    <testsuite name="./tests/clients/codex/codex_test.ts" tests="2" disabled="0" errors="0" failures="1">
        <testcase name="Codex 0.171.0: collect yields exactly the typed prompts" classname="./tests/clients/codex/codex_test.ts" time="1" line="1" col="6">
            <failure message="Uncaught AssertionError: Expected values to be strictly deep-equal:&#10;more">AssertionError &amp; more</failure>
        </testcase>
        <testcase name="Codex 0.171.0: the hint &lt;reaches&gt; the model" classname="./tests/clients/codex/codex_test.ts" time="0" line="2" col="6">
        </testcase>
    </testsuite>
    <testsuite name="./tests/clients/claude_code/claude_code_test.ts" tests="2" disabled="1" errors="0" failures="0">
        <testcase name="Claude Code 2.1.332: uninstall leaves no trace" classname="./tests/clients/claude_code/claude_code_test.ts" time="0" line="1" col="6">
        </testcase>
        <testcase name="Claude Code 2.1.332: skipped one" classname="./tests/clients/claude_code/claude_code_test.ts" time="0" line="2" col="6">
            <skipped/>
        </testcase>
    </testsuite>
</testsuites>`;

Deno.test("parseJunit() reads each case's name, file, outcome and first failure line", () => {
  assert.deepEqual(parseJunit(REPORT), [
    {
      name: "Codex 0.171.0: collect yields exactly the typed prompts",
      file: "./tests/clients/codex/codex_test.ts",
      outcome: "failed",
      message: "Uncaught AssertionError: Expected values to be strictly deep-equal:",
    },
    {
      name: "Codex 0.171.0: the hint <reaches> the model",
      file: "./tests/clients/codex/codex_test.ts",
      outcome: "passed",
      message: "",
    },
    {
      name: "Claude Code 2.1.332: uninstall leaves no trace",
      file: "./tests/clients/claude_code/claude_code_test.ts",
      outcome: "passed",
      message: "",
    },
    {
      name: "Claude Code 2.1.332: skipped one",
      file: "./tests/clients/claude_code/claude_code_test.ts",
      outcome: "skipped",
      message: "",
    },
  ]);
});

Deno.test("summarize() says, per agent version, what passed and which tests that version broke", () => {
  const text = summarize(parseJunit(REPORT), versions({ "claude-code": "2.1.332", codex: "0.171.0" }), true);
  assert.equal(
    text,
    [
      "Claude Code 2.1.332 (CI pins 2.1.328): 1 passed, 0 failed",
      "Codex 0.171.0 (CI pins 0.169.0): 1 passed, 1 failed",
      "  broke: collect yields exactly the typed prompts (./tests/clients/codex/codex_test.ts)",
      "    Uncaught AssertionError: Expected values to be strictly deep-equal:",
      ...OTHERS,
    ].join("\n"),
  );
  // At the pinned versions a failure is a failure, not a newer version's breakage.
  const pinned = summarize(parseJunit(REPORT.replaceAll("0.171.0", "0.169.0")), versions({}), false);
  assert.match(pinned, /^Claude Code 2\.1\.328 \(pinned\): no test ran$/m);
  assert.match(pinned, /^ {2}failed: collect yields/m);
});
