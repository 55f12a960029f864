import assert from "node:assert/strict";
import {
  assertNoForbiddenKeys,
  foldKey,
  FORBIDDEN_KEYS,
  ForbiddenKeyError,
  forbiddenKeyFor,
} from "../../src/judge/forbidden.ts";
import { SUMMARY_FIELDS } from "../../src/judge/summary.ts";
import { parseSummary } from "../../src/judge/summary.ts";
import { checkSnapshot } from "../../src/judge/snapshot.ts";
import { callCompactionTool } from "../../src/judge/tools.ts";
import { buildServiceRequest } from "../../src/judge/service.ts";
import { VERDICTS } from "../../src/judge/rules.ts";
import { CONFIG, RULES } from "./_helpers.ts";

Deno.test("FORBIDDEN_KEYS holds exactly 35 distinct names, distinct even when folded", () => {
  assert.equal(FORBIDDEN_KEYS.length, 35);
  assert.equal(new Set(FORBIDDEN_KEYS.map(foldKey)).size, 35);
  assert.ok(Object.isFrozen(FORBIDDEN_KEYS));
});

Deno.test("every one of the 35 keys is refused at depth, with its JSON path and the measurement", () => {
  for (const key of FORBIDDEN_KEYS) {
    const payload = { outer: { inner: [{ [key]: ["b1"] }] } };
    assert.throws(
      () => assertNoForbiddenKeys(payload, "tool input"),
      (err: unknown) => {
        assert.ok(err instanceof ForbiddenKeyError, `${key}: ${err}`);
        assert.equal(err.path, `$.outer.inner[0].${key}`);
        assert.equal(err.exitCode, 3);
        assert.match(err.message, new RegExp(`\\$\\.outer\\.inner\\[0\\]\\.${key}`));
        assert.match(err.message, /0\.323/);
        assert.match(err.message, /0\.691/);
        assert.match(err.message, /per-block judging was measured to fail/);
        return true;
      },
    );
  }
});

Deno.test("the match is case-insensitive and ignores _, - and spaces", () => {
  for (const spelled of ["PerBlock", "per_block", "PER-BLOCK", "Per Block", "perblock"]) {
    assert.equal(forbiddenKeyFor(spelled), "perBlock", spelled);
    assert.throws(() => assertNoForbiddenKeys({ a: [{ b: { [spelled]: 1 } }] }, "x"), /refusing x/);
  }
});

Deno.test("a key name that merely contains a forbidden word is allowed; values are never checked", () => {
  assertNoForbiddenKeys({ keeper: 1, dropdown: 2, label: "keep", note: "drop the perBlock idea" }, "x");
});

Deno.test("objects inside arrays inside arrays are checked too, and a key with odd characters is quoted", () => {
  assert.throws(() => assertNoForbiddenKeys([[{ ok: [{ "a b": { drop: 1 } }] }]], "x"), (err: unknown) => {
    assert.ok(err instanceof ForbiddenKeyError);
    assert.equal(err.path, '$[0][0].ok[0]["a b"].drop');
    return true;
  });
});

Deno.test("no shape verdict defines uses a forbidden key", () => {
  for (const f of SUMMARY_FIELDS) assert.equal(forbiddenKeyFor(f), null, f);
  for (
    const k of ["summary", "state", "digest", "choice", "score", "verdict", "reason", "counts", "id", "label"]
  ) {
    assert.equal(forbiddenKeyFor(k), null, k);
  }
  // The service request is checked before sending; building it must not trip the check.
  buildServiceRequest("state", VERDICTS, "m");
});

Deno.test("a summary, a snapshot and a tool input holding a forbidden key are refused, never stripped", async () => {
  const summary = {
    session: "s",
    todos: [],
    uncommitted: [],
    questions: [],
    decisions: [],
    next_steps: [],
    risk_hints: [],
    blockIds: [3],
  };
  assert.throws(() => parseSummary(summary), /\$\.blockIds/);
  await assert.rejects(
    () => checkSnapshot({ summary, state: "", digest: "0".repeat(64) }),
    /\$\.summary\.blockIds/,
  );
  await assert.rejects(
    () =>
      callCompactionTool("context_verdict_judge", { snapshot: {}, options: { perBlock: true } }, {
        config: CONFIG,
        credentialRules: RULES,
        transcriptRoots: [],
      }),
    /\$\.options\.perBlock/,
  );
});
