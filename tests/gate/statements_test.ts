import assert from "node:assert/strict";
import {
  ANALYSED_MAX_CHARS,
  analyseRecord,
  hardWrapped,
  MAX_SCANNED_CHARS,
  pastedLineReason,
  sameTextHash,
  sameTextKey,
  sameTextKeyByRules,
  statementKey,
  statementsOf,
  typedText,
} from "../../src/gate/statements.ts";
import { fnv1a64 } from "../../src/record/record.ts";
import { historiesMissing, historyNames, loadHistory } from "../replay/histories.ts";

const texts = (t: string) => statementsOf(t).statements.map((s) => s.text);

Deno.test("statements are sentences of the typed lines, with their offsets", () => {
  const text = "Tidy the readme. Upload it to GitHub, no secret keys!\n以后都用 pnpm。不要用 npm\n";
  const s = statementsOf(text).statements;
  assert.deepEqual(s.map((x) => x.text), [
    "Tidy the readme.",
    "Upload it to GitHub, no secret keys!",
    "以后都用 pnpm。",
    "不要用 npm",
  ]);
  for (const x of s) assert.equal(text.slice(x.start, x.end), x.text);
  // A version or a file name is not a sentence end; a Chinese question particle before a space is.
  assert.deepEqual(texts("use node 20.11 in app.ts please"), ["use node 20.11 in app.ts please"]);
  assert.deepEqual(texts("这样可以吗 我觉得不行"), ["这样可以吗", "我觉得不行"]);
});

Deno.test("each kind of pasted line is set aside, with its reason", () => {
  const pasted = [
    "> the reviewer said: always squash",
    "## Deployment notes",
    "| name | value |",
    "┃ Error ┃",
    "@@ -1,4 +1,5 @@",
    '  "never": true,',
    "2026-02-19 10:00:01 ERROR never retried",
    "[12:00:01] must restart",
    "INFO: always on",
    'File "/srv/app.py", line 12, in main',
    "    at run (/srv/main.ts:10:3)",
    "$ npm install",
    ">>> import os",
    "✅ All tests pass, never flaky",
    "您可以使用 pnpm",
    "TypeError: x is undefined",
    "error: could not compile",
    "/home/a/dev.sh: line 6: /config/env.sh: No such file or directory",
    "src/a.ts:12:5: error TS2345",
    "/srv/app/config.yaml",
    "https://example.test/docs/page",
    "const x = { a: [1, 2], b: () => {} };",
    "await requireUser(request);",
    "export function mergeCarts(a, b) {",
    "} else {",
    "// Line 26: always set the flag",
    "/usr/bin/git checkout --progress --force refs/heads/main",
    "/usr/local/bin/node server.js --always-restart",
  ];
  for (const line of pasted) assert.ok(pastedLineReason(line) !== null, line);
  const typed = [
    "we always squash merges",
    "Step 1: run the tests",
    "use pnpm: it is faster",
    "No deploys on Friday.",
    "以后都用 pnpm",
    "ログは英語で書く",
    "use tabs; never spaces",
    "the /usr/bin folder is read-only here",
  ];
  for (const line of typed) assert.equal(pastedLineReason(line), null, line);
});

Deno.test("fenced code, wrapped log lines and Claude Code placeholders are pasted", () => {
  const text = [
    "why does this fail?",
    "```",
    "we always use npm here",
    "```",
    "                     ERROR    engine 'pplx' failed: API key is required for",
    "                              pplx. Please set it via one of these env vars",
    "[Pasted text #2 +40 lines] fix it",
  ].join("\n");
  assert.deepEqual(texts(text), ["why does this fail?", "fix it"]);
  assert.ok(statementsOf(text).pastedShare > 0.5);
  assert.equal(typedText(text), "why does this fail?\nfix it");
});

