/**
 * Codex 0.169.0's real samples laid out in a HOME as Codex writes them: each rollout under
 * `~/.codex/sessions/YYYY/MM/DD/` (the date of its name), the TUI's `~/.codex/history.jsonl`, and
 * (layOutSettings) the sample run's `config.toml` and `hooks.json`. The records come from
 * expectations.ts.
 */
import {
  type AgentSamples,
  clientSamplesDir,
  expectedFrom,
  type LaidOut,
  missingIn,
  place,
} from "../_samples.ts";
import { CODEX_EXPECTATIONS, CODEX_HISTORY_SAMPLE } from "./expectations.ts";

export const CODEX_SAMPLES_DIR = clientSamplesDir("codex");

/** `sessions/2026/12/01/` for `rollout-2026-12-01T…`. */
function dateFolder(name: string): string {
  const m = /^rollout-(\d{4})-(\d{2})-(\d{2})T/.exec(name);
  if (!m) throw new Error(`Cannot place "${name}": not a rollout name`);
  return `${m[1]}/${m[2]}/${m[3]}`;
}

export const CODEX_SAMPLES: AgentSamples = {
  agent: "codex",
  missing: () =>
    missingIn(CODEX_SAMPLES_DIR, [
      ...CODEX_EXPECTATIONS.map((e) => e.sample),
      CODEX_HISTORY_SAMPLE,
      "config.toml",
      "hooks.json",
    ]),
  async layOut(home: string): Promise<LaidOut> {
    const files = new Map<string, string>();
    for (const e of CODEX_EXPECTATIONS) {
      const to = `${home}/.codex/sessions/${dateFolder(e.name)}/${e.name}`;
      files.set(e.sample, await place(`${CODEX_SAMPLES_DIR}${e.sample}`, to));
    }
    files.set(
      CODEX_HISTORY_SAMPLE,
      await place(`${CODEX_SAMPLES_DIR}${CODEX_HISTORY_SAMPLE}`, `${home}/.codex/history.jsonl`),
    );
    return {
      agent: "codex",
      files,
      ...expectedFrom(
        "codex",
        CODEX_EXPECTATIONS.map((e) => ({ file: files.get(e.sample)!, expectation: e })),
      ),
      close: () => {},
    };
  },
  async layOutSettings(home: string): Promise<void> {
    await place(`${CODEX_SAMPLES_DIR}config.toml`, `${home}/.codex/config.toml`);
    await place(`${CODEX_SAMPLES_DIR}hooks.json`, `${home}/.codex/hooks.json`);
  },
};
