/**
 * Run by tests/scripts/v8_flags_test.ts: allocates as an index build does (many short-lived
 * objects, a few kept for a while), then prints V8's new-space capacity in bytes as one JSON line.
 */
import v8 from "node:v8";

let kept: unknown[] = [];
for (let i = 0; i < 2_000_000; i++) {
  kept.push({ i, text: `row ${i}` });
  if (kept.length > 20_000) kept = [];
}
const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
console.log(JSON.stringify({ newSpaceBytes: space?.space_size ?? -1, kept: kept.length }));
