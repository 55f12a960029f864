/**
 * Qwen Code 0.24.4's real samples laid out in a HOME as Qwen Code writes them: each chat at
 * `~/.qwen/projects/<encoded cwd>/chats/<session>.jsonl` (the TUI's `.runtime.json` beside it,
 * as while it runs), `~/.qwen/usage_record.jsonl`, and (layOutSettings) the sample run's
 * `~/.qwen/settings.json`. The records come from expectations.ts.
 */
import { fileURLToPath } from "node:url";
import { type AgentSamples, expectedFrom, type LaidOut, missingIn, place } from "../_samples.ts";
import { QWEN_EXPECTATIONS, QWEN_SAMPLES_DIR } from "./expectations.ts";

const DIR = fileURLToPath(QWEN_SAMPLES_DIR);

/** The project folder the samples ran in (every non-alphanumeric character of the cwd → "-"). */
export const QWEN_PROJECT_DIR = ".qwen/projects/-home-dev-project";

const RUNTIME_SAMPLE = "-home-dev-project.chats.tui.03c74f7f.runtime.json";

export const QWEN_SAMPLES: AgentSamples = {
  agent: "qwen",
  missing: () =>
    missingIn(DIR, [
      ...QWEN_EXPECTATIONS.map((e) => e.file),
      RUNTIME_SAMPLE,
      "usage_record.jsonl",
      "settings.json",
    ]),
  async layOut(home: string): Promise<LaidOut> {
    const files = new Map<string, string>();
    const chats = `${home}/${QWEN_PROJECT_DIR}/chats`;
    for (const e of QWEN_EXPECTATIONS) {
      files.set(e.file, await place(`${DIR}${e.file}`, `${chats}/${e.session}.jsonl`));
    }
    const runtime = JSON.parse(await Deno.readTextFile(`${DIR}${RUNTIME_SAMPLE}`)) as { session_id: string };
    files.set(
      RUNTIME_SAMPLE,
      await place(`${DIR}${RUNTIME_SAMPLE}`, `${chats}/${runtime.session_id}.runtime.json`),
    );
    files.set(
      "usage_record.jsonl",
      await place(`${DIR}usage_record.jsonl`, `${home}/.qwen/usage_record.jsonl`),
    );
    return {
      agent: "qwen",
      files,
      ...expectedFrom("qwen", QWEN_EXPECTATIONS.map((e) => ({ file: files.get(e.file)!, expectation: e }))),
      close: () => {},
    };
  },
  async layOutSettings(home: string): Promise<void> {
    await place(`${DIR}settings.json`, `${home}/.qwen/settings.json`);
  },
};
