/**
 * The hint as a reminder when a prompt walks into a rule without saying it, silent when the prompt
 * says the rule itself: each rule of issue 27 on a real index (hintFor, the hook's own decision),
 * in a young archive (a few records, as a first session leaves) and in a grown one.
 */
import assert from "node:assert/strict";
import type { VerdictRecord } from "../../src/record/record.ts";
import { distinctThings, type GateVerdict, nameWords } from "../../src/gate/gate.ts";
import { quoteText, renderHint, shownQuote } from "../../src/gate/render.ts";
import { durableFact, markerStrength, ruledOut, typosOf } from "../../src/rank/markers.ts";
import { termOrigins } from "../../src/rank/tokenize.ts";
import { FILLER, hintOver as hint, promptRecord, why } from "./hint_fixture.ts";

let n = 0;
const rec = (text: string, over: Partial<Omit<VerdictRecord, "text">> = {}): VerdictRecord =>
  promptRecord(++n, text, over);

const MIXED_FILLER = [...FILLER, "修复购物车模块里失败的测试", "给结账页面加一个加载动画"];
const filler = (count: number) =>
  Array.from({ length: count }, (_, i) => rec(`${MIXED_FILLER[i % MIXED_FILLER.length]} (${i})`));

function notice(records: readonly VerdictRecord[], v: GateVerdict): string {
  const byDoc = (doc: number) => records[doc]!;
  return renderHint(v.quotes.map((q) => shownQuote(byDoc(q.hit.doc), q))).notice;
}

/** The four prompts, each walking into a rule it shares one name or two words with. */
const WALKS_INTO: readonly [decision: string, prompt: string][] = [
  ["From now on we always use pnpm in this repo, never npm", "add zod with npm"],
  [
    "统一用 PostgreSQL 的 advisory lock，不要再用 Redis 锁",
    "should the job dedupe take a Redis lock or something else?",
  ],
  ["前端表单校验统一用 zod schema，不再手写正则", "给注册表单加个手机号校验，写个正则就行"],
  ["接口超时统一设为 15 秒", "把订单接口的超时改成 30 秒"],
];

Deno.test("a prompt walking into a rule gets it, in a young archive and a grown one", () => {
  for (const size of [3, 50]) {
    for (const [decision, prompt] of WALKS_INTO) {
      const records = [...filler(size), rec(decision, { id: "rule" })];
      const v = hint(records, prompt);
      assert.equal(v.speak, true, `${size} records, ${prompt}: ${why(v)}`);
      assert.deepEqual(v.quotes.map((q) => quoteText(q.statements)), [decision], prompt);
      assert.match(notice(records, v), /^verdict: you decided this before/);
    }
  }
});

Deno.test("ruled-out: a name the decision turns down, said by the prompt, is its topic; --explain says so", () => {
  const records = [
    ...filler(3),
    rec("From now on we always use pnpm in this repo, never npm", { id: "rule" }),
  ];
  const v = hint(records, "add zod with npm");
  assert.equal(v.speak, true, why(v));
  const spoke = v.checks.find((c) => c.rule === "spoke")!;
  assert.match(spoke.detail, /ruled-out: the decision rules out npm/);
  // What a decision turns down, by its markers.
  assert.deepEqual(ruledOut("From now on use pnpm, never npm, to install packages."), ["npm"]);
  assert.deepEqual(ruledOut("统一用 PostgreSQL 的 advisory lock，不要再用 Redis 锁"), ["Redis 锁"]);
  assert.deepEqual(ruledOut("use pnpm, not npm"), ["npm"]);
  assert.deepEqual(ruledOut("Tailwind is off the table"), ["Tailwind is"]);
  assert.deepEqual(ruledOut("никогда не используй moment.js"), ["moment.js", "moment.js"]);
  // A prohibition of anything but a tool turns no tool down.
  assert.deepEqual(ruledOut("don't mention claude code in the commit"), []);
});

Deno.test("ruled-out needs a name, matched whole: an ordinary word or a part of a name is none", () => {
  // "never use local builds": local is an ordinary word; the prompt's passing "locally" is no reminder.
  const local = [...filler(50), rec("never use the local supabase, use the cloud one", { id: "rule" })];
  assert.equal(hint(local, "why do I see my gallery images locally but not on the site").speak, false);
  // MySQL is not SQL: "不要再手写 SQL 脚本" is no rule on MySQL.
  const sql = [...filler(50), rec("以后都用 sqlx 做迁移，不要再手写 SQL 脚本", { id: "rule" })];
  const v = hint(sql, "should we move the shop database over to MySQL?");
  assert.equal(v.speak, false, why(v));
  // Names as written: capitalised past a sentence's start, a joiner or digit, quoted, no vowel.
  assert.deepEqual(nameWords("we use Redis and moment.js, `pip` and npm, not the local build nor MCP"), [
    "Redis",
    "moment.js",
    "pip",
    "npm",
  ]);
  assert.deepEqual(nameWords("Stop Using Traffic Lights To Manage Projects"), []);
});

