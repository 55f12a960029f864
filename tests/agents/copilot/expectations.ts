/**
 * What each real GitHub Copilot CLI 1.0.102 events.jsonl in `../shared/clients/copilot/samples/` must
 * yield, decided by hand (each file read line by line against NOTES.md there). Data only: the
 * parser test and the end-to-end collect test share it. Texts are short, so they are whole.
 */

export interface CopilotExpected {
  /** 1-based line of the source record (a note: its assistant.message with the tool request). */
  readonly line: number;
  readonly time: string;
  readonly text: string;
}

export interface CopilotSampleExpectation {
  /** File name in the samples folder (anonymised: the project is /home/dev/project). */
  readonly file: string;
  readonly session: string;
  readonly project: string;
  readonly why: string;
  /** Records with the default options (includeHeadless false). */
  readonly prompts: readonly CopilotExpected[];
  readonly notes: readonly CopilotExpected[];
  /** The prompts includeHeadless adds. */
  readonly headlessPrompts: readonly CopilotExpected[];
}

export const COPILOT_SAMPLES_DIR: URL = new URL(
  "../../../../shared/clients/copilot/samples/",
  import.meta.url,
);

export const COPILOT_EXPECTATIONS: readonly CopilotSampleExpectation[] = [
  {
    file: "tui.fb2d48d5-b026-499b-9702-0f5d4a062b1e.events.jsonl",
    session: "fb2d48d5-b026-499b-9702-0f5d4a062b1e",
    project: "/home/dev/project",
    why:
      "TUI session: four user.message events (8, 18, 37, 56), the first followed by the interactive system " +
      "message (9); each transformedContent holds hook context that must not leak. Line 40 creates AGENTS.md and " +
      "its tool.execution_complete (46) succeeded: one note. The MCP call (21), the ! line (63-64), /compact " +
      "(65-75) and the hook events yield nothing.",
    prompts: [
      { line: 8, time: "2026-12-01T07:48:07.237Z", text: "From now on use pnpm, never npm, in this repo." },
      {
        line: 18,
        time: "2026-12-01T07:48:14.997Z",
        text: "Check with the recall tool what we decided about package managers.",
      },
      { line: 37, time: "2026-12-01T07:48:23.086Z", text: "Please record that rule in AGENTS.md." },
      { line: 56, time: "2026-12-01T07:48:31.197Z", text: "Which command installs lodash here?" },
    ],
    notes: [{ line: 40, time: "2026-12-01T07:48:23.158Z", text: "# Agent rules\n\n- Use pnpm, never npm." }],
    headlessPrompts: [],
  },
  {
    file: "prompt-then-continue.a6bed0cc-9a7c-4cce-9b4f-d8dea0339752.events.jsonl",
    session: "a6bed0cc-9a7c-4cce-9b4f-d8dea0339752",
    project: "/home/dev/project",
    why:
      "copilot -p, then copilot --continue -p: the system message (7) says non-interactive mode; the resumed " +
      "run (17 on) writes none and keeps that mode, so both prompts are headless.",
    prompts: [],
    notes: [],
    headlessPrompts: [
      { line: 6, time: "2026-12-01T07:47:54.543Z", text: "From now on use pnpm, never npm, in this repo." },
      { line: 22, time: "2026-12-01T07:47:56.923Z", text: "Which command installs lodash here?" },
    ],
  },
];
