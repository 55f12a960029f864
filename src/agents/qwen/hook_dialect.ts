/**
 * Qwen Code's hook shapes (0.24.x, seen with tests/clients/qwen_code/): Claude Code's input
 * and output, with one difference verdict uses. Qwen's PreCompact hook cannot stop a compaction,
 * but the `additionalContext` it returns is added to the summarizer's instructions (at most
 * PRE_COMPACT_CONTEXT_CHARS of it): so verdict asks the summary to keep the unlanded items.
 * SessionStart fires with source "compact" after a compaction, as in Claude Code. Imports only
 * Claude's dialect (the per-prompt hook loads it, see HookDialect in ../agent.ts).
 */
import type { HookDialect } from "../agent.ts";
import { dialect as claude, readClaudeStyle } from "../claude/hook_dialect.ts";

/** Qwen keeps this much of a PreCompact hook's additionalContext (MAX_HOOK_INSTRUCTIONS_CHARS). */
export const PRE_COMPACT_CONTEXT_CHARS = 4000;

/** Marks a context cut to fit (the full list is in the handoff file the context names). */
const CUT = "\n… (cut)";

export const dialect: HookDialect = {
  canBlockCompaction: false,
  read: readClaudeStyle,
  render(event, reply) {
    if (event !== "pre-compact") return claude.render(event, reply);
    const out: Record<string, unknown> = {};
    if (reply.notice !== undefined) out.systemMessage = reply.notice;
    if (reply.context !== undefined) {
      const context = reply.context.length > PRE_COMPACT_CONTEXT_CHARS
        ? reply.context.slice(0, PRE_COMPACT_CONTEXT_CHARS - CUT.length) + CUT
        : reply.context;
      out.hookSpecificOutput = { hookEventName: "PreCompact", additionalContext: context };
    }
    return Object.keys(out).length === 0 ? null : out;
  },
};
