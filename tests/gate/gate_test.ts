/**
 * The gate on real indexes: each case builds an archive, runs the hook's own decision (hintFor)
 * and checks what it says and why. The cases are the issue's: a decision said once among fifty
 * records, "npm" beside "pnpm", "Decision:" as a label, a rule inside a request, pasted material,
 * questions, resends, the cooldown by statement.
 */
import assert from "node:assert/strict";
import type { VerdictRecord } from "../../src/record/record.ts";
import { record, type RecordOverrides } from "../_records.ts";
import {
  canAnchor,
  distinctThings,
  type GateVerdict,
  isSharpTerm,
  MAX_HINT_QUOTES,
  notTopic,
  preGate,
  YOUNG_ARCHIVE_RECORDS,
} from "../../src/gate/gate.ts";
import { hintFor, HOOK_TOP } from "../../src/gate/hint.ts";
import { quoteText, renderHint } from "../../src/gate/render.ts";
import { statementKey } from "../../src/gate/statements.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { termOrigins } from "../../src/rank/tokenize.ts";

const NOW = Date.parse("2026-03-01T00:00:00.000Z");

let n = 0;
function rec(text: string, over: RecordOverrides = {}): VerdictRecord {
  n++;
  const { id, kind, origin, time, project, session } = over;
  return record(text, {
    id: `p${String(n).padStart(4, "0")}`,
    time: "2026-02-20T10:00:00.000Z",
    project: "/work/shop",
    session: `old-${n}`,
    source_file: "/tmp/x.jsonl",
    source_line: n,
  }, { id, kind, origin, time, project, session });
}

/** Everyday requests of a developer, each its own conversation: an archive of `count` records. */
const FILLER = [
  "fix the failing test in the cart module",
  "add a loading spinner to the checkout page",
  "rename the helper to formatPrice",
  "why is the login form slow on mobile",
  "write docs for the search endpoint",
  "bump the eslint config and fix the warnings",
  "refactor the invoice mailer into two functions",
  "the dark mode toggle flickers on reload",
  "add pagination to the orders table",
  "clean up the unused imports in the admin panel",
];
function filler(count: number): VerdictRecord[] {
  return Array.from({ length: count }, (_, i) => rec(`${FILLER[i % FILLER.length]} (${i})`));
}

function hint(
  records: readonly VerdictRecord[],
  prompt: string,
  over: { shown?: ReadonlySet<string>; session?: string; top?: number } = {},
): GateVerdict {
  const index = buildMemoryIndex(records);
  return hintFor(index, {
    prompt,
    session: over.session ?? "live",
    cwd: "/work/shop",
    nowMs: NOW,
    shown: over.shown ?? new Set(),
    entities: [],
    personas: [],
    top: over.top ?? HOOK_TOP,
    textOf: (doc) => records[doc]!.text,
  }).verdict;
}

function quoted(v: GateVerdict): string[] {
  return v.quotes.map((q) => quoteText(q.statements));
}

Deno.test("a decision said once in a 50-record archive speaks; npm is not part of pnpm", () => {
  const decision = rec("From now on we always use pnpm, never npm.", { id: "pnpm" });
  const records = [...filler(49), decision];
  const v = hint(records, "npm install or pnpm add?");
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(quoted(v), ["From now on we always use pnpm, never npm."]);
  // Two things by structure: separate words, whatever their letters share.
  const origins = termOrigins("npm install or pnpm add?");
  assert.equal(distinctThings(new Set(["npm", "pnpm"]), origins), 2);
});

Deno.test('"Decision:" opens a decision, and the quote is the statement, not the whole record', () => {
  const records = [
    ...filler(30),
    rec(
      "Please tidy the ops readme.\nDecision: nightly backups are pg_dump to the offsite bucket, kept 30 days.",
      { id: "backup" },
    ),
  ];
  const v = hint(records, "set up the nightly backups for the offsite bucket");
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(quoted(v), ["Decision: nightly backups are pg_dump to the offsite bucket, kept 30 days."]);
});

