import assert from "node:assert/strict";
import {
  findMarkers,
  isQuestion,
  markerStrength,
  markerTerms,
  MEDIUM_MARKERS_EN,
  MEDIUM_MARKERS_ZH,
  NEGATIONS_EN,
  NEGATIONS_ZH,
  statementDecision,
  STRONG_MARKERS_EN,
  STRONG_MARKERS_ZH,
} from "../../src/rank/markers.ts";

Deno.test("markerStrength() finds Chinese strong and medium markers", () => {
  assert.equal(markerStrength("我们决定用 pnpm"), "strong");
  assert.equal(markerStrength("以后都用 deno fmt"), "strong");
  assert.equal(markerStrength("禁止直接推送到 main"), "strong");
  assert.equal(markerStrength("建议改用 sqlite"), "medium");
  assert.equal(markerStrength("倾向于保留旧接口"), "medium");
  assert.equal(markerStrength("今天天气不错"), null);
});

Deno.test("markerStrength() finds English markers on word boundaries, any case", () => {
  assert.equal(markerStrength("We decided to use Deno."), "strong");
  assert.equal(markerStrength("From now on, run the linter first"), "strong");
  assert.equal(markerStrength("NEVER force-push"), "strong");
  assert.equal(markerStrength("I'd prefer pnpm over npm"), "medium");
  assert.equal(markerStrength("switch to\nnode:sqlite"), "medium");
  assert.equal(markerStrength("the mustard is yellow"), null); // "must" inside a word
  assert.equal(markerStrength("shoulder pain"), null);
});

Deno.test("markerStrength() returns the strongest marker that is not negated", () => {
  assert.equal(markerStrength("建议用 A，必须用 B"), "strong");
  assert.equal(markerStrength("还没决定，建议先用 A"), "medium");
});

Deno.test("a Chinese negation directly before a marker cancels it", () => {
  assert.equal(markerStrength("不必统一用 yarn"), null);
  assert.equal(markerStrength("还没决定用哪个"), null);
  assert.equal(markerStrength("没决定"), null);
  assert.equal(markerStrength("未决定"), null);
  assert.equal(markerStrength("不一定要统一用 npm"), null);
  assert.equal(markerStrength("要不要用 sqlite?"), null);
});

Deno.test("不要 alone is a strong marker, and negation detection does not misfire on it", () => {
  assert.equal(markerStrength("不要用 sqlite"), "strong");
  assert.equal(markerStrength("以后不要再提交 dist 目录"), "strong");
  assert.deepEqual(findMarkers("不要用 sqlite").map((h) => [h.marker, h.negatedBy]), [["不要", null]]);
  // A one-character negation needs to touch the marker: 未来 (future) does not cancel 必须.
  assert.equal(markerStrength("未来都必须用 deno"), "strong");
  // Punctuation ends a negation's reach.
  assert.equal(markerStrength("没问题，必须这样"), "strong");
});

Deno.test("an English negation cancels a marker it contains or directly precedes", () => {
  assert.equal(markerStrength("not decided yet"), null);
  assert.equal(markerStrength("never mind, forget it"), null);
  assert.equal(markerStrength("we haven't decided"), null);
  assert.equal(markerStrength("I'm not sure whether we should"), null);
  assert.equal(markerStrength("I don't know"), null);
  assert.equal(markerStrength("not sure, but we must pin it"), "strong");
});

Deno.test("findMarkers() reports each occurrence with what cancels it, in text order", () => {
  const hits = findMarkers("Never mind. We must use pnpm");
  assert.deepEqual(hits.map((h) => [h.marker, h.strength, h.negatedBy]), [
    ["never", "strong", "never mind"],
    ["must", "strong", null],
  ]);
});

Deno.test("the marker lists are lower-case, trimmed and free of duplicates", () => {
  for (
    const list of [
      STRONG_MARKERS_ZH,
      MEDIUM_MARKERS_ZH,
      STRONG_MARKERS_EN,
      MEDIUM_MARKERS_EN,
      NEGATIONS_ZH,
      NEGATIONS_EN,
    ]
  ) {
    assert.equal(new Set(list).size, list.length);
    for (const m of list) assert.equal(m, m.trim().toLowerCase().replace(/\s+/g, " "));
  }
  const strong = new Set([...STRONG_MARKERS_ZH, ...STRONG_MARKERS_EN]);
  for (const m of [...MEDIUM_MARKERS_ZH, ...MEDIUM_MARKERS_EN]) assert.ok(!strong.has(m), m);
});

Deno.test("Japanese and Russian decision language, with negation", () => {
  assert.equal(markerStrength("今後は pnpm を使う"), "strong");
  assert.equal(markerStrength("必ずテストを書く"), "strong");
  assert.equal(markerStrength("npm は使わない"), "strong");
  assert.equal(markerStrength("決めた: ログは英語で書く"), "strong");
  assert.equal(markerStrength("ログを見てください"), null);
  assert.equal(markerStrength("Отныне используем pnpm"), "strong");
  assert.equal(markerStrength("не используй npm"), "strong");
  assert.equal(markerStrength("лучше pnpm"), "medium");
  assert.equal(markerStrength("посмотри логи"), null);
});

