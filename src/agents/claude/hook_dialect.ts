/**
 * Claude Code's hook shapes (FORMATS.md §4.3), which Codex and Qwen Code share: snake_case input
 * (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `prompt`, `trigger`, `source`) and
 * output with `systemMessage` for the person, `hookSpecificOutput.additionalContext` for the
 * model, and `{"decision": "block", "reason"}` to stop a compaction. Imports nothing but types:
 * the per-prompt hook loads it (see HookDialect in ../agent.ts).
 */
import type { HookDialect, HookEvent, HookInput } from "../agent.ts";

/** Claude's event names for verdict's hook entries. */
const EVENT_NAMES: Readonly<Record<string, HookEvent>> = {
  UserPromptSubmit: "user-prompt",
  PreCompact: "pre-compact",
  SessionStart: "session-start",
};

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

export function readClaudeStyle(o: Readonly<Record<string, unknown>>): HookInput {
  const name = str(o.hook_event_name);
  return {
    event: name === null ? null : EVENT_NAMES[name] ?? "other",
    prompt: typeof o.prompt === "string" ? o.prompt : null,
    session: str(o.session_id),
    cwd: str(o.cwd),
    transcript: str(o.transcript_path),
    trigger: str(o.trigger),
    source: str(o.source),
  };
}

export const dialect: HookDialect = {
  canBlockCompaction: true,
  read: readClaudeStyle,
  render(event, reply) {
    if (reply.block !== undefined) return { decision: "block", reason: reply.block };
    const hookEventName = event === "user-prompt"
      ? "UserPromptSubmit"
      : event === "pre-compact"
      ? "PreCompact"
      : "SessionStart";
    const out: Record<string, unknown> = {};
    if (reply.notice !== undefined) out.systemMessage = reply.notice;
    // PreCompact has no additionalContext in Claude Code: only the notice shows.
    if (reply.context !== undefined && event !== "pre-compact") {
      out.hookSpecificOutput = { hookEventName, additionalContext: reply.context };
    }
    return Object.keys(out).length === 0 ? null : out;
  },
};
