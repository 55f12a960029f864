import assert from "node:assert/strict";
import type { DocMeta } from "../../src/rank/bm25.ts";
import type { SearchHit, SearchResult, SearchTerm } from "../../src/rank/score.ts";
import { decide, distinctMatches, isSharpTerm, MAX_HINT_QUOTES, preGate } from "../../src/gate/gate.ts";

const N = 1000;
const idf = (df: number) => Math.log(1 + (N - df + 0.5) / (df + 0.5));

function term(t: string, df: number, common = false): SearchTerm {
  return { term: t, qtf: 1, df, idf: idf(df), common, fromEntity: null };
}

function hit(
  id: string,
  over: Partial<SearchHit> & { marker?: DocMeta["marker"]; kind?: DocMeta["kind"] } = {},
): SearchHit {
  const meta: DocMeta = {
    id,
    kind: over.kind ?? "prompt",
    timeMs: 0,
    project: "/p",
    session: "s",
    marker: "marker" in over ? over.marker ?? null : "strong",
  };
  return {
    doc: 0,
    id,
    meta,
    bm25: 5,
    weights: { source: 1, marker: 1.5, recency: 1, project: 1, entity: 1 },
    score: over.score ?? 5,
    matched: over.matched ?? ["pg_dump", "backup"],
    informativeMatched: over.informativeMatched ?? ["pg_dump", "backup"],
    commonOnly: over.commonOnly ?? false,
    coverage: over.coverage ?? 0.8,
    entities: over.entities ?? [],
  };
}

function result(
  hits: SearchHit[],
  terms: SearchTerm[] = [term("pg_dump", 2), term("backup", 3), term("the", 900, true)],
): SearchResult {
  return { docCount: N, terms, skipped: [], entities: [], candidates: hits.length, hits };
}

Deno.test("the gate speaks for a marked decision matching rare words", () => {
  const v = decide(result([hit("a")]), 2);
  assert.equal(v.speak, true);
  assert.deepEqual(v.hits.map((h) => h.id), ["a"]);
});

Deno.test("each gate rule refuses its case", () => {
  const cases: [string, SearchHit, SearchTerm[]?][] = [
    ["common-only", hit("x", { commonOnly: true, informativeMatched: [], matched: ["the"] })],
    ["no-anchor", hit("x", { informativeMatched: ["deploy", "service"] }), [
      term("deploy", 200),
      term("service", 300),
    ]],
    ["few-terms", hit("x", { informativeMatched: ["backup"] }), [term("backup", 12)]],
    ["low-coverage", hit("x", { coverage: 0.1 })],
    ["not-a-decision", hit("x", { marker: null })],
  ];
  for (const [rule, h, terms] of cases) {
    const v = decide(result([h], terms), 2);
    assert.equal(v.speak, false, rule);
    assert.equal(v.rule, rule);
  }
});

Deno.test("docs and notes count as decisions without a marker; commits do not", () => {
  assert.equal(decide(result([hit("d", { kind: "doc", marker: null })]), 1).speak, true);
  assert.equal(decide(result([hit("n", { kind: "note", marker: null })]), 1).speak, true);
  assert.equal(decide(result([hit("c", { kind: "commit", marker: null })]), 1).speak, false);
});

Deno.test("the gate passes over a refused best hit to a good one, and drops a weak tail", () => {
  const v = decide(
    result([hit("bad", { coverage: 0.05, score: 9 }), hit("good", { score: 5 }), hit("tail", { score: 1 })]),
    3,
  );
  assert.deepEqual(v.hits.map((h) => h.id), ["good"]);
  assert.deepEqual(v.checks.map((c) => c.rule), ["low-coverage", "spoke", "weak-tail"]);
});

Deno.test("the gate shows at most the quotes asked for, and never more than MAX_HINT_QUOTES", () => {
  const many = Array.from({ length: 6 }, (_, i) => hit(`h${i}`, { score: 10 - i * 0.1 }));
  assert.equal(decide(result(many), 1).hits.length, 1);
  assert.equal(decide(result(many), 50).hits.length, MAX_HINT_QUOTES);
});

Deno.test("silence when nothing matched at all", () => {
  assert.equal(decide(result([], []), 2).rule, "empty");
  assert.equal(decide(result([]), 2).rule, "no-candidates");
});

Deno.test("one word never counts as two: contained terms are not distinct matches", () => {
  assert.deepEqual(distinctMatches(["数据", "据库", "数据库", "pg", "dump", "pg_dump", "vitest"]), [
    "数据库",
    "pg_dump",
    "vitest",
  ]);
  assert.ok(isSharpTerm("pg_dump") && isSharpTerm("v2.3") && isSharpTerm("gen-itgc"));
  assert.ok(!isSharpTerm("数据库") && !isSharpTerm("backup"));
});

Deno.test("preGate refuses other personas, empty and machine-made prompts", () => {
  const base = {
    prompt: "use pg_dump",
    cwd: "/src/shop",
    personas: [] as string[],
    machineMade: (p: string) => p.startsWith("<task"),
  };
  assert.equal(preGate(base), null);
  assert.equal(preGate({ ...base, personas: ["billing"] })?.rule, "persona");
  assert.equal(preGate({ ...base, personas: ["shop"] }), null);
  assert.equal(preGate({ ...base, prompt: "   " })?.rule, "empty");
  assert.equal(preGate({ ...base, prompt: "<task-notification>" })?.rule, "machine-made");
});
