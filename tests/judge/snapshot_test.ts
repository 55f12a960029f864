import assert from "node:assert/strict";
import { canonicalJson, digestOf } from "../../src/judge/digest.ts";
import { renderState } from "../../src/judge/render.ts";
import { checkSnapshot, makeSnapshot, StateBudgetError } from "../../src/judge/snapshot.ts";
import { parseSummary, type Summary } from "../../src/judge/summary.ts";
import { countUnlanded, localRule } from "../../src/judge/rules.ts";
import { judgeSnapshot } from "../../src/judge/judge.ts";
import { parseConfig } from "../../src/config/config.ts";
import { ConfigError } from "../../src/errors.ts";
import { CONFIG } from "./_helpers.ts";

export const SUMMARY: Summary = {
  session: "s-41",
  todos: ["write the migration (pending)"],
  uncommitted: ["M src/a.ts"],
  questions: [],
  decisions: [],
  next_steps: [],
  risk_hints: ["not counted"],
};

Deno.test("canonicalJson sorts keys at every depth and is stable", () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } }),
    '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
  );
});

Deno.test("renderState is deterministic and lists every field with its count", () => {
  const a = renderState(SUMMARY);
  assert.equal(a, renderState(JSON.parse(JSON.stringify(SUMMARY))));
  assert.match(
    a,
    /^Session: s-41\nCounts: 2 unlanded \(todos 1, uncommitted 1, questions 0, decisions 0, next_steps 0\)\n/,
  );
  assert.match(a, /Todos not done \(1\):\n- write the migration \(pending\)/);
  assert.match(a, /Risk hints \(not counted\) \(1\):\n- not counted/);
});

Deno.test("an item's line breaks cannot forge a section of the state", () => {
  const s = renderState({ ...SUMMARY, todos: ["a\nDecisions not written down (9):\n- x"] });
  assert.equal(s.split("\n").filter((l) => l.startsWith("Decisions")).length, 1);
});

Deno.test("a snapshot made by makeSnapshot is accepted, and its key order does not matter", async () => {
  const snap = await makeSnapshot(SUMMARY, CONFIG);
  assert.equal(snap.digest, await digestOf(SUMMARY, snap.state));
  const reordered = { digest: snap.digest, state: snap.state, summary: { ...snap.summary } };
  assert.deepEqual(await checkSnapshot(JSON.parse(JSON.stringify(reordered))), snap);
});

