import assert from "node:assert/strict";
import {
  DENSE_MIN_SHARE,
  denseOf,
  findInDense,
  findInList,
  indexOfDoc,
  SKIP_BLOCK,
  skipsOf,
} from "../../src/rank/postings.ts";
import { seededRandom } from "../../scripts/seeded_random.ts";

Deno.test("looking documents up together, through a skip table or not, finds what a binary search finds, and no other", () => {
  const r = seededRandom(5);
  for (const length of [1, 2, 3, 100, 4095, 4096, 4097, 5000, 64 * 100, 64 * 100 + 1, 20_000]) {
    // Sorted, distinct, with gaps: both present and absent documents to look up.
    const list = new Int32Array(length);
    let doc = 3;
    for (let i = 0; i < length; i++) list[i] = doc += 1 + Math.floor(r() * 4);
    const skips = skipsOf(list);
    if (length < 4096) assert.equal(skips, null, "a short list is searched as it is");
    else {
      assert.ok(skips !== null && skips.length === Math.ceil(length / SKIP_BLOCK));
      assert.equal(skipsOf(list), skips, "made once per list");
    }
    const probes = [-1, 0, 3, list[0]!, list[length - 1]!, list[length - 1]! + 1, 2 ** 31 - 1];
    for (let b = 0; b * SKIP_BLOCK < length; b++) {
      const at = b * SKIP_BLOCK;
      probes.push(list[at]!, list[at]! - 1, list[at]! + 1, list[Math.min(length - 1, at + SKIP_BLOCK - 1)]!);
    }
    for (let i = 0; i < 500; i++) probes.push(Math.floor(r() * (doc + 10)));
    // As document numbers of a later segment (base 1000), in any order.
    const base = 1000;
    const docs = Int32Array.from(probes, (p) => p + base);
    for (const s of [skips, null]) {
      const at = findInList(list, s, docs, docs.length, base);
      probes.forEach((p, k) => assert.equal(at[k], indexOfDoc(list, p), `document ${p} of ${length}`));
    }
  }
  assert.deepEqual([...findInList(new Int32Array(0), null, Int32Array.from([1, 2]), 2, 0)], [-1, -1]);
});

Deno.test("a dense list's bitmap finds each document where a binary search finds it, and no other", () => {
  const r = seededRandom(11);
  // Gaps of 1 (every document), 1-4, and 1-30 (a share of about 1/15.5, just over DENSE_MIN_SHARE).
  for (const maxGap of [1, 4, 30]) {
    for (const length of [4096, 4097, 5000, 20_000]) {
      const list = new Int32Array(length);
      let doc = 40;
      for (let i = 0; i < length; i++) list[i] = doc += 1 + Math.floor(r() * maxGap);
      const dense = denseOf(list);
      const range = list[length - 1]! - list[0]! + 1;
      assert.equal(dense !== null, length >= DENSE_MIN_SHARE * range, `gap ≤ ${maxGap}, ${length} documents`);
      if (dense === null) continue;
      assert.equal(denseOf(list), dense, "made once per list");
      const probes = [
        -1,
        0,
        39,
        40,
        list[0]! - 1,
        list[0]!,
        list[length - 1]!,
        list[length - 1]! + 1,
        2 ** 31 - 1,
      ];
      // Each 32-bit word's first and last bits, and their neighbours, held or not.
      for (let rel = 0; rel < range; rel += 32) {
        for (const d of [rel - 1, rel, rel + 1, rel + 30, rel + 31]) probes.push(list[0]! + d);
      }
      for (let i = 0; i < 2000; i++) probes.push(Math.floor(r() * (doc + 10)));
      for (const base of [0, 1000]) {
        const docs = Int32Array.from(probes, (p) => p + base);
        const at = findInDense(dense, docs, docs.length, base);
        probes.forEach((p, k) => assert.equal(at[k], indexOfDoc(list, p), `document ${p} (gap ≤ ${maxGap})`));
      }
    }
  }
});

Deno.test("a sparse or short list gets no dense index (the skip table serves it)", () => {
  const sparse = Int32Array.from({ length: 5000 }, (_, i) => i * 17);
  assert.equal(denseOf(sparse), null, "1 document in 17 is under DENSE_MIN_SHARE");
  assert.notEqual(skipsOf(sparse), null);
  const short = Int32Array.from({ length: 4095 }, (_, i) => i);
  assert.equal(denseOf(short), null);
  const full = Int32Array.from({ length: 4096 }, (_, i) => i);
  const dense = denseOf(full)!;
  assert.equal(dense.range, 4096);
  assert.deepEqual([...findInDense(dense, Int32Array.from([0, 31, 32, 4095, 4096, -1]), 6, 0)], [
    0,
    31,
    32,
    4095,
    -1,
    -1,
  ]);
});
