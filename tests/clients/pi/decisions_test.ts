/**
 * Issue 27's prompts on the real pi CLI (pinned in harness/versions.ts), offline: the scripted
 * OpenAI Chat model on 127.0.0.1, a temp HOME, a git project, `verdict install` (the extension),
 * then the three sessions of harness/decisions.ts (four decisions; a prompt walking into each; a
 * repeat, an act against the pnpm rule, small talk) and their claims. pi sends the hint as a
 * message of its own after the person's prompt: the request's latest run of user messages.
 */
import { latestInput, userTexts } from "../harness/openai_chat.ts";
import { once } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { DECISION_REPLIES, decisionClaims, driveDecisions } from "../harness/decisions.ts";
import { piServer, PiTui, seedPiHome } from "./pi.ts";

const story = once(async () => {
  await using ws = await Workspace.create("pi-decisions");
  await using server = piServer([...DECISION_REPLIES]);
  await seedPiHome(ws, server);
  await ws.verdictOk(["install"]);
  return await driveDecisions(ws, server, () => PiTui.start(ws, server));
});

decisionClaims(testPrefix("pi"), story, {
  contextOf: (r) => latestInput(r.body).text,
  usersOf: (r) => userTexts(r.body).join("\n"),
});
