import assert from "node:assert/strict";
import { ENGLISH_STOPWORDS, EVERYDAY_WORDS, isEverydayWord, isStopword } from "../../src/rank/stopwords.ts";
import { markerTerms } from "../../src/rank/markers.ts";
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

/** Everyday words of English and of programming, written from general knowledge (not from a history). */
const EVERYDAY_SOURCE_WORDS = (
  "able actually add ago ahead allow almost alone already anyone anything anyway anywhere around ask " +
  "away back bad basic basically begin behind best better big bit break bring broke broken call came " +
  "care careful carefully case cause certain change check clean cleanly clear close come complete " +
  "completely continue correct correctly create current currently day days different easy either end " +
  "enough entire every everyone everything exact exactly example exist exists fact fail fails failed " +
  "fine finish first fix fixed follow following found full give given go goes going gone good great " +
  "guess happen happens hard help hold idea important issue issues keep kind know last later leave left " +
  "less line lines little long look looks lot lots main many mean means mind miss missing move moved " +
  "need needed needs new next nice note nothing number old open order part pick place point possible " +
  "probably problem problems properly put quick quickly quite read ready real really reason remember " +
  "remove removed rest right run running said say see seem seems seen send set show side simple simply " +
  "small someone something sometimes soon sort start started step stop stuff sure take talk tell thing " +
  "things think thought time times today together top turn two type understand wait went whole without " +
  "word words work worked working works write wrong api app argument arguments array bug bugs build " +
  "builds calls class code command commands comment comments commit commits config content data " +
  "database db debug default delete deleted dependency directory docs document documentation edit error " +
  "errors feature features field fields file files folder format function functions handle id import " +
  "input install item items key keys library link list load log logs merge message method model module " +
  "name names object option options output package page param parameter parameters path pull push query " +
  "queries readme record records refactor rename replace request response result results return save " +
  "script search server session sessions setting settings source state status string task tasks test " +
  "tests text update updated user users value values variable version view"
).split(" ");

Deno.test("the stored everyday words are exactly the stems of the source words, none a stopword or a marker", () => {
  assert.deepEqual([...new Set(EVERYDAY_SOURCE_WORDS.map((w) => tokenize(w)[0]))], [...EVERYDAY_WORDS]);
  const markers = markerTerms();
  for (const w of EVERYDAY_SOURCE_WORDS) {
    const terms = tokenize(w);
    assert.equal(terms.length, 1, w);
    assert.ok(!isStopword(terms[0]!) && !markers.has(terms[0]!), w);
    assert.ok(isEverydayWord(terms[0]!), w);
  }
  for (const w of ["pnpm", "rebase", "vitest", "redis", "postgres"]) {
    assert.ok(!isEverydayWord(tokenize(w)[0]!), w);
  }
});
