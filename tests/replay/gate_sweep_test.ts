/**
 * The sweep's rewrites (tests/replay/gate_sweep.ts): each must meet its declaration exactly once in
 * today's sources, so a renamed or moved constant stops the sweep instead of measuring the
 * baseline under another name; the curve's table counts an unlabelled quote as not relevant; and
 * the leave-one-person-out choice, on figures of our own.
 */
import assert from "node:assert/strict";
import { familyOf, LOO_POINTS, POINTS, rewrite, table } from "./gate_sweep.ts";
import {
  choose,
  leaveOneOut,
  leftOutScores,
  looTable,
  othersScores,
  type PairPoint,
  perConstant,
  type PersonPoint,
  type PointRun,
  scoresOf,
} from "./leave_one_out.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("every sweep point rewrites declarations that are in the sources exactly once", () => {
  assert.ok(POINTS.length > 1 && POINTS[0]!.name === "baseline" && POINTS[0]!.rewrites.length === 0);
  const names = new Set<string>();
  for (const p of POINTS) {
    assert.ok(!names.has(p.name), `two points named ${p.name}`);
    names.add(p.name);
    for (const r of p.rewrites) {
      const source = Deno.readTextFileSync(new URL(r.file, ROOT));
      const out = rewrite(source, r);
      assert.notEqual(out, source, `${p.name}: ${r.from}`);
      assert.ok(out.includes(r.to), `${p.name}: ${r.to}`);
    }
  }
});

Deno.test("a rewrite refuses a declaration that is absent or there twice", () => {
  const r = { file: "x.ts", from: "export const A = 1;", to: "export const A = 2;" };
  assert.equal(rewrite("// a\nexport const A = 1;\n", r), "// a\nexport const A = 2;\n");
  assert.throws(() => rewrite("export const B = 1;\n", r), /Cannot rewrite "x.ts": .* no time/);
  assert.throws(() => rewrite("export const A = 1;\nexport const A = 1;\n", r), /more than one time/);
});

Deno.test("the curve's table: precision counts unlabelled quotes as not relevant, figures per row", () => {
  const out = table([{
    name: "baseline",
    prompts: 200,
    fired: 10,
    quotes: 12,
    relevant: 9,
    unlabelledQuotes: 2,
    cross: { fired: 3, prompts: 1000 },
    transcripts: { fired: 0, prompts: 50 },
    pool: { relevant: 8, shown: 4, unlabelled: 1 },
    probes: "precision 90.0%",
  }]);
  const [head, row] = out.trimEnd().split("\n");
  assert.match(head!, /^point\s+fired\s+relevant\/quotes/);
  assert.match(
    row!,
    /^baseline\s+10 \(5\.0%\)\s+9\/12 = 75\.0%\s+2\s+3\/1000 = 0\.30%\s+0\/50\s+4\/8 = 50\.0%\s+1\s+precision 90\.0%$/,
  );
});

// --- leave one person out (tests/replay/leave_one_out.ts), on figures of our own ----------------

function person(name: string, f: Partial<PersonPoint>): PersonPoint {
  return {
    name,
    labelled: true,
    prompts: 100,
    fired: 0,
    quotes: 0,
    relevant: 0,
    unlabelledQuotes: 0,
    poolRelevant: 0,
    poolShown: 0,
    ...f,
  };
}

const pair = (prompts: string, archive: string, fired: number): PairPoint => ({
  prompts,
  archive,
  fired,
  promptCount: 100,
});

/**
 * Three people. "loose" shows more for a and b (recall up, precision still 90%) but fires
 * falsely on c's archive; without c it looks best, with c its false fires are over the bound.
 */
function points(): PointRun[] {
  const quiet = [
    pair("a", "b", 0),
    pair("b", "a", 0),
    pair("a", "c", 0),
    pair("c", "a", 0),
    pair("b", "c", 0),
    pair(
      "c",
      "b",
      0,
    ),
  ];
  return [
    {
      name: "baseline",
      persons: [
        person("a", { fired: 5, quotes: 5, relevant: 5, poolRelevant: 4, poolShown: 1 }),
        person("b", { fired: 5, quotes: 5, relevant: 5, poolRelevant: 4, poolShown: 1 }),
        person("c", { fired: 2, quotes: 2, relevant: 2, poolRelevant: 2, poolShown: 1 }),
      ],
      pairs: quiet,
    },
    {
      name: "loose",
      persons: [
        person("a", { fired: 10, quotes: 10, relevant: 9, poolRelevant: 4, poolShown: 4 }),
        person("b", { fired: 10, quotes: 10, relevant: 9, poolRelevant: 4, poolShown: 4 }),
        person("c", { fired: 9, quotes: 10, relevant: 2, poolRelevant: 2, poolShown: 2 }),
      ],
      pairs: [
        pair("a", "b", 0),
        pair("b", "a", 0),
        pair("a", "c", 3),
        pair("c", "a", 0),
        pair("b", "c", 3),
        pair(
          "c",
          "b",
          0,
        ),
      ],
    },
  ];
}