Deno.test("a rule inside a request is found and quoted on its own", () => {
  const records = [
    ...filler(30),
    rec("Write the release notes for the widget. Upload it to GitHub, no secret keys in the repo.", {
      id: "upload",
    }),
  ];
  const v = hint(records, "can I commit the secret keys file to GitHub?");
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(quoted(v), ["Upload it to GitHub, no secret keys in the repo."]);
});

Deno.test("a request or question on the topic is not a decision", () => {
  const records = [
    ...filler(30),
    rec("should we always run the flyway migrations on deploy?", { id: "q" }),
    rec("can you add flyway migrations to the deploy script", { id: "r" }),
  ];
  const v = hint(records, "run the flyway migrations in the deploy pipeline");
  assert.equal(v.speak, false);
  assert.equal(v.rule, "not-a-decision", v.detail);
});

Deno.test("pasted material is never quoted: a log, a stack trace, a Claude Code paste", () => {
  const log = [
    "why does the worker crash?",
    "2026-02-19 10:00:01 ERROR kafka consumer never commits offsets, always retrying",
    "2026-02-19 10:00:02 ERROR kafka consumer must rebalance: partition lost",
    "    at Consumer.poll (/srv/worker/node_modules/kafkajs/consumer.js:42:7)",
    "    at async run (/srv/worker/src/main.ts:10:3)",
  ].join("\n");
  const placeholder = "[Pasted text #1 +40 lines] this kafka consumer should never commit offsets";
  const records = [...filler(30), rec(log, { id: "log" }), rec(placeholder, { id: "paste" })];
  const v = hint(records, "the kafka consumer commits offsets too late, fix the rebalance");
  assert.equal(v.speak, v.quotes.length > 0);
  for (const q of quoted(v)) {
    assert.ok(!/ERROR|Consumer\.poll|Pasted text/.test(q), `a paste was quoted: ${q}`);
  }
  assert.ok(v.checks.some((c) => c.id === "log" && c.rule === "paste"), JSON.stringify(v.checks));
});

Deno.test("a prompt that is only a paste asks nothing: silent before the search", () => {
  const records = [...filler(10), rec("we always deploy the kafka worker with helm", { id: "helm" })];
  const v = hint(records, "```\nkafka worker helm deploy failed: exit 1\n```");
  assert.equal(v.rule, "paste");
});

Deno.test("the same text sent again is one thing: one quote, the resend judged a repeat", () => {
  const text = "Always pin the terraform provider versions in the infra repo.";
  const records = [...filler(30), rec(text, { id: "first" }), rec(text, { id: "again" })];
  const v = hint(records, "upgrade the terraform provider versions in infra", { top: 3 });
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.equal(v.quotes.length, 1);
  assert.ok(v.checks.some((c) => c.rule === "repeat"), JSON.stringify(v.checks));
});

Deno.test("a statement shown in this session is not shown again, from whichever record", () => {
  const rule = "Always pin the terraform provider versions in the infra repo.";
  const records = [...filler(30), rec(`Thanks. ${rule}`, { id: "other" })];
  const shown = new Set([statementKey(rule)]);
  const v = hint(records, "upgrade the terraform provider versions in infra", { shown });
  assert.equal(v.speak, false);
  assert.equal(v.rule, "repeat", v.detail);
});

Deno.test("a prompt saying the decision again word for word is not shown it back", () => {
  const rule = "Always pin the terraform provider versions in the infra repo, every module.";
  const records = [...filler(30), rec(rule, { id: "pin" })];
  const v = hint(records, `${rule} Then run the plan.`);
  assert.equal(v.speak, false);
  assert.equal(v.rule, "repeat", v.detail);
});

Deno.test("the live session's own records are never quoted", () => {
  const records = [...filler(20), rec("never use moment.js, use date-fns", { id: "own", session: "live" })];
  const v = hint(records, "format the dates with moment.js or date-fns?");
  assert.equal(v.speak, false);
});

