/**
 * Claude Code 2.1.328's real samples laid out in a HOME as Claude Code writes them: the session
 * transcript under `~/.claude/projects/<encoded cwd>/<session>.jsonl` (unpacked from the sample's
 * gzip), the prompt history at `~/.claude/history.jsonl`, and (layOutSettings) the hooks of the
 * sample run in `~/.claude/settings.json`. The records come from expectations.ts.
 */
import {
  type AgentSamples,
  clientSamplesDir,
  expectedFrom,
  type LaidOut,
  missingIn,
  place,
  placeUnpacked,
} from "../_samples.ts";
import { CLAUDE_EXPECTATIONS, CLAUDE_HISTORY_SAMPLE, CLAUDE_TRANSCRIPT_SAMPLE } from "./expectations.ts";

export const CLAUDE_SAMPLES_DIR = clientSamplesDir("claude-code");

/** Where Claude Code keeps each sample (relative to HOME). */
function destination(e: (typeof CLAUDE_EXPECTATIONS)[number]): string {
  return e.sample === CLAUDE_HISTORY_SAMPLE
    ? ".claude/history.jsonl"
    : `.claude/projects/${e.project.replaceAll("/", "-")}/${e.session}.jsonl`;
}

export const CLAUDE_SAMPLES: AgentSamples = {
  agent: "claude",
  missing: () =>
    missingIn(CLAUDE_SAMPLES_DIR, [CLAUDE_TRANSCRIPT_SAMPLE, CLAUDE_HISTORY_SAMPLE, "settings.json"]),
  async layOut(home: string): Promise<LaidOut> {
    const files = new Map<string, string>();
    for (const e of CLAUDE_EXPECTATIONS) {
      const from = `${CLAUDE_SAMPLES_DIR}${e.sample}`;
      const to = `${home}/${destination(e)}`;
      files.set(e.sample, e.sample.endsWith(".gz") ? await placeUnpacked(from, to) : await place(from, to));
    }
    return {
      agent: "claude",
      files,
      ...expectedFrom(
        "claude",
        CLAUDE_EXPECTATIONS.map((e) => ({ file: files.get(e.sample)!, expectation: e })),
      ),
      close: () => {},
    };
  },
  async layOutSettings(home: string): Promise<void> {
    await place(`${CLAUDE_SAMPLES_DIR}settings.json`, `${home}/.claude/settings.json`);
  },
};
