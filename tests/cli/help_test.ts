import assert from "node:assert/strict";
import { wrapTo } from "../../src/cli/commands.ts";

Deno.test("wrap: words fill lines up to the width; a longer word has a line of its own", () => {
  assert.equal(wrapTo("  one two   three four ", 9), "one two\nthree\nfour");
  assert.equal(wrapTo("a verylongword b", 5), "a\nverylongword\nb");
  assert.equal(wrapTo("", 10), "");
});
