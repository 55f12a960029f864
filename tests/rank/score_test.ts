import assert from "node:assert/strict";
import type { RecordKind, VerdictRecord } from "../../src/record/record.ts";
import { record, type RecordOverrides } from "../_records.ts";
import { parseEntities } from "../../src/rank/entities.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import {
  COMMON_MIN_SESSIONS,
  ENTITY_WEIGHT,
  MARKER_WEIGHT_MEDIUM,
  MARKER_WEIGHT_NONE,
  MARKER_WEIGHT_STRONG,
  MAX_QUERY_TERMS,
  PROJECT_WEIGHT,
  RECALL_RECENCY_FLOOR,
  recencyWeight,
  search,
  type SearchOptions,
  selectTerms,
  SOURCE_WEIGHT_COMMIT,
  SOURCE_WEIGHT_DOC,
  SOURCE_WEIGHT_NOTE,
  SOURCE_WEIGHT_PROMPT,
  SOURCE_WEIGHT_TAG,
} from "../../src/rank/score.ts";

const NOW = Date.parse("2026-03-01T00:00:00.000Z");
const DAY = 86_400_000;

let n = 0;
function rec(text: string, over: RecordOverrides = {}): VerdictRecord {
  n++;
  const { id, kind, origin, time, project, session } = over;
  return record(text, {
    id: `p${String(n).padStart(4, "0")}`,
    time: "2026-03-01T00:00:00.000Z",
    project: "/work/a",
    session: "s-old",
    source_file: "/tmp/x.jsonl",
    source_line: n,
  }, { id, kind, origin, time, project, session });
}

const RECALL: SearchOptions = { mode: "recall", nowMs: NOW, top: 50 };

Deno.test("source weights order prompt > note > doc > commit = tag", () => {
  assert.ok(SOURCE_WEIGHT_PROMPT > SOURCE_WEIGHT_NOTE);
  assert.ok(SOURCE_WEIGHT_NOTE > SOURCE_WEIGHT_DOC);
  assert.ok(SOURCE_WEIGHT_DOC > SOURCE_WEIGHT_COMMIT);
  assert.equal(SOURCE_WEIGHT_COMMIT, SOURCE_WEIGHT_TAG);
  const kinds: RecordKind[] = ["tag", "commit", "doc", "note", "prompt"];
  const index = buildMemoryIndex(kinds.map((kind) => rec("pin the flux capacitor", { kind, id: kind })));
  const hits = search(index, "flux capacitor", RECALL).hits;
  assert.deepEqual(hits.map((h) => h.meta.kind), ["prompt", "note", "doc", "commit", "tag"]);
  assert.deepEqual(hits.map((h) => h.weights.source), [1, 0.8, 0.6, 0.4, 0.4]);
  for (const h of hits) assert.equal(h.score, h.bm25 * h.weights.source);
});

Deno.test("marker weights: strong > medium > none, negated markers count as none", () => {
  assert.ok(MARKER_WEIGHT_STRONG > MARKER_WEIGHT_MEDIUM && MARKER_WEIGHT_MEDIUM > MARKER_WEIGHT_NONE);
  const index = buildMemoryIndex([
    rec("we must use the flux capacitor", { id: "a" }),
    rec("we should use the flux capacitor", { id: "b" }),
    rec("we can use the flux capacitor", { id: "c" }),
    rec("never mind the flux capacitor", { id: "d" }),
  ]);
  const byId = new Map(search(index, "flux capacitor", RECALL).hits.map((h) => [h.id, h.weights.marker]));
  assert.deepEqual(Object.fromEntries(byId), {
    a: MARKER_WEIGHT_STRONG,
    b: MARKER_WEIGHT_MEDIUM,
    c: MARKER_WEIGHT_NONE,
    d: MARKER_WEIGHT_NONE,
  });
});