Deno.test("docs and notes say what they say; only a typed decision is 'you decided'", () => {
  const base = filler(20);
  const doc = rec("Payments: amounts are integer cents, never floats.", { id: "doc", kind: "doc" });
  const prompt = rec("amounts are integer cents, never floats", { id: "pr" });
  for (const [r, said] of [[doc, "your docs say"], [prompt, "you decided this before"]] as const) {
    const records = [...base, r];
    const v = hint(records, "store the payment amounts as floats in cents?");
    assert.equal(v.speak, true, `${r.id}: ${v.rule}: ${v.detail}`);
    const h = renderHint(v.quotes.map((q) => ({ record: r, text: quoteText(q.statements) })));
    assert.ok(h.notice.startsWith(`verdict: ${said} (`), h.notice);
  }
});

Deno.test("small talk and common words alone stay silent", () => {
  const records = [...filler(40), rec("we always use pnpm", { id: "pnpm" })];
  for (const p of ["thanks!", "ok continue", "what do you think", "好的，继续"]) {
    assert.equal(hint(records, p).speak, false, p);
  }
});

Deno.test("Chinese: the bigrams of one word are one thing, a seam between two words none; a decision phrase speaks", () => {
  const records = [
    ...filler(30),
    rec("以后数据库迁移一律用 flyway，不要手写 SQL 脚本", { id: "zh" }),
    rec("数据是有的", { id: "seam" }),
  ];
  // ICU's words: 数据库|迁移. 数据 and 据库 lie in 数据库 (one thing), 迁移 is another, 库迁 is a seam.
  const origins = termOrigins("数据库迁移");
  assert.equal(distinctThings(new Set(["数据", "据库", "库迁", "迁移"]), origins), 2);
  assert.equal(distinctThings(new Set(["数据", "据库"]), origins), 1);
  assert.equal(distinctThings(new Set(["库迁"]), origins), 0);
  // 的流式输出: 流式 (a word ICU lacks, 流|式) and 输出 are two; 的流 and 式输 are seams.
  const stream = termOrigins("的流式输出");
  assert.equal(distinctThings(new Set(["的流", "流式", "式输", "输出"]), stream), 2);
  assert.equal(distinctThings(new Set(["的流", "式输"]), stream), 0);
  const v = hint(records, "数据库迁移写个 SQL 脚本行吗");
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(v.quotes.map((q) => q.hit.id), ["zh"]);
});

Deno.test("identifiers: whole or by two parts is sharp; a date or a path piece is not", () => {
  assert.ok(isSharpTerm("pg_dump") && isSharpTerm("v2.3") && isSharpTerm("gen-itgc"));
  assert.ok(!isSharpTerm("数据库") && !isSharpTerm("backup") && !isSharpTerm("2026-01-05"));
  // pg_dump and its parts are one thing.
  const origins = termOrigins("run pg_dump nightly");
  assert.equal(distinctThings(new Set(["pg_dump", "pg", "dump"]), origins), 1);
  assert.equal(distinctThings(new Set(["pg_dump", "nightli"]), origins), 2);
});

Deno.test("the gate shows at most the quotes asked for, and never more than MAX_HINT_QUOTES", () => {
  const records = [
    ...filler(300),
    ...Array.from(
      { length: MAX_HINT_QUOTES + 1 },
      (_, i) =>
        rec(`Always pin the terraform provider versions, rule ${"abcdef"[i]} of the infra repo.`, {
          id: `t${i}`,
        }),
    ),
  ];
  const prompt = "upgrade the terraform provider versions in infra";
  assert.equal(hint(records, prompt, { top: 1 }).quotes.length, 1);
  assert.equal(hint(records, prompt, { top: 50 }).quotes.length, MAX_HINT_QUOTES);
});

Deno.test("preGate refuses other personas, empty, machine-made and paste-only prompts", () => {
  const base = {
    prompt: "use pg_dump",
    typed: "use pg_dump",
    cwd: "/src/shop",
    personas: [] as string[],
    machineMade: (p: string) => p.startsWith("<task"),
  };
  assert.equal(preGate(base), null);
  assert.equal(preGate({ ...base, personas: ["billing"] })?.rule, "persona");
  assert.equal(preGate({ ...base, personas: ["shop"] }), null);
  assert.equal(preGate({ ...base, prompt: "   ", typed: "" })?.rule, "empty");
  assert.equal(preGate({ ...base, prompt: "<task-notification>" })?.rule, "machine-made");
  assert.equal(preGate({ ...base, typed: "" })?.rule, "paste");
});

