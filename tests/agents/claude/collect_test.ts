/**
 * `verdict collect` over a HOME holding Claude Code 2.1.328's real session (the samples, read from
 * ../shared at test time, laid out as Claude Code writes them: tests/agents/claude/samples.ts):
 * exactly the typed prompts and the CLAUDE.md note expectations.ts decides, the prompt history
 * adding nothing (its lines repeat the transcript's, or are a `!` command and a bare /compact).
 */
import { collectTestOf } from "../_samples.ts";
import { CLAUDE_SAMPLES } from "./samples.ts";

collectTestOf(
  CLAUDE_SAMPLES,
  "collect over Claude Code's real session: exactly the typed prompts and the landed note, history kept once",
);
