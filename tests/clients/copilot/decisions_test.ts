/**
 * Issue 27's prompts on the real Copilot CLI (pinned in harness/versions.ts), offline: the
 * scripted OpenAI Chat model on 127.0.0.1, a temp HOME, a git project, `verdict install`, then the
 * three sessions of harness/decisions.ts (four decisions; a prompt walking into each; a repeat, an
 * act against the pnpm rule, small talk) and their claims. Copilot CLI sends the hook's context in
 * the person's latest message, on a request the server may count as a side one.
 */
import { lastUserText, userTexts } from "../harness/openai_chat.ts";
import { once } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { DECISION_REPLIES, decisionClaims, driveDecisions } from "../harness/decisions.ts";
import { copilotServer, CopilotTui, seedCopilotHome } from "./copilot.ts";

const story = once(async () => {
  await using ws = await Workspace.create("copilot-decisions");
  await using server = copilotServer([...DECISION_REPLIES]);
  await seedCopilotHome(ws);
  await ws.verdictOk(["install"]);
  return await driveDecisions(ws, server, () => CopilotTui.start(ws, server));
});

decisionClaims(testPrefix("copilot"), story, {
  contextOf: (r) => lastUserText(r.body),
  usersOf: (r) => userTexts(r.body).join("\n"),
  withSide: true,
});
