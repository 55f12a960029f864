/**
 * What the real Claude Code 2.1.328 samples in `../shared/clients/claude-code/samples/` must
 * yield, decided by hand (the transcript read line by line against NOTES.md there; the
 * `.full.jsonl.gz` is the transcript as written, the `.trimmed.jsonl` the same 95 lines with long
 * strings cut). Data only: tests/agents/claude/samples.ts lays the files out and shares it.
 * Texts are short, so they are whole.
 */

export interface ClaudeExpected {
  /** 1-based line of the source entry (a note: its tool_use entry). */
  readonly line: number;
  readonly time: string;
  readonly text: string;
}

export interface ClaudeSampleExpectation {
  /** File name in the samples folder. */
  readonly sample: string;
  readonly session: string;
  readonly project: string;
  readonly why: string;
  /** Records with the default options (includeHeadless false). */
  readonly prompts: readonly ClaudeExpected[];
  readonly notes: readonly ClaudeExpected[];
  /** The prompts includeHeadless adds. */
  readonly headlessPrompts: readonly ClaudeExpected[];
}

export const CLAUDE_SESSION = "77025484-345a-4554-8455-93211ca5b55e";
export const CLAUDE_PROJECT = "/home/dev/project";
export const CLAUDE_TRANSCRIPT_SAMPLE = `-home-dev-project.${CLAUDE_SESSION}.full.jsonl.gz`;
export const CLAUDE_HISTORY_SAMPLE = "history.jsonl";

export const CLAUDE_EXPECTATIONS: readonly ClaudeSampleExpectation[] = [
  {
    sample: CLAUDE_TRANSCRIPT_SAMPLE,
    session: CLAUDE_SESSION,
    project: CLAUDE_PROJECT,
    why:
      'TUI session: the four user entries with promptSource "typed" (8, 33, 45, 57); the Write of CLAUDE.md ' +
      "(49) succeeded (51): one note. Not typed: the tool results (39, 51), `!git status --short` (64 " +
      "bash-input, 65 bash-stdout), /compact (82 summary, 83 caveat, 84 command, 85 stdout), the hook " +
      "context (attachments, never user entries).",
    prompts: [
      { line: 8, time: "2026-12-01T07:50:42.472Z", text: "From now on use pnpm, never npm, in this repo." },
      {
        line: 33,
        time: "2026-12-01T07:50:50.482Z",
        text: "Check with the recall tool what we decided about package managers.",
      },
      { line: 45, time: "2026-12-01T07:50:58.504Z", text: "Please record that rule in CLAUDE.md." },
      { line: 57, time: "2026-12-01T07:51:06.511Z", text: "Which command installs lodash here?" },
    ],
    notes: [{
      line: 49,
      time: "2026-12-01T07:50:58.803Z",
      text: "# Project rules\n\n- Use pnpm, never npm.",
    }],
    headlessPrompts: [],
  },
  {
    sample: CLAUDE_HISTORY_SAMPLE,
    session: CLAUDE_SESSION,
    project: CLAUDE_PROJECT,
    why: "the same session's prompt history: lines 1-4 are the transcript's typed prompts (kept once, from " +
      "the transcript, which has their line), 5 is a `!` shell command and 6 a bare /compact: nothing.",
    prompts: [],
    notes: [],
    headlessPrompts: [],
  },
];