Deno.test("a statement announcing decisions with a colon governs its paragraph, and is quoted with it", () => {
  const text =
    "We decided: the orders service uses PostgreSQL.\nBackups are pg_dump to the offsite bucket nightly.";
  const records = [...filler(40), rec(text, { id: "gov" })];
  const v = hint(records, "move the nightly pg_dump backups off the offsite bucket");
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(quoted(v), [
    "We decided: the orders service uses PostgreSQL.\nBackups are pg_dump to the offsite bucket nightly.",
  ]);
  // After a blank line the announcement no longer holds: a plain statement is no decision.
  const apart = [...filler(40), rec(text.replace("\n", "\n\n"), { id: "apart" })];
  assert.equal(hint(apart, "move the nightly pg_dump backups off the offsite bucket").rule, "not-a-decision");
});

Deno.test("in a young archive a decision written into a rules file still speaks (a word in 3 records is rare)", () => {
  const records = [
    rec("From now on use pnpm, never npm, to install packages in this repo.", { id: "d" }),
    rec("$release version 2 with the pnpm switch"),
    rec("Please record that rule in AGENTS.md."),
    rec("# Rules\n\n- Use pnpm, never npm.\n", { kind: "note", session: null }),
  ];
  const v = hint(records, "Should I install lodash with npm or pnpm?");
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(quoted(v), ["From now on use pnpm, never npm, to install packages in this repo."]);
});

Deno.test("a file the prompt names is its topic; a file every conversation names needs one more word", () => {
  // TODO.md in forty conversations is a common word; the file is still one specific thing.
  const chatter = Array.from({ length: 40 }, (_, i) => rec(`update TODO.md and continue with item ${i}`));
  const rule = "When you edit TODO.md, lead in lines with empty checkboxes if things are not done.";
  const records = [...filler(40), ...chatter, rec(rule, { id: "todo-rule" })];
  const v = hint(records, "Now update TODO.md and tick the checkboxes of what you finished");
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(quoted(v), [rule]);
  // The common file alone is not enough, and the word alone is not the file.
  assert.equal(hint(records, "Now update TODO.md with what you finished").speak, false);
  assert.equal(hint(records, "what is left to do today").speak, false);
  // A file few records name is the topic however much else the prompt says.
  const format = rec("no, tasks.md should always use that normal format.", { id: "format" });
  const w = hint(
    [...filler(40), format],
    "something went wrong, add task #027: auto-detect session context in session commands to @tasks.md",
  );
  assert.equal(w.speak, true, `${w.rule}: ${w.detail}`);
  assert.deepEqual(quoted(w), ["no, tasks.md should always use that normal format."]);
});

Deno.test("a named file is the topic when the prompt asks to change it, or is mostly about it; named in passing it is one word", () => {
  const rule = rec(
    "wrong, now we have portal/PLAN_TODO.md which should not exist, we should use only PLAN_TODO.md at the root",
    { id: "plan" },
  );
  const records = [...filler(40), rule];
  // Asked to change the file: the rule on where it lives is for this prompt, whatever else it says.
  const edit = hint(
    records,
    "ok, then let's update @PLAN_TODO.md and make a prompt to start week 7 of the portal work",
  );
  assert.equal(edit.speak, true, `${edit.rule}: ${edit.detail}`);
  assert.deepEqual(quoted(edit), [rule.text]);
  // The file and little else: it is the topic.
  const about = hint(records, "what is left in @PLAN_TODO.md?");
  assert.equal(about.speak, true, `${about.rule}: ${about.detail}`);
  // Named in passing in a prompt about the dark mode styles: silent, and --explain says why.
  const passing = hint(
    records,
    "we've just completed week 6 of @PLAN_TODO.md, i've just noticed our styles are massively bad on dark mode: the sidebar colours, the card borders and the table headers",
  );
  assert.equal(passing.speak, false, `${passing.rule}: ${passing.detail}`);
  const check = passing.checks.find((c) => c.id === "plan");
  assert.match(
    check?.detail ?? "",
    /names plan_todo\.md, \d+% of the prompt's informative weight, and the prompt does not ask to change it/,
  );
  // The same in Japanese: config.jsonに…を追加して asks to change the file.
  const moved = rec("targetUrlをconfig.jsonじゃなくて、setting launchのほうに移動して。", { id: "moved" });
  const ja = hint(
    [...filler(40), moved],
    "config.jsonに https://bakusai.com/thr_res/acode=10/ctgid=136/bid=1331 bid 1331 boardName Shangri-La を追加して",
  );
  assert.equal(ja.speak, true, `${ja.rule}: ${ja.detail}`);
});

