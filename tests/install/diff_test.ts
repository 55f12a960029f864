import assert from "node:assert/strict";
import { unifiedDiff } from "../../src/install/diff.ts";

Deno.test("unifiedDiff(): equal texts give nothing", () => {
  assert.equal(unifiedDiff("a\n", "a\n", "x", "y"), "");
});

Deno.test("unifiedDiff(): one insertion, with three lines of context and correct ranges", () => {
  const before = "1\n2\n3\n4\n5\n6\n7\n8\n";
  const after = "1\n2\n3\n4\nnew\n5\n6\n7\n8\n";
  assert.equal(
    unifiedDiff(before, after, "a", "b"),
    "--- a\n+++ b\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n",
  );
});

Deno.test("unifiedDiff(): distant changes make separate hunks; a created file is all additions", () => {
  const lines = Array.from({ length: 20 }, (_, i) => String(i + 1));
  const before = lines.join("\n") + "\n";
  const after = ["1x", ...lines.slice(1, 19), "20x"].join("\n") + "\n";
  const d = unifiedDiff(before, after, "a", "b");
  assert.equal((d.match(/^@@/gm) ?? []).length, 2);
  assert.match(d, /@@ -1,4 \+1,4 @@\n-1\n\+1x\n 2\n 3\n 4\n/);
  assert.match(d, /@@ -17,4 \+17,4 @@\n 17\n 18\n 19\n-20\n\+20x\n$/);
  assert.equal(unifiedDiff("", "a\nb\n", "a", "b"), "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n");
});

Deno.test("unifiedDiff(): a change in the middle of similar lines is found exactly (Myers)", () => {
  const before = "x\ny\nx\ny\nx\n";
  const after = "x\ny\nz\nx\ny\nx\n";
  const d = unifiedDiff(before, after, "a", "b");
  assert.equal((d.match(/^\+/gm) ?? []).length, 2, d); // the +++ header and one added line
  assert.equal((d.match(/^-/gm) ?? []).length, 1, d); // the --- header only
});
