/**
 * What each real pi 0.73.1 session in `tests/fixtures/agents/pi/samples/` must yield, decided by
 * hand (each file read line by line against docs/pi.md). Written by the client test's story
 * (tests/clients/pi/) and rewritten to /home/dev. Data only: the parser test and the end-to-end
 * collect tests share it.
 */
import type { FileExpectation } from "../_samples.ts";

export interface PiSampleExpectation extends FileExpectation {
  /** File name in the samples folder. */
  readonly file: string;
  readonly session: string;
  readonly why: string;
}

export const PI_SAMPLES_DIR: URL = new URL("../../fixtures/agents/pi/samples/", import.meta.url);

/** The folder pi keeps the samples' sessions in (the project is /home/dev/project). */
export const PI_SESSION_FOLDER = "--home-dev-project--";

export const PI_EXPECTATIONS: readonly PiSampleExpectation[] = [
  {
    file: "tui-a.jsonl",
    session: "01a24e28-4c4c-77d5-9c85-54ae741f46c2",
    project: "/home/dev/project",
    why:
      "TUI: three prompts (5, 7, 13); the AGENTS.md write (8) landed (9); the ! line (11), the compaction " +
      "(12) and the handoff after it (14) are machine-made.",
    prompts: [
      {
        line: 5,
        time: "2026-12-07T01:39:55.363Z",
        text: "From now on use pnpm, never npm, to install packages in this repo.",
      },
      { line: 7, time: "2026-12-07T01:39:56.596Z", text: "Please record that rule in AGENTS.md." },
      { line: 13, time: "2026-12-07T01:40:00.294Z", text: "What is left to do?" },
    ],
    notes: [{ line: 8, time: "2026-12-07T01:39:56.656Z", text: "# Agent rules\n\n- Use pnpm, never npm." }],
    headlessPrompts: [],
  },
  {
    file: "tui-b.jsonl",
    session: "01a24e28-7ba9-755b-a1f9-d6a63308d447",
    project: "/home/dev/project",
    why: "TUI: two prompts (5, 8); the hint after the first (6) is a custom_message.",
    prompts: [
      { line: 5, time: "2026-12-07T01:40:06.988Z", text: "Should I install lodash with npm or pnpm?" },
      { line: 8, time: "2026-12-07T01:40:08.129Z", text: "thanks, that is all for now" },
    ],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "print.jsonl",
    session: "01a24e28-93e8-75e1-8b3d-a6e7959a6529",
    project: "/home/dev/project",
    why: "pi -p: verdict's extension marked the session headless (4).",
    prompts: [],
    notes: [],
    headlessPrompts: [
      {
        line: 5,
        time: "2026-12-07T01:40:12.212Z",
        text: "From now on always run the linter before committing.",
      },
    ],
  },
  {
    file: "no-extension.jsonl",
    session: "01a24e28-a42c-703b-9098-040de519f834",
    project: "/home/dev/project",
    why: "pi -p after the uninstall: no mode entry, so nothing in the file says it was headless; it counts.",
    prompts: [{ line: 4, time: "2026-12-07T01:40:16.098Z", text: "Say hello after the uninstall." }],
    notes: [],
    headlessPrompts: [],
  },
];