Deno.test("a file's name counts with the file: app of app.html is not the word app", () => {
  const records = [
    ...filler(40),
    rec("But we dont want to install tailwind in our audit app.", { id: "tw" }),
  ];
  const v = hint(records, "I have core-js installed, can I use that in `app.html`?");
  assert.equal(v.speak, false);
  // The word itself still matches the word.
  const w = hint(records, "install tailwind in the audit app?");
  assert.equal(w.speak, true, `${w.rule}: ${w.detail}`);
});

Deno.test("a long statement the prompt says again nearly word for word is a repeat", () => {
  const rule =
    "Then run the cleanup script, and update TODO.md so that we always have a list of things to be done.";
  const records = [...filler(30), rec(rule, { id: "tmpl" })];
  // The template sent again, edited a little (TODO for TODO.md, one word more).
  const v = hint(
    records,
    "Then run the cleanup script, and update TODO so that we always have a short list of things to be done.",
  );
  assert.equal(v.speak, false);
  assert.equal(v.rule, "repeat", v.detail);
});

Deno.test("a statement the prompt says again in other function words is a repeat; its stopwords do not count", () => {
  const rule =
    "Before you do any changes or if I say deploy, run the `./ship.sh build && ./ship.sh upload --dry` script in the release folder.";
  const records = [...filler(30), rec(rule, { id: "tmpl" })];
  // The same instruction inside a longer request: every word of it that is not a stopword is here.
  const v = hint(
    records,
    "Update the notes. Run the `./ship.sh build && ./ship.sh upload --dry` script in the release folder and react to what it says when you deploy.",
  );
  assert.equal(v.speak, false, `${v.rule}: ${v.detail}`);
  assert.equal(v.rule, "repeat", v.detail);
  // A prompt that asks about the script without saying the instruction again still gets it.
  const w = hint(records, "the ./ship.sh upload step failed, which release folder does it use?");
  assert.equal(w.speak, true, `${w.rule}: ${w.detail}`);
  assert.deepEqual(w.hits.map((h) => h.id), ["tmpl"]);
});

Deno.test("a folder named by an identifier is a topic; plain folder words and route parameters are places", () => {
  const records = [
    ...filler(40),
    rec(
      "When selecting a procedure, a callback must always be sent out from src/components/export_to_audit/modal.svelte",
      {
        id: "callback",
      },
    ),
    rec("In src/routes/[client_id]/panel.svelte the totals should always be rounded", { id: "route" }),
  ];
  // export_to_audit names one module: the decision about it speaks (and "When selecting…" is no question).
  const v = hint(records, "@audit/src/components/export_to_audit/export.ts clean up the FIXMEs");
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(v.hits.map((h) => h.id), ["callback"]);
  // A route parameter's folder ([client_id]) and plain folders (src, routes) are where files live, not a subject.
  const w = hint(records, "@audit/src/routes/[client_id]/list.svelte sort the rows after insert");
  assert.equal(w.speak, false, `${w.rule}: ${w.detail}`);
  const origins = termOrigins("see src/components/export_to_audit/export.ts and src/routes/[client_id]/x.ts");
  const named = origins.filter((o) => o.pathName).map((o) => o.term);
  assert.deepEqual(named, ["export_to_audit"]);
});

