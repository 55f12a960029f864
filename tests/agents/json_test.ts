import assert from "node:assert/strict";
import { jsonLineParser } from "../../src/agents/json.ts";
import type { VerdictRecord } from "../../src/record/record.ts";
import { record } from "../_records.ts";

/** A reader whose rule makes one record per `{"say": text}` line and throws on `{"boom": …}`. */
function reader(opts: { ignore?: boolean; mayMatter?: (text: string) => boolean } = {}) {
  const out: VerdictRecord[] = [];
  let skipped = 0;
  const parser = jsonLineParser({
    ...opts,
    handle: (entry, lineNo) => {
      if ("boom" in entry) throw new Error("a shape no rule foresaw");
      if (typeof entry.say === "string") out.push(record(entry.say, { source_line: lineNo }));
    },
    out,
    carry: () => ({ seen: out.length }),
    skip: () => skipped++,
    skipped: () => skipped,
  });
  return parser;
}

Deno.test("the shared line parser hands each object line to the rules, drains once, and carries the reader's state", () => {
  const p = reader();
  p.line('{"say": "one"}', 1);
  p.line('{"say": "two"}', 2);
  assert.deepEqual(p.carry(), { seen: 2 });
  assert.deepEqual(p.drain().map((r) => [r.text, r.source_line]), [["one", 1], ["two", 2]]);
  assert.deepEqual(p.drain(), []);
  assert.equal(p.malformed, 0);
});

Deno.test("the shared line parser counts a damaged line, a non-object and a line its rules throw on, never a blank one", () => {
  const p = reader();
  p.line('{"say": "cut', 1);
  p.line("[1, 2]", 2);
  p.line('{"boom": true}', 3);
  p.line("   ", 4);
  p.line('{"say": "after"}', 5);
  assert.equal(p.malformed, 3);
  assert.deepEqual(p.drain().map((r) => r.text), ["after"]);
});

Deno.test("a line the prefilter rejects is not parsed, and counted only when it does not look like an object", () => {
  const p = reader({ mayMatter: (text) => text.includes('"say"') });
  p.line('{"boom": true}', 1);
  p.line("not json at all", 2);
  p.line('{"say": "kept"}', 3);
  assert.equal(p.malformed, 1);
  assert.deepEqual(p.drain().map((r) => r.text), ["kept"]);
});

Deno.test("an ignoring parser reads nothing and counts nothing", () => {
  const p = reader({ ignore: true });
  p.line('{"say": "one"}', 1);
  p.line("garbage", 2);
  assert.deepEqual(p.drain(), []);
  assert.equal(p.malformed, 0);
});
