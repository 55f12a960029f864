/** Copies of one text are one ranked result (src/lookup/recall.ts `searchDistinct`). */
import assert from "node:assert/strict";
import { recordId, type VerdictRecord } from "../../src/record/record.ts";
import { record } from "../_records.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { collapseCopies, MAX_RANKED_MATCHES, searchDistinct } from "../../src/lookup/recall.ts";
import { sameTextKey } from "../../src/gate/statements.ts";

const AS_OF = Date.parse("2026-04-01T00:00:00Z");

function rec(name: string, text: string, time: string, session = name): VerdictRecord {
  return record(text, { id: recordId("prompt", name), time, session, source_file: `/h/${name}.jsonl` });
}

/** The distinct texts of `records` for `query`, best first, by the same key the Recaller uses. */
function distinct(records: readonly VerdictRecord[], query: string, top: number) {
  const index = buildMemoryIndex(records);
  return searchDistinct(index, query, { mode: "recall", nowMs: AS_OF, top }, (h) => {
    const r = records[h.doc]!;
    return { key: sameTextKey(r.text), time: r.time };
  }).hits.map((h) => ({ record: records[h.best.doc]!, copies: h.copies }));
}

Deno.test("three copies of one text are one result: the best-ranked copy, count 3, the first and last dates", () => {
  const pnpm = "From now on we always use pnpm, never npm.";
  const records = [
    rec("a", pnpm, "2026-01-10T09:00:00.000Z"),
    rec("b", "We use pnpm workspaces for the monorepo packages.", "2026-02-01T09:00:00.000Z"),
    // The same words again, spaced, cased and punctuated otherwise: a resend.
    rec("c", "from now on  we ALWAYS use pnpm - never npm", "2026-03-01T09:00:00.000Z"),
    rec("d", pnpm, "2026-02-10T09:00:00.000Z"),
  ];
  const hits = distinct(records, "pnpm npm", 5);
  assert.deepEqual(hits.map((h) => h.record.id), [records[2]!.id, records[1]!.id]);
  assert.deepEqual(hits[0]!.copies, {
    count: 3,
    first: "2026-01-10T09:00:00.000Z",
    last: "2026-03-01T09:00:00.000Z",
    complete: true,
  });
  // The newest copy ranks first (recency), so it is the one shown.
  assert.equal(hits[0]!.record.text, records[2]!.text);
  assert.deepEqual(hits[1]!.copies, {
    count: 1,
    first: "2026-02-01T09:00:00.000Z",
    last: "2026-02-01T09:00:00.000Z",
    complete: true,
  });
});

Deno.test("texts that differ by a word are not copies; texts that differ by a number are", () => {
  const records = [
    rec("a", "Always run the migrations with pnpm 8, never npm 10.", "2026-03-01T00:00:00.000Z"),
    rec("b", "Always run the migrations with pnpm 8, never yarn 10.", "2026-03-01T00:00:00.000Z"),
    rec("c", "Always run the migrations with pnpm 9, never npm 11.", "2026-03-01T00:00:00.000Z"),
    rec("d", "Always run the migration with pnpm 8, never npm 10.", "2026-03-01T00:00:00.000Z"),
  ];
  const hits = distinct(records, "migrations pnpm", 10);
  assert.equal(hits.length, 3, JSON.stringify(hits.map((h) => h.record.text)));
  const counts = new Map(
    hits.map((h) => [h.record.text.includes("yarn") ? "yarn" : h.record.text, h.copies.count]),
  );
  assert.equal(counts.get("yarn"), 1);
  assert.equal(counts.get(records[3]!.text), 1, "migration ≠ migrations: one word differs");
  const npm = hits.find((h) => h.copies.count === 2);
  assert.ok(npm, "the two texts that differ only by their numbers are one");
});