Deno.test("a request for one change in passive voice sets no rule: 'the types should be updated in …'", () => {
  const records = [
    ...filler(40),
    rec("the modal types should be updated in dashboard.svelte to be DataModalType", { id: "task" }),
  ];
  const v = hint(records, "which DataModalType do the dashboard.svelte modal types use");
  assert.equal(v.speak, false, `${v.rule}: ${v.detail}`);
  const rule = rec("modal types should always be DataModalType in dashboard.svelte", { id: "rule" });
  const w = hint([...records, rule], "which DataModalType do the dashboard.svelte modal types use");
  assert.deepEqual(w.hits.map((h) => h.id), ["rule"], `${w.rule}: ${w.detail}`);
});

Deno.test("a literal the prompt quotes in backticks, quoted the same way by a decision, is its topic", () => {
  // `bun` and `run` are in many records: neither is rare enough to be an anchor on its own.
  const chatter = Array.from(
    { length: 30 },
    (_, i) => rec(`bun run the tests in the session repo and note the build ${i}`),
  );
  const rule = rec("just run using `minsky`, not `bun run`.", { id: "literal" });
  const records = [...filler(40), ...chatter, rule];
  const v = hint(
    records,
    "note that we use `bun run` instead of `minsky` in the session repo",
  );
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(v.hits.map((h) => h.id), ["literal"]);
  // The same words without the backticks are ordinary words: no literal, no hint.
  assert.equal(
    hint(records, "note that we use bun run instead of minsky in the session repo").speak,
    false,
  );
  // A literal quoted by a statement that is no decision is no hint either.
  const request = rec("can you run `bun run` in the session repo", { id: "request" });
  assert.equal(
    hint([...filler(40), ...chatter, request], "why does `bun run` fail in the session repo").speak,
    false,
  );
});

Deno.test("a phrase the prompt quotes in double quotes is a literal however common its words; one quoted word is not", () => {
  // `uv` and `pip` are in twenty conversations of sixty-one records: common words, no anchor, and
  // a prompt of them alone weighs nothing (it "names nothing but places, decision words and words common in this archive").
  const chatter = Array.from(
    { length: 20 },
    (_, i) => rec(`set up the venv with uv pip and pip freeze the deps ${i}`),
  );
  const rule = rec("Run the checks first. Don't use `pip`, use `uv pip`.", { id: "literal" });
  const records = [...filler(40), ...chatter, rule];
  const v = hint(records, 'is it "uv pip" here?');
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(v.hits.map((h) => h.id), ["literal"]);
  // The literal's statement is quoted, not the record's other sentence.
  assert.equal(v.quotes[0]!.statements.map((s) => s.text).join(" "), "Don't use `pip`, use `uv pip`.");
  // Unquoted, the same words are common words: silence.
  assert.equal(hint(records, "is it uv pip here?").speak, false);
  // A prompt saying the rule itself is told nothing by it (issue 27: a repeat).
  assert.equal(hint(records, 'USE "uv pip"!').rule, "repeat");
  // One word in double quotes is an emphasis as often as a name: no literal.
  const one = rec("Don't use `pip`, use `uv`.", { id: "one" });
  assert.equal(
    hint([...filler(40), ...chatter, one], 'is it "uv" here?').speak,
    false,
  );
  // Quoted either way on either side: a prompt's backticks meet a decision's double quotes.
  const quoted = rec('Don\'t use "pip", use "uv pip".', { id: "quoted" });
  const w = hint([...filler(40), ...chatter, quoted], "is it `uv pip` here?");
  assert.deepEqual(w.hits.map((h) => h.id), ["quoted"], `${w.rule}: ${w.detail}`);
});

Deno.test("a record matching only common words speaks only through a statement quoting the literal", () => {
  // todo.md and checkbox are in every conversation here; the prompt quotes `uv pip`, which the
  // record holds unquoted, and names todo.md, which a decision of the record names too.
  const chatter = Array.from(
    { length: 20 },
    (_, i) => rec(`update todo.md with the checkbox items and run uv pip install ${i}`),
  );
  const record = rec("Always mark the checkbox items of todo.md when done. Then run uv pip install.", {
    id: "record",
  });
  // The prompt's one uncommon word (zephyr) is in another record: the prompt has a topic.
  const records = [...filler(40), ...chatter, record, rec("the zephyr build needs a newer compiler")];
  const v = hint(records, "update todo.md and use `uv pip` for the zephyr build");
  assert.equal(v.speak, false, `${v.rule}: ${v.detail}`);
  assert.equal(v.checks.find((c) => c.id === "record")?.rule, "common-only");
  // Without the literal, the record is refused as before, on the whole record.
  const plain = hint(records, "update todo.md and use uv pip for the zephyr build");
  assert.equal(plain.speak, false, `${plain.rule}: ${plain.detail}`);
});

