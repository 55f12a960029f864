/**
 * The two tests every session reader gets on its agent's real sample files (read from the
 * evaluation data beside the checkout; a test says it skipped when a file is absent): exactly the
 * expected typed prompts and landed notes, with and without headless sessions, in either line
 * style; and the same records when resumed from the carry after any line.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { LineParser, ParserOptions } from "../../src/record/line_parser.ts";
import type { VerdictRecord } from "../../src/record/record.ts";
import { feed, spaced, splitLines } from "../collect/_feed.ts";

/** One record as a sample's expectation writes it. */
export interface SampleRecord {
  readonly line: number;
  readonly time: string;
  readonly text: string;
}

export interface SampleExpectation {
  readonly file: string;
  readonly session: string;
  readonly project: string;
  readonly why: string;
  readonly prompts: readonly SampleRecord[];
  readonly notes: readonly SampleRecord[];
  readonly headlessPrompts: readonly SampleRecord[];
}

export interface SampleParserCase<Carry> {
  /** The origin its records carry, and the tests' prefix: "qwen". */
  readonly origin: string;
  readonly dir: URL;
  readonly expectations: readonly SampleExpectation[];
  readonly open: (opts: ParserOptions, carry: Carry | null) => LineParser<Carry>;
}

function samplePath(dir: URL, name: string): string | null {
  const path = fileURLToPath(new URL(name, dir));
  try {
    Deno.statSync(path);
    return path;
  } catch {
    return null;
  }
}

function shape(records: readonly VerdictRecord[], kind: string): SampleRecord[] {
  return records.filter((r) => r.kind === kind).map((r) => ({
    line: r.source_line,
    time: r.time,
    text: r.text,
  }));
}

export function sampleParserTests<Carry>(c: SampleParserCase<Carry>): void {
  for (const exp of c.expectations) {
    Deno.test(`${c.origin} parser on the real sample ${exp.file}: exactly the typed prompts and landed notes`, () => {
      const path = samplePath(c.dir, exp.file);
      if (path === null) {
        console.log(`skipped: ${exp.file} is not in ${fileURLToPath(c.dir)} (../shared absent)`);
        return;
      }
      const lines = splitLines(Deno.readTextFileSync(path));
      for (const includeHeadless of [false, true]) {
        for (const style of [(l: string) => l, spaced]) {
          const parser = c.open({ file: path, includeHeadless }, null);
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
            assert.equal(r.origin, c.origin);
            assert.equal(r.session, exp.session);
            assert.equal(r.project, exp.project);
            assert.equal(r.source_file, path);
          }
          assert.equal(parser.malformed, 0);
        }
      }
    });

    Deno.test(`${c.origin} parser on ${exp.file}: resumed from its carry after any line, it yields the same`, () => {
      const path = samplePath(c.dir, exp.file);
      if (path === null) return console.log(`skipped: ${exp.file} absent`);
      const lines = splitLines(Deno.readTextFileSync(path));
      const whole = feed(c.open({ file: path, includeHeadless: false }, null), lines);
      for (let cut = 0; cut <= lines.length; cut++) {
        const first = c.open({ file: path, includeHeadless: false }, null);
        const a = feed(first, lines.slice(0, cut));
        const carry = JSON.parse(JSON.stringify(first.carry())) as Carry;
        const b: VerdictRecord[] = feed(
          c.open({ file: path, includeHeadless: false }, carry),
          lines.slice(cut),
          cut + 1,
        );
        assert.deepEqual([...a, ...b], whole, `cut after line ${cut}`);
      }
    });
  }
}
