/**
 * Gemini CLI's hook shapes (0.61.x, seen with tests/clients/gemini/): Claude Code's snake_case
 * input and nested output, with its own event names. verdict wires BeforeAgent (fired after a
 * prompt is submitted; its `hookSpecificOutput.additionalContext` reaches the model), read as
 * verdict's "user-prompt". In `-p` mode Gemini puts SessionStart context before the typed text
 * in the hook's `prompt` (LEADING_BLOCKS): removed here before the hint searches. No compaction
 * hook is wired into Gemini CLI, so those events render nothing. Imports only Claude's dialect
 * and the line-parser contract (both on the hint path already).
 */
import type { HookDialect } from "../agent.ts";
import { readClaudeStyle } from "../claude/hook_dialect.ts";
import { stripLeadingBlocks } from "../../record/line_parser.ts";

/** The blocks Gemini CLI puts before typed text (chat.ts strips the same from its sessions). */
export const LEADING_BLOCKS: readonly string[] = ["hook_context"];

export const dialect: HookDialect = {
  canBlockCompaction: false,
  read(o) {
    const input = readClaudeStyle(o);
    const event = o.hook_event_name === "BeforeAgent" ? "user-prompt" : input.event === null ? null : "other";
    const prompt = input.prompt === null ? null : stripLeadingBlocks(input.prompt, LEADING_BLOCKS);
    return { ...input, event, prompt };
  },
  render(event, reply) {
    if (event !== "user-prompt" || reply.context === undefined) return null;
    return {
      ...(reply.notice !== undefined ? { systemMessage: reply.notice } : {}),
      hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: reply.context },
    };
  },
};
