/**
 * The Qwen Code hooks verdict wires into settings.json. Qwen takes Claude Code's event names and
 * JSON shape (the shared edits, src/hostfile/hook_json.ts), with timeouts in milliseconds; each
 * command passes `--agent qwen`, so the hook entries read and answer in Qwen's dialect
 * (hook_dialect.ts). All three of Claude Code's: Qwen 0.24 fires PreCompact before a
 * compaction (its context goes to the summarizer) and SessionStart with source "compact" after.
 */
import type { HookSpec } from "../../hostfile/hook_json.ts";

/** Qwen waits at most this long for the prompt hook (ms); the hint gives up on its own after 400 ms. */
const HINT_TIMEOUT_MS = 5000;
/** Judging a session runs git: as Claude Code's 30 s. */
const PRE_COMPACT_TIMEOUT_MS = 30_000;
const SESSION_START_TIMEOUT_MS = 10_000;

export const QWEN_HOOKS: readonly HookSpec[] = [
  {
    event: "UserPromptSubmit",
    sub: "user-prompt",
    matcher: null,
    timeout: HINT_TIMEOUT_MS,
    statusMessage: null,
    agent: "qwen",
  },
  {
    event: "PreCompact",
    sub: "pre-compact",
    matcher: null,
    timeout: PRE_COMPACT_TIMEOUT_MS,
    statusMessage: "verdict: checking for unlanded work",
    agent: "qwen",
  },
  {
    event: "SessionStart",
    sub: "session-start",
    matcher: "compact",
    timeout: SESSION_START_TIMEOUT_MS,
    statusMessage: null,
    agent: "qwen",
  },
];
