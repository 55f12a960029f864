import assert from "node:assert/strict";
import { BM25_B, BM25_K1, bm25Idf, bm25Rank, type DocMeta } from "../../src/rank/bm25.ts";
import { MemoryIndex } from "../../src/rank/memory_index.ts";

const meta = (id: string): DocMeta => ({
  id,
  kind: "prompt",
  timeMs: 0,
  project: "",
  session: null,
  marker: null,
});

/** Three documents: lengths 3, 2, 4, so avgdl = 3. */
function tiny(): MemoryIndex {
  return MemoryIndex.fromTokens([["a", "b", "a"], ["b", "c"], ["c", "c", "c", "d"]], [
    meta("d0"),
    meta("d1"),
    meta("d2"),
  ]);
}

function close(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);
}

Deno.test("BM25 uses k1 = 1.2 and b = 0.75", () => {
  assert.equal(BM25_K1, 1.2);
  assert.equal(BM25_B, 0.75);
});

Deno.test("bm25Idf() is ln(1 + (N − n + 0.5)/(n + 0.5))", () => {
  close(bm25Idf(3, 1), Math.log(1 + 2.5 / 1.5)); // ln(8/3)
  close(bm25Idf(3, 2), Math.log(1.6));
  assert.ok(bm25Idf(3, 3) > 0); // never negative, even for a term in every document
});

Deno.test("bm25Rank() matches a hand-computed example", () => {
  const index = tiny();
  assert.equal(index.docCount, 3);
  assert.equal(index.avgDocLength, 3);
  const got = bm25Rank(index, [{ term: "a", qtf: 1 }, { term: "c", qtf: 1 }]);
  // d0: a tf 2, |d| 3 → norm 1.2·(0.25 + 0.75·3/3) = 1.2; 2·2.2/(2 + 1.2) = 1.375
  // d1: c tf 1, |d| 2 → norm 1.2·(0.25 + 0.75·2/3) = 0.9; 2.2/1.9
  // d2: c tf 3, |d| 4 → norm 1.2·(0.25 + 0.75·4/3) = 1.5; 6.6/4.5
  assert.deepEqual(got.map((m) => m.doc), [0, 1, 2]);
  close(got[0]!.bm25, Math.log(8 / 3) * 1.375);
  close(got[1]!.bm25, Math.log(1.6) * (2.2 / 1.9));
  close(got[2]!.bm25, Math.log(1.6) * (6.6 / 4.5));
  assert.deepEqual(got.map((m) => m.matched), [[0], [1], [1]]);
});

Deno.test("bm25Rank() counts query-term frequency linearly and ignores absent terms", () => {
  const index = tiny();
  const once = bm25Rank(index, [{ term: "a", qtf: 1 }])[0]!.bm25;
  const twice = bm25Rank(index, [{ term: "a", qtf: 2 }, { term: "zzz", qtf: 1 }])[0]!.bm25;
  close(twice, 2 * once);
});

Deno.test("MemoryIndex keeps postings sorted by document and exposes a sorted vocabulary", () => {
  const index = tiny();
  assert.deepEqual(index.postings("c"), [{ doc: 1, tf: 1 }, { doc: 2, tf: 3 }]);
  assert.equal(index.docFreq("b"), 2);
  assert.equal(index.docFreq("nope"), 0);
  assert.deepEqual(index.postings("nope"), []);
  assert.deepEqual(index.vocabulary(), ["a", "b", "c", "d"]);
  assert.throws(() => index.docLength(3), RangeError);
});