Deno.test("top N is N distinct texts even when copies fill the ranker's first window", () => {
  const resent = "Decision: nightly pg_dump backups, kept 30 days.";
  // Forty copies of one text outrank everything else (newer, and the whole query).
  const records = [
    ...Array.from(
      { length: 40 },
      (_, i) => rec(`copy${i}`, resent, `2026-03-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00.000Z`),
    ),
    rec("other1", "pg_dump runs as the postgres user on the backup host.", "2025-06-01T00:00:00.000Z"),
    rec("other2", "Keep the backups in the eu bucket; pg_dump is enough.", "2025-05-01T00:00:00.000Z"),
  ];
  const hits = distinct(records, "nightly pg_dump backups", 3);
  assert.equal(hits.length, 3);
  assert.equal(hits[0]!.record.text, resent);
  assert.equal(hits[0]!.copies.count, 40);
  assert.equal(hits[0]!.copies.first, "2026-03-01T00:00:00.000Z");
  assert.equal(hits[0]!.copies.last, "2026-03-28T00:00:00.000Z");
  assert.deepEqual(
    new Set(hits.slice(1).map((h) => h.record.id)),
    new Set([records[40]!.id, records[41]!.id]),
  );
});

Deno.test("copies beyond the most matches ranked are counted as a lower bound", () => {
  const resent = "We decided: zebracorn deploys go through the canary.";
  const records = Array.from(
    { length: MAX_RANKED_MATCHES + 10 },
    (_, i) => rec(`z${i}`, resent, "2026-03-01T00:00:00.000Z"),
  );
  records.push(rec("last", "zebracorn canary runbook lives in docs/ops.", "2020-01-01T00:00:00.000Z"));
  const hits = distinct(records, "zebracorn canary", 2);
  assert.equal(hits[0]!.copies.count, MAX_RANKED_MATCHES);
  assert.equal(hits[0]!.copies.complete, false);
});

Deno.test("equal copies collapse to the ranker's first, and groups keep its order, every time", () => {
  // Same text, same time: the ranker breaks the tie by record id, and so does the collapse.
  const records = [
    rec("m", "Use tabs, not spaces, in the Makefile.", "2026-03-01T00:00:00.000Z"),
    rec("k", "Use tabs, not spaces, in the Makefile.", "2026-03-01T00:00:00.000Z"),
    rec("x", "Use tabs in the Makefile only.", "2026-03-01T00:00:00.000Z"),
  ];
  const ids = [records[0]!.id, records[1]!.id].sort();
  const first = distinct(records, "tabs makefile", 5);
  assert.equal(first[0]!.record.id, ids[0]);
  for (const order of [[2, 1, 0], [1, 2, 0], [0, 2, 1]]) {
    const shuffled = order.map((i) => records[i]!);
    const again = distinct(shuffled, "tabs makefile", 5);
    assert.deepEqual(
      again.map((h) => [h.record.id, h.copies.count]),
      first.map((h) => [h.record.id, h.copies.count]),
    );
  }
});

Deno.test("collapseCopies leaves out what may not be shown and orders first/last as instants", () => {
  const items = [
    { key: "a", time: "2026-03-01T10:00:00+02:00" },
    { key: null, time: "2026-01-01T00:00:00.000Z" },
    { key: "b", time: "2026-02-01T00:00:00.000Z" },
    { key: "a", time: "2026-03-01T09:00:00.000Z" },
    { key: "a", time: "not a time" },
  ];
  const groups = collapseCopies(items, (i) => i.key, (i) => i.time, true);
  assert.deepEqual(groups.map((g) => [g.best.key, g.copies.count]), [["a", 3], ["b", 1]]);
  // 10:00+02:00 is 08:00Z, before 09:00Z; an unparseable time sorts first.
  assert.equal(groups[0]!.copies.first, "not a time");
  assert.equal(groups[0]!.copies.last, "2026-03-01T09:00:00.000Z");
  assert.equal(groups[0]!.best, items[0]);
});
