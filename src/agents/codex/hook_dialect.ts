/**
 * Codex's hook shapes (0.169, from the JSON schemas its binary carries, and seen with the real
 * binary): Claude Code's input, and its output but for how a compaction is stopped.
 *
 * - Input: `session_id`, `transcript_path` (the rollout), `cwd`, `hook_event_name`, plus
 *   `prompt` (UserPromptSubmit), `trigger` ("manual" | "auto", PreCompact), `source` ("compact"
 *   after a compaction, SessionStart), and `turn_id`, `model`, `permission_mode`.
 * - UserPromptSubmit and SessionStart take `systemMessage` and
 *   `hookSpecificOutput.additionalContext`; Codex puts that context before the model as a
 *   developer message (SessionStart(compact) fires after `/compact`, or an automatic compaction,
 *   before the next request: seen).
 * - PreCompact's output allows only `continue`, `stopReason`, `suppressOutput` and
 *   `systemMessage` (anything else: "Hook failed … invalid PreCompact hook JSON output", and the
 *   compaction goes on, seen with Claude's `{"decision": "block"}`). The terminal UI shows a
 *   `systemMessage` as "↳ Hook · <message>". `{"continue": false, "stopReason": …}` stops a
 *   manual `/compact` (no compaction request is made; the UI shows "Hook stopped" and the
 *   reason), so a block is rendered that way.
 *
 * Imports only Claude's dialect (the per-prompt hook loads it, see HookDialect in ../agent.ts).
 */
import type { HookDialect } from "../agent.ts";
import { dialect as claude, readClaudeStyle } from "../claude/hook_dialect.ts";

export const dialect: HookDialect = {
  canBlockCompaction: true,
  read: readClaudeStyle,
  render(event, reply) {
    if (reply.block !== undefined) return { continue: false, stopReason: reply.block };
    // Claude's shape otherwise: for pre-compact that is the notice alone (no context).
    return claude.render(event, reply);
  },
};
