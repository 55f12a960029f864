/**
 * eval:compare: a gate change read person by person, on figures made by hand, and the task run as
 * a user runs it on two files (and on a file that is not eval:replay's).
 */
import assert from "node:assert/strict";
import {
  changeInterval,
  changes,
  CompareInputError,
  compareReport,
  type RunFigures,
  runFigures,
} from "./compare.ts";

/** eval:replay --json's row for a person, with the counts the comparison reads. */
function row(
  history: string,
  relevant: number,
  quotes: number,
  shownInPool: number,
  inPool: number,
  unlabelled = 0,
) {
  return {
    own: {
      history,
      relevantQuotes: relevant,
      quotes,
      unlabelledQuotes: unlabelled,
      poolRelevantShown: shownInPool,
      poolRelevant: inPool,
    },
  };
}

const BEFORE = {
  blindOnly: true,
  rows: [row("ann", 1, 4, 1, 4), row("bob", 2, 4, 0, 2), row("cy", 3, 3, 1, 1)],
};

Deno.test("changes(): each person's share before and after, and whether the change helps, hurts or leaves it", () => {
  const after = runFigures(
    {
      blindOnly: true,
      rows: [row("ann", 2, 4, 1, 4), row("bob", 1, 4, 0, 2), row("cy", 3, 3, 1, 1), row("dee", 1, 1, 0, 0)],
    },
    "after.json",
  );
  const before = runFigures(BEFORE, "before.json");
  assert.deepEqual(changes(before, after, "precision").map((p) => [p.history, p.verdict]), [
    ["ann", "helps"],
    ["bob", "hurts"],
    ["cy", "same"],
    ["dee", "-"],
  ]);
  assert.deepEqual(changes(before, after, "recall").map((p) => p.verdict), ["same", "same", "same", "-"]);
});

Deno.test("compareReport(): hurting more people than it helps is a regression; unlabelled quotes are said", () => {
  const before = runFigures(BEFORE, "before.json");
  const worse = runFigures(
    { blindOnly: true, rows: [row("ann", 2, 4, 1, 4), row("bob", 1, 5, 0, 2, 1), row("cy", 2, 3, 1, 1)] },
    "after.json",
  );
  const r = compareReport(before, worse);
  assert.equal(r.regression, true, r.lines.join("\n"));
  assert.ok(
    r.lines.some((l) => l.includes("a regression: it hurts 2 people's precision and helps 1")),
    r.lines.join("\n"),
  );
  assert.ok(r.lines.some((l) => l.includes("AFTER shows 1 quote(s) no reader has labelled")));
  // One helped, none hurt: no regression, and the interval of the change is above zero.
  const better = runFigures(
    { blindOnly: true, rows: [row("ann", 2, 4, 1, 4), row("bob", 2, 4, 0, 2), row("cy", 3, 3, 1, 1)] },
    "after.json",
  );
  const s = compareReport(before, better);
  assert.equal(s.regression, false, s.lines.join("\n"));
  assert.ok(s.lines.includes("verdict: no person-level regression"));
  const interval = changeInterval(changes(before, better, "precision"))!;
  assert.ok(interval.low >= 0 && interval.high > 0, JSON.stringify(interval));
  // Blind-only on one side only: said.
  const mixed = compareReport(before, { ...better, blindOnly: false } as RunFigures);
  assert.ok(mixed.lines[0]!.includes("run both with --blind-only"));
});

Deno.test("runFigures() refuses what eval:replay --json did not write, naming the file and what to do", () => {
  assert.throws(() => runFigures({ rows: [] }, "x.json"), CompareInputError);
  assert.throws(
    () => runFigures({ blindOnly: true, rows: [{ own: { history: "ann", quotes: "4" } }] }, "x.json"),
    (e: Error) => e instanceof CompareInputError && e.message.includes("x.json") && e.message.includes("ann"),
  );
});

Deno.test("eval:compare run on two files: exit 1 on a regression, 0 without, 2 on a file it cannot read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const write = async (name: string, o: unknown) => {
      await Deno.writeTextFile(`${dir}/${name}`, JSON.stringify(o));
      return `${dir}/${name}`;
    };
    const before = await write("before.json", BEFORE);
    const worse = await write(
      "worse.json",
      { blindOnly: true, rows: [row("ann", 0, 4, 1, 4), row("bob", 1, 4, 0, 2), row("cy", 3, 3, 1, 1)] },
    );
    const same = await write("same.json", BEFORE);
    const bad = await write("bad.json", "not figures");
    const run = async (...args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-read", new URL("./compare.ts", import.meta.url).pathname, ...args],
        stdout: "piped",
        stderr: "piped",
      }).output();
      return {
        code: out.code,
        stdout: new TextDecoder().decode(out.stdout),
        stderr: new TextDecoder().decode(out.stderr),
      };
    };
    const r1 = await run(before, worse);
    assert.equal(r1.code, 1, r1.stdout + r1.stderr);
    assert.match(r1.stdout, /verdict: a regression/);
    const r2 = await run(before, same);
    assert.equal(r2.code, 0, r2.stdout + r2.stderr);
    assert.match(r2.stdout, /helps 0, hurts 0, unchanged 3; macro 58\.3% → 58\.3%/);
    const r3 = await run(before, bad);
    assert.equal(r3.code, 2);
    assert.match(r3.stderr, /bad\.json: not the output of eval:replay --json/);
    const r4 = await run(before);
    assert.equal(r4.code, 2);
    assert.match(r4.stderr, /give two runs' figures/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
