/**
 * The sweep's rewrites (tests/replay/gate_sweep.ts): each must meet its declaration exactly once in
 * today's sources, so a renamed or moved constant stops the sweep instead of measuring the
 * baseline under another name; and the curve's table counts an unlabelled quote as not relevant.
 */
import assert from "node:assert/strict";
import { POINTS, rewrite, table } from "./gate_sweep.ts";

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
