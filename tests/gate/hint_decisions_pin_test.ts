/**
 * The hint path made faster must decide exactly as before: every query of the hint benchmark
 * (bench/hint_bench_data.ts) over an archive of its synthetic records, the ranking the gate saw
 * (ids, scores, weights, matched terms, coverage) and everything the gate said (rule, detail,
 * each candidate's check, the quotes and their cooldown keys), hashed. The digest was recorded
 * from the code before the speed work (main at dcc84c0), so a change to how fast the hint runs
 * cannot change what it says without failing here.
 *
 * A deliberate change to what the gate or the ranking decides changes the digest: check the new
 * decisions (deno task eval:replay, deno task eval:gate), then record the digest this test
 * prints in HINT_DECISIONS_DIGEST.
 */
import assert from "node:assert/strict";
import { makeRecords, queries } from "../../bench/hint_bench_data.ts";
import { hintFor } from "../../src/gate/hint.ts";
import { buildArchive } from "../../src/store/build.ts";
import { openArchiveReader } from "../../src/store/reader.ts";

/** SHA-256 of the decisions below, on the archive and queries below. */
const HINT_DECISIONS_DIGEST = "950ce0f0e46e9cd28858b379be0ebca3ba7d82e11c597197bda009050ff41f69";
/** Records in the archive: enough for common words, long lists and skip tables (over 4,096 documents). */
const RECORDS = 30_000;
const QUERIES = 300;
const NOW_MS = Date.parse("2026-01-01T00:00:00Z");

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("the hint decides every benchmark query as the code before the speed work did", async () => {
  const dir = await Deno.makeTempDir({ prefix: "verdict-hint-pin-" });
  try {
    const paths = await buildArchive(`${dir}/records.db`, makeRecords(RECORDS));
    const reader = (await openArchiveReader(paths))!;
    const lines: string[] = [];
    let spoke = 0;
    try {
      const corpus = reader.corpus;
      for (const prompt of queries(QUERIES)) {
        const { verdict, result } = hintFor(corpus, {
          prompt,
          session: null,
          cwd: "/home/dev/p3",
          nowMs: NOW_MS,
          shown: new Set(),
          entities: [],
          personas: [],
          top: 2,
          textOf: (doc) => reader.record(doc)!.text,
        });
        if (verdict.speak) spoke++;
        lines.push(JSON.stringify({
          prompt,
          speak: verdict.speak,
          rule: verdict.rule,
          detail: verdict.detail,
          checks: verdict.checks.map((c) => [c.id, c.rule, c.detail]),
          quotes: verdict.quotes.map((q) => [q.hit.id, q.keys, q.statements.map((s) => s.text)]),
          candidates: result?.candidates ?? null,
          hits: result?.hits.map((h) => [
            h.id,
            h.score,
            h.bm25,
            h.weights,
            h.matched,
            h.informativeMatched,
            h.coverage,
            h.meta.kind,
            h.meta.marker,
            h.meta.timeMs,
            h.meta.project,
            h.meta.session,
          ]) ?? null,
        }));
      }
    } finally {
      reader.close();
    }
    // The digest would pin nothing if the gate never spoke or always did.
    assert.ok(spoke > QUERIES / 10 && spoke < QUERIES, `the hint spoke on ${spoke} of ${QUERIES} queries`);
    const digest = await sha256(lines.join("\n"));
    assert.equal(
      digest,
      HINT_DECISIONS_DIGEST,
      `the hint's decisions on the benchmark queries changed (digest ${digest}); see this file's comment`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
