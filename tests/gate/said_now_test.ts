/**
 * What a prompt says now, and what is no topic: a prompt turning down what a rule turns down
 * says the rule itself (no quote); an abbreviation, an ordinal, the local host, everyone's
 * folders, a particle glued to a Japanese word and a misspelt decision word are no subject a
 * quote can be on. Each on a real index through hintFor, the hook's own decision.
 */
import assert from "node:assert/strict";
import type { VerdictRecord } from "../../src/record/record.ts";
import { distinctThings, isSharpTerm, isValueTerm } from "../../src/gate/gate.ts";
import { deriveMarkerTerms, markerTerms, turnedDown } from "../../src/rank/markers.ts";
import { CjkWordSet, termOrigins } from "../../src/rank/tokenize.ts";
import { FILLER, hintOver as hint, promptRecord, why } from "./hint_fixture.ts";

let n = 0;
const rec = (text: string, id?: string): VerdictRecord => promptRecord(++n, text, { id });
const filler = (count: number) =>
  Array.from({ length: count }, (_, i) => rec(`${FILLER[i % FILLER.length]} (${i})`));

Deno.test("turnedDown: the words after no/never/without/不要, before Japanese ない; a question turns nothing down", () => {
  assert.deepEqual(turnedDown("ok, commit, no co-author"), ["co-author"]);
  assert.deepEqual(turnedDown("#never add co-authors, never add Claude Code as co-author"), [
    "add co-authors",
    "add claude code as co-author",
  ]);
  assert.deepEqual(turnedDown("commit them w/o referencing claude code or co-authors"), [
    "referencing claude code or co-authors",
  ]);
  assert.deepEqual(turnedDown("um commit sem bot de co-author"), ["bot de co-author"]);
  assert.deepEqual(turnedDown("我的意思不要改动aura的源码！"), ["改动aura的源码"]);
  assert.deepEqual(turnedDown("ничего не трогай без авторизации"), ["трогай без авторизации", "авторизации"]);
  assert.deepEqual(turnedDown("また、テストケース名は日本語で、コメントは入れないでください。"), [
    "コメントは入れ",
  ]);
  // Asked, not said.
  assert.deepEqual(turnedDown("do we not need the cache?"), []);
  assert.deepEqual(turnedDown("add zod with npm"), []);
});

Deno.test("a prompt turning down what the rule turns down says the rule: no quote", () => {
  const records = [
    ...filler(50),
    rec(
      "/do commit current changes ( do not add claude as co-author ) and then summarise our unit testing",
      "rule",
    ),
  ];
  for (const prompt of ["ok, commit, no co-author", "commit the fixes w/o co-author please"]) {
    const v = hint(records, prompt);
    assert.equal(v.speak, false, why(v));
    assert.match(why(v), /the prompt turns down co-author\w* itself/);
  }
  // Asking about the thing, without turning it down, is on the rule's topic and gets it.
  const asked = hint(records, "did the last commit list Claude Code as co-author?");
  assert.equal(asked.speak, true, why(asked));
});

Deno.test("turning down another thing with the same verb is not the rule said again", () => {
  const records = [...filler(50), rec("never add emojis to CHANGELOG.md entries", "rule")];
  // "add" is how, not what: the prompt turns down a migration link, not emojis.
  const v = hint(records, "Update CHANGELOG.md for 2.1. Don't add a migration link.");
  assert.equal(v.speak, true, why(v));
});

Deno.test("the rule walked into, not said, still speaks: 'add zod with npm'", () => {
  const records = [...filler(50), rec("From now on we always use pnpm in this repo, never npm", "rule")];
  const v = hint(records, "add zod with npm");
  assert.equal(v.speak, true, why(v));
});

Deno.test("an abbreviation of writing, an ordinal, the local host and node_modules are no name", () => {
  for (
    const t of [
      "e.g",
      "i.e",
      "a.k.a",
      "3rd",
      "21st",
      "2026",
      "localhost:8008",
      "127.0.0.1:3000",
      "node_modules",
    ]
  ) {
    assert.equal(isSharpTerm(t), false, t);
  }
  for (const t of ["pg_dump", "v2.3", "gen-itgc", "the-well-client", "todo.md"]) {
    assert.equal(isSharpTerm(t), true, t);
  }
  assert.equal(isValueTerm("3rd"), true);
  assert.equal(isValueTerm("v3"), false);
  // A quote sharing only "i.e." with the prompt is not on its topic.
  const records = [
    ...filler(50),
    rec("One of the answers should be about the tool - i.e. JIRA/Azure DevOps.", "rule"),
  ];
  const v = hint(records, "the axis labels stay where they are, i.e. left aligned");
  assert.equal(v.speak, false, why(v));
  // …nor one sharing the 3rd time, or a page of the local server.
  const third = [
    ...filler(50),
    rec("I need to say for the 3rd time now that I do not want a list of hashes", "rule"),
  ];
  assert.equal(hint(third, "again, for the 3rd time now: the image is not rendered").speak, false);
  const host = [...filler(50), rec("this should be a modal: http://localhost:8008/kyc/return", "rule")];
  assert.equal(hint(host, "страница localhost:8008/support").speak, false);
});