Deno.test("leave one out: the figures of the others choose the point, the left-out person's are reported", () => {
  const runs = points();
  const rows = leaveOneOut(runs);
  assert.deepEqual(rows.map((r) => [r.person, r.chosen]), [["a", "baseline"], ["b", "baseline"], [
    "c",
    "loose",
  ]]);
  // Leaving a out: loose's pairs without a still hold b → c's 3 false fires in 400 prompts (0.75%).
  assert.equal(othersScores(runs[1]!, "a").crossFired, 3);
  assert.equal(othersScores(runs[1]!, "a").crossPrompts, 200);
  // c left out: chosen on a and b alone (no c pair), reported on c: precision 2/10, and the 6
  // false fires of the pairs with c's archive.
  const c = rows[2]!;
  assert.equal(c.others.recall, 1);
  assert.equal(c.leftOut.precision, 0.2);
  assert.equal(c.leftOut.recall, 1);
  assert.deepEqual([c.leftOut.crossFired, c.leftOut.crossPrompts], [6, 400]);
  assert.equal(c.baseline.precision, 1);
  const a = leftOutScores(runs[0]!, "a");
  assert.deepEqual([a.fireRate, a.precision, a.recall], [0.05, 1, 0.25]);
  const out = looTable(rows);
  assert.match(
    out,
    /^c\s+loose\s+90\.0% \/ 100\.0% \/ 0\.00%\s+9\.0%\s+20\.0%\s+100\.0%\s+6\/400 1\.50%\s+0\s/m,
  );
  assert.match(out, /points chosen: baseline ×2, loose ×1/);
});

Deno.test("leave one out: unlabelled people count for fire rate and false fires, never for precision or recall", () => {
  const s = scoresOf(
    {
      name: "x",
      persons: [
        person("labelled", { fired: 2, quotes: 2, relevant: 1, poolRelevant: 2, poolShown: 1 }),
        person("new", { labelled: false, fired: 8, quotes: 8, unlabelledQuotes: 8, poolRelevant: 0 }),
      ],
      pairs: [pair("labelled", "new", 1), pair("new", "labelled", 0)],
    },
    () => true,
    () => true,
  );
  assert.deepEqual([s.fireRate, s.precision, s.recall, s.crossFired, s.crossPrompts], [
    0.05,
    0.5,
    0.5,
    1,
    200,
  ]);
});

Deno.test("leave one out: no point within the bounds → the most precise within the false-fire bound, else the fewest false fires", () => {
  const sc = (precision: number | null, recall: number | null, crossFired: number) => ({
    fireRate: 0.01,
    precision,
    recall,
    crossFired,
    crossPrompts: 1000,
    unlabelledQuotes: 0,
  });
  assert.equal(choose([sc(0.5, 0.9, 0), sc(0.7, 0.1, 0), sc(0.95, 1, 9)]), 1);
  assert.equal(choose([sc(0.9, 0.5, 9), sc(0.9, 0.5, 7)]), 1);
  // Ties go to the earlier point.
  assert.equal(choose([sc(0.9, 0.5, 0), sc(0.9, 0.5, 0)]), 0);
  // Every listed leave-one-out point is a point of the sweep, the baseline first.
  assert.equal(LOO_POINTS[0], "baseline");
  for (const name of LOO_POINTS) assert.ok(POINTS.some((p) => p.name === name), name);
});

Deno.test("leave one out per constant: each family of points against the baseline alone", () => {
  const runs = points();
  const out = perConstant(runs, (name) => (name === "loose" ? "looseness" : null));
  assert.match(out, /^ {2}looseness: chosen baseline ×2, loose ×1; left out /m);
  assert.equal(perConstant(runs, () => null).trimEnd().split("\n").length, 1);
  assert.equal(familyOf("coverage 0.20"), "coverage");
  assert.equal(familyOf("anchor idf share 0.70"), "anchor idf share");
  assert.equal(familyOf("coverage 0.20 + anchor share 0.55"), null);
  assert.equal(familyOf("baseline"), null);
});