Deno.test("recency: hint halves every 30 days, recall decays hyperbolically to a floor, on a pinned clock", () => {
  assert.equal(recencyWeight("hint", NOW, NOW), 1);
  assert.equal(recencyWeight("hint", NOW - 30 * DAY, NOW), 0.5);
  assert.equal(recencyWeight("hint", NOW - 60 * DAY, NOW), 0.25);
  assert.equal(recencyWeight("recall", NOW - 180 * DAY, NOW), 0.5);
  assert.equal(recencyWeight("recall", NOW - 3650 * DAY, NOW), RECALL_RECENCY_FLOOR);
  assert.equal(recencyWeight("hint", NOW + DAY, NOW), 1); // a clock-skewed future record counts as now

  const index = buildMemoryIndex([
    rec("flux capacitor", { id: "old", time: "2026-01-30T00:00:00.000Z" }),
    rec("flux capacitor", { id: "new", time: "2026-03-01T00:00:00.000Z" }),
  ]);
  const hits = search(index, "flux capacitor", { mode: "hint", nowMs: NOW }).hits;
  assert.deepEqual(hits.map((h) => [h.id, h.weights.recency]), [["new", 1], ["old", 0.5]]);
  // The same records, seen from a later clock: the result follows nowMs, not the wall clock.
  const later = search(index, "flux capacitor", { mode: "hint", nowMs: NOW + 30 * DAY }).hits;
  assert.deepEqual(later.map((h) => h.weights.recency), [0.5, 0.25]);
});

Deno.test("records of the caller's project count double", () => {
  const index = buildMemoryIndex([
    rec("flux capacitor", { id: "mine", project: "/work/mine" }),
    rec("flux capacitor", { id: "other", project: "/work/other" }),
  ]);
  const hits = search(index, "flux capacitor", { ...RECALL, project: "/work/mine" }).hits;
  assert.deepEqual(hits.map((h) => [h.id, h.weights.project]), [["mine", PROJECT_WEIGHT], ["other", 1]]);
  assert.equal(hits[0]!.score, 2 * hits[1]!.score);
});

Deno.test("a query naming an entity alias expands to all its names and boosts records naming any", () => {
  const entities = parseEntities("prod-db\tpgprod,生产库\nbuild-box\tci runner\n");
  const index = buildMemoryIndex([
    rec("生产库 连接满了，必须加连接池", { id: "zh" }),
    rec("prod-db is read only on fridays", { id: "en" }),
    rec("the ci runner is flaky", { id: "other" }),
  ]);
  const result = search(index, "is pgprod", { ...RECALL, entities });
  assert.deepEqual(result.entities, ["prod-db"]);
  assert.ok(result.terms.some((t) => t.term === "prod-db" && t.fromEntity === "prod-db"));
  assert.ok(result.terms.some((t) => t.term === "生产" && t.fromEntity === "prod-db"));
  const byId = new Map(result.hits.map((h) => [h.id, h]));
  assert.equal(byId.get("zh")?.weights.entity, ENTITY_WEIGHT);
  assert.deepEqual(byId.get("zh")?.entities, ["prod-db"]);
  assert.equal(byId.get("en")?.weights.entity, ENTITY_WEIGHT);
  // "is" alone (a stopword) brings in no record: the third names no entity of the query.
  assert.equal(byId.get("other"), undefined);
  // The query spelled the entity as "pgprod"; a record naming it another way still covers that.
  assert.equal(byId.get("en")?.coverage, 1);
});

/** 100 filler records holding "the", so "the" is common; two records about a flux capacitor. */
function commonCorpus(): VerdictRecord[] {
  const records: VerdictRecord[] = [];
  for (let i = 0; i < 100; i++) {
    records.push(rec(`the filler number ${i}`, { id: `x${String(i).padStart(3, "0")}` }));
  }
  records.push(rec("the flux capacitor needs plutonium", { id: "flux" }));
  records.push(rec("the capacitor bank", { id: "cap" }));
  return records;
}