Deno.test("small talk and a prompt on something else stay silent beside a rule", () => {
  const records = [
    ...filler(50),
    rec("From now on we always use pnpm in this repo, never npm", { id: "rule" }),
  ];
  for (
    const p of ["thanks, looks good", "ok continue", "好的，继续", "fix the flicker of the dark mode toggle"]
  ) {
    assert.equal(hint(records, p).speak, false, p);
  }
});

Deno.test("repeat: a prompt stating the rule itself, or invoking its rules file by @, is not shown it", () => {
  const pnpm = [...filler(50), rec("From now on we always use pnpm in this repo, never npm", { id: "rule" })];
  const said = hint(pnpm, "we always use pnpm here, never npm");
  assert.equal(said.speak, false);
  assert.equal(said.rule, "repeat", why(said));
  const uv = [...filler(50), rec("Don’t use `pip`, use `uv pip`.", { id: "rule" })];
  const shouted = hint(uv, 'USE "uv pip"!');
  assert.equal(shouted.speak, false, why(shouted));
  assert.match(why(shouted), /states this rule itself/);
  const mdc = [...filler(50), rec("we must never ignore errors according to @dont-ignore-errors.mdc .")];
  const invoked = hint(mdc, "fix the tests @dont-ignore-errors.mdc");
  assert.equal(invoked.speak, false, why(invoked));
  assert.match(why(invoked), /invokes this rule by name/);
  // A prompt rule turning down what the decision chose is a change of mind: the reminder stays.
  const npmAgain = hint(pnpm, "from now on use npm, never pnpm");
  assert.equal(npmAgain.speak, true, why(npmAgain));
  // A question naming both is asking, not stating.
  assert.equal(hint(pnpm, "add lodash to the package: npm install or pnpm add?").speak, true);
});

Deno.test("a durable fact said inside a request is quoted as what you said; a one-off task never", () => {
  const records = [
    ...filler(50),
    rec("thumbnails are 320×180 WebP, can you regenerate them", { id: "fact" }),
    rec("can you update the release notes with the new install steps", { id: "task" }),
  ];
  const v = hint(records, "regenerate the thumbnails for the new gallery photos");
  assert.equal(v.speak, true, why(v));
  assert.equal(v.quotes[0]!.decided, false);
  assert.match(notice(records, v), /^verdict: you said this before/);
  assert.equal(hint(records, "update the release notes install steps").speak, false);
  assert.equal(durableFact("thumbnails are 320×180 WebP, can you regenerate them"), true);
  assert.equal(durableFact("remember the handbook lives in docs/handbook, not the wiki"), true);
  assert.equal(durableFact("接口超时是 15 秒"), true);
  for (const s of ["the build is slow now", "can you make the image 2MB", "the config is in config.toml"]) {
    assert.equal(durableFact(s), false, s);
  }
});

Deno.test("a later decision on the same thing replaces an earlier one, and the notice says when it changed", () => {
  const first = rec("接口超时统一设为 15 秒", { id: "old", time: "2026-01-10T10:00:00.000Z" });
  const later = rec("接口超时统一改成 20 秒", { id: "new", time: "2026-02-10T10:00:00.000Z" });
  const records = [...filler(50), first, later];
  // The earlier one reads closer to the prompt ("设为"), the later one changed it.
  const v = hint(records, "订单接口的超时设为多少秒");
  assert.equal(v.speak, true, why(v));
  assert.deepEqual(v.quotes.map((q) => q.hit.id), ["new"]);
  assert.equal(v.quotes[0]!.changedFrom, Date.parse(first.time));
  assert.match(notice(records, v), /changed since 2026-01-10/);
  // The same rule said again in other words is no change.
  const again = rec("接口超时统一用 15 秒", { id: "again", time: "2026-02-10T10:00:00.000Z" });
  const w = hint([...filler(50), first, again], "订单接口的超时设为多少秒");
  assert.ok(w.speak, why(w));
  assert.ok(w.quotes.every((q) => q.changedFrom === null), why(w));
  // Turning down what the earlier one chose is a change too, without a value.
  const pnpm = rec("From now on we always use pnpm in this repo", {
    id: "pnpm",
    time: "2026-01-10T10:00:00.000Z",
  });
  const bun = rec("We moved to bun: always bun for this repo, never use pnpm again", {
    id: "bun",
    time: "2026-02-10T10:00:00.000Z",
  });
  const u = hint([...filler(50), pnpm, bun], "add zod to this repo with pnpm");
  assert.deepEqual(u.quotes.map((q) => q.hit.id), ["bun"], why(u));
  assert.equal(u.quotes[0]!.changedFrom, Date.parse(pnpm.time));
});

