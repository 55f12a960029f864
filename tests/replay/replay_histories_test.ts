/**
 * The hint on the real histories (the shared data's histories/ and more-histories/; skipped with
 * a printed reason when absent): every pair the gate shows or pools for a person with a label
 * file is labelled (the people without one are named as skipped), the labels are well formed,
 * and replay's one approximation (CJK words from the whole archive) stays within its bound.
 */
import assert from "node:assert/strict";
import { evaluate, LABELS_DIR, LANGUAGE, loadLabels, ownDigest, transcriptDigestKey } from "./replay_eval.ts";
import { historiesMissing, people } from "./histories.ts";
import { hasLabelFile, MAX_REASON } from "./labels.ts";
import { loadTranscriptPeople, personOf, transcriptsMissing } from "./transcripts.ts";

const missing = historiesMissing();
if (missing !== null) console.log(`replay_histories_test: skipping the history checks: ${missing}`);

const transcriptsAbsent = transcriptsMissing();
if (transcriptsAbsent !== null) {
  console.log(`replay_histories_test: skipping the transcript checks: ${transcriptsAbsent}`);
}

/** Replay must decide like an index built from scratch at the prompt at least this often. */
const MIN_FRESH_AGREEMENT = 0.95;

/** The label files of a reading: the first (the folder itself) or the second (`second/`). */
function labelFiles(second: boolean): string[] {
  try {
    return [...Deno.readDirSync(new URL(second ? "second/" : ".", LABELS_DIR))]
      .filter((e) => e.isFile && e.name.endsWith(".jsonl")).map((e) => e.name);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
}

Deno.test("the replay label files are well formed: known labels, a reason each, a key twice only as a correction", () => {
  assert.ok(labelFiles(false).length > 0);
  for (const second of [false, true]) {
    for (const f of labelFiles(second)) {
      const labels = loadLabels(f.replace(/\.jsonl$/, ""), LABELS_DIR, second);
      assert.ok(labels.size > 0, f);
      for (const l of labels.values()) {
        // A reason is one short line of our own words, never a copied text.
        assert.ok(!l.reason.includes("\n") && l.reason.length <= MAX_REASON, `${f} ${l.key}: ${l.reason}`);
      }
    }
  }
});

Deno.test({
  name: "every pair the gate shows or pools for a person with a label file is labelled",
  ignore: missing !== null,
  fn() {
    const all = people().people;
    const refs = all.filter((r) => hasLabelFile(r.name));
    const skipped = all.filter((r) => !hasLabelFile(r.name)).map((r) => r.name);
    if (skipped.length > 0) {
      console.log(`replay_histories_test: not yet labelled, so not checked: ${skipped.join(", ")}`);
    }
    const e = evaluate({ people: refs, cross: "none" });
    const list = e.unlabelled.map((p) => `${p.history} ${p.mode} ${p.key}`);
    assert.deepEqual(list, [], "label them: deno task eval:replay --export-pairs /tmp/pairs.jsonl");
  },
});

Deno.test({
  name:
    "replay decides like an index built from scratch at the prompt (the CJK-words approximation is bounded)",
  ignore: missing !== null,
  fn() {
    const e = evaluate({ cross: "none" });
    const share = e.total.freshAgree / e.total.freshTotal;
    console.log(`replay vs. fresh index: ${e.total.freshAgree}/${e.total.freshTotal}`);
    assert.ok(share >= MIN_FRESH_AGREEMENT, `${share}`);
  },
});

Deno.test("the histories are never copied into the project: label lines hold keys and verdicts only", () => {
  const forbidden = /"(?:display|text|prompt|quote)"\s*:/;
  const optional = new Set(["labeller", "was"]);
  for (const second of [false, true]) {
    for (const name of labelFiles(second)) {
      const text = Deno.readTextFileSync(new URL(`${second ? "second/" : ""}${name}`, LABELS_DIR));
      assert.ok(!forbidden.test(text), `${name} holds texts`);
      for (const line of text.split("\n").filter((l) => l)) {
        const keys = Object.keys(JSON.parse(line));
        assert.deepEqual(keys.filter((k) => !optional.has(k)).sort(), ["key", "label", "reason"], line);
      }
    }
  }
});

/** Every replayed decision, hashed per history and per cross pair (eval:replay --digest). */
const DECISIONS = new URL("decisions.json", LABELS_DIR);

Deno.test({
  name:
    "the gate decides every prompt of the development histories, own and cross-paired, as decisions.json records",
  ignore: missing !== null,
  fn() {
    const want = JSON.parse(Deno.readTextFileSync(DECISIONS)) as Record<string, string>;
    // The first five people, every prompt of every cross pair (as `eval:replay --digest` writes it).
    const e = evaluate({ cross: null });
    const got: Record<string, string> = {};
    for (const run of e.runs) got[run.history] = ownDigest(run);
    for (const c of e.cross) got[`${c.prompts} → ${c.archive}`] = c.digest;
    for (const c of e.transcriptCross) got[transcriptDigestKey(c)] = c.digest;
    if (e.transcriptsSkipped !== null) {
      console.log(
        `replay_histories_test: the transcripts' cross pairs are not checked: ${e.transcriptsSkipped}`,
      );
      for (const k of Object.keys(want)) if (k.startsWith("transcripts: ")) delete want[k];
    }
    // A change that means to decide differently says so: regenerate the file with
    // `deno task eval:replay --digest > tests/fixtures/replay/decisions.json` and label what it shows.
    assert.deepEqual(got, want);
  },
});

Deno.test({
  name:
    "the transcripts' people are read by the collectors' own typed-prompt rules, schema catalogs left out",
  ignore: transcriptsAbsent !== null,
  fn() {
    assert.equal(personOf("d-kimuson-1af7fc5e.jsonl"), "d-kimuson");
    assert.equal(personOf("obra-long-conversation.jsonl"), "obra");
    const people = loadTranscriptPeople();
    const names = people.map((p) => p.name);
    // The jazzyalex files are schema catalogs, not anyone's session.
    assert.ok(!names.includes("jazzyalex"), names.join(", "));
    assert.ok(names.includes("obra") && names.includes("jnarowski"), names.join(", "));
    for (const p of people) {
      assert.ok(p.records.length > 0, p.name);
      for (const r of p.records) {
        assert.equal(r.kind, "prompt");
        // Typed prompts only: no command wrapper or injected context reaches the check.
        assert.ok(!r.text.startsWith("<command-") && !r.text.startsWith("<environment_context>"), r.text);
      }
      const times = p.records.map((r) => r.time);
      assert.deepEqual(times, [...times].sort(), `${p.name}: in time order`);
    }
  },
});

Deno.test({
  name: "every person of the shared data has a language, so the cross pairs' language table has no unknown",
  ignore: missing !== null,
  fn() {
    const found = people();
    const names = found.people.map((r) => r.name);
    if (found.skipped.length > 0) console.log(`replay_histories_test: ${found.skipped.join("; ")}`);
    assert.ok(names.length >= 5, names.join(", "));
    assert.deepEqual(names.filter((n) => LANGUAGE[n] === undefined), []);
  },
});
