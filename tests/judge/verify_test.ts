import assert from "node:assert/strict";
import { caseOutcome, parseCases, verifyCorpus, verifyCorpusFile } from "../../src/judge/verify.ts";
import { CONFIG, fakeService } from "./_helpers.ts";

const EMPTY = {
  session: "s",
  todos: [],
  uncommitted: [],
  questions: [],
  decisions: [],
  next_steps: [],
  risk_hints: [],
};
const FULL = { ...EMPTY, todos: ["a", "b", "c"] };
const BAND = { ...EMPTY, todos: ["a"] };
const OPTS = { config: CONFIG, baseDir: null, transcriptRoots: [] };
const CORPUS = new URL("../../examples/compaction-corpus.jsonl", import.meta.url).pathname;

Deno.test("a corpus with only one label is refused", async () => {
  for (const label of ["lost", "keep"]) {
    await assert.rejects(
      () => verifyCorpus([{ id: "a", label, summary: FULL }, { id: "b", label, summary: EMPTY }], OPTS),
      new RegExp(`refusing to verify a corpus whose cases are all "${label}"`),
    );
  }
  await assert.rejects(() => verifyCorpus([], OPTS), /empty corpus/);
});

Deno.test("bad cases are refused with their position: duplicate id, bad label, both or neither source", () => {
  const where = (i: number) => `c:${i + 1}`;
  assert.throws(
    () =>
      parseCases(
        [{ id: "a", label: "lost", summary: EMPTY }, { id: "a", label: "keep", summary: EMPTY }],
        where,
      ),
    /c:2: id "a" is used twice/,
  );
  assert.throws(
    () => parseCases([{ id: "a", label: "maybe", summary: EMPTY }], where),
    /"label" must be "lost" or "keep"/,
  );
  assert.throws(
    () => parseCases([{ id: "a", label: "lost" }], where),
    /exactly one of "summary" and "transcript"/,
  );
  assert.throws(
    () => parseCases([{ id: "a", label: "lost", summary: EMPTY, drop: [1] }], where),
    /\$\.drop|"drop"/,
  );
});

Deno.test("outcomes: lost judged safe is let through; keep not judged safe is refused; no service is SKIP", () => {
  assert.equal(
    caseOutcome("lost", { verdict: "safe_to_compact", reason: "service_answer" }),
    "lost_let_through",
  );
  assert.equal(caseOutcome("lost", { verdict: "wait", reason: "service_invalid_answer" }), "ok");
  assert.equal(caseOutcome("keep", { verdict: "preserve_first", reason: "over_threshold" }), "keep_refused");
  assert.equal(caseOutcome("keep", { verdict: "wait", reason: "no_service" }), "skip");
  assert.equal(caseOutcome("lost", { verdict: "wait", reason: "service_unreachable" }), "skip");
});

Deno.test("the report counts both rates over judged cases and lists SKIP cases", async () => {
  const r = await verifyCorpus([
    { id: "l1", label: "lost", summary: FULL },
    { id: "l2", label: "lost", summary: BAND },
    { id: "k1", label: "keep", summary: EMPTY },
    { id: "k2", label: "keep", summary: FULL },
  ], OPTS);
  assert.deepEqual(r.lostLetThrough, []);
  assert.deepEqual(r.keepRefused, ["k2"]);
  assert.deepEqual(r.skipped, ["l2"]);
  assert.equal(r.lostLetThroughRate, 0);
  assert.equal(r.keepRefusedRate, 0.5);
  assert.equal(r.allSkipped, false);
});

Deno.test("when every case needs the absent service, allSkipped is reported and the rates are null", async () => {
  const r = await verifyCorpus([{ id: "l", label: "lost", summary: BAND }, {
    id: "k",
    label: "keep",
    summary: BAND,
  }], OPTS);
  assert.equal(r.allSkipped, true);
  assert.equal(r.lostLetThroughRate, null);
  assert.equal(r.keepRefusedRate, null);
});

Deno.test("a service that lets a lost band case through is reported as dangerous", async () => {
  const svc = fakeService('{"choice":"safe_to_compact","score":0.9}');
  try {
    const r = await verifyCorpus(
      [{ id: "l", label: "lost", summary: BAND }, { id: "k", label: "keep", summary: EMPTY }],
      { ...OPTS, config: { ...CONFIG, service_url: svc.url } },
    );
    assert.deepEqual(r.lostLetThrough, ["l"]);
    assert.equal(r.lostLetThroughRate, 1);
  } finally {
    await svc.close();
  }
});

Deno.test("a transcript case may not point outside the corpus folder", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  await Deno.mkdir(`${dir}/c`);
  await Deno.writeTextFile(`${dir}/secret.jsonl`, "{}\n");
  await Deno.writeTextFile(
    `${dir}/c/corpus.jsonl`,
    [
      JSON.stringify({ id: "a", label: "lost", transcript: "../secret.jsonl" }),
      JSON.stringify({ id: "b", label: "keep", summary: EMPTY }),
    ].join("\n"),
  );
  await assert.rejects(
    () => verifyCorpusFile(`${dir}/c/corpus.jsonl`, { config: CONFIG }),
    /refusing to read transcript/,
  );
});

Deno.test("the shipped corpus: at least 40 cases, both labels, no lost case let through", async () => {
  const r = await verifyCorpusFile(CORPUS, { config: CONFIG });
  assert.ok(r.cases >= 40, `${r.cases}`);
  assert.ok(r.lost > 0 && r.keep > 0);
  assert.deepEqual(r.lostLetThrough, []);
  assert.equal(r.allSkipped, false);
  const ids = new Set(r.results.map((c) => c.id));
  for (
    const id of [
      "s-only-decisions",
      "s-dirty-tree",
      "s-no-git",
      "tx-todos-all-done",
      "tx-open-question",
      "tx-empty-session",
    ]
  ) {
    assert.ok(ids.has(id), id);
  }
});
