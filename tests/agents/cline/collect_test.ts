/**
 * `verdict collect` over a HOME holding the Cline CLI 3.0.65's real sessions
 * (tests/fixtures/agents/cline/samples, laid out as Cline writes them: samples.ts): exactly the
 * typed prompts and the .clinerules note expectations.ts decides, the `cline "<prompt>"` prompts
 * only with include_headless.
 */
import { collectTestOf } from "../_samples.ts";
import { CLINE_SAMPLES } from "./samples.ts";

collectTestOf(
  CLINE_SAMPLES,
  "collect over the Cline CLI's real sessions: exactly the typed prompts and the landed note",
);