Deno.test("a hard-wrapped paragraph is pasted: nobody types line breaks inside their sentences", () => {
  // A review bot's comment wrapped at a width: every line but the last stops mid-sentence.
  const review = [
    "In src/cart/checkout.ts around lines 40 to 52, the retry loop never",
    "backs off and always hits the payment API again at once; change it to",
    "use an exponential delay and never retry a declined card more than",
    "once.",
  ];
  assert.deepEqual(hardWrapped(review), [true, true, true, true]);
  assert.deepEqual(texts(["Please look at this:", ...review].join("\n")), ["Please look at this:"]);
  // Two lines broken mid-sentence are one break: a person may press Enter once.
  const twoLines = [
    "From now on we always deploy the storefront with the blue-green",
    "switch, never in place.",
  ];
  assert.deepEqual(hardWrapped(twoLines), [false, false]);
  assert.deepEqual(texts(twoLines.join("\n")), [
    "From now on we always deploy the storefront with the blue-green",
    "switch, never in place.",
  ]);
  // Lines the writer ended (a sentence, a list item, a short line) are typed.
  const typed = [
    "From now on we always deploy the storefront with the blue-green switch.",
    "never deploy on Fridays, and never without a rollback plan written down",
    "use pnpm",
    "keep the changelog in English whatever language the issue was written in.",
  ];
  assert.deepEqual(hardWrapped(typed), [false, false, false, false]);
  // Lines of one paragraph in a language without case never read as wrapped.
  assert.deepEqual(
    hardWrapped([
      "以后都用 pnpm 安装依赖包，不要再用 npm 或者 yarn 了，这样团队里的锁文件才一致",
      "还有提交信息都写英文，这个之前已经说过好几次了，请一定记住不要忘记了啊",
      "谢谢",
    ]),
    [false, false, false],
  );
});

Deno.test("a record is scanned up to MAX_SCANNED_CHARS", () => {
  const long = `${"filler words here. ".repeat(MAX_SCANNED_CHARS / 10)}Always use pnpm.`;
  assert.ok(!texts(long).includes("Always use pnpm."));
});

Deno.test("the same words compare equal whatever the spacing, punctuation, case and numbers", () => {
  assert.equal(sameTextKey("Continue with task 002!"), sameTextKey("continue  with task #011"));
  assert.notEqual(sameTextKey("use pnpm"), sameTextKey("use npm"));
  assert.equal(statementKey("Use pnpm."), statementKey("use pnpm"));
  assert.match(statementKey("use pnpm"), /^s[0-9a-f]{16}$/);
});

Deno.test("sameTextKey and sameTextHash give what the rules give, for every UTF-16 unit and its neighbours", () => {
  for (let c = 0; c < 0x10000; c++) {
    const u = String.fromCharCode(c);
    for (const t of [u, `Ab${u}1`, `1${u}2`, `${u}${u}x`, `x ${u}\u0301`]) {
      assert.equal(sameTextKey(t), sameTextKeyByRules(t), `U+${c.toString(16)} in ${JSON.stringify(t)}`);
    }
  }
  // Random short strings over units of many scripts, marks and jamo among them (fixed seed).
  const pool = [
    ..."aZ09 .,-_'’“”—…•é΅ΣσςΑİıſﬁＡｚ０９，。、「」〜ーかがゝｶﾞ가각각ㄱ한國語Ω№①ⅷ\u0301\u3099\u00ad\u200b\ufeff\u2028",
  ];
  let seed = 7;
  for (let n = 0; n < 20_000; n++) {
    let t = "";
    for (let k = 0; k < 6; k++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      t += pool[seed % pool.length];
    }
    assert.equal(sameTextKey(t), sameTextKeyByRules(t), JSON.stringify(t));
  }
  const samples = [
    "Continue with task 002!",
    "ＡＢＣ１２３，以后都用 pnpm。不要用 npm",
    "名称を、TestCaseからTestBehaviors",
    "ｶﾀｶﾅ and é and ﬁ and ①",
    "x".repeat(20_000),
    "",
  ];
  for (const t of samples) {
    assert.equal(sameTextKey(t), sameTextKeyByRules(t), t.slice(0, 40));
    assert.equal(sameTextHash(t), fnv1a64(sameTextKeyByRules(t)), t.slice(0, 40));
  }
});

Deno.test({
  name: "sameTextKey and sameTextHash give what the rules give on every text of the development histories",
  ignore: historiesMissing() !== null,
  fn() {
    for (const name of historyNames()) {
      for (const r of loadHistory(name).records) {
        assert.equal(sameTextKey(r.text), sameTextKeyByRules(r.text), `${name} ${r.id}`);
        assert.equal(sameTextHash(r.text), fnv1a64(sameTextKeyByRules(r.text)), `${name} ${r.id}`);
      }
    }
  },
});

Deno.test("an abbreviation's full stop ends no sentence: vs., e.g., i.e.", () => {
  assert.deepEqual(texts("Lead lines with `- [ ]` if open vs. `- [x]` if done. Then stop."), [
    "Lead lines with `- [ ]` if open vs. `- [x]` if done.",
    "Then stop.",
  ]);
  assert.deepEqual(texts("Use a queue, e.g. SQS. Or i.e. anything."), [
    "Use a queue, e.g. SQS.",
    "Or i.e. anything.",
  ]);
});

