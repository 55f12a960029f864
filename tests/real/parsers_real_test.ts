/**
 * Feeds every real public transcript line by line through its parser and checks the exact
 * records decided by hand in expectations.ts. Skipped (and says so) when the shared data
 * directory is not beside the repository.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createClaudeParser } from "../../src/agents/claude/transcript.ts";
import { createCodexParser } from "../../src/agents/codex/rollout.ts";
import type { LineParser } from "../../src/record/line_parser.ts";
import type { VerdictRecord } from "../../src/record/record.ts";
import { feed, splitLines } from "../collect/_feed.ts";
import {
  type ExpectedText,
  REAL_EXPECTATIONS,
  REAL_TRANSCRIPTS_DIR,
  type RealParser,
  textMatches,
  type TranscriptExpectation,
} from "./expectations.ts";

const DIR = fileURLToPath(REAL_TRANSCRIPTS_DIR);

function dirPresent(): boolean {
  try {
    return Deno.statSync(DIR).isDirectory;
  } catch {
    return false;
  }
}

const present = dirPresent();
if (!present) {
  console.log(`parsers_real_test: skipped, the real transcripts directory ${DIR} is not present`);
}

/** The parser for a sample; `carry` is a stored carry of the same kind (or null). */
function parserFor(
  kind: RealParser,
  file: string,
  includeHeadless: boolean,
  prefilter = true,
  carry: unknown = null,
): LineParser<unknown> {
  return kind === "claude"
    ? createClaudeParser({ file, includeHeadless }, carry as Parameters<typeof createClaudeParser>[1], {
      prefilter,
    })
    : createCodexParser({ file, includeHeadless }, carry as Parameters<typeof createCodexParser>[1], {
      prefilter,
    });
}

function run(exp: TranscriptExpectation, includeHeadless: boolean, prefilter = true) {
  const file = `${DIR}${exp.file}`;
  const parser = parserFor(exp.parser, file, includeHeadless, prefilter);
  const records = feed(parser, splitLines(Deno.readTextFileSync(file)));
  return { file, parser, records };
}

/** Asserts `got` (records of one kind) are exactly `want`, in line order. */
function assertRecords(
  exp: TranscriptExpectation,
  file: string,
  kind: "prompt" | "note",
  got: readonly VerdictRecord[],
  want: readonly ExpectedText[],
): void {
  const label = `${exp.file} ${kind}s (${exp.why})`;
  const sorted = [...got].sort((a, b) => a.source_line - b.source_line);
  assert.deepEqual(sorted.map((r) => r.source_line), want.map((w) => w.line), label);
  sorted.forEach((r, i) => {
    const w = want[i];
    if (w === undefined) return;
    const at = `${label}, line ${w.line}`;
    assert.ok(
      textMatches(r.text, w),
      `${at}: text ${JSON.stringify(r.text.slice(0, 120))} (${r.text.length})`,
    );
    assert.equal(r.time, w.time, at);
    assert.equal(r.session, exp.session, at);
    assert.equal(r.project, exp.project, at);
    assert.equal(r.source_file, file, at);
    assert.equal(r.origin, exp.parser, at);
    assert.equal(r.commit, null, at);
  });
}

function byLine(a: ExpectedText, b: ExpectedText): number {
  return a.line - b.line;
}

Deno.test({
  name: "every real transcript sample has hand-made expectations",
  ignore: !present,
  fn() {
    const names = [...Deno.readDirSync(DIR)].filter((e) => e.isFile && e.name.endsWith(".jsonl")).map((e) =>
      e.name
    );
    assert.deepEqual(names.sort(), REAL_EXPECTATIONS.map((e) => e.file).sort());
  },
});

for (const exp of REAL_EXPECTATIONS) {
  const counts = `${exp.prompts.length} prompts, ${exp.notes.length} notes`;
  Deno.test({
    name: `${exp.parser} parser yields exactly the hand-checked records of ${exp.file} (${counts})`,
    ignore: !present,
    fn() {
      const { records, parser, file } = run(exp, false);
      assertRecords(exp, file, "prompt", records.filter((r) => r.kind === "prompt"), exp.prompts);
      assertRecords(exp, file, "note", records.filter((r) => r.kind === "note"), exp.notes);
      assert.equal(parser.malformed, exp.untimed ?? 0, "skipped lines: only those without a usable time");
      assert.equal(new Set(records.map((r) => r.id)).size, records.length, "ids are unique");
    },
  });

  Deno.test({
    name:
      `${exp.parser} parser with includeHeadless adds ${exp.headlessPrompts.length} prompts to ${exp.file}`,
    ignore: !present,
    fn() {
      const { records, file } = run(exp, true);
      const want = [...exp.prompts, ...exp.headlessPrompts].sort(byLine);
      assertRecords(exp, file, "prompt", records.filter((r) => r.kind === "prompt"), want);
      assertRecords(exp, file, "note", records.filter((r) => r.kind === "note"), exp.notes);
    },
  });

  Deno.test({
    name: `${exp.parser} parser's fast path matches the parse-every-line path on ${exp.file}`,
    ignore: !present,
    fn() {
      for (const includeHeadless of [false, true]) {
        const fast = run(exp, includeHeadless, true);
        const slow = run(exp, includeHeadless, false);
        assert.deepEqual(fast.records, slow.records);
        assert.equal(fast.parser.malformed, slow.parser.malformed);
      }
    },
  });

  Deno.test({
    name: `${exp.parser} parser resumed from its carry mid-file matches one pass over ${exp.file}`,
    ignore: !present,
    fn() {
      const file = `${DIR}${exp.file}`;
      const lines = splitLines(Deno.readTextFileSync(file));
      const whole = feed(parserFor(exp.parser, file, false), lines);
      const CUTS = 8;
      for (let k = 1; k < CUTS; k++) {
        const cut = Math.floor((lines.length * k) / CUTS);
        const first = parserFor(exp.parser, file, false);
        const got = feed(first, lines.slice(0, cut));
        const carry: unknown = JSON.parse(JSON.stringify(first.carry()));
        const second = parserFor(exp.parser, file, false, true, carry);
        got.push(...feed(second, lines.slice(cut), cut + 1));
        assert.deepEqual(got, whole, `cut after line ${cut}`);
      }
    },
  });
}
