/**
 * `verdict collect` over a HOME holding Copilot CLI's real sessions (the 1.0.102 samples, read
 * from ../shared at test time, laid out as Copilot writes them): exactly the typed prompts and
 * the note tests/agents/copilot/expectations.ts decides, incrementally, only from
 * session-state/*\/events.jsonl (checkpoint summaries, the command history and a symlink escape
 * stay out), with include_headless adding the `copilot -p` prompts.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { asRecord, type VerdictRecord } from "../../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../../src/agents/registry.ts";
import { exportedRecords, runCli, tempHome } from "../../cli_helper.ts";
import { COPILOT_EXPECTATIONS, COPILOT_SAMPLES_DIR } from "./expectations.ts";
import { COPILOT_SAMPLES } from "./samples.ts";

function samplesPresent(): boolean {
  try {
    return COPILOT_EXPECTATIONS.every((e) =>
      Deno.statSync(fileURLToPath(new URL(e.file, COPILOT_SAMPLES_DIR))).isFile
    );
  } catch {
    return false;
  }
}

async function records(file: string): Promise<VerdictRecord[]> {
  return (await exportedRecords(file)).split("\n").filter((l) => l !== "").map((l) =>
    asRecord(JSON.parse(l), RECORD_ORIGINS)!
  );
}

Deno.test({
  name:
    "collect over Copilot CLI's real sessions: exactly the typed prompts and landed notes, incrementally, nothing else",
  ignore: !samplesPresent(),
  fn: async () => {
    const home = await tempHome();
    const state = `${home}/.copilot/session-state`;
    const { files } = await COPILOT_SAMPLES.layOut(home);
    for (const e of COPILOT_EXPECTATIONS) {
      // A compaction summary beside the session: machine-made, never read.
      await Deno.mkdir(`${state}/${e.session}/checkpoints`, { recursive: true });
      await Deno.writeTextFile(
        `${state}/${e.session}/checkpoints/001-session.md`,
        "SUMMARY-TEXT of the session\n",
      );
    }
    await Deno.mkdir(`${state}/escape`, { recursive: true });
    await Deno.writeTextFile(
      `${home}/outside.jsonl`,
      JSON.stringify({
        type: "user.message",
        data: { content: "TOPSECRET" },
        id: "x",
        timestamp: "2026-12-01T00:00:00Z",
      }) +
        "\n",
    );
    await Deno.symlink(`${home}/outside.jsonl`, `${state}/escape/events.jsonl`);

    const env = { HOME: home };
    const main = `${home}/.local/share/verdict/records.jsonl`;
    const first = await runCli(["collect"], { env });
    assert.equal(first.code, 0, first.stderr);
    const got = (await records(main)).filter((r) => r.origin === "copilot");
    const shape = (kind: string, file: string, line: number, time: string, text: string) =>
      `${kind} ${file}:${line} ${time} ${text}`;
    const want = COPILOT_EXPECTATIONS.flatMap((e) => [
      ...e.prompts.map((p) => shape("prompt", files.get(e.file)!, p.line, p.time, p.text)),
      ...e.notes.map((n) => shape("note", files.get(e.file)!, n.line, n.time, n.text)),
    ]);
    assert.deepEqual(
      got.map((r) => shape(r.kind, r.source_file, r.source_line, r.time, r.text)).sort(),
      want.sort(),
    );
    for (const r of got) assert.equal(r.project, "/home/dev/project");
    const all = await exportedRecords(main);
    for (
      const bad of ["TOPSECRET", "SUMMARY-TEXT", "VERDICT-HINT", "current_datetime", "git status", "/compact"]
    ) {
      assert.ok(!all.includes(bad), `a record holds "${bad}"`);
    }

    const again = await runCli(["collect"], { env });
    assert.match(again.stderr, /nothing new, \d+ records .*; 0 file\(s\) read/);
    const tui = files.get(COPILOT_EXPECTATIONS[0]!.file)!;
    await Deno.writeTextFile(
      tui,
      JSON.stringify({
        type: "user.message",
        data: { content: "And keep the lockfile committed.", transformedContent: "<x>" },
        id: "grown-1",
        timestamp: "2026-12-01T07:49:00.000Z",
        parentId: null,
      }) + "\n",
      { append: true },
    );
    const third = await runCli(["collect"], { env });
    assert.match(third.stderr, /\b1 new\b/, third.stderr);

    const config = `${home}/headless.json`;
    await Deno.writeTextFile(config, '{ "include_headless": true }\n');
    const out = `${home}/headless.jsonl`;
    const h = await runCli(["collect", "--full", "--out", out], { env: { ...env, VERDICT_CONFIG: config } });
    assert.equal(h.code, 0, h.stderr);
    const headless = (await records(out)).filter((r) => r.origin === "copilot" && r.kind === "prompt");
    for (const e of COPILOT_EXPECTATIONS) {
      for (const p of e.headlessPrompts) {
        assert.ok(
          headless.some((r) => r.source_file === files.get(e.file) && r.source_line === p.line),
          `include_headless misses ${e.file}:${p.line}`,
        );
      }
    }
  },
});