Deno.test("common ASCII words are chosen last and a hit matching only them is flagged", () => {
  const index = buildMemoryIndex(commonCorpus());
  const { terms } = selectTerms(index, "the flux capacitor");
  assert.deepEqual(terms.map((t) => [t.term, t.df, t.common]), [["flux", 1, false], ["capacitor", 2, false], [
    "the",
    102,
    true,
  ]]);
  const result = search(index, "the flux capacitor", RECALL);
  const flux = result.hits[0]!;
  assert.equal(flux.id, "flux");
  assert.deepEqual(flux.matched, ["flux", "capacitor", "the"]);
  assert.deepEqual(flux.informativeMatched, ["flux", "capacitor"]);
  assert.equal(flux.commonOnly, false);
  assert.equal(flux.coverage, 1);
  const cap = result.hits.find((h) => h.id === "cap")!;
  const expected = terms[1]!.idf / (terms[0]!.idf + terms[1]!.idf);
  assert.ok(Math.abs(cap.coverage - expected) < 1e-12);
  // A record matched by "the" alone is no answer to a query that has other words…
  assert.ok(!result.hits.some((h) => h.id.startsWith("x")));
  // …but a query of common words only still ranks by them, and flags such hits.
  const filler = search(index, "the", RECALL).hits.find((h) => h.id.startsWith("x"))!;
  assert.deepEqual(filler.matched, ["the"]);
  assert.deepEqual(filler.informativeMatched, []);
  assert.equal(filler.commonOnly, true);
  assert.equal(filler.coverage, 0);
});

Deno.test("a word is not common in a small archive where 1% is under a handful of conversations", () => {
  const index = buildMemoryIndex([rec("feline cat"), rec("feline lion"), rec("feline tiger")]);
  assert.ok(3 <= COMMON_MIN_SESSIONS);
  assert.equal(selectTerms(index, "feline").terms[0]!.common, false);
});

Deno.test("commonness counts conversations, not records: one long session's topic stays a topic", () => {
  // 50 records: "npm" said 40 times in one session, and 10 other conversations of filler.
  const records = [
    ...Array.from({ length: 40 }, (_, i) => rec(`npm step ${i} of the install`, { session: "long" })),
    ...Array.from({ length: 10 }, (_, i) => rec(`other chat ${i}`, { session: `s${i}` })),
  ];
  assert.equal(selectTerms(buildMemoryIndex(records), "npm").terms[0]!.common, false);
  // The same word in more than COMMON_MIN_SESSIONS separate conversations is a habit of speech.
  const spread = Array.from(
    { length: COMMON_MIN_SESSIONS + 1 },
    (_, i) => rec(`npm again ${i}`, { session: `c${i}` }),
  );
  assert.equal(selectTerms(buildMemoryIndex(spread), "npm").terms[0]!.common, true);
});

Deno.test("stopwords count as common even in a small archive", () => {
  const index = buildMemoryIndex([rec("the cat"), rec("the dog"), rec("是的 这个 数据库")]);
  assert.equal(selectTerms(index, "the").terms[0]!.common, true);
  assert.equal(selectTerms(index, "这个").terms[0]!.common, true);
  const hits = search(index, "what is the weather like", RECALL).hits;
  assert.ok(hits.every((h) => h.commonOnly), "only stopwords matched");
});

Deno.test("words no record holds still count in the prompt's coverage", () => {
  const index = buildMemoryIndex([
    rec("pgprod is read only", { id: "a" }),
    rec("unrelated text", { id: "b" }),
  ]);
  const full = search(index, "pgprod", RECALL).hits[0]!;
  assert.equal(full.coverage, 1);
  const partial = search(index, "pgprod weather mars", RECALL).hits[0]!;
  assert.ok(partial.coverage > 0 && partial.coverage < 0.5, String(partial.coverage));
});

