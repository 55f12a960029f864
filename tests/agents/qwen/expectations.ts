/**
 * What each real Qwen Code 0.24.4 session file in `../shared/clients/qwen-code/samples/` must
 * yield, decided by hand (each file read line by line against NOTES.md there). Data only: the
 * parser test and the end-to-end collect test share it. Texts are short, so they are whole.
 */

export interface QwenExpected {
  /** 1-based line of the source record (a note: its functionCall's assistant record). */
  readonly line: number;
  readonly time: string;
  readonly text: string;
}

export interface QwenSampleExpectation {
  /** File name in the samples folder (anonymised: the project is /home/dev/project). */
  readonly file: string;
  readonly session: string;
  readonly project: string;
  readonly why: string;
  /** Records with the default options (includeHeadless false). */
  readonly prompts: readonly QwenExpected[];
  readonly notes: readonly QwenExpected[];
  /** The prompts includeHeadless adds. */
  readonly headlessPrompts: readonly QwenExpected[];
}

export const QWEN_SAMPLES_DIR: URL = new URL(
  "../../../../shared/clients/qwen-code/samples/",
  import.meta.url,
);

export const QWEN_EXPECTATIONS: readonly QwenSampleExpectation[] = [
  {
    file: "-home-dev-project.chats.tui.03c74f7f-f593-412b-85d7-498cb924e08b.jsonl",
    session: "03c74f7f-f593-412b-85d7-498cb924e08b",
    project: "/home/dev/project",
    why:
      "TUI session: four typed prompts, each followed by its file_history_snapshot (lines 3, 9, 18, 29); " +
      "each carries hook context (parts[1], systemPayload.hookContext) that must not leak into the text. " +
      "Line 20 is a write_file of QWEN.md whose tool_result (line 22) succeeded: one note. The MCP call " +
      "(line 11) and the /stats slash_command records (33, 34) yield nothing.",
    prompts: [
      { line: 1, time: "2026-12-01T08:00:16.278Z", text: "From now on use pnpm, never npm, in this repo." },
      {
        line: 7,
        time: "2026-12-01T08:00:25.183Z",
        text: "Check with the recall tool what we decided about package managers.",
      },
      { line: 16, time: "2026-12-01T08:00:34.218Z", text: "Please record that rule in QWEN.md." },
      { line: 27, time: "2026-12-01T08:00:43.238Z", text: "Which command installs lodash here?" },
    ],
    notes: [{
      line: 20,
      time: "2026-12-01T08:00:34.253Z",
      text: "# Project rules\n\n- Use pnpm, never npm.",
    }],
    headlessPrompts: [],
  },
  {
    file: "-home-dev-project.chats.print-then-continue.26d35044-36e1-43a0-b995-4c613f9992cb.jsonl",
    session: "26d35044-36e1-43a0-b995-4c613f9992cb",
    project: "/home/dev/project",
    why:
      "qwen -p, then qwen --continue -p: two prompts and no file_history_snapshot at all (checkpointing is " +
      "off in non-interactive runs), so both are headless.",
    prompts: [],
    notes: [],
    headlessPrompts: [
      { line: 1, time: "2026-12-01T07:59:59.201Z", text: "From now on use pnpm, never npm, in this repo." },
      { line: 6, time: "2026-12-01T08:00:03.912Z", text: "Which command installs lodash here?" },
    ],
  },
];
