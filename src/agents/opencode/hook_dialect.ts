/**
 * The shapes of OpenCode's hint plugin (plugin.ts), which verdict writes itself: it sends Claude
 * Code's hook JSON (`session_id`, `cwd`, `prompt`) to `verdict hook user-prompt --agent opencode`
 * and reads a flat `{"systemMessage", "additionalContext"}` back, adding the context to the
 * message as a synthetic part. No compaction hook is wired into OpenCode, so those events render
 * nothing. Imports only Claude's dialect (the per-prompt hook loads it, see ../agent.ts).
 */
import type { HookDialect } from "../agent.ts";
import { readClaudeStyle } from "../claude/hook_dialect.ts";

export const dialect: HookDialect = {
  canBlockCompaction: false,
  read: readClaudeStyle,
  render(event, reply) {
    if (event !== "user-prompt" || reply.context === undefined) return null;
    return {
      ...(reply.notice !== undefined ? { systemMessage: reply.notice } : {}),
      additionalContext: reply.context,
    };
  },
};