Deno.test("analyseRecord() is statementsOf and sameTextHash of the scanned text, remembered by it, shared frozen, and bounded", () => {
  const texts = [
    "We decided: Postgres, not MySQL. Backups run nightly.",
    "```\nnpm ERR! code E404\n```\nignore that, use pnpm from now on",
    "x".repeat(10) + "\n\n" + "Always run the linter before a commit. ".repeat(200), // over MAX_SCANNED_CHARS
  ];
  for (const text of texts) {
    const scanned = text.slice(0, MAX_SCANNED_CHARS);
    const a = analyseRecord(text);
    assert.equal(a.scanned, scanned);
    assert.equal(a.hash, sameTextHash(scanned));
    const fresh = statementsOf(text);
    assert.deepEqual([a.statements, a.pastedShare], [fresh.statements, fresh.pastedShare]);
    assert.equal(analyseRecord(text), a, "the same text again: the remembered analysis");
    assert.equal(
      analyseRecord([...scanned].join("")),
      a,
      "remembered by the scanned text, not the string object",
    );
    assert.ok(Object.isFrozen(a) && Object.isFrozen(a.statements) && a.statements.every(Object.isFrozen));
  }
  // More than ANALYSED_MAX_CHARS of other texts since: the first is forgotten (analysed afresh, equal).
  const first = analyseRecord(texts[0]!);
  const filler = Math.ceil(ANALYSED_MAX_CHARS / MAX_SCANNED_CHARS) + 1;
  for (let i = 0; i < filler; i++) {
    analyseRecord(`${i} ${"a decision about the build. ".repeat(150)}`.slice(0, MAX_SCANNED_CHARS));
  }
  const again = analyseRecord(texts[0]!);
  assert.notEqual(again, first, "forgotten past the bound");
  assert.deepEqual(again, first);
  // A text used again is kept while others are forgotten (most recently used last).
  const kept = analyseRecord(texts[1]!);
  for (let i = 0; i < filler; i++) {
    analyseRecord(`${i} ${"another note on the deploy. ".repeat(150)}`.slice(0, MAX_SCANNED_CHARS));
    if (i % 100 === 0) assert.equal(analyseRecord(texts[1]!), kept, `still kept at ${i}`);
  }
});

Deno.test("a file an editor attaches (<context ref=…> … </context>) is pasted; the typed lines around it are not", () => {
  const text = [
    "/implement the handoff, only the pending part. Never thread the link in post 1.",
    '<context ref="file:///Users/me/repo/tmp/handoff.md">',
    "# Handoff: social pipeline",
    "- `linkedin-style/SKILL.md` (vault): added a note - it stops at LinkedIn-shaped Markdown.",
    "Rationale: pipeline-coupled logic must stay locked to the code.",
    "</context>",
    "Keep each network a single string.",
  ].join("\n");
  assert.deepEqual(texts(text), [
    "/implement the handoff, only the pending part.",
    "Never thread the link in post 1.",
    "Keep each network a single string.",
  ]);
  assert.ok(statementsOf(text).pastedShare > 0.4);
  // An opener closed on its own line is that line alone.
  assert.deepEqual(texts('<file path="a.ts">x</file>\nUse pnpm, never npm.'), ["Use pnpm, never npm."]);
});

Deno.test("a record opening with a heading and holding another is a document pasted whole", () => {
  const doc =
    "# Handoff: cadence sync\n\n## Goal\n\nMake the posting code the single source of truth, so the header can never drift.";
  assert.deepEqual(texts(doc), []);
  assert.equal(statementsOf(doc).pastedShare, 1);
  // One heading line is not a document: the lines typed under it are statements.
  assert.deepEqual(texts("# note to self\nalways run the linter before you commit"), [
    "always run the linter before you commit",
  ]);
  // A heading further down does not make what was typed above it pasted.
  assert.deepEqual(
    texts("this still isnt right, it should compare to main\n\n## Modified Files\n\n## Summary"),
    [
      "this still isnt right, it should compare to main",
    ],
  );
});

Deno.test("a package manager's message (npm error …, npm ERR!, yarn warn) is program output", () => {
  for (
    const line of [
      "npm error It is likely you do not have the permissions to access this file as the current user",
      "npm ERR! code EACCES",
      "yarn warn You should never run this as root",
      "pip error: externally-managed-environment",
    ]
  ) {
    assert.match(pastedLineReason(line) ?? "", /program output/, line);
  }
  // Typed sentences about npm are not.
  assert.equal(pastedLineReason("npm errors keep showing up, never run it as root"), null);
  assert.equal(pastedLineReason("never use npm, use pnpm"), null);
});
