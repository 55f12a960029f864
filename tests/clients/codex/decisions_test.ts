/**
 * Issue 27's prompts on the real Codex CLI (pinned in harness/versions.ts), offline: the scripted
 * OpenAI Responses model on 127.0.0.1, a temp HOME, a git project, `verdict install --codex` (the
 * hooks and their trust), then the three sessions of harness/decisions.ts (four decisions; a prompt
 * walking into each; a repeat, an act against the pnpm rule, small talk) and their claims. The
 * hook's context is what the request's input holds after the person's latest message.
 */
import { inputMessages, responsesServer } from "../harness/openai_responses.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { once } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { DECISION_REPLIES, decisionClaims, driveDecisions } from "../harness/decisions.ts";
import { codexDaemons, CodexTui, seedCodexHome } from "./codex.ts";

const story = once(async () => {
  await using ws = await Workspace.create("codex-decisions");
  // Disposed before the workspace: ends the app-server daemons Codex starts from its HOME.
  await using _daemons = codexDaemons(ws);
  await using server = responsesServer(DECISION_REPLIES);
  await seedCodexHome(ws, server);
  await ws.verdictOk(["install", "--codex"]);
  return await driveDecisions(ws, server, () => CodexTui.start(ws, server));
});

/** The input messages after the latest one of the person (where Codex puts hook context). */
function afterLastUser(r: RecordedRequest): string {
  const messages = inputMessages(r.body);
  const last = messages.map((m) => m.role).lastIndexOf("user");
  return messages.slice(last + 1).map((m) => m.text).join("\n");
}

decisionClaims(testPrefix("codex"), story, {
  contextOf: afterLastUser,
  usersOf: (r) => inputMessages(r.body).filter((m) => m.role === "user").map((m) => m.text).join("\n"),
});
