/**
 * Every agent's real samples (tests/agents/<id>/samples.ts), in registry order: the tests that lay
 * out all agents in one HOME take them from here, so an agent added to the registry is added once.
 */
import type { AgentSamples } from "./_samples.ts";
import { CLAUDE_SAMPLES } from "./claude/samples.ts";
import { CLINE_SAMPLES } from "./cline/samples.ts";
import { CODEX_SAMPLES } from "./codex/samples.ts";
import { COPILOT_SAMPLES } from "./copilot/samples.ts";
import { GEMINI_SAMPLES } from "./gemini/samples.ts";
import { OPENCODE_SAMPLES } from "./opencode/samples.ts";
import { PI_SAMPLES } from "./pi/samples.ts";
import { QWEN_SAMPLES } from "./qwen/samples.ts";

export const ALL_SAMPLES: readonly AgentSamples[] = [
  CLAUDE_SAMPLES,
  CODEX_SAMPLES,
  GEMINI_SAMPLES,
  OPENCODE_SAMPLES,
  QWEN_SAMPLES,
  COPILOT_SAMPLES,
  PI_SAMPLES,
  CLINE_SAMPLES,
];
