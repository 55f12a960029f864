/**
 * The shapes of the Cline CLI's plugin (plugin.ts), which verdict writes itself: it sends Claude
 * Code's hook JSON (`hook_event_name`, `session_id`, `cwd`, `prompt`) and reads a flat object back,
 * `additionalContext` (the hint), which it returns to Cline as `appendContext`. Cline has no
 * moment before a compaction that a plugin or hook can reach, so only the prompt event answers.
 * Imports only Claude's dialect (the per-prompt hook loads it, see ../agent.ts).
 */
import type { HookDialect } from "../agent.ts";
import { readClaudeStyle } from "../claude/hook_dialect.ts";

export const dialect: HookDialect = {
  canBlockCompaction: false,
  read: readClaudeStyle,
  render(event, reply) {
    if (event !== "user-prompt") return null;
    return reply.context === undefined ? null : { additionalContext: reply.context };
  },
};
