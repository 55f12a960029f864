/**
 * What the real Codex 0.169.0 rollouts in `../shared/clients/codex/samples/` must yield, decided
 * by hand (each file read line by line against NOTES.md §3 there). Data only: the parser test
 * (rollout_test.ts) and tests/agents/codex/samples.ts share it. Texts are short, so they are whole.
 */

export interface CodexExpected {
  /** 1-based line of the source entry (a note: its FileChange item). */
  readonly line: number;
  readonly time: string;
  readonly text: string;
}

export interface CodexSampleExpectation {
  /** File name in the samples folder: a prefix naming the run, then Codex's own name. */
  readonly sample: string;
  /** The name Codex gave it. */
  readonly name: string;
  readonly session: string;
  readonly project: string;
  readonly why: string;
  /** Records with the default options (includeHeadless false). */
  readonly prompts: readonly CodexExpected[];
  readonly notes: readonly CodexExpected[];
  /** The prompts includeHeadless adds. */
  readonly headlessPrompts: readonly CodexExpected[];
}

export const CODEX_EXPECTATIONS: readonly CodexSampleExpectation[] = [
  {
    sample: "tui.rollout-2026-12-01T07-27-02-01a2307f-f6fb-7de1-83df-04b7b30797ca.jsonl",
    name: "rollout-2026-12-01T07-27-02-01a2307f-f6fb-7de1-83df-04b7b30797ca.jsonl",
    session: "01a2307f-f6fb-7de1-83df-04b7b30797ca",
    project: "/home/dev/project",
    why: 'TUI (`source:"cli"`): the four item_completed UserMessage items (10, 21, 41, 57), not their ' +
      "response_item copies; the AGENTS.md patch landed (FileChange, 45): one note. Not typed: the hook " +
      "context (developer messages 8, 11…), the `!git status --short` (65-66), the compaction (73).",
    prompts: [
      { line: 10, time: "2026-12-01T07:27:10.913Z", text: "From now on use pnpm, never npm, in this repo." },
      {
        line: 21,
        time: "2026-12-01T07:27:18.608Z",
        text: "Check with the recall tool what we decided about package managers.",
      },
      { line: 41, time: "2026-12-01T07:27:26.312Z", text: "Please record that rule in AGENTS.md." },
      { line: 57, time: "2026-12-01T07:27:34.074Z", text: "Which command installs lodash here?" },
    ],
    notes: [{ line: 45, time: "2026-12-01T07:27:26.830Z", text: "# Agent rules\n\n- Use pnpm, never npm." }],
    headlessPrompts: [],
  },
  {
    sample: "exec-then-resume.rollout-2026-12-01T07-26-59-01a2307f-eb97-7590-ab20-838e8968a72e.jsonl",
    name: "rollout-2026-12-01T07-26-59-01a2307f-eb97-7590-ab20-838e8968a72e.jsonl",
    session: "01a2307f-eb97-7590-ab20-838e8968a72e",
    project: "/home/dev/project",
    why: '`codex exec`, then `codex exec resume --last` into the same file (`source:"exec"`): headless, so ' +
      "its two UserMessage items (10, 22) count only with includeHeadless.",
    prompts: [],
    notes: [],
    headlessPrompts: [
      { line: 10, time: "2026-12-01T07:27:00.317Z", text: "From now on use pnpm, never npm, in this repo." },
      { line: 22, time: "2026-12-01T07:27:01.556Z", text: "Which command installs lodash here?" },
    ],
  },
];

/**
 * `~/.codex/history.jsonl` of the same runs: the TUI's typed lines (the `!` line too), no record
 * of its own (Codex's sessions are read, not its history).
 */
export const CODEX_HISTORY_SAMPLE = "history.jsonl";