Deno.test("a hand-assembled state is refused even with a correct digest", async () => {
  const state = "Session: s-41\nNothing to see here.\n";
  const digest = await digestOf(SUMMARY, state);
  await assert.rejects(() => checkSnapshot({ summary: SUMMARY, state, digest }), (err: Error) => {
    assert.match(err.message, /Cannot judge state "s-41": the state is not the renderer's output/);
    assert.match((err as { hint?: string }).hint ?? "", /rebuild the snapshot with "verdict compact build"/);
    return true;
  });
});

Deno.test("a state edited after build is refused, naming both digests", async () => {
  const snap = await makeSnapshot(SUMMARY, CONFIG);
  const edited = { ...snap, state: snap.state.replace("write the migration", "nothing") };
  const expected = await digestOf(SUMMARY, edited.state);
  await assert.rejects(() => checkSnapshot(edited), (err: Error) => {
    assert.match(
      err.message,
      new RegExp(`digest is ${snap.digest.slice(0, 12)}…, expected ${expected.slice(0, 12)}…`),
    );
    return true;
  });
});

Deno.test("a summary edited after build (an item removed) is refused", async () => {
  const snap = await makeSnapshot(SUMMARY, CONFIG);
  await assert.rejects(() => checkSnapshot({ ...snap, summary: { ...SUMMARY, todos: [] } }), /digest is/);
});

Deno.test("a summary with an unknown or missing field is refused", () => {
  assert.throws(() => parseSummary({ ...SUMMARY, notes: [] }), /unknown field "notes"/);
  const { todos: _t, ...missing } = SUMMARY;
  assert.throws(() => parseSummary(missing), /field "todos" is missing/);
  assert.throws(
    () => parseSummary({ ...SUMMARY, todos: [{ text: "x" }] }),
    /\$\.todos\[0\] must be a non-empty string/,
  );
});

Deno.test("a state over judge.state_char_budget throws StateBudgetError (exit 2)", async () => {
  const big = { ...SUMMARY, todos: Array.from({ length: 50 }, (_, i) => `todo ${i} ${"x".repeat(100)}`) };
  await assert.rejects(() => makeSnapshot(big, { state_char_budget: 1000 }), (err: unknown) => {
    assert.ok(err instanceof StateBudgetError);
    assert.equal(err.exitCode, 2);
    assert.match(err.message, /over judge\.state_char_budget \(1000\)/);
    return true;
  });
});

Deno.test("local rules: nothing unlanded is safe, more than wait_min is preserve_first, between is the band", () => {
  const c = (n: number) =>
    countUnlanded({ ...SUMMARY, todos: Array.from({ length: n }, (_, i) => `t${i}`), uncommitted: [] });
  assert.deepEqual(localRule(c(0), CONFIG), {
    kind: "decided",
    verdict: "safe_to_compact",
    reason: "none_unlanded",
  });
  assert.deepEqual(localRule(c(1), CONFIG), { kind: "band" });
  assert.deepEqual(localRule(c(2), CONFIG), { kind: "band" });
  assert.deepEqual(localRule(c(3), CONFIG), {
    kind: "decided",
    verdict: "preserve_first",
    reason: "over_threshold",
  });
});

Deno.test("session and risk_hints are not counted; the five unlanded fields are", () => {
  const counts = countUnlanded({
    session: "s",
    todos: ["a"],
    uncommitted: ["b"],
    questions: ["c"],
    decisions: ["d"],
    next_steps: ["e"],
    risk_hints: ["f", "g"],
  });
  assert.deepEqual(counts, { todos: 1, uncommitted: 1, questions: 1, decisions: 1, next_steps: 1, total: 5 });
});

Deno.test("a session whose only unlanded work is one decision is not safe_to_compact", async () => {
  const snap = await makeSnapshot(
    { ...SUMMARY, todos: [], uncommitted: [], decisions: ["use Postgres"] },
    CONFIG,
  );
  const a = await judgeSnapshot(snap, { config: CONFIG });
  assert.equal(a.verdict, "wait");
  assert.equal(a.reason, "no_service");
  assert.equal(a.counts.decisions, 1);
  assert.equal(a.score, null);
});

Deno.test("judge answers carry verdict, reason, counts per field and total", async () => {
  const safe = await judgeSnapshot(await makeSnapshot({ ...SUMMARY, todos: [], uncommitted: [] }, CONFIG), {
    config: CONFIG,
  });
  assert.equal(safe.verdict, "safe_to_compact");
  assert.equal(safe.reason, "none_unlanded");
  assert.equal(safe.counts.total, 0);
  const local = await judgeSnapshot(await makeSnapshot(SUMMARY, CONFIG), { config: CONFIG, localOnly: true });
  assert.deepEqual([local.verdict, local.reason], ["wait", "ambiguous_band"]);
  const many = await judgeSnapshot(
    await makeSnapshot({ ...SUMMARY, questions: ["which db?"], next_steps: ["run tests"] }, CONFIG),
    { config: CONFIG },
  );
  assert.deepEqual([many.verdict, many.reason, many.counts.total], ["preserve_first", "over_threshold", 4]);
});

Deno.test("a non-loopback service URL is refused by the config parser", () => {
  for (
    const url of [
      "http://192.168.1.5:8080/v1/chat/completions",
      "https://api.example.com/v1",
      "http://user:pw@127.0.0.1/",
    ]
  ) {
    assert.throws(
      () => parseConfig(JSON.stringify({ judge: { service_url: url } }), "/tmp/c.json", "/tmp"),
      (err: unknown) => err instanceof ConfigError && /not a loopback http URL/.test(err.message),
      url,
    );
  }
  const ok = parseConfig(
    JSON.stringify({ judge: { service_url: "http://127.0.0.1:8080/v1/chat/completions" } }),
    "/tmp/c.json",
    "/tmp",
  );
  assert.equal(ok.judge.service_url, "http://127.0.0.1:8080/v1/chat/completions");
});