Deno.test("Japanese 'X でよい / でいい' (X will do) settles an option; asked, it decides nothing", () => {
  assert.equal(statementDecision("設定ファイルのパスは固定値でよい"), "medium");
  assert.equal(statementDecision("ログは英語だけでいいです"), "medium");
  assert.equal(statementDecision("これでよい？"), null);
  assert.equal(statementDecision("大文字始まりでいいんじゃない？違う？"), null);
  assert.equal(statementDecision("パスを確認してください"), null);
});

Deno.test("a label with a colon opens a decision: Decision:, Rule:, 决定：", () => {
  assert.equal(markerStrength("Decision: nightly backups are pg_dump"), "strong");
  assert.equal(markerStrength("tidy up.\nRule: squash merges"), "strong");
  assert.equal(markerStrength("规则：主分支只能走 PR"), "strong");
  assert.equal(markerStrength("the decision was hard"), null);
});

Deno.test("a clause opening with 'no' prohibits; ', not X' turns an option down; idioms do not", () => {
  assert.equal(markerStrength("upload it to GitHub, no secret keys"), "strong");
  assert.equal(markerStrength("drop winston, and no console.log in committed code"), "strong");
  assert.equal(markerStrength("No deploys on Friday."), "strong");
  assert.equal(markerStrength("use pnpm, not npm"), "medium");
  for (const t of ["no, that is wrong", "yes, no problem", "it works, not sure why", "we have no tests"]) {
    assert.equal(markerStrength(t), null, t);
  }
  assert.equal(markerStrength("/a.sh: line 6: No such file or directory"), null);
});

Deno.test("a question is not a decision, with or without a question mark", () => {
  for (
    const q of [
      "should we always use pnpm?",
      "why do we never cache",
      "Is it always like this",
      "为什么不要用 npm",
      "要不要迁到 MySQL",
      "これでいいですか",
      "Почему не работает",
    ]
  ) {
    assert.ok(isQuestion(q) || statementDecision(q) === null, q);
    assert.equal(statementDecision(q), null, q);
  }
  assert.equal(statementDecision("we always use pnpm"), "strong");
  assert.equal(isQuestion("we always use pnpm"), false);
});

Deno.test("idioms and reports are not rules: don't worry, I don't see, 应该已经", () => {
  assert.equal(markerStrength("dont worry about it"), null);
  assert.equal(markerStrength("I don't see the file"), null);
  assert.equal(markerStrength("我们应该已经有这个了"), null);
  assert.equal(markerStrength("应该用 pnpm"), "medium");
  // A marker word inside an identifier is a name, not a rule.
  assert.equal(markerStrength("set the never_cache option"), null);
  assert.equal(markerStrength("the use-always-flag is set"), null);
});

Deno.test("a negation before seeing or working, or whenever I, reports; unless it opens its clause or follows we/you", () => {
  for (
    const report of [
      "on /dia-1000, I do not see them",
      "now the CarouselReviews1 modules do not show contents",
      "the search/login do not seem to match the spacings",
      "the recent changes make /locations break and don't render its content",
      "the export dont work on Safari",
      "and make new ones for the ones that don't exist",
      "The combo box closes whenever i hit enter to create a new tag",
    ]
  ) {
    assert.equal(markerStrength(report), null, report);
  }
  assert.deepEqual(
    findMarkers("the modules do not show contents").map((m) => [m.marker, m.negatedBy]),
    [["do not", "a report of what happens"]],
  );
  // An order at the head of its clause, and a practice of ours or yours, are rules.
  assert.equal(markerStrength("Don't show the badge on mobile"), "strong");
  assert.equal(markerStrength("ok, please don't show prices to guests"), "strong");
  assert.equal(markerStrength("we don't show prices to guests"), "strong");
  assert.equal(markerStrength("the modules do not ship a default theme"), "strong");
  assert.equal(markerStrength("Whenever I ask for a commit, leave out the co-author"), "strong");
  assert.equal(markerStrength("Adjust pyproject.toml whenever you add dependencies!"), "strong");
});

Deno.test("what is chosen from is a menu offered, not a choice made", () => {
  assert.equal(markerStrength("have a wedding list people can choose from to buy us stuff"), null);
  assert.deepEqual(
    findMarkers("a list to choose from").map((m) => [m.marker, m.negatedBy]),
    [["choose", "a menu (choose from)"]],
  );
  assert.equal(markerStrength("we chose Postgres for the queue"), "medium");
  assert.equal(markerStrength("choose pnpm from now on"), "strong");
});

