import assert from "node:assert/strict";
import { porterStem } from "../../src/rank/stem.ts";

/** The shared data folder sits beside the repository: <repo>/../shared. */
const SHARED = new URL("../../../shared/", import.meta.url);

async function readShared(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(new URL(path, SHARED));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

Deno.test("porterStem() maps every word of Porter's test vocabulary to its expected stem", async () => {
  const voc = await readShared("data/ir/porter/voc.txt");
  const out = await readShared("data/ir/porter/output.txt");
  if (voc === null || out === null) {
    console.log("skipped: ../shared/data/ir/porter/ is absent (the shared data folder is not checked out)");
    return;
  }
  const words = voc.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const stems = out.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  assert.equal(words.length, stems.length);
  const mismatches: string[] = [];
  words.forEach((word, i) => {
    const got = porterStem(word);
    if (got !== stems[i]) mismatches.push(`${word}: got ${got}, want ${stems[i]}`);
  });
  assert.deepEqual(mismatches.slice(0, 20), []);
  assert.equal(mismatches.length, 0);
});

Deno.test("porterStem() follows the paper's examples", () => {
  const cases: Record<string, string> = {
    caresses: "caress",
    ponies: "poni",
    cats: "cat",
    feed: "feed",
    agreed: "agre",
    plastered: "plaster",
    motoring: "motor",
    hopping: "hop",
    filing: "file",
    happy: "happi",
    relational: "relat",
    generalization: "gener",
    electrical: "electr",
    adjustment: "adjust",
    controlling: "control",
    roll: "roll",
  };
  for (const [word, stem] of Object.entries(cases)) assert.equal(porterStem(word), stem, word);
});

Deno.test("porterStem() leaves short words and non a–z input unchanged", () => {
  assert.equal(porterStem("is"), "is");
  assert.equal(porterStem("pg_dump"), "pg_dump");
  assert.equal(porterStem("v2"), "v2");
  assert.equal(porterStem("Running"), "Running");
  assert.equal(porterStem("数据"), "数据");
});
