import assert from "node:assert/strict";
import { JsoncSyntaxError, parseJsonc } from "../../src/config/jsonc.ts";
import { thrown } from "../_helpers.ts";

Deno.test("parseJsonc() accepts comments and trailing commas", () => {
  const text = `{
    // line comment
    "a": [1, 2, 3,], /* block */
    "b": {"c": "x // not a comment",},
  }`;
  assert.deepEqual(parseJsonc(text), { a: [1, 2, 3], b: { c: "x // not a comment" } });
});

Deno.test("parseJsonc() reports line and column of a missing comma", () => {
  const err = thrown(() => parseJsonc(`{"a": 1\n  "b": 2}`));
  assert.ok(err instanceof JsoncSyntaxError);
  assert.equal(err.line, 2);
  assert.equal(err.column, 3);
});

Deno.test("parseJsonc() rejects an unclosed array, text after the value, and empty input", () => {
  for (const bad of ["[1, 2", '{"a":1} xyz', "", '{"a": tru}', '{"a": "x\n"}', "{/* open"]) {
    assert.throws(() => parseJsonc(bad), JsoncSyntaxError, `should reject ${JSON.stringify(bad)}`);
  }
});

Deno.test("parseJsonc() rejects duplicate keys instead of keeping the last silently", () => {
  assert.throws(() => parseJsonc('{"a": 1, "a": 2}'), /Duplicate key "a"/);
});

Deno.test("parseJsonc() decodes escapes and numbers like JSON.parse", () => {
  const text = '{"s": "tab\\tquote\\"u\\u00e9", "n": -1.5e3, "z": 0, "t": true, "f": false, "x": null}';
  assert.deepEqual(parseJsonc(text), JSON.parse(text));
});
