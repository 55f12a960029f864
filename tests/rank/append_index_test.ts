/**
 * The replay index (AppendIndex) after k additions is the MemoryIndex of those k records: the
 * same statistics, postings and columns, and the same search results bit for bit.
 */
import assert from "node:assert/strict";
import { AppendIndex } from "../../src/rank/append_index.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { deriveCjkWords } from "../../src/rank/cjk_words.ts";
import { search, type SearchResult } from "../../src/rank/score.ts";
import { loadFixtures } from "../gate/gate_eval.ts";
import type { Corpus } from "../../src/rank/bm25.ts";

const QUERIES = [
  "should we back up with pg_dumpall",
  "switch the api to camelCase fields",
  "重跑gen-itgc后要清缓存吗",
  "日志打到文件里",
  "deploy on friday afternoon",
  "the",
];

function summary(r: SearchResult) {
  return {
    docCount: r.docCount,
    terms: r.terms,
    skipped: r.skipped,
    candidates: r.candidates,
    hits: r.hits.map((h) => ({
      id: h.id,
      score: h.score,
      bm25: h.bm25,
      matched: h.matched,
      coverage: h.coverage,
    })),
  };
}

function statsOf(c: Corpus, terms: readonly string[]) {
  return {
    docCount: c.docCount,
    avg: c.avgDocLength,
    dfs: terms.map((t) => [t, c.docFreq(t), c.postings(t)]),
    // Field by field: a DocMeta's lazy fields are getters, which a spread would leave out.
    metas: Array.from({ length: c.docCount }, (_, d) => {
      const m = c.meta(d);
      const { id, kind, timeMs, project, session, marker } = m;
      return { id, kind, timeMs, project, session, marker, length: c.docLength(d) };
    }),
  };
}

Deno.test("AppendIndex after each addition scores exactly like a MemoryIndex of the same records", () => {
  const { records } = loadFixtures();
  const words = deriveCjkWords(records.map((r) => r.text));
  const growing = new AppendIndex(words);
  const checkpoints = new Set([1, 7, 40, 100, records.length]);
  const probeTerms = ["pg_dump", "pnpm", "日志", "the", "deploy", "camelcas"];
  for (let k = 1; k <= records.length; k++) {
    growing.add(records[k - 1]!);
    if (!checkpoints.has(k)) continue;
    const fresh = buildMemoryIndex(records.slice(0, k), { cjkWords: words });
    assert.deepEqual(statsOf(growing, probeTerms), statsOf(fresh, probeTerms), `stats after ${k}`);
    for (const mode of ["hint", "recall"] as const) {
      for (const q of QUERIES) {
        const opts = {
          mode,
          nowMs: Date.parse("2026-11-29T12:00:00Z"),
          top: 10,
          excludeSession: "live-0001",
        };
        assert.deepEqual(
          summary(search(growing, q, opts)),
          summary(search(fresh, q, opts)),
          `${mode} ${q} @${k}`,
        );
      }
    }
  }
});

Deno.test("AppendIndex: an empty index answers like an empty corpus", () => {
  const idx = new AppendIndex();
  assert.equal(idx.docCount, 0);
  assert.equal(idx.avgDocLength, 0);
  assert.equal(idx.docFreq("x"), 0);
  assert.deepEqual(idx.postings("x"), []);
  assert.throws(() => idx.meta(0), RangeError);
  assert.equal(search(idx, "anything", { mode: "hint", nowMs: 0 }).hits.length, 0);
});
