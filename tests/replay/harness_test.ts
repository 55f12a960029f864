/**
 * The measurement harness itself (eval:replay's per-person table, macro-average, labels, export,
 * import and agreement), on small synthetic histories written to a temp folder and run through
 * the real command (`--data`, `--labels`), and on figures of our own for the pure parts. Nothing
 * here depends on what the gate decides: the pairs handed out include recall's pooled candidates,
 * which an earlier session always supplies.
 */
import assert from "node:assert/strict";
import { cohen, exportJsonl, parseLabels, parseReaderLabels, planImport } from "./labels.ts";
import { macro, macroInterval, type PersonRow, personTable, unserved } from "./per_person.ts";
import { type OwnFigures, pairKey } from "./replay_eval.ts";
import { outsideRepository } from "./replay_eval.ts";

const EVAL = new URL("./replay_eval.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

function figures(history: string, f: Partial<OwnFigures>): OwnFigures {
  return {
    history,
    prompts: 100,
    fired: 0,
    quotes: 0,
    relevantQuotes: 0,
    relevantFirst: 0,
    unlabelledQuotes: 0,
    irrelevant: {},
    sampled: 40,
    opportunities: 0,
    poolRelevant: 0,
    poolRelevantShown: 0,
    poolRelevantShownEarlier: 0,
    poolUnlabelled: 0,
    freshAgree: 0,
    freshTotal: 0,
    ...f,
  };
}

function row(f: OwnFigures, labelled = true, cross = { fired: 0, prompts: 300 }): PersonRow {
  return { own: f, language: "en", labelled, cross, drawn: { fired: 0, prompts: 0 } };
}

Deno.test("macro-average: each person counts once, over the persons for whom a figure is defined", () => {
  // A prolific person (9 of 10 relevant over 1,000 prompts) and a small one (0 of 2).
  const rows = [
    row(
      figures("big", {
        prompts: 1000,
        fired: 10,
        quotes: 10,
        relevantQuotes: 9,
        poolRelevant: 4,
        poolRelevantShown: 4,
        opportunities: 4,
      }),
    ),
    row(
      figures("small", {
        prompts: 100,
        fired: 2,
        quotes: 2,
        relevantQuotes: 0,
        poolRelevant: 2,
        opportunities: 2,
      }),
    ),
    // No quote at all, no relevant pool candidate: no precision, no recall; a fire rate of 0.
    row(figures("silent", { prompts: 50 }), false, { fired: 3, prompts: 300 }),
  ];
  const m = macro(rows);
  assert.deepEqual(m.precision, { value: (0.9 + 0) / 2, persons: 2 });
  assert.deepEqual(m.recall, { value: (1 + 0) / 2, persons: 2 });
  assert.deepEqual(m.fireRate, { value: (0.01 + 0.02 + 0) / 3, persons: 3 });
  // Opportunities only over the labelled persons.
  assert.deepEqual(m.opportunities, { value: (4 / 40 + 2 / 40) / 2, persons: 2 });
  assert.deepEqual(m.crossFires, { value: 1 / 300, persons: 3 });
  // "small" has relevant decisions in its pool and not one relevant hint: flagged.
  assert.deepEqual(unserved(rows), ["small"]);
});

Deno.test("the per-person table: a row per person, precision over labelled quotes, then macro and pooled rows", () => {
  const rows = [
    row(figures("alpha", { prompts: 200, fired: 4, quotes: 5, relevantQuotes: 3, unlabelledQuotes: 1 })),
    row(figures("beta", { prompts: 100, fired: 1, quotes: 1, relevantQuotes: 0, poolRelevant: 3 }), true),
    row(figures("gamma", { prompts: 100 }), false),
  ];
  const lines = personTable(rows);
  const cells = (name: string) => lines.find((l) => l.startsWith(name))!.trim().split(/\s{2,}/);
  // person, lang, prompts, fired, fire rate, quotes, labelled, relevant, unlabelled, precision, ...
  assert.deepEqual(cells("alpha").slice(0, 10), [
    "alpha",
    "en",
    "200",
    "4",
    "2.0%",
    "5",
    "4",
    "3",
    "1",
    "75.0%",
  ]);
  assert.match(lines.find((l) => l.startsWith("beta"))!, /UNSERVED/);
  assert.match(lines.find((l) => l.startsWith("gamma"))!, /no labels yet/);
  const macroRow = lines.find((l) => l.startsWith("macro"))!;
  // Fire rate (2% + 1% + 0%) / 3; precision (75% + 0%) / 2.
  assert.match(macroRow, /1\.0% \(3\)/);
  assert.match(macroRow, /37\.5% \(2\)/);
  const pooled = cells("pooled (all prompts)");
  assert.deepEqual(pooled.slice(1, 9), ["400", "5", "1.3%", "6", "5", "3", "1", "60.0%"]);
  assert.match(lines.at(-1)!, /no relevant hint: beta$/);
});

Deno.test("Cohen's kappa on a known table: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no is 0.4", () => {
  const pairs: [string, string][] = [
    ...Array.from({ length: 20 }, () => ["yes", "yes"] as [string, string]),
    ...Array.from({ length: 5 }, () => ["yes", "no"] as [string, string]),
    ...Array.from({ length: 10 }, () => ["no", "yes"] as [string, string]),
    ...Array.from({ length: 15 }, () => ["no", "no"] as [string, string]),
  ];
  const a = cohen(pairs);
  assert.equal(a.n, 50);
  assert.equal(a.agree, 35);
  assert.ok(Math.abs(a.kappa - 0.4) < 1e-12, `${a.kappa}`);
  // Perfect agreement on two categories is 1; agreement no better than chance is 0.
  assert.equal(cohen([["a", "a"], ["b", "b"]]).kappa, 1);
  assert.equal(cohen([["a", "a"], ["a", "b"], ["b", "a"], ["b", "b"]]).kappa, 0);
});

Deno.test("a label file: a key twice only as a correction naming the label it corrects, which stays", () => {
  const k = "0123456789abcdef";
  const first = JSON.stringify({ key: k, label: "relevant", reason: "a rule on it" });
  const fix = JSON.stringify({
    key: k,
    label: "repeat",
    reason: "misread: the prompt states it",
    labeller: "r1",
    was: "relevant",
  });
  assert.equal(parseLabels(`${first}\n${fix}\n`, "x").get(k)?.label, "repeat");
  assert.throws(() => parseLabels(`${first}\n${first}\n`, "x"), /x:2: key 0123456789abcdef labelled twice/);
  const wrongWas = JSON.stringify({ key: k, label: "paste", reason: "r", labeller: "r1", was: "off-topic" });
  assert.throws(() => parseLabels(`${first}\n${wrongWas}\n`, "x"), /corrects "off-topic" but .* "relevant"/);
  assert.throws(
    () => parseLabels(`${JSON.stringify({ key: k, label: "relevant", reason: "r", prompt: "t" })}\n`, "x"),
    /unknown field "prompt"/,
  );
  assert.throws(
    () =>
      parseLabels(
        `${JSON.stringify({ key: k, label: "relevant", reason: "r", labeller: "authors" })}\n`,
        "x",
      ),
    /reserved/,
  );
});

Deno.test("a reader's file carrying a text or a score is refused, every problem named", () => {
  const k = "0123456789abcdef";
  const lines = [
    JSON.stringify({ key: k, label: "relevant", reason: "ok", prompt: "the prompt text" }),
    JSON.stringify({ key: "fedcba9876543210", label: "great", reason: "" }),
    JSON.stringify({ key: "00000000000000aa", label: "paste", reason: "log", score: 3.2 }),
  ].join("\n");
  assert.throws(() => parseReaderLabels(lines, "r.jsonl"), (err: Error) => {
    assert.match(err.message, /r\.jsonl:1: field\(s\) "prompt" not allowed/);
    assert.match(err.message, /r\.jsonl:2: unknown label "great"/);
    assert.match(err.message, /r\.jsonl:2: no reason/);
    assert.match(err.message, /r\.jsonl:3: field\(s\) "score" not allowed/);
    return true;
  });
});

Deno.test("the export holds key, history, prompt and quote only, each pair once, in a stable order", () => {
  const pairs = [
    { key: "bbbbbbbbbbbbbbbb", history: "b", prompt: "p2", quote: "q2", rule: "spoke", score: 9 },
    { key: "aaaaaaaaaaaaaaaa", history: "b", prompt: "p1", quote: "q1" },
    { key: "cccccccccccccccc", history: "a", prompt: "p3", quote: "q3", reason: "few-terms" },
    { key: "aaaaaaaaaaaaaaaa", history: "b", prompt: "p1", quote: "q1" },
  ];
  const text = exportJsonl(pairs);
  const parsed = text.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(parsed.map((p) => `${p.history} ${p.key}`), [
    "a cccccccccccccccc",
    "b aaaaaaaaaaaaaaaa",
    "b bbbbbbbbbbbbbbbb",
  ]);
  for (const p of parsed) assert.deepEqual(Object.keys(p), ["key", "history", "prompt", "quote"]);
  assert.equal(exportJsonl([...pairs].reverse()), text);
});

Deno.test("an import onto an existing label is refused unless it is a correction; two readings need two labellers", () => {
  const dir = Deno.makeTempDirSync({ prefix: "verdict-labels-" });
  try {
    const url = new URL(`file://${dir}/`);
    const k = "0123456789abcdef";
    Deno.writeTextFileSync(
      `${dir}/alice.jsonl`,
      JSON.stringify({ key: k, label: "relevant", reason: "r" }) + "\n",
    );
    const reader = [{ key: k, label: "repeat" as const, reason: "the prompt says it", history: "alice" }];
    const none = () => undefined;
    assert.throws(
      () => planImport(reader, none, url, { labeller: "r1", second: false, fix: false }),
      /alice 0123456789abcdef: already labelled "relevant" by authors; a label is not overwritten/,
    );
    const fixed = planImport(reader, none, url, { labeller: "r1", second: false, fix: true });
    assert.deepEqual(fixed.get("alice"), [{
      key: k,
      label: "repeat",
      reason: "the prompt says it",
      labeller: "r1",
      was: "relevant",
    }]);
    // As a second reading by r1 it is new; but then r1 cannot also give the first reading.
    Deno.mkdirSync(`${dir}/second`);
    Deno.writeTextFileSync(
      `${dir}/second/alice.jsonl`,
      JSON.stringify({ key: k, label: "repeat", reason: "r", labeller: "r1" }) + "\n",
    );
    assert.throws(
      () => planImport(reader, none, url, { labeller: "r1", second: false, fix: true }),
      /r1 gave its second reading; two readings must be by two labellers/,
    );
    assert.throws(
      () =>
        planImport([{ ...reader[0]!, history: undefined }], none, url, {
          labeller: "r2",
          second: false,
          fix: false,
        }),
      /no history names it/,
    );
    assert.throws(
      () =>
        planImport([{ ...reader[0]!, history: "alicee" }], none, url, {
          labeller: "r2",
          second: false,
          fix: false,
          histories: new Set(["alice"]),
        }),
      /no person is named "alicee"/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the export refuses a path inside the repository (the pairs hold other people's texts)", () => {
  assert.throws(() => outsideRepository(`${ROOT}tests/fixtures/replay/pairs.jsonl`), /inside the repository/);
  assert.throws(() => outsideRepository(`${ROOT}pairs.jsonl`), /inside the repository/);
  // A path that reaches the repository through "..": still inside.
  assert.throws(() => outsideRepository(`${ROOT}tests/../pairs.jsonl`), /inside the repository/);
  const tmp = Deno.makeTempDirSync({ prefix: "verdict-out-" });
  try {
    assert.equal(outsideRepository(`${tmp}/p.jsonl`), `${Deno.realPathSync(tmp)}/p.jsonl`);
    // A folder outside that is a link into the repository: refused by where it really is.
    Deno.symlinkSync(`${ROOT}tests`, `${tmp}/link`);
    assert.throws(() => outsideRepository(`${tmp}/link/pairs.jsonl`), /inside the repository/);
    assert.throws(() => outsideRepository(`${tmp}/absent/pairs.jsonl`), /its folder does not exist/);
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
});

// --- the command, end to end on synthetic people ---------------------------------------------

interface Prompt {
  time: string;
  session: string;
  project: string;
  text: string;
}

function writePerson(dir: string, shelf: string, name: string, prompts: Prompt[]): void {
  Deno.mkdirSync(`${dir}/${shelf}/${name}`, { recursive: true });
  Deno.writeTextFileSync(
    `${dir}/${shelf}/${name}/prompts.jsonl`,
    prompts.map((p) => JSON.stringify(p) + "\n").join(""),
  );
}

/** A person over two days: rules and requests in session one, requests on them in session two. */
function history(topic: string, day: string): Prompt[] {
  const t = (h: number, m: number) =>
    `${day}T${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:00.000Z`;
  const lines = [
    `From now on we always use pnpm in the ${topic} repo, never npm.`,
    `The ${topic} thumbnails are 320x180 WebP files, keep them that size.`,
    `Please write the ${topic} changelog entry for the release.`,
    `Remember the ${topic} handbook lives in docs/handbook, not the wiki.`,
    `Rename the ${topic} config loader to settings loader.`,
  ];
  const later = [
    `add lodash to the ${topic} package: npm install or pnpm add?`,
    `regenerate the ${topic} thumbnails at 640x360 please`,
    `where does the ${topic} handbook live again?`,
    `update the ${topic} changelog entry with the new flag`,
  ];
  return [
    ...lines.map((text, i) => ({ time: t(9, i), session: `${topic}-s1`, project: `~/${topic}`, text })),
    ...later.map((text, i) => ({ time: t(15, i), session: `${topic}-s2`, project: `~/${topic}`, text })),
  ];
}

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", EVAL, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("eval:replay end to end: per-person table, export, import, refusal, second reading, agreement, blind only", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "verdict-harness-" });
  try {
    const data = `${dir}/data`;
    const labels = `${dir}/labels`;
    Deno.mkdirSync(labels, { recursive: true });
    writePerson(data, "histories", "alice", history("orchard", "2026-01-05"));
    writePerson(data, "more-histories", "bob", history("harbour", "2026-02-07"));
    const base = ["--data", data, "--labels", labels];

    // Both people are reported, neither labelled yet; an absent transcripts folder is a printed skip.
    const first = await run([...base]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /the hint on 2 people/);
    assert.match(first.stdout, /^alice\s+\?\s+9\s/m);
    assert.match(first.stdout, /^bob\s+\?\s+9\s.*no labels yet/m);
    assert.match(first.stdout, /^macro \(each person once\)/m);
    assert.match(first.stdout, /cross-paired, all 2 ordered pairs/);
    assert.match(first.stdout, /transcripts: skipped: the transcripts are absent/);

    // The export: inside the repository refused (nothing written), outside written.
    const inside = `${ROOT}tests/fixtures/replay/harness-pairs.jsonl`;
    const refused = await run([...base, "--export-pairs", inside]);
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /inside the repository/);
    assert.throws(() => Deno.statSync(inside));
    const pairsFile = `${dir}/pairs.jsonl`;
    const exported = await run([...base, "--export-pairs", pairsFile]);
    assert.equal(exported.code, 0, exported.stderr);
    const pairs = Deno.readTextFileSync(pairsFile).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.ok(pairs.length >= 2, `${pairs.length} pairs`);
    for (const p of pairs) {
      assert.deepEqual(Object.keys(p), ["key", "history", "prompt", "quote"]);
      assert.equal(p.key, pairKey(p.prompt, p.quote));
    }
    assert.deepEqual(new Set(pairs.map((p) => p.history)), new Set(["alice", "bob"]));
    // Stable: the same export twice is the same file.
    await run([...base, "--export-pairs", `${dir}/again.jsonl`]);
    assert.equal(Deno.readTextFileSync(`${dir}/again.jsonl`), Deno.readTextFileSync(pairsFile));

    // A reader labels every pair (dropping the history field: resolved from the key).
    const answer = (label: string) =>
      pairs.map((p) => JSON.stringify({ key: p.key, label, reason: "judged by the rubric" }) + "\n").join("");
    Deno.writeTextFileSync(`${dir}/r1.jsonl`, answer("relevant"));
    const imported = await run([...base, "--import-labels", `${dir}/r1.jsonl`, "--labeller", "reader-one"]);
    assert.equal(imported.code, 0, imported.stderr);
    const aliceLabels = Deno.readTextFileSync(`${labels}/alice.jsonl`);
    assert.ok(!aliceLabels.includes("prompt") && !aliceLabels.includes("quote"));
    for (const l of aliceLabels.trimEnd().split("\n")) {
      assert.deepEqual(Object.keys(JSON.parse(l)), ["key", "label", "reason", "labeller"]);
    }
    // Nothing left to hand out; the table has labels for both now.
    const none = await run([...base, "--export-pairs", `${dir}/none.jsonl`]);
    assert.equal(none.code, 0);
    assert.equal(Deno.readTextFileSync(`${dir}/none.jsonl`), "");

    // The same import again: refused as a whole, the files unchanged.
    const before = Deno.readTextFileSync(`${labels}/bob.jsonl`);
    const again = await run([...base, "--import-labels", `${dir}/r1.jsonl`, "--labeller", "reader-one"]);
    assert.equal(again.code, 3);
    assert.match(again.stderr, /already labelled "relevant" by reader-one; a label is not overwritten/);
    assert.match(again.stderr, /nothing was written/);
    assert.equal(Deno.readTextFileSync(`${labels}/bob.jsonl`), before);

    // A second reading of every pair by another reader, half of them disagreeing.
    const second = pairs.map((p, i) =>
      JSON.stringify({
        key: p.key,
        history: p.history,
        label: i % 2 === 0 ? "relevant" : "repeat",
        reason: "rubric",
      }) + "\n"
    ).join("");
    Deno.writeTextFileSync(`${dir}/r2.jsonl`, second);
    const sameReader = await run([
      ...base,
      "--import-labels",
      `${dir}/r2.jsonl`,
      "--labeller",
      "reader-one",
      "--second",
    ]);
    assert.equal(sameReader.code, 3);
    assert.match(sameReader.stderr, /two readings must be by two labellers/);
    const secondOk = await run([
      ...base,
      "--import-labels",
      `${dir}/r2.jsonl`,
      "--labeller",
      "reader-two",
      "--second",
    ]);
    assert.equal(secondOk.code, 0, secondOk.stderr);
    const agreement = await run([...base, "--agreement"]);
    assert.equal(agreement.code, 0, agreement.stderr);
    const agree = pairs.filter((_, i) => i % 2 === 0).length;
    assert.match(
      agreement.stdout,
      new RegExp(`reader-one vs\\. reader-two: six labels: ${agree}/${pairs.length} agree`),
    );
    // The confusion table: every first reading is relevant; the second splits relevant / repeat.
    const relevantRow = agreement.stdout.split("\n").find((l) => /^\s+relevant\s+\d/.test(l))!;
    assert.deepEqual(relevantRow.trim().split(/\s+/).slice(1).map(Number), [
      agree,
      0,
      0,
      0,
      pairs.length - agree,
      0,
    ]);

    // Blind only: the first reading is blind here, so the figures are the same as with all labels.
    const all = JSON.parse((await run([...base, "--json"])).stdout);
    const blind = JSON.parse((await run([...base, "--json", "--blind-only"])).stdout);
    assert.equal(all.unlabelled, 0);
    assert.deepEqual(blind.own, all.own);
    assert.equal(all.rows.length, 2);
    assert.ok(all.macro.fireRate.persons === 2);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("blind only: the authors' labels are left out, a blind second reading stands in for them", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "verdict-blind-" });
  try {
    const data = `${dir}/data`;
    const labels = `${dir}/labels`;
    Deno.mkdirSync(`${labels}/second`, { recursive: true });
    writePerson(data, "histories", "carol", history("meadow", "2026-03-02"));
    const base = ["--data", data, "--labels", labels];
    await run([...base, "--export-pairs", `${dir}/pairs.jsonl`]);
    const pairs = Deno.readTextFileSync(`${dir}/pairs.jsonl`).trimEnd().split("\n").map((l) => JSON.parse(l));
    // The authors' file (no labeller) calls every pair relevant; a blind reader reads only the first pair again.
    Deno.writeTextFileSync(
      `${labels}/carol.jsonl`,
      pairs.map((p) => JSON.stringify({ key: p.key, label: "relevant", reason: "authors" }) + "\n").join(""),
    );
    const again = await run([...base, "--export-pairs", `${dir}/second.jsonl`, "--second", "1"]);
    assert.equal(again.code, 0, again.stderr);
    const one = Deno.readTextFileSync(`${dir}/second.jsonl`).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(one.length, 1);
    Deno.writeTextFileSync(
      `${dir}/blind.jsonl`,
      JSON.stringify({ key: one[0].key, history: "carol", label: "not-decision", reason: "a request" }) +
        "\n",
    );
    const imp = await run([
      ...base,
      "--import-labels",
      `${dir}/blind.jsonl`,
      "--labeller",
      "fresh",
      "--second",
    ]);
    assert.equal(imp.code, 0, imp.stderr);
    const all = JSON.parse((await run([...base, "--json"])).stdout);
    const blind = JSON.parse((await run([...base, "--json", "--blind-only"])).stdout);
    assert.equal(all.unlabelled, 0);
    // Blind only: one pair labelled (not relevant), the rest unlabelled.
    assert.equal(blind.unlabelled, pairs.length - 1);
    assert.equal(blind.total.poolRelevant + blind.total.relevantQuotes, 0);
    const agreement = await run([...base, "--agreement"]);
    assert.match(agreement.stdout, /authors vs\. fresh: six labels: 0\/1 agree/);
    // --second blind: exactly the pairs the blind figures still miss (the authors' only), for a reader.
    const missing = await run([...base, "--export-pairs", `${dir}/missing.jsonl`, "--second", "blind"]);
    assert.equal(missing.code, 0, missing.stderr);
    const rest = Deno.readTextFileSync(`${dir}/missing.jsonl`).trimEnd().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.equal(rest.length, pairs.length - 1);
    assert.ok(rest.every((p) => p.key !== one[0].key));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("--second-reading counts a pair read twice by its blind second reading, the rest as --blind-only", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "verdict-second-reading-" });
  try {
    const data = `${dir}/data`;
    const labels = `${dir}/labels`;
    Deno.mkdirSync(`${labels}/second`, { recursive: true });
    writePerson(data, "histories", "dana", history("meadow", "2026-03-02"));
    const base = ["--data", data, "--labels", labels];
    await run([...base, "--export-pairs", `${dir}/pairs.jsonl`]);
    const pairs = Deno.readTextFileSync(`${dir}/pairs.jsonl`).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.ok(pairs.length >= 2, "the story shows or pools at least two pairs");
    // A first blind reader calls every pair relevant; a second blind reader reads one of them again.
    Deno.writeTextFileSync(
      `${dir}/first.jsonl`,
      pairs.map((p) =>
        JSON.stringify({ key: p.key, history: "dana", label: "relevant", reason: "bears on it" })
      )
        .join("\n") + "\n",
    );
    const first = await run([...base, "--import-labels", `${dir}/first.jsonl`, "--labeller", "reader-a"]);
    assert.equal(first.code, 0, first.stderr);
    const relevantOf = (f: { total: { poolRelevant: number; relevantQuotes: number } }) =>
      f.total.poolRelevant + f.total.relevantQuotes;
    const before = JSON.parse((await run([...base, "--json", "--blind-only"])).stdout);
    const unchanged = JSON.parse((await run([...base, "--json", "--second-reading"])).stdout);
    // No pair read twice yet: the two orders give the same figures.
    assert.deepEqual(unchanged.own, before.own);
    assert.ok(relevantOf(before) > 0);

    Deno.writeTextFileSync(
      `${dir}/again.jsonl`,
      JSON.stringify({ key: pairs[0].key, history: "dana", label: "repeat", reason: "the prompt says it" }) +
        "\n",
    );
    const again = await run([
      ...base,
      "--import-labels",
      `${dir}/again.jsonl`,
      "--labeller",
      "reader-b",
      "--second",
    ]);
    assert.equal(again.code, 0, again.stderr);
    const blind = JSON.parse((await run([...base, "--json", "--blind-only"])).stdout);
    const second = JSON.parse((await run([...base, "--json", "--second-reading"])).stdout);
    // --blind-only keeps the first reading; --second-reading takes the second where there is one.
    assert.deepEqual(blind.own, before.own);
    assert.ok(relevantOf(second) < relevantOf(blind), "the pair read again as a repeat no longer counts");
    assert.equal(second.unlabelled, blind.unlabelled);
    const text = await run([...base, "--second-reading"]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /BLIND labels only, by the SECOND reading/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("macroInterval(): the same interval every run, around the macro share, narrowing as people agree and grow", () => {
  const people: [number, number][] = [[3, 5], [1, 2], [6, 8], [7, 15], [2, 2], [16, 45]];
  const once = macroInterval(people)!;
  assert.deepEqual(macroInterval(people), once);
  const point = people.reduce((s, [n, d]) => s + n / d, 0) / people.length;
  assert.ok(once.low < point && point < once.high, JSON.stringify({ once, point }));
  // Everyone relevant every time: nothing to draw but 100%.
  assert.deepEqual(macroInterval([[4, 4], [2, 2]]), { low: 1, high: 1 });
  // People who agree (all at 50%), and more quotes each: a narrower interval than people who do not.
  const spread = macroInterval([[0, 4], [4, 4], [1, 4], [3, 4]])!;
  const agree = macroInterval([[20, 40], [20, 40], [20, 40], [20, 40]])!;
  assert.ok(agree.high - agree.low < spread.high - spread.low, JSON.stringify({ agree, spread }));
  // No person with a share: no interval.
  assert.equal(macroInterval([[0, 0]]), null);
});
