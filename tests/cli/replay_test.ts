/**
 * `verdict replay` end to end on the synthetic gate corpus: the report's shape, the window
 * options, JSON, --explain, determinism and the errors.
 */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../cli_helper.ts";

const CORPUS = new URL("../fixtures/gate/corpus.jsonl", import.meta.url).pathname;

interface ReplayJson {
  records: number;
  prompts: number;
  fired: number;
  share: number;
  by_rule: Record<string, number>;
  most_quoted: { id: string; count: number; text: string }[];
  events: {
    prompt: { id: string; time: string; project: string; session: string | null; text: string };
    fired: boolean;
    rule: string;
    detail: string;
    notice?: string;
    quotes?: { id: string; time: string; session: string | null; kind: string; quote: string }[];
    checks?: { id: string; rule: string; detail: string }[];
  }[];
}

async function replay(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = await tempHome();
  try {
    return await runCli(["replay", "--records", CORPUS, ...args], { env: { HOME: home } });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

async function replayJson(args: string[]): Promise<ReplayJson> {
  const r = await replay([...args, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as ReplayJson;
}

Deno.test("replay prints each fired prompt with its notice, quotes and rule, then the summary", async () => {
  const r = await replay([]);
  assert.equal(r.code, 0, r.stderr);
  const blocks = r.stdout.split("\n\n");
  const fired = blocks.filter((b) => b.includes("\n  notice: verdict: "));
  assert.ok(fired.length > 0);
  for (const b of fired) {
    assert.match(b, /^\d{4}-\d\d-\d\d \d\d:\d\d {2}\S.* {2}\S+/);
    assert.match(b, /\n {2}prompt: /);
    assert.match(b, /\n {2}quoted: [pndct][0-9a-f]{16} \(\d{4}-\d\d-\d\d, \w+, /);
    assert.match(b, /\n {2}rule: spoke: /);
  }
  const summary = r.stdout.slice(r.stdout.indexOf("replayed "));
  assert.match(
    summary,
    /^replayed \d+ prompt\(s\) \(\d{4}-\d\d-\d\d → \d{4}-\d\d-\d\d\) of .*corpus\.jsonl \(162 records\)$/m,
  );
  assert.match(summary, new RegExp(`^fired on ${fired.length} of \\d+ prompts \\(\\d+\\.\\d%\\)$`, "m"));
  assert.match(summary, /^by rule: (?:[a-z-]+ \d+, )*[a-z-]+ \d+$/m);
  assert.match(
    summary,
    /^quoted most often:\n( {2} +\d+× {2}[pndct][0-9a-f]{16} \(\d{4}-\d\d-\d\d\): .+\n)+$/m,
  );
});

Deno.test("replay --json: counts add up, every fired event has its notice and quotes, and all quotes are older", async () => {
  const j = await replayJson([]);
  assert.equal(j.records, 162);
  assert.equal(j.prompts, 121);
  assert.equal(Object.values(j.by_rule).reduce((a, b) => a + b, 0), j.prompts);
  assert.equal(j.by_rule.spoke ?? 0, j.fired);
  assert.equal(j.events.length, j.fired);
  assert.equal(j.share, Math.round(10_000 * j.fired / j.prompts) / 10_000);
  for (const e of j.events) {
    assert.equal(e.fired, true);
    // Only a typed decision is "you decided"; a doc, a note or a commit says what it says.
    const said = { prompt: "you decided this before", note: "your notes say", doc: "your docs say" }[
      e.quotes![0]!.kind as "prompt" | "note" | "doc"
    ] ?? "a commit says";
    assert.ok(e.notice!.startsWith(`verdict: ${said} (`), e.notice);
    assert.ok(e.quotes!.length >= 1 && e.quotes!.length <= 2);
    for (const q of e.quotes!) {
      assert.ok(q.time < e.prompt.time, `${q.id} is older than ${e.prompt.id}`);
      if (e.prompt.session !== null) assert.notEqual(q.session, e.prompt.session);
    }
  }
  const counted = new Map<string, number>();
  for (const e of j.events) for (const q of e.quotes!) counted.set(q.id, (counted.get(q.id) ?? 0) + 1);
  for (const m of j.most_quoted) assert.equal(m.count, counted.get(m.id));
});

Deno.test("replay is deterministic: two runs print the same bytes", async () => {
  const a = await replay(["--explain"]);
  const b = await replay(["--explain"]);
  assert.equal(a.code, 0);
  assert.equal(a.stdout, b.stdout);
});

Deno.test("replay's window: --last, --since/--until and --project select the prompts replayed", async () => {
  const all = await replayJson(["--explain"]);
  const times = all.events.map((e) => e.prompt.time).sort();
  const last = await replayJson(["--last", "10", "--explain"]);
  assert.equal(last.prompts, 10);
  assert.deepEqual(last.events.map((e) => e.prompt.time), times.slice(-10));
  // Replaying fewer prompts changes nothing about the ones replayed: they still see every older record.
  const byId = new Map(all.events.map((e) => [e.prompt.id, e]));
  for (const e of last.events) assert.equal(e.rule, byId.get(e.prompt.id)!.rule);

  const window = await replayJson(["--since", "2026-03-01", "--until", "2026-06-01", "--explain"]);
  const expected = times.filter((t) => t >= "2026-03-01" && t < "2026-06-01");
  assert.ok(expected.length > 0);
  assert.deepEqual(window.events.map((e) => e.prompt.time), expected);

  const shop = await replayJson(["--project", "/home/dev/shop", "--explain"]);
  assert.ok(shop.prompts > 0 && shop.prompts < all.prompts);
  assert.ok(shop.events.every((e) => e.prompt.project === "/home/dev/shop"));
});

Deno.test("replay --explain lists the silent prompts with their rule, and each candidate's check", async () => {
  const r = await replay(["--explain"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /\n {2}silent \((few-terms|no-candidates|not-a-decision|low-coverage|no-anchor|empty|common-only)\): /,
  );
  assert.match(r.stdout, /search terms \(rarest first; common words last\):/);
  assert.match(r.stdout, / → spoke: decision statements? on anchors /);
  const j = await replayJson(["--explain"]);
  assert.equal(j.events.length, j.prompts);
  assert.ok(j.events.some((e) => !e.fired && e.checks!.length > 0));
});

Deno.test("replay refuses a bad date and a missing records file, saying how to go on", async () => {
  const bad = await replay(["--since", "last tuesday"]);
  assert.equal(bad.code, 3);
  assert.match(bad.stderr, /Cannot read --since "last tuesday": not a date or RFC 3339 time/);
  assert.match(bad.stderr, /hint: write it like 2026-03-01/);
  const badLast = await replay(["--last", "0"]);
  assert.equal(badLast.code, 3);
  const home = await tempHome();
  try {
    const missing = await runCli(["replay", "--records", `${home}/nope.jsonl`], { env: { HOME: home } });
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /Cannot replay ".*nope\.db": there is no archive yet/);
    assert.match(missing.stderr, /hint: run "verdict collect" first/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("replay of an archive with no prompt says so and reports zero", async () => {
  const home = await tempHome();
  try {
    const path = `${home}/records.jsonl`;
    const lines = Deno.readTextFileSync(CORPUS).split("\n").filter((l) =>
      l && !l.includes('"kind":"prompt"')
    );
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    const r = await runCli(["replay", "--records", path], { env: { HOME: home } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^replayed 0 prompt\(s\) of .* \(41 records\)\nfired on 0 of 0 prompts \(0%\)\nby rule: -\n$/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
