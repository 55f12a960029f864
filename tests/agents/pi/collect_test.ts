/**
 * `verdict collect` over a HOME holding pi 0.73.1's real sessions (tests/fixtures/agents/pi/samples,
 * laid out as pi writes them: samples.ts): exactly the typed prompts and the AGENTS.md note
 * expectations.ts decides, the `pi -p` prompt only with include_headless.
 */
import { collectTestOf } from "../_samples.ts";
import { PI_SAMPLES } from "./samples.ts";

collectTestOf(PI_SAMPLES, "collect over pi's real sessions: exactly the typed prompts and the landed note");
