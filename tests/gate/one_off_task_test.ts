/**
 * A one-off task is a decision only with a strong marker: a should inside a request for work
 * describes the task ("update the exporter so the csv should have…"), not a standing rule.
 */
import assert from "node:assert/strict";
import { FILLER, hintOver, promptRecord, why } from "./hint_fixture.ts";

function hint(earlier: string, prompt: string) {
  const records = Array.from(
    { length: 50 },
    (_, i) => promptRecord(i, `${FILLER[i % FILLER.length]} (${i})`),
  );
  records.push(promptRecord(50, earlier));
  return hintOver(records, prompt);
}

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
