/**
 * The shapes of pi's extension (extension.ts), which verdict writes itself: it sends Claude Code's
 * hook JSON (`hook_event_name`, `session_id`, `transcript_path`, `cwd`, `prompt`, `source`) and
 * reads a flat object back: `additionalContext` (the hint, or the handoff after a compaction) and
 * `systemMessage` (the compaction verdict, shown as a notification). pi's compaction event cannot
 * say whether a person asked for it, so verdict never blocks one there. Imports only Claude's
 * dialect (the per-prompt hook loads it, see ../agent.ts).
 */
import type { HookDialect } from "../agent.ts";
import { readClaudeStyle } from "../claude/hook_dialect.ts";

export const dialect: HookDialect = {
  canBlockCompaction: false,
  read: readClaudeStyle,
  render(event, reply) {
    if (event === "pre-compact") return reply.notice === undefined ? null : { systemMessage: reply.notice };
    return reply.context === undefined ? null : { additionalContext: reply.context };
  },
};