Deno.test("at most MAX_QUERY_TERMS terms are searched, rarest first; absent terms are skipped", () => {
  const words = Array.from({ length: MAX_QUERY_TERMS + 4 }, (_, i) => `w${i}`);
  const records = words.map((w, i) => rec(words.slice(0, i + 1).join(" "), { id: w }));
  const index = buildMemoryIndex(records);
  const { terms, skipped } = selectTerms(index, [...words, "absentword"].join(" "));
  assert.equal(terms.length, MAX_QUERY_TERMS);
  // w19 is in one record, w0 in all 20: the rarest come first.
  assert.equal(terms[0]!.term, `w${MAX_QUERY_TERMS + 3}`);
  assert.deepEqual(skipped.filter((s) => s.reason === "absent").map((s) => s.term), ["absentword"]);
  assert.deepEqual(skipped.filter((s) => s.reason === "limit").map((s) => s.term), ["w3", "w2", "w1", "w0"]);
});

Deno.test("the live session and cooldown ids are never returned", () => {
  const index = buildMemoryIndex([
    rec("flux capacitor", { id: "live", session: "s-live" }),
    rec("flux capacitor", { id: "seen" }),
    rec("flux capacitor", { id: "ok" }),
  ]);
  const hits = search(index, "flux capacitor", {
    ...RECALL,
    excludeSession: "s-live",
    excludeIds: new Set(["seen"]),
  }).hits;
  assert.deepEqual(hits.map((h) => h.id), ["ok"]);
});

Deno.test("ties break by time (newer first), then id", () => {
  const index = buildMemoryIndex([
    rec("flux capacitor", { id: "b", time: "2026-02-01T00:00:00.000Z" }),
    rec("flux capacitor", { id: "a", time: "2026-02-01T00:00:00.000Z" }),
    rec("flux capacitor", { id: "c", time: "2026-02-02T00:00:00.000Z" }),
  ]);
  // recall with a far clock: all three sit on the recency floor, so their scores tie exactly.
  const hits = search(index, "flux capacitor", { mode: "recall", nowMs: NOW + 20 * 365 * DAY }).hits;
  assert.equal(new Set(hits.map((h) => h.score)).size, 1);
  assert.deepEqual(hits.map((h) => h.id), ["c", "a", "b"]);
});

Deno.test("the same input gives the same output", () => {
  const records = [
    ...commonCorpus(),
    rec("以后统一用 pnpm，不要再用 npm", { id: "zh1" }),
    rec("我们决定数据库迁移用 pg_dump", { id: "zh2" }),
    rec("数据库迁移脚本放在 scripts 目录", { id: "zh3", kind: "doc" }),
  ];
  const entities = parseEntities("pg_dump\tpgdump\n");
  const opts: SearchOptions = { mode: "hint", nowMs: NOW, project: "/work/a", entities, top: 10 };
  const first = search(buildMemoryIndex(records), "数据库迁移用什么 pg_dump the capacitor", opts);
  const second = search(buildMemoryIndex(records), "数据库迁移用什么 pg_dump the capacitor", opts);
  assert.deepEqual(first, second);
  assert.ok(first.hits.length > 0);
  assert.equal(first.hits[0]!.id, "zh2");
});

Deno.test("search() tokenizes the query with the CJK words the index derived from its records", () => {
  const nouns = ["数据库", "服务器", "配置文件", "缓存", "日志", "分支"];
  const verbs = ["迁移", "重启", "检查", "备份", "清理"];
  const lead = ["我们", "以后", "今天", "你先"];
  const records: VerdictRecord[] = [];
  for (const a of lead) for (const v of verbs) for (const w of nouns) records.push(rec(`${a}${v}${w}`));
  records.push(rec("以后统一用 pg_dump 备份数据库", { id: "target" }));
  const index = buildMemoryIndex(records);
  assert.ok(index.isCjkWord("数据库"));
  assert.equal(index.meta(records.length - 1).marker, "strong");
  const { terms } = selectTerms(index, "备份数据库用什么");
  assert.ok(terms.some((t) => t.term === "数据库"));
  const bigramsOnly = buildMemoryIndex(records, { cjkWords: new Set() });
  assert.ok(!selectTerms(bigramsOnly, "备份数据库用什么").terms.some((t) => t.term === "数据库"));
  assert.equal(search(index, "pg_dump 备份数据库", RECALL).hits[0]?.id, "target");
});

