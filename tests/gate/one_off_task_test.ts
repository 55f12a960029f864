/**
 * A one-off task is a decision only with a strong marker: a should inside a request for work
 * describes the task ("update the exporter so the csv should have…"), not a standing rule.
 */
import assert from "node:assert/strict";
import type { VerdictRecord } from "../../src/record/record.ts";
import type { GateVerdict } from "../../src/gate/gate.ts";
import { hintFor, HOOK_TOP } from "../../src/gate/hint.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";

const NOW = Date.parse("2026-03-01T00:00:00.000Z");

function rec(n: number, text: string): VerdictRecord {
  return {
    id: `r${String(n).padStart(4, "0")}`,
    kind: "prompt",
    origin: "claude",
    text,
    time: "2026-02-20T10:00:00.000Z",
    project: "/work/shop",
    session: `old-${n}`,
    source_file: "/tmp/x.jsonl",
    source_line: n,
    commit: null,
  };
}

const FILLER = [
  "fix the failing test in the cart module",
  "add a loading spinner to the checkout page",
  "rename the helper to formatPrice",
  "why is the login form slow on mobile",
  "write docs for the search endpoint",
  "bump the eslint config and fix the warnings",
  "refactor the invoice mailer into two functions",
  "the dark mode toggle flickers on reload",
];

function hint(earlier: string, prompt: string): GateVerdict {
  const records = [...Array.from({ length: 50 }, (_, i) => rec(i, `${FILLER[i % FILLER.length]} (${i})`))];
  records.push(rec(50, earlier));
  return hintFor(buildMemoryIndex(records), {
    prompt,
    session: "live",
    cwd: "/work/shop",
    nowMs: NOW,
    shown: new Set(),
    entities: [],
    personas: [],
    top: HOOK_TOP,
    textOf: (doc) => records[doc]!.text,
  }).verdict;
}

const why = (v: GateVerdict) =>
  `${v.rule}: ${v.detail} | ${v.checks.map((c) => `${c.rule}: ${c.detail}`).join(" | ")}`;

const PROMPT = "the quiz export lacks originalQuestionId for bank questions, where does it come from";

Deno.test("a request for work with a should in it is no decision; the same should stated, or always, is", () => {
  for (
    const task of [
      "update the quiz export so the csv should have originalQuestionId headings for pooled bank questions, with their url",
      "can you make the quiz export csv, it should have originalQuestionId headings for pooled bank questions, with their url",
    ]
  ) {
    const v = hint(task, PROMPT);
    assert.equal(v.speak, false, `${task}: ${why(v)}`);
  }
  for (
    const rule of [
      "the quiz export csv should have originalQuestionId headings for pooled bank questions, with their url",
      "update the quiz export so the csv always has originalQuestionId headings for pooled bank questions, with their url",
    ]
  ) {
    const v = hint(rule, PROMPT);
    assert.equal(v.speak, true, `${rule}: ${why(v)}`);
  }
});

Deno.test("a should or a need of what we or you do next is the work at hand; a choice of tool or behaviour is a decision", () => {
  for (
    const task of [
      "for the quiz export we should verify the originalQuestionId headings of pooled bank questions, with their url",
      "you should also fetch the quiz export originalQuestionId headings for pooled bank questions, with their url",
      "we need to find where the quiz export gets originalQuestionId headings for pooled bank questions",
    ]
  ) {
    const v = hint(task, PROMPT);
    assert.equal(v.speak, false, `${task}: ${why(v)}`);
    assert.match(why(v), /not a decision/, task);
  }
  for (
    const rule of [
      "for the quiz export we should use originalQuestionId headings for pooled bank questions, with their url",
      "the quiz export should show originalQuestionId headings for pooled bank questions, with their url",
      "for the quiz export we should always verify the originalQuestionId headings of pooled bank questions",
    ]
  ) {
    const v = hint(rule, PROMPT);
    assert.equal(v.speak, true, `${rule}: ${why(v)}`);
  }
});

Deno.test("a should said of it, this or they has its subject elsewhere: no decision; a named subject is one", () => {
  for (
    const said of [
      "It should output a csv with originalQuestionId headings for pooled bank questions, with their url",
      "I'm seeing the quiz export differently, it should have originalQuestionId headings for pooled bank questions",
      "they should also carry originalQuestionId headings in the quiz export for pooled bank questions",
    ]
  ) {
    const v = hint(said, PROMPT);
    assert.equal(v.speak, false, `${said}: ${why(v)}`);
  }
  for (
    const rule of [
      // The first should names its subject; a later "this should" inside it changes nothing.
      "the quiz export should have originalQuestionId headings for pooled bank questions (this should hold for their url too)",
      // A strong marker is a rule whatever its subject.
      "it must always carry originalQuestionId headings in the quiz export for pooled bank questions",
    ]
  ) {
    const v = hint(rule, PROMPT);
    assert.equal(v.speak, true, `${rule}: ${why(v)}`);
  }
});