Deno.test("Japanese grammar kana are no topic; a camelCase name of three parts is sharp, of two it is not", () => {
  // Hiragana-only grams are particles and endings; kanji and katakana words stay topics.
  const ignored = notTopic(termOrigins("引数から設定できなくなったよ、キャスト情報"));
  for (const t of ["から", "なっ", "った"]) assert.ok(ignored.has(t), t);
  for (const t of ["引数", "設定"]) assert.ok(!ignored.has(t), t);
  // The argument names chosen once, in a long spec, answer a short prompt that names them among
  // Japanese endings: the kana do not dilute the prompt, and the names are sharp however much
  // else the spec says.
  const spec = rec(
    "こういう形にして、引数は in OrderLineItems, out InvoiceTotalsNet, RegionCodeList (出力フォルダのパスは固定値でよい)",
    { id: "args" },
  );
  const records = [...filler(40), spec];
  const v = hint(records, "今度は、OrderLineItemsも、InvoiceTotalsNetもぜんぶ引数から設定できなくなったよ。");
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  assert.deepEqual(v.hits.map((h) => h.id), ["args"]);
  // Two humps are as often a product's name: JavaScript alone is one thing, not an identifier.
  const js = rec("Always write JavaScript with semicolons at the end of each statement", { id: "js" });
  const w = hint([...filler(40), js], "JavaScript feels clunky");
  assert.equal(w.speak, false);
  assert.equal(w.rule, "few-terms", w.detail);
  // Three humps name something in code: the same rule speaks for it.
  const code = rec("Always build orderLineItems with semicolons at the end of each statement", {
    id: "code",
  });
  const x = hint([...filler(40), code], "orderLineItems feels clunky");
  assert.equal(x.speak, true, `${x.rule}: ${x.detail}`);
});

Deno.test("in a young archive everyday words anchor nothing; in a large one the person's own counts decide", () => {
  const rule = "Always rebase onto main and pull before you merge a branch.";
  const prompt = "pull the latest changes and merge them into main";
  // Thirty records: every word is in one or two of them, so rarity says nothing about everyday words.
  const young = hint([...filler(29), rec(rule, { id: "young" })], prompt);
  assert.equal(young.speak, false, quoted(young).join(" | "));
  assert.equal(young.rule, "no-anchor", young.detail);
  assert.match(young.detail, /everyday words, no anchor in an archive under 100 records/);
  // The same decision is found by a word that is not everyday (rebase is git's own), and…
  const sharp = hint([...filler(29), rec(rule, { id: "young" })], "should I rebase onto main or merge?");
  assert.equal(sharp.speak, true, `${sharp.rule}: ${sharp.detail}`);
  // …in an archive of four hundred records, two everyday words this person rarely uses are a topic.
  const grown = hint([...filler(399), rec(rule, { id: "grown" })], prompt);
  assert.equal(grown.speak, true, `${grown.rule}: ${grown.detail}`);
  assert.deepEqual(quoted(grown), [rule]);
});

Deno.test("canAnchor: an everyday word anchors nothing below YOUNG_ARCHIVE_RECORDS records; other words do", () => {
  assert.equal(YOUNG_ARCHIVE_RECORDS, 100);
  assert.equal(canAnchor("merg", 38), false);
  assert.equal(canAnchor("merg", YOUNG_ARCHIVE_RECORDS - 1), false);
  assert.equal(canAnchor("merg", YOUNG_ARCHIVE_RECORDS), true);
  assert.equal(canAnchor("pnpm", 4), true);
  assert.equal(canAnchor("rebas", 4), true);
});