Deno.test("the hint's cut of candidates that cannot reach the top changes no hit: top 15 = the first 15 of all", async () => {
  const { makeRecords, queries } = await import("../../bench/hint_bench_data.ts");
  const { anchorIdf } = await import("../../src/gate/gate.ts");
  const records = makeRecords(4000);
  const index = buildMemoryIndex(records);
  const nowMs = Date.parse("2026-01-01T00:00:00Z");
  const variants: Partial<SearchOptions>[] = [
    {},
    { project: "/home/dev/p3", excludeSession: "s7" },
    { excludeIds: new Set([records[5]!.id, records[77]!.id, records[1234]!.id]) },
    { mode: "recall" },
  ];
  let compared = 0;
  for (const query of queries(150)) {
    for (const v of variants) {
      const base: SearchOptions = { mode: "hint", nowMs, minCandidateIdf: anchorIdf(index.docCount), ...v };
      const cut = search(index, query, { ...base, top: 15 });
      // With room for every candidate nothing can be cut: the reference ranking.
      const all = search(index, query, { ...base, top: index.docCount });
      assert.equal(cut.candidates, all.candidates, query);
      const facts = (r: typeof cut) =>
        r.hits.slice(0, 15).map((h) => [
          h.id,
          h.score,
          h.bm25,
          h.weights,
          h.matched,
          h.informativeMatched,
          h.coverage,
        ]);
      assert.deepEqual(facts(cut), facts(all), query);
      if (all.hits.length > 15) compared++;
    }
  }
  assert.ok(compared > 100, `only ${compared} searches had more candidates than the top`);
});

Deno.test("bm25Accumulate scores only the candidates a cut keeps, and those exactly as without it", async () => {
  const { bm25Accumulate } = await import("../../src/rank/bm25.ts");
  const index = buildMemoryIndex([
    rec("alpha beta gamma"),
    rec("alpha beta"),
    rec("alpha gamma gamma"),
    rec("alpha"),
    rec("beta gamma"),
  ]);
  const terms = ["alpha", "beta", "gamma"].map((term) => ({ term, qtf: 1 }));
  const full = bm25Accumulate(index, terms, 1);
  const fullScores = Array.from({ length: 5 }, (_, d) => full.scores[d]!);
  const fullMasks = Array.from({ length: 5 }, (_, d) => full.masks[d]!);
  let asked: readonly number[] = [];
  const cut = bm25Accumulate(index, terms, 1, (partial, restMax) => {
    asked = restMax;
    assert.equal(partial.count, 4); // alpha starts documents 0–3; 4 holds no start term
    return Uint8Array.from(partial.docs.subarray(0, partial.count), (doc) => doc % 2 === 0 ? 1 : 0);
  });
  assert.equal(asked.length, 2, "one bound per restricted term");
  assert.equal(cut.count, 4);
  assert.equal(cut.scored, 2);
  assert.deepEqual([...cut.docs.subarray(0, 2)].sort(), [0, 2]);
  for (const d of [0, 2]) {
    assert.equal(cut.scores[d], fullScores[d]);
    assert.equal(cut.masks[d], fullMasks[d]);
  }
  // The cut ones kept only the start term's share.
  for (const d of [1, 3]) assert.equal(cut.masks[d], 1);
  // Each bound is above every share its term gave.
  const alphaOnly = bm25Accumulate(index, terms.slice(0, 1));
  for (let d = 0; d < 4; d++) assert.ok(fullScores[d]! - alphaOnly.scores[d]! <= asked[0]! + asked[1]!);
});
