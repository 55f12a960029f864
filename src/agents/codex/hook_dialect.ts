/**
 * Codex's hook shapes (0.169, ../shared/clients/codex/hook-schemas-from-binary.txt, and seen with
 * the real binary): Claude Code's. The input names `session_id`, `transcript_path` (the rollout),
 * `cwd`, `hook_event_name`, `prompt`, plus `turn_id`, `model` and `permission_mode`; the
 * UserPromptSubmit output accepts `systemMessage` and `hookSpecificOutput.additionalContext`,
 * and Codex puts that context before the model as a developer message. Only the prompt hook is
 * wired (hooks.ts), so no compaction is ever blocked through this dialect. Imports only Claude's
 * dialect (the per-prompt hook loads it, see HookDialect in ../agent.ts).
 */
import type { HookDialect } from "../agent.ts";
import { dialect as claude, readClaudeStyle } from "../claude/hook_dialect.ts";

export const dialect: HookDialect = {
  canBlockCompaction: false,
  read: readClaudeStyle,
  render: (event, reply) => claude.render(event, reply),
};