Deno.test("a corpus word opening with a particle (の履歴) is no thing of its own", () => {
  const lexicon = new CjkWordSet(["の履歴", "履歴"]);
  const origins = termOrigins("11/17の履歴の一覧をみたい。", lexicon);
  assert.equal(distinctThings(new Set(["の履歴", "履歴"]), origins), 1);
});

Deno.test("a misspelt decision word (shoul, alwasy) says how, not what: it is a marker term", () => {
  const terms = markerTerms();
  for (const t of ["shoul", "shoudl", "neevr", "alwasi"]) assert.equal(terms.has(t), true, t);
  // The stems of real words are left out: insta(gram), decide, away.
  for (const t of ["insta", "decide", "awai"]) assert.equal(terms.has(t), false, t);
  // The stored table is what the derivation writes.
  assert.deepEqual([...terms].sort(), deriveMarkerTerms());
});

Deno.test("a rule the prompt says itself is no topic for the record's next decision to be quoted on", () => {
  const records = [
    ...filler(50),
    rec(
      "- NEVER ADD CLAUDE CODE AS CO-AUTHOR ON COMMIT MESSAGES\n- ALWAYS ASK BEFORE CLAUDE RUNS A DESTRUCTIVE ACTION",
      "rules",
    ),
  ];
  // The second rule shares only "claude" with the prompt: it would be quoted tied to the first.
  const v = hint(records, "commit these without claude as co-author");
  assert.equal(v.speak, false, why(v));
});

Deno.test("turnedDown reads a long prompt in one pass: every turn-down of 40,000 clauses found", () => {
  // A prompt that is all turn-downs: each clause end is found once, not once per turn-down word.
  const clauses = Array.from({ length: 40_000 }, (_, i) => `no widget${i}, fine`);
  const spans = turnedDown(clauses.join(" "));
  assert.equal(spans.length, 40_000);
  assert.equal(spans[0], "widget0");
  assert.equal(spans.at(-1), "widget39999");
});

Deno.test("a statement the prompt turns down too, decision or not, is never quoted along with a later decision", () => {
  const records = [
    ...filler(50),
    rec(
      "commit the release notes sem co-author today\nALWAYS SQUASH THE RELEASE COMMITS BEFORE A TAG",
      "rules",
    ),
  ];
  // The squash rule shares only "release" with the prompt: tied to the first statement it would
  // bring that statement back; alone it is too little.
  const v = hint(records, "commit the release notes, no co-author");
  assert.equal(v.speak, false, why(v));
});

Deno.test("a long prompt sent again word for word gets no quote it could have had the first time; a newer one, a short prompt and a near copy still can", () => {
  const template =
    "Read @TODO.md, update @CHANGELOG.md with the changes we have done, then continue the work";
  const rule = "never put the release dates in CHANGELOG.md, they belong in the git tags";
  const at = (day: string) => ({ time: `2026-02-${day}T10:00:00.000Z` });
  const older = [...filler(50), promptRecord(++n, rule, { id: "rule", ...at("10") })];
  // Without an earlier sending, the rule is quoted.
  assert.equal(hint(older, template).speak, true);
  const sentBefore = [...older, promptRecord(++n, template, { id: "sent", ...at("12") })];
  const v = hint(sentBefore, template);
  assert.equal(v.speak, false, why(v));
  assert.match(why(v), /the prompt was sent word for word on 2026-02-12, after this was said/);
  // A rule said after the last sending is new to this prompt, and is quoted.
  const newer = hint(
    [...filler(50), promptRecord(++n, template, at("09")), promptRecord(++n, rule, at("10"))],
    template,
  );
  assert.equal(newer.speak, true, why(newer));
  // Another prompt sharing the template's words is not the template sent again.
  const edited = hint(sentBefore, `${template}, and bump the version`);
  assert.equal(edited.speak, true, why(edited));
  // A short prompt is said again in passing ("release notes to CHANGELOG.md"), not a template kept.
  const short = "CHANGELOG.md release dates";
  const shortAgain = hint([...older, promptRecord(++n, short, at("12"))], short);
  assert.equal(shortAgain.speak, true, why(shortAgain));
});
