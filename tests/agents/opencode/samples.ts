/**
 * OpenCode 1.18.33's real sessions laid out in a HOME as OpenCode keeps them: the sample's rows,
 * with OpenCode's own schema, in `~/.local/share/opencode/opencode.db`, held open by a writer in
 * WAL mode as a running OpenCode holds it (so the rows are in `opencode.db-wal`; `close()` ends
 * it), the TUI's input history at `~/.local/state/opencode/prompt-history.jsonl`, and
 * (layOutSettings) the sample run's `~/.config/opencode/opencode.json`. The records come from
 * expectations.ts.
 */
import { type AgentSamples, type LaidOut, missingIn, place, type SampleRecord } from "../_samples.ts";
import { sampleDb, SAMPLES, samplesMissing } from "./_db.ts";
import { type Expected, PROJECT, RUN_RECORDS, TUI_RECORDS } from "./expectations.ts";

export const OPENCODE_SAMPLES: AgentSamples = {
  agent: "opencode",
  missing: () => samplesMissing() ?? missingIn(SAMPLES, ["prompt-history.jsonl", "opencode.json"]),
  async layOut(home: string): Promise<LaidOut> {
    const db = `${home}/.local/share/opencode/opencode.db`;
    await Deno.mkdir(`${home}/.local/share/opencode`, { recursive: true });
    const writer = sampleDb(db);
    const files = new Map<string, string>([["opencode-db-dump.sessions.json", db]]);
    files.set(
      "prompt-history.jsonl",
      await place(`${SAMPLES}prompt-history.jsonl`, `${home}/.local/state/opencode/prompt-history.jsonl`),
    );
    const record = (e: Expected): SampleRecord => ({
      kind: e.kind,
      origin: "opencode",
      session: e.session,
      project: PROJECT,
      time: e.time,
      text: e.text,
      file: db,
      line: 0,
    });
    return {
      agent: "opencode",
      files,
      records: TUI_RECORDS.map(record),
      headless: RUN_RECORDS.map(record),
      close: () => writer.close(),
    };
  },
  async layOutSettings(home: string): Promise<void> {
    await place(`${SAMPLES}opencode.json`, `${home}/.config/opencode/opencode.json`);
  },
};