Deno.test("a decision after the sentence naming the topic is on it when the two share a word of the prompt", () => {
  const topic = "We are going to clear every hydration_mismatch warning in the storefront.";
  const rule =
    "Each warning on a cached widget should be solved with a client-only wrapper, like banner.tsx.";
  const records = [...filler(40), rec(`${topic}\n\n${rule}`, { id: "plan" })];
  const prompt = "why do we still get hydration_mismatch warnings on the storefront?";
  const v = hint(records, prompt);
  assert.equal(v.speak, true, `${v.rule}: ${v.detail}`);
  // The rule alone would not say what it is about: it is quoted after the sentence on the topic.
  assert.equal(v.quotes.length, 1);
  assert.deepEqual(v.quotes[0]!.statements.map((s) => s.text), [topic, rule]);
  assert.match(v.checks[0]!.detail, /a decision tied to the statement on the topic before it/);
  // A later decision sharing no word of the prompt with that sentence is about something else.
  const other = "Each button on a cached widget should use a client-only wrapper, like banner.tsx.";
  const apart = [...filler(40), rec(`${topic}\n\n${other}`, { id: "plan" })];
  const silent = hint(apart, prompt);
  assert.equal(silent.speak, false);
  assert.equal(silent.rule, "not-a-decision", silent.detail);
  // Nor is a statement that shares the word but decides nothing.
  const plain = "Each warning on a cached widget is listed in the build log.";
  assert.equal(hint([...filler(40), rec(`${topic}\n\n${plain}`, { id: "plan" })], prompt).speak, false);
});

Deno.test("a firm rule speaks on a quarter of the prompt; a soft 'should' needs a third of it", () => {
  const soft = rec(
    "When selecting a procedure, a callback should be sent out from src/components/export_to_audit/modal.svelte",
    { id: "soft" },
  );
  const firm = rec(
    "When selecting a procedure, a callback must always be sent out from src/components/export_to_audit/modal.svelte",
    { id: "firm" },
  );
  // The prompt's one subject shared with each is export_to_audit: about a third of its weight.
  const prompt = "@audit/src/components/export_to_audit/export.ts clean up the FIXMEs";
  const f = hint([...filler(40), firm], prompt);
  assert.equal(f.speak, true, `${f.rule}: ${f.detail}`);
  const s = hint([...filler(40), soft], prompt);
  assert.equal(s.speak, false, "a 'should' on one of the prompt's subjects is as often a one-off request");
  assert.equal(s.rule, "low-coverage");
  assert.match(s.detail, /needs 35%/);
  // The same soft statement speaks when it is most of what the prompt is about.
  const t = hint(
    [...filler(40), soft],
    "the export_to_audit modal: is a callback sent out when selecting a procedure?",
  );
  assert.equal(t.speak, true, `${t.rule}: ${t.detail}`);
  // Under "We decided:" a statement is firm without a marker of its own.
  const label = rec("We decided:\nA callback is sent out from src/components/export_to_audit/modal.svelte", {
    id: "label",
  });
  const l = hint([...filler(40), label], prompt);
  assert.equal(l.speak, true, `${l.rule}: ${l.detail}`);
});

Deno.test("a prompt stating the rule in its first paragraph is a repeat however its paragraphs wrap", () => {
  const decision = rec("From now on we always deploy the shop with flyctl.", { id: "flyctl" });
  const records = [...filler(49), decision];
  // Three paragraphs, none closed by a full stop, each but the first opening lower-case: joined
  // by single newlines they read as one hard-wrapped paste, and the rule in the first would be lost.
  const prompt = [
    "remember that we always deploy the shop with flyctl, that stays",
    "and so tell me which one of these it should be then, ok",
    "flyctl deploy or flyctl launch",
  ].join("\n\n");
  const v = hint(records, prompt);
  assert.equal(v.speak, false, `${v.rule}: ${v.detail}`);
  assert.equal(v.checks.find((c) => c.id === "flyctl")?.rule, "repeat", JSON.stringify(v.checks));
  // Asked without saying the rule, the rule speaks.
  assert.deepEqual(quoted(hint(records, "how do I deploy the shop: flyctl deploy or flyctl launch?")), [
    "From now on we always deploy the shop with flyctl.",
  ]);
});
