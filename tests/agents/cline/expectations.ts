/**
 * What each real Cline CLI 3.0.65 session in `tests/fixtures/agents/cline/samples/` must yield,
 * decided by hand (each messages document read message by message against docs/cline.md). Each
 * sample is a session folder as Cline writes it, `<id>/<id>.messages.json` and its meta file
 * `<id>.json`, from runs against the scripted loopback model, rewritten to /home/dev. Data only:
 * the parser test and the end-to-end collect tests share it.
 */
import type { FileExpectation } from "../_samples.ts";

export interface ClineSampleExpectation extends FileExpectation {
  /** The session id: the folder's name and the files' stem. */
  readonly session: string;
  readonly why: string;
}

export const CLINE_SAMPLES_DIR: URL = new URL("../../fixtures/agents/cline/samples/", import.meta.url);

/** The messages document of a sample, relative to the samples folder. */
export function messagesFile(session: string): string {
  return `${session}/${session}.messages.json`;
}

/** Its meta file, relative to the samples folder. */
export function metaFile(session: string): string {
  return `${session}/${session}.json`;
}

export const CLINE_EXPECTATIONS: readonly ClineSampleExpectation[] = [
  {
    session: "1796608977817_6yv28",
    project: "/home/dev/project",
    why: "TUI (interactive: true): three prompts (14, 46, 117); the .clinerules editor write (57) landed " +
      "(83, success true); the AGENTS.md edit (128) failed (155, success false).",
    prompts: [
      { line: 14, time: "2026-12-07T02:03:03.975Z", text: "From now on use pnpm, never npm." },
      { line: 46, time: "2026-12-07T02:03:14.966Z", text: "Please record that rule in .clinerules now." },
      { line: 117, time: "2026-12-07T02:03:25.984Z", text: "Now try the fail edit please." },
    ],
    notes: [{ line: 57, time: "2026-12-07T02:03:15.239Z", text: "# Rules\n\n- Use pnpm." }],
    headlessPrompts: [],
  },
  {
    session: "1796608661005_6op54",
    project: "/home/dev/project",
    why: "TUI with a plugin adding context: two prompts (14, 61); each plugin context (25, 72) is a " +
      "<hook_context> user message marked displayRole system.",
    prompts: [
      { line: 14, time: "2026-12-07T01:57:50.848Z", text: "First TUI prompt about pnpm" },
      { line: 61, time: "2026-12-07T01:58:01.746Z", text: "Second TUI prompt about lint" },
    ],
    notes: [],
    headlessPrompts: [],
  },
  {
    session: "1796608639301_o4c7f",
    project: "/home/dev/project",
    why: 'cline "<prompt>" (interactive: false) with a plugin: the prompt (14) only with include_headless; ' +
      "the plugin context (25) never.",
    prompts: [],
    notes: [],
    headlessPrompts: [{
      line: 14,
      time: "2026-12-07T01:57:24.216Z",
      text: "Headless probe prompt number one",
    }],
  },
  {
    session: "1796608553021_8ywhk",
    project: "/home/dev/project",
    why: 'cline "<prompt>" (interactive: false), no plugin: the prompt (14) only with include_headless.',
    prompts: [],
    notes: [],
    headlessPrompts: [
      { line: 14, time: "2026-12-07T01:55:53.559Z", text: "From now on use pnpm, never npm, in this repo." },
    ],
  },
];
