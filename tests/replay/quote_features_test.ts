import assert from "node:assert/strict";
import { fitLogistic, pairOrder } from "./quote_features.ts";

Deno.test("pairOrder: the share of relevant-and-not pairs a score puts the right way round, ties half", () => {
  // Relevant 3 and 1 against not-relevant 2: (3>2) right, (1<2) wrong.
  assert.deepEqual(pairOrder([3, 1, 2], [true, true, false]), { share: 0.5, pairs: 2 });
  assert.deepEqual(pairOrder([3, 2, 2], [true, false, false]), { share: 1, pairs: 2 });
  assert.deepEqual(pairOrder([2, 2], [true, false]), { share: 0.5, pairs: 1 });
  assert.deepEqual(pairOrder([1, 2], [true, true]), null);
});

Deno.test("fitLogistic: weights that order a separable set right, the same on every run", () => {
  const rows = [[0, 1], [0.1, 0.9], [1, 0], [0.9, 0.2]];
  const labels = [false, false, true, true];
  const w = fitLogistic(rows, labels);
  const scores = rows.map((x) => w[0]! + x[0]! * w[1]! + x[1]! * w[2]!);
  assert.deepEqual(pairOrder(scores, labels)?.share, 1);
  assert.deepEqual(fitLogistic(rows, labels), w);
});
