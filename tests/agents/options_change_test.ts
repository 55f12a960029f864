/**
 * A collect under other options than the last one yields what a full collect under the new
 * options yields, with no --full: the collect state remembers the options each file was read
 * under (include_headless, as it remembers --since), and a file read under others is read again
 * from its start, its records replacing the old ones. Proven over every agent's real samples
 * (../shared/clients/<agent>/samples, laid out by tests/agents/<id>/samples.ts) in one HOME:
 * include_headless turned on, then off again, each time compared byte for byte with a fresh full
 * collect under the same options and with the hand-decided records. Skipped, with the reason
 * printed, when fewer than two agents' samples are there.
 */
import assert from "node:assert/strict";
import { exportedRecords, runCli, tempHome } from "../cli_helper.ts";
import { describe, type LaidOut, readRecords } from "./_samples.ts";
import { ALL_SAMPLES } from "./all_samples.ts";

const present = ALL_SAMPLES.filter((s) => {
  const missing = s.missing();
  if (missing) console.log(`options_change_test: ${s.agent} left out, ${missing}`);
  return missing === null;
});
const skipped = present.length < 2 ? `only ${present.length} agent(s) have their samples here` : null;
if (skipped) console.log(`options_change_test: skipped, ${skipped}`);

const sorted = (records: readonly Parameters<typeof describe>[0][]) => records.map(describe).sort();

Deno.test({
  name:
    "include_headless turned on and off between collects: each incremental collect equals a full one under the new option, over every agent's real sessions",
  ignore: skipped !== null,
  fn: async () => {
    const home = await tempHome();
    const sets: LaidOut[] = [];
    try {
      for (const s of present) sets.push(await s.layOut(home));
      const headlessAgents = sets.filter((s) => s.headless.length > 0).map((s) => s.agent);
      assert.ok(headlessAgents.length >= 2, `headless prompts in ${headlessAgents.join(", ")} only`);
      const archive = `${home}/.local/share/verdict/records.db`;
      const on = `${home}/include-headless.json`;
      const off = `${home}/exclude-headless.json`;
      await Deno.writeTextFile(on, '{ "include_headless": true }\n');
      await Deno.writeTextFile(off, '{ "include_headless": false }\n');
      const interactive = sets.flatMap((s) => s.records);
      const headless = sets.flatMap((s) => s.headless);

      /** An incremental collect under `config`, then a full one into a fresh archive: the same. */
      const collectUnder = async (config: string, fresh: string) => {
        const env = { HOME: home, VERDICT_CONFIG: config };
        const r = await runCli(["collect"], { env });
        assert.equal(r.code, 0, r.stderr);
        const full = await runCli(["collect", "--full", "--out", `${home}/${fresh}/records.db`], { env });
        assert.equal(full.code, 0, full.stderr);
        assert.equal(
          await exportedRecords(archive),
          await exportedRecords(`${home}/${fresh}/records.db`),
          `the incremental collect under ${config} differs from a full one`,
        );
        return r.stderr;
      };

      const first = await collectUnder(off, "full-off-1");
      assert.match(first, new RegExp(`\\b${interactive.length} new, ${interactive.length} records\\b`));
      assert.deepEqual(sorted(await readRecords(archive)), sorted(interactive));

      const turnedOn = await collectUnder(on, "full-on");
      assert.match(
        turnedOn,
        new RegExp(`\\b${headless.length} new, ${interactive.length + headless.length} records\\b`),
        "turning include_headless on adds the headless prompts",
      );
      assert.deepEqual(sorted(await readRecords(archive)), sorted([...interactive, ...headless]));
      const again = await runCli(["collect"], { env: { HOME: home, VERDICT_CONFIG: on } });
      assert.match(again.stderr, /nothing new, .*; 0 file\(s\) read/, "the re-read files are remembered");

      const turnedOff = await collectUnder(off, "full-off-2");
      assert.match(turnedOff, new RegExp(`\\b${interactive.length} records\\b`), turnedOff);
      assert.deepEqual(
        sorted(await readRecords(archive)),
        sorted(interactive),
        "turning include_headless off removes the headless prompts",
      );
    } finally {
      for (const s of sets) s.close();
    }
  },
});