Deno.test("CJK things are ICU's words; a Chinese decision answers an English prompt through a shared name", () => {
  // 接口|超时: two words; the bigram 口的 of 接口的 is a seam, not a thing.
  const origins = termOrigins("把订单接口的超时改成 30 秒");
  assert.equal(distinctThings(new Set(["接口", "超时"]), origins), 2);
  assert.equal(distinctThings(new Set(["口的"]), origins), 0);
  // 帮我把 is a habit of phrasing, not a word, even where an archive derives it.
  const lexicon = { has: (w: string) => w === "帮我把" || w === "我把" };
  assert.equal(distinctThings(new Set(["帮我把", "我把"]), termOrigins("帮我把文件删掉", lexicon)), 0);
  const records = [...filler(50), rec("统一用 PostgreSQL 的 advisory lock，不要再用 Redis 锁", { id: "zh" })];
  const v = hint(records, "should the job dedupe take a Redis lock or something else?");
  assert.deepEqual(v.quotes.map((q) => q.hit.id), ["zh"], why(v));
});

Deno.test("decision words survive a typo and the next sentence", () => {
  assert.equal(markerStrength("we alwasy use pnpm"), "strong");
  assert.equal(markerStrength("you shoudl use zod"), "medium");
  assert.equal(markerStrength("please refer to the doc"), null);
  assert.equal(markerStrength("have you ever seen this"), null);
  assert.ok(typosOf("always").includes("alwasy") && typosOf("always").includes("allways"));
  const typo = [...filler(50), rec("we alwasy wrap repository queries in a Result type", { id: "typo" })];
  assert.equal(hint(typo, "wrap the new repository queries for orders").speak, true);
  const next = [
    ...filler(50),
    rec("The repository layer wraps every query in a Result type. We always use that pattern.", {
      id: "next",
    }),
  ];
  const v = hint(next, "add a query for archived orders to the repository layer");
  assert.equal(v.speak, true, why(v));
  assert.deepEqual(v.quotes.map((q) => quoteText(q.statements)), [
    "The repository layer wraps every query in a Result type.\nWe always use that pattern.",
  ]);
});

Deno.test("a name in passing, and a file every project has, are no rule's topic", () => {
  // Docker named once in a long prompt about something else: under RULED_MIN_COVERAGE of it.
  const docker = [
    ...filler(50),
    rec("never use docker for the dev database, run it natively", { id: "rule" }),
  ];
  const long = "the invoice mailer sends duplicate receipts when the checkout retries the payment webhook " +
    "after a timeout on the gateway side, and the logs show the order id twice; the docker logs agree";
  assert.equal(hint(docker, long).speak, false);
  assert.equal(hint(docker, "start the dev database in docker").speak, true);
  // CLAUDE.md is in every person's archive: naming it is no topic alone.
  const claude = [...filler(50), rec("update the CLAUDE.md file and always keep it short", { id: "rule" })];
  assert.equal(hint(claude, "Thanks! Please update CLAUDE.md for current changes").speak, false);
});

Deno.test("a rule said in every session is still said again by a prompt stating it", () => {
  // uv and pip in every record: the decision has no rare word left, its words are counted instead.
  const chatter = Array.from({ length: 60 }, (_, i) => rec(`run uv pip install again for step ${i}`));
  const records = [...filler(40), ...chatter, rec("Don’t use `pip`, use `uv pip`.", { id: "rule" })];
  const v = hint(records, 'USE "uv pip"!');
  assert.equal(v.speak, false, why(v));
});

Deno.test("a request carrying the rule along says it: 'commit them without co-authors'", () => {
  const records = [...filler(50), rec("ok, commit these changes, do not add co-authors", { id: "rule" })];
  const v = hint(records, "if it builds, commit the changes without co-authors");
  assert.equal(v.speak, false, why(v));
  assert.match(why(v), /states this rule itself/);
});
