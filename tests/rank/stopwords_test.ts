import assert from "node:assert/strict";
import { ENGLISH_STOPWORDS, isStopword } from "../../src/rank/stopwords.ts";
import { porterStem } from "../../src/rank/stem.ts";
import { tokenize } from "../../src/rank/tokenize.ts";

const SOURCE_WORDS = (
  "a about above after again against all also am an and any are as at be because been before being below " +
  "between both but by can could did do does doing done down during each else even ever few for from " +
  "further get got had has have having he her here hers herself him himself his how i if in into is it its " +
  "itself just let lets like make may me might more most much must my myself no nor not now of off ok okay " +
  "on once only or other our ours ourselves out over own please same she should so some still such than " +
  "thank thanks that the their theirs them themselves then there these they this those through thus to too " +
  "under until up us very via want was way we well were what when where which while who whom why will with " +
  "would yes yet you your yours yourself yourselves"
).split(" ");

Deno.test("the stored English stopwords are exactly the stems of the function words", () => {
  assert.deepEqual([...new Set(SOURCE_WORDS.map(porterStem))], [...ENGLISH_STOPWORDS]);
});

Deno.test("a function word is a stopword in the form the tokenizer emits it", () => {
  for (const w of ["the", "because", "this", "ourselves", "好的"]) {
    const [term] = tokenize(w);
    assert.ok(term && isStopword(term), w);
  }
  assert.ok(!isStopword("pnpm"));
});
