/**
 * What the real Gemini CLI 0.61.0 samples in `../shared/clients/gemini/samples/` must yield,
 * decided by hand (each file read line by line against NOTES.md there). Data only, shared by the
 * parser tests and the end-to-end collect test.
 *
 * - `tui.session-…-cfac006f.jsonl`: the terminal UI (its lines are in `logs.json`). Typed: lines
 *   5, 9, 18, 27 (each `displayContent` is the typed text; `content` adds the BeforeAgent
 *   `<hook_context>`). Not typed: line 3 (SessionStart output on its own, no displayContent),
 *   lines 14 and 23 (tool results), the `$set` copies of the history, the `info` records of
 *   `/memory show` and `/compress` (and logs.json's slash lines are no messages at all). The
 *   write_file of GEMINI.md at line 22 succeeded: one note.
 * - `print-then-resume.session-…-10b04943.jsonl`: `gemini -p`, then `gemini --resume latest -p`
 *   appending to the same file (a second header at line 7). Its two prompts (lines 3 and 11)
 *   carry the SessionStart `<hook_context>` prefix even in displayContent; they are headless
 *   (logs.json has no line of this session), so they count only with includeHeadless.
 */

export interface ExpectedGemini {
  readonly line: number;
  readonly time: string;
  readonly text: string;
}

export interface GeminiSampleExpectation {
  /** Name in the samples folder. */
  readonly sample: string;
  /** The name Gemini CLI gave it (the samples were renamed with a prefix). */
  readonly name: string;
  readonly session: string;
  readonly prompts: readonly ExpectedGemini[];
  readonly headlessPrompts: readonly ExpectedGemini[];
  readonly notes: readonly ExpectedGemini[];
}

export const SAMPLES_DIR: URL = new URL("../../../../shared/clients/gemini/samples/", import.meta.url);

/** The project the samples ran in (projects.json maps it to the folder id "project"). */
export const SAMPLE_PROJECT = "/home/dev/project";
export const SAMPLE_PROJECT_ID = "project";

export const GEMINI_EXPECTATIONS: readonly GeminiSampleExpectation[] = [
  {
    sample: "tui.session-2026-12-01T07-32-cfac006f.jsonl",
    name: "session-2026-12-01T07-32-cfac006f.jsonl",
    session: "cfac006f-28c2-4e82-b8de-6d225bd50012",
    prompts: [
      { line: 5, time: "2026-12-01T07:32:50.292Z", text: "From now on use pnpm, never npm, in this repo." },
      {
        line: 9,
        time: "2026-12-01T07:32:59.357Z",
        text: "Check with the recall tool what we decided about package managers.",
      },
      { line: 18, time: "2026-12-01T07:33:08.283Z", text: "Please record that rule in GEMINI.md." },
      { line: 27, time: "2026-12-01T07:33:17.273Z", text: "Which command installs lodash here" },
    ],
    headlessPrompts: [],
    notes: [{
      line: 22,
      time: "2026-12-01T07:33:08.309Z",
      text: "# Project rules\n\n- Use pnpm, never npm.",
    }],
  },
  {
    sample: "print-then-resume.session-2026-12-01T07-32-10b04943.jsonl",
    name: "session-2026-12-01T07-32-10b04943.jsonl",
    session: "10b04943-c629-49da-99f1-00b0db62b6f6",
    prompts: [],
    headlessPrompts: [
      { line: 3, time: "2026-12-01T07:32:34.420Z", text: "From now on use pnpm, never npm, in this repo." },
      { line: 11, time: "2026-12-01T07:32:38.444Z", text: "Which command installs lodash here?" },
    ],
    notes: [],
  },
];
