/**
 * End to end on the real public transcripts: lays them out in a temp HOME as Claude Code and
 * Codex would, runs the real `verdict collect`, and checks the records file holds exactly the
 * records decided by hand in expectations.ts, at the right source lines. Skipped (and says so)
 * when the shared data directory is not beside the repository.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { asRecord, type VerdictRecord } from "../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../src/agents/registry.ts";
import { exportedRecords, runCli, tempHome } from "../cli_helper.ts";
import { REAL_EXPECTATIONS, REAL_TRANSCRIPTS_DIR, textMatches } from "./expectations.ts";

const DIR = fileURLToPath(REAL_TRANSCRIPTS_DIR);
let present = false;
try {
  present = Deno.statSync(DIR).isDirectory;
} catch {
  present = false;
}
if (!present) console.log(`collect_real_test: skipped, ${DIR} is not present`);

async function layOut(home: string): Promise<Map<string, string>> {
  const placed = new Map<string, string>(); // sample file → its path in HOME
  for (const exp of REAL_EXPECTATIONS) {
    const dest = exp.parser === "claude"
      ? `${home}/.claude/projects/-real-${exp.file.replace(/\.jsonl$/, "")}/${exp.file}`
      : `${home}/.codex/sessions/2025/09/25/${exp.file}`;
    await Deno.mkdir(dest.slice(0, dest.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(`${DIR}${exp.file}`, dest);
    placed.set(exp.file, dest);
  }
  return placed;
}

async function readRecords(path: string): Promise<VerdictRecord[]> {
  return (await exportedRecords(path)).split("\n").filter((l) => l).map((l) =>
    asRecord(JSON.parse(l), RECORD_ORIGINS)!
  );
}

Deno.test({
  name: "verdict collect over the real transcripts yields exactly the hand-checked prompts and notes",
  ignore: !present,
  fn: async () => {
    const home = await tempHome();
    const placed = await layOut(home);
    const r = await runCli(["collect"], { env: { HOME: home } });
    assert.equal(r.code, 0, r.stderr);
    const records = await readRecords(`${home}/.local/share/verdict/records.db`);
    let expectedTotal = 0;
    for (const exp of REAL_EXPECTATIONS) {
      const path = placed.get(exp.file)!;
      for (const kind of ["prompt", "note"] as const) {
        const want = kind === "prompt" ? exp.prompts : exp.notes;
        const got = records.filter((x) => x.source_file === path && x.kind === kind)
          .sort((a, b) => a.source_line - b.source_line);
        expectedTotal += want.length;
        assert.equal(got.length, want.length, `${exp.file}: ${kind} count (${exp.why})`);
        want.forEach((w, i) => {
          const g = got[i]!;
          assert.equal(g.source_line, w.line, `${exp.file}: ${kind} #${i} line`);
          assert.equal(g.time, w.time, `${exp.file}: ${kind} #${i} time`);
          assert.ok(
            textMatches(g.text, w),
            `${exp.file}: ${kind} #${i} text ${JSON.stringify(g.text.slice(0, 80))}`,
          );
          assert.equal(g.session, exp.session, `${exp.file}: session`);
        });
      }
    }
    assert.equal(records.length, expectedTotal, "no record beyond the expected ones");
    assert.match(r.stderr, new RegExp(`${expectedTotal} new, ${expectedTotal} records`));

    // A second run finds nothing new and leaves the records as they were.
    const before = await exportedRecords(`${home}/.local/share/verdict/records.db`);
    const again = await runCli(["collect"], { env: { HOME: home } });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /nothing new/);
    assert.equal(await exportedRecords(`${home}/.local/share/verdict/records.db`), before);
  },
});
