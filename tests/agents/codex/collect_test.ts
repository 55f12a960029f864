/**
 * `verdict collect` over a HOME holding Codex 0.169.0's real rollouts (the samples, read from
 * ../shared at test time, laid out as Codex writes them: tests/agents/codex/samples.ts): exactly
 * the TUI's typed prompts and its AGENTS.md note expectations.ts decides, the `codex exec`
 * prompts only with include_headless, and nothing from Codex's history.jsonl.
 */
import { collectTestOf } from "../_samples.ts";
import { CODEX_SAMPLES } from "./samples.ts";

collectTestOf(
  CODEX_SAMPLES,
  "collect over Codex's real rollouts: exactly the typed prompts and the landed note; exec only headless",
);
