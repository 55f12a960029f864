/**
 * GitHub Copilot CLI's hook shapes (1.0.x, seen with tests/clients/copilot/): camelCase
 * input (`sessionId`, `cwd`, `prompt`, `transcriptPath`, `trigger`, `source`; no event name) and
 * a flat `{"additionalContext"}` output; Claude Code's nested `hookSpecificOutput` is ignored
 * (seen). Copilot shows the person nothing of a hook's output, so the notice is not sent. Only the
 * prompt hook is wired (hooks.ts says why), so the other events render nothing. Imports no code
 * (the per-prompt hook loads it, see HookDialect in ../agent.ts).
 */
import type { HookDialect } from "../agent.ts";

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

export const dialect: HookDialect = {
  canBlockCompaction: false,
  read: (o) => ({
    event: null,
    prompt: typeof o.prompt === "string" ? o.prompt : null,
    session: str(o.sessionId),
    cwd: str(o.cwd),
    transcript: str(o.transcriptPath),
    trigger: str(o.trigger),
    source: str(o.source),
  }),
  render(event, reply) {
    if (event !== "user-prompt" || reply.context === undefined) return null;
    return { additionalContext: reply.context };
  },
};
