/**
 * `verdict collect` over a HOME holding OpenCode 1.18.33's real sessions (the sample's rows in a
 * database OpenCode's schema made, held open in WAL mode as a running OpenCode holds it:
 * tests/agents/opencode/samples.ts): exactly the TUI's typed prompts and its AGENTS.md note
 * expectations.ts decides, the `opencode run` prompts (unquoted) only with include_headless.
 * And the summary counts the database as a file read only when it changed, as it counts every
 * other session file.
 */
import assert from "node:assert/strict";
import { MAX_RECORD_BYTES } from "../../../src/record/record.ts";
import { exportedRecords, runCli, tempHome } from "../../cli_helper.ts";
import { collectTestOf } from "../_samples.ts";
import { sampleDb, samplesMissing } from "./_db.ts";
import { TUI_RECORDS, TUI_SESSION } from "./expectations.ts";
import { OPENCODE_SAMPLES } from "./samples.ts";

collectTestOf(
  OPENCODE_SAMPLES,
  "collect over OpenCode's real sessions (live database): exactly the typed prompts and the note; run only headless",
);

const missing = samplesMissing();
if (missing) console.log(`opencode collect count test: skipped, ${missing}`);

Deno.test({
  name: "collect counts OpenCode's database as a file read only when it or its log changed",
  ignore: missing !== null,
  fn: async () => {
    const home = await tempHome();
    await Deno.mkdir(`${home}/.local/share/opencode`, { recursive: true });
    const writer = sampleDb(`${home}/.local/share/opencode/opencode.db`);
    try {
      const env = { HOME: home };
      const n = TUI_RECORDS.length;
      const first = await runCli(["collect"], { env });
      assert.equal(first.code, 0, first.stderr);
      assert.match(
        first.stderr,
        new RegExp(`\\b${n} new, ${n} records .*; 1 file\\(s\\) read →`),
        first.stderr,
      );
      const again = await runCli(["collect"], { env });
      assert.match(
        again.stderr,
        new RegExp(`nothing new, ${n} records .*; 0 file\\(s\\) read →`),
        again.stderr,
      );

      writer.message("msg_zz", TUI_SESSION, 1796111000000, { role: "user" });
      writer.part("prt_zz", "msg_zz", TUI_SESSION, 1796111000000, { type: "text", text: "Ship on Fridays." });
      const grown = await runCli(["collect"], { env });
      assert.match(
        grown.stderr,
        new RegExp(`\\b1 new, ${n + 1} records .*; 1 file\\(s\\) read →`),
        grown.stderr,
      );
      const still = await runCli(["collect"], { env });
      assert.match(
        still.stderr,
        new RegExp(`nothing new, ${n + 1} records .*; 0 file\\(s\\) read →`),
        still.stderr,
      );
    } finally {
      writer.close();
    }
  },
});

Deno.test({
  name: "collect skips and counts an OpenCode prompt over the record cap, as every other reader does",
  ignore: missing !== null,
  fn: async () => {
    const home = await tempHome();
    await Deno.mkdir(`${home}/.local/share/opencode`, { recursive: true });
    const writer = sampleDb(`${home}/.local/share/opencode/opencode.db`);
    try {
      const pasted = "we decided to paste this log " + "0123456789".repeat(MAX_RECORD_BYTES / 10 + 1);
      writer.message("msg_zzbig", TUI_SESSION, 1796111000000, { role: "user" });
      writer.part("prt_zzbig", "msg_zzbig", TUI_SESSION, 1796111000000, { type: "text", text: pasted });
      writer.message("msg_zzok", TUI_SESSION, 1796111000001, { role: "user" });
      writer.part("prt_zzok", "msg_zzok", TUI_SESSION, 1796111000001, {
        type: "text",
        text: "Ship on Fridays.",
      });
      const r = await runCli(["collect"], { env: { HOME: home } });
      assert.equal(r.code, 0, r.stderr);
      const n = TUI_RECORDS.length;
      assert.match(
        r.stderr,
        new RegExp(`\\b${n + 1} new, ${n + 1} records .*, 1 line\\(s\\) skipped`),
        r.stderr,
      );
      const data = `${home}/.local/share/verdict`;
      const records = await exportedRecords(`${data}/records.db`);
      assert.match(records, /Ship on Fridays\./);
      assert.doesNotMatch(records, /we decided to paste this log/);
      assert.ok(
        (await Deno.stat(`${data}/records.db`)).size < MAX_RECORD_BYTES,
        "no oversized record was stored",
      );
    } finally {
      writer.close();
    }
  },
});
