/**
 * The Gemini CLI hook verdict wires into settings.json: BeforeAgent (fired after a prompt is
 * submitted, before the model is asked; its `hookSpecificOutput.additionalContext` is appended
 * to the prompt as a `<hook_context>` part, seen with 0.61.0). The edits are the shared
 * settings-file hook edits (src/hostfile/hook_json.ts); the command passes `--agent gemini`
 * so `verdict hook user-prompt` names BeforeAgent in its output.
 *
 * Each handler has a `name`: Gemini CLI lists hooks by it, and `hooksConfig.disabled` turns one
 * off by it (doctor reports that). Timeouts are in milliseconds.
 */
import type { HookSpec } from "../../hostfile/hook_json.ts";

/** The hint gives up on its own after 400 ms; Gemini CLI waits at most this long (ms). */
const HINT_TIMEOUT_MS = 5000;

/** The name Gemini CLI shows for verdict's prompt hook (and matches in hooksConfig.disabled). */
export const HINT_HOOK_NAME = "verdict-hint";

export const GEMINI_HOOKS: readonly HookSpec[] = [
  {
    event: "BeforeAgent",
    sub: "user-prompt",
    matcher: null,
    timeout: HINT_TIMEOUT_MS,
    statusMessage: null,
    name: HINT_HOOK_NAME,
    description: "verdict: quotes an earlier decision this prompt bears on",
    agent: "gemini",
  },
];
