/**
 * GitHub Copilot CLI 1.0.102's real samples laid out in a HOME as Copilot CLI writes them: each
 * session's `events.jsonl` and `workspace.yaml` in `~/.copilot/session-state/<session>/`, the
 * TUI's `~/.copilot/command-history-state.json`, and (layOutSettings) the sample run's
 * `settings.json`, `mcp-config.json` and `config.json` in `~/.copilot/`. The records come from
 * expectations.ts.
 */
import { fileURLToPath } from "node:url";
import { type AgentSamples, expectedFrom, type LaidOut, missingIn, place } from "../_samples.ts";
import { COPILOT_EXPECTATIONS, COPILOT_SAMPLES_DIR } from "./expectations.ts";

const DIR = fileURLToPath(COPILOT_SAMPLES_DIR);

/** The workspace.yaml sample beside an events.jsonl sample. */
function workspaceOf(events: string): string {
  return events.replace(/\.events\.jsonl$/, ".workspace.yaml");
}

const SETTINGS = ["settings.json", "mcp-config.json", "config.json"];

export const COPILOT_SAMPLES: AgentSamples = {
  agent: "copilot",
  missing: () =>
    missingIn(DIR, [
      ...COPILOT_EXPECTATIONS.flatMap((e) => [e.file, workspaceOf(e.file)]),
      "command-history-state.json",
      ...SETTINGS,
    ]),
  async layOut(home: string): Promise<LaidOut> {
    const state = `${home}/.copilot/session-state`;
    const files = new Map<string, string>();
    for (const e of COPILOT_EXPECTATIONS) {
      files.set(e.file, await place(`${DIR}${e.file}`, `${state}/${e.session}/events.jsonl`));
      const yaml = workspaceOf(e.file);
      files.set(yaml, await place(`${DIR}${yaml}`, `${state}/${e.session}/workspace.yaml`));
    }
    // Every line typed in the terminal UI, `/exit` and `!` lines included: never read.
    files.set(
      "command-history-state.json",
      await place(`${DIR}command-history-state.json`, `${home}/.copilot/command-history-state.json`),
    );
    return {
      agent: "copilot",
      files,
      ...expectedFrom(
        "copilot",
        COPILOT_EXPECTATIONS.map((e) => ({ file: files.get(e.file)!, expectation: e })),
      ),
      close: () => {},
    };
  },
  async layOutSettings(home: string): Promise<void> {
    for (const name of SETTINGS) await place(`${DIR}${name}`, `${home}/.copilot/${name}`);
  },
};
