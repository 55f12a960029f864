/**
 * hintFor(): the hook's decision does bounded work whatever the prompt's size. The bound is on
 * the text it searches (its start and its end), checked here by what the search sees; the time
 * it saves is measured by `deno task bench:hint` ("hint end to end, 4 MB CJK prompt").
 */
import assert from "node:assert/strict";
import { recordId, type VerdictRecord } from "../../src/record/record.ts";
import { record } from "../_records.ts";
import { HINT_PROMPT_MAX_CHARS, hintFor, promptForSearch, whyNotQuoted } from "../../src/gate/hint.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";

function rec(i: number, text: string): VerdictRecord {
  return record(text, { id: recordId("prompt", `h${i}`), session: "old", source_line: i + 1 });
}

const RECORDS = [
  rec(0, "we decided zebracorn backups run nightly"),
  rec(1, "always use quokkadb for the queue"),
  rec(2, "never deploy wombatctl on fridays"),
  ...Array.from({ length: 40 }, (_, i) => rec(10 + i, `filler record number ${i} about nothing`)),
];
const CORPUS = buildMemoryIndex(RECORDS);

const request = (prompt: string) => ({
  prompt,
  session: "live",
  cwd: "/p",
  nowMs: Date.parse("2026-01-02T00:00:00Z"),
  shown: new Set<string>(),
  entities: [],
  personas: [],
  top: 2,
  textOf: (doc: number) => RECORDS[doc]!.text,
});

Deno.test("hintFor() searches only the start and the end of a prompt longer than the bound", () => {
  const filler = "数据库备份迁移部署服务订单支付队列缓存索引查询".repeat(Math.ceil(2_000_000 / 24));
  const prompt = `zebracorn ${filler} quokkadb ${filler} wombatctl`;
  assert.ok(prompt.length > 1_000 * HINT_PROMPT_MAX_CHARS / 10);
  const { result } = hintFor(CORPUS, request(prompt));
  const terms = new Set(result!.terms.map((t) => t.term));
  assert.ok(terms.has("zebracorn"), "the prompt's start is searched");
  assert.ok(terms.has("wombatctl"), "the prompt's end is searched");
  assert.ok(!terms.has("quokkadb"), "the middle of a huge paste is not");
});

Deno.test("promptForSearch() keeps a prompt within the bound whole, and cuts a longer one to the bound", () => {
  const short = "x".repeat(HINT_PROMPT_MAX_CHARS);
  assert.equal(promptForSearch(short), short);
  const long = "a".repeat(HINT_PROMPT_MAX_CHARS) + "b".repeat(HINT_PROMPT_MAX_CHARS);
  const cut = promptForSearch(long);
  assert.ok(cut.length <= HINT_PROMPT_MAX_CHARS + 1);
  assert.ok(cut.startsWith("a") && cut.endsWith("b"));
  // Never half a surrogate pair at either cut.
  const emoji = "😀".repeat(HINT_PROMPT_MAX_CHARS);
  const cutEmoji = promptForSearch(emoji);
  assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(cutEmoji));
});

Deno.test("whyNotQuoted() names the rule that refused the whole prompt, and unjudged only behind a full hint", () => {
  const doc = (id: string) => RECORDS.findIndex((r) => r.id === id);
  // "always" is a decision word and wombatctl here a folder of a path, a place: the prompt names no topic,
  // so the gate refuses every candidate at once and judges none of them.
  const empty = whyNotQuoted(CORPUS, request("always in /srv/wombatctl/"), doc(recordId("prompt", "h2")));
  assert.equal(empty.rule, "empty", JSON.stringify(empty));
  assert.match(empty.detail, /names nothing but places, decision words and words common in this archive/);
  assert.equal(empty.rank, 1);
  // A hint of one quote, full before the second candidate: that one is unjudged.
  const both = "zebracorn backups nightly, or the quokkadb queue?";
  const spoke = hintFor(CORPUS, { ...request(both), top: 1 }).verdict;
  assert.equal(spoke.speak, true, `${spoke.rule}: ${spoke.detail}`);
  const other = RECORDS.findIndex((r) => r.id !== spoke.hits[0]!.id && /zebracorn|quokkadb/.test(r.text));
  const behind = whyNotQuoted(CORPUS, { ...request(both), top: 1 }, other);
  assert.equal(behind.rule, "unjudged", JSON.stringify(behind));
  assert.equal(behind.detail, "the hint had its 1 quote(s) before reaching it");
});