Deno.test("por favor and faz o favor are please, not a preference", () => {
  assert.equal(markerStrength("/client-portal por favor, utilize nossos agentes"), null);
  assert.equal(markerStrength("Daí, faz o favor de atualizar os claude.md"), null);
  assert.deepEqual(
    findMarkers("por favor, revise").map((m) => [m.marker, m.negatedBy]),
    [["favor", "please"]],
  );
  assert.equal(markerStrength("we favor composition over inheritance"), "medium");
  assert.equal(markerStrength("in favor of pnpm"), "medium");
});

Deno.test("the words decisions are made of never count as a topic", () => {
  const terms = markerTerms();
  for (const t of ["alwai", "never", "instead", "rather", "必须", "不要"]) assert.ok(terms.has(t), t);
  for (const t of ["use", "move", "pnpm"]) assert.ok(!terms.has(t), t);
});

Deno.test("', not X' is a choice only after a verb of choice", () => {
  assert.equal(markerStrength("we use tabs, not spaces"), "medium");
  assert.equal(markerStrength("you updated the spec in the main workspace, not the session repo"), null);
  assert.equal(markerStrength("figure out the tests yourself (domain modules, not cli commands)"), null);
});

Deno.test("a condition on what you or we do, then what to do, is a standing rule (and no question)", () => {
  const rule = "When you edit @TODO.md, lead in lines with empty GFM checkboxes";
  assert.equal(markerStrength(rule), "medium");
  assert.equal(statementDecision(rule), "medium");
  assert.equal(statementDecision("Before we release, bump the version in package.json"), "medium");
  // What follows the comma is a fact, or a question: no rule.
  assert.equal(markerStrength("when you run it, it fails with a timeout"), null);
  assert.equal(statementDecision("When we deploy, what happens to the queue"), null);
  assert.equal(statementDecision("When I open a markdown file, neovim slows down"), null);
  assert.equal(statementDecision("When you edit TODO.md, do you keep the checkboxes?"), null);
});

Deno.test("a modal that says what comes next, or the object of a request, is no rule", () => {
  assert.equal(markerStrength("update @TODO.md with what should be done next, and STOP."), null);
  assert.equal(markerStrength("Read @TODO.md to see what you should do"), null);
  assert.equal(markerStrength("add things we should do next, re-prioritize existing items"), null);
  assert.equal(markerStrength("write the signatures of the API as it should be"), null);
  // A name is not the word: next.js stays a rule's object.
  assert.equal(markerStrength("you should always use next.js"), "strong");
  assert.equal(markerStrength("you should use next.js for the site"), "medium");
  assert.equal(markerStrength("we should pin the versions"), "medium");
});

Deno.test("'instead of' and 'rather than' choose only with a verb of choice in their sentence", () => {
  assert.equal(markerStrength("use pnpm instead of npm"), "medium");
  assert.equal(markerStrength("Instead of strings in many places, use constants from __init__.py"), "medium");
  assert.equal(markerStrength("we go with Postgres rather than MySQL"), "medium");
  assert.equal(
    markerStrength("make the `git pr` command optionally take a repo path instead of a session name"),
    null,
  );
  assert.deepEqual(
    findMarkers("make it take a path instead of a name").map((m) => [m.marker, m.negatedBy]),
    [["instead of", "no verb of choice"]],
  );
});

Deno.test("'when' and 'where' open a clause, and ask only with a verb of asking after them", () => {
  assert.equal(isQuestion("When selecting a procedure, a callback should be sent out from the modal"), false);
  assert.equal(statementDecision("When selecting a procedure, a callback should be sent out"), "medium");
  assert.equal(isQuestion("Where possible, prefer small modules"), false);
  for (const q of ["when is the release", "When does the backup run", "where should the config live"]) {
    assert.equal(isQuestion(q), true, q);
  }
});

Deno.test("a modal before a passive verb of change asks for one change, it sets no rule", () => {
  assert.equal(markerStrength("the types should be updated in +page.svelte to be DataModalType"), null);
  assert.equal(markerStrength("There should be added a data modal in audit_exporter"), null);
  assert.equal(markerStrength("the old helper must be removed"), null);
  // A rule that says how something is changed, or another marker beside it, still is one.
  assert.equal(markerStrength("the changelog should always be updated with the code"), "strong");
  assert.equal(markerStrength("amounts should be integer cents"), "medium");
});

Deno.test("'X need(s) to be Y' is a requirement; a change asked now, a task, or a relative clause is not", () => {
  assert.equal(
    statementDecision("- neither the profile name nor the region need to be given when a default exists"),
    "medium",
  );
  assert.equal(statementDecision("The cache key needs to be stable across restarts."), "medium");
  // One change now, a task, an object described: no rule.
  assert.equal(statementDecision("The types need to be updated in page.svelte"), null);
  assert.equal(statementDecision("This needs to be done before Friday"), null);
  assert.equal(statementDecision("I have review comments that need to be addressed."), null);
  assert.equal(
    statementDecision("remove the things that are done, re-prioritize what needs to be handled"),
    null,
  );
  // Asked, it decides nothing.
  assert.equal(statementDecision("does the key need to be stable?"), null);
});
