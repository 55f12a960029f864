/**
 * Issue 27's prompts on the real Claude Code CLI (pinned in harness/versions.ts), offline: the
 * scripted Anthropic model on 127.0.0.1, a temp HOME, a git project, `verdict install`, then the
 * three sessions of harness/decisions.ts (four decisions; a prompt walking into each; a repeat, an
 * act against the pnpm rule, small talk) and their claims. The hook's context is what the request
 * holds after the person's latest message.
 */
import { anthropicServer, blocksOf, messagesOf } from "../harness/anthropic_messages.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { once } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { DECISION_REPLIES, decisionClaims, driveDecisions } from "../harness/decisions.ts";
import { ClaudeTui, seedClaudeHome } from "./claude_code.ts";

const story = once(async () => {
  await using ws = await Workspace.create("claude-code-decisions");
  await using server = anthropicServer(DECISION_REPLIES);
  await seedClaudeHome(ws);
  await ws.verdictOk(["install"]);
  return await driveDecisions(ws, server, () => ClaudeTui.start(ws, server));
});

/** What Claude Code sent after the latest user message of a request (where hook context goes). */
function afterLastUser(r: RecordedRequest): string {
  const messages = messagesOf(r.body);
  const last = messages.map((m) => m.role).lastIndexOf("user");
  return messages.slice(last + 1).flatMap(blocksOf).map((b) =>
    typeof b.text === "string" ? b.text : JSON.stringify(b)
  ).join("\n");
}

decisionClaims(testPrefix("claude-code"), story, {
  contextOf: afterLastUser,
  usersOf: (r) =>
    messagesOf(r.body).filter((m) => m.role === "user").flatMap(blocksOf).map((b) => String(b.text ?? ""))
      .join(
        "\n",
      ),
});
