/**
 * The gate's quality on the labelled fixtures (tests/fixtures/gate/): precision and recall
 * floors, and strict silence where the spec requires it. `deno task eval:gate` prints the
 * figures and every miss.
 */
import assert from "node:assert/strict";
import { loadFixtures, scoreGate } from "./gate_eval.ts";

/**
 * Floors under the measured figures (94.1% precision, 48.5% recall at the time of writing;
 * 79.6% and 65.2% before the gate judged statements). Recall fell on purpose: the probes missed
 * now match their decision on one rare word ("float", "Friday", "logrus"), and on real people's
 * histories (deno task eval:replay) allowing one word doubles the hints (47 to 99 of 3,227
 * prompts) and raises cross-paired false fires, which need no labels, from 0.05% to 0.9% of
 * prompts, while showing none more of the pooled relevant decisions.
 */
const MIN_PRECISION = 0.88;
const MIN_RECALL = 0.45;

/** Probe labels under which any quote is a failure. */
const MUST_BE_SILENT =
  /small talk|greeting|unrelated topic|common words only|undecided statement|caller's own live session/;

Deno.test("the gate's precision and recall on the labelled probes stay above their floors", () => {
  const s = scoreGate();
  console.log(
    `gate: precision ${(s.precision * 100).toFixed(1)}%, recall ${(s.recall * 100).toFixed(1)}%, ` +
      `silent ${s.silentRight}/${s.silentProbes}`,
  );
  assert.ok(s.precision >= MIN_PRECISION, `precision ${s.precision}`);
  assert.ok(s.recall >= MIN_RECALL, `recall ${s.recall}`);
});

Deno.test("the gate stays silent on small talk, unrelated and common-word prompts, undecided topics and the live session", () => {
  const s = scoreGate();
  const strict = s.outcomes.filter((o) => o.probe.expect === null && MUST_BE_SILENT.test(o.probe.why));
  assert.ok(strict.length >= 25, `only ${strict.length} strict probes`);
  const spoke = strict.filter((o) => o.quoted !== null).map((o) =>
    `${o.probe.id} (${o.probe.why}): ${o.probe.prompt}`
  );
  assert.deepEqual(spoke, []);
});

Deno.test("the gate never quotes a record of the caller's own session", () => {
  const s = scoreGate();
  const { records } = loadFixtures();
  const sessionOf = new Map(records.map((r) => [r.id, r.session]));
  const own = s.outcomes.filter((o) => o.quoted !== null && sessionOf.get(o.quoted) === o.probe.session);
  assert.deepEqual(own.map((o) => o.probe.id), []);
  assert.ok(
    s.outcomes.some((o) => o.probe.session === "live-0001" && o.quoted !== null),
    "the live caller was quoted something",
  );
});
