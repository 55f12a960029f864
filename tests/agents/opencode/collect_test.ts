/**
 * `verdict collect` over a HOME holding OpenCode 1.18.33's real sessions (the sample's rows in a
 * database OpenCode's schema made, held open in WAL mode as a running OpenCode holds it:
 * tests/agents/opencode/samples.ts): exactly the TUI's typed prompts and its AGENTS.md note
 * expectations.ts decides, the `opencode run` prompts (unquoted) only with include_headless.
 */
import { collectTestOf } from "../_samples.ts";
import { OPENCODE_SAMPLES } from "./samples.ts";

collectTestOf(
  OPENCODE_SAMPLES,
  "collect over OpenCode's real sessions (live database): exactly the typed prompts and the note; run only headless",
);
