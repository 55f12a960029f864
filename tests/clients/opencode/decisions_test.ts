/**
 * Issue 27's prompts on the real OpenCode CLI (pinned in harness/versions.ts), offline: the
 * scripted OpenAI Chat model on 127.0.0.1, a temp HOME, a git project, `verdict install` (the hint
 * plugin), then the three sessions of harness/decisions.ts (four decisions; a prompt walking into
 * each; a repeat, an act against the pnpm rule, small talk) and their claims. The plugin adds the
 * hint to the person's latest message.
 */
import { chatServer, lastUserText, userTexts } from "../harness/openai_chat.ts";
import { once } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { DECISION_REPLIES, decisionClaims, driveDecisions } from "../harness/decisions.ts";
import { isOpenCodeSide, OpenCodeTui, seedOpenCodeHome } from "./opencode.ts";

const story = once(async () => {
  await using ws = await Workspace.create("opencode-decisions");
  await using server = chatServer([...DECISION_REPLIES], { side: isOpenCodeSide });
  await seedOpenCodeHome(ws, server);
  await ws.verdictOk(["install"]);
  return await driveDecisions(ws, server, () => OpenCodeTui.start(ws, server));
});

decisionClaims(testPrefix("opencode"), story, {
  contextOf: (r) => lastUserText(r.body),
  usersOf: (r) => userTexts(r.body).join("\n"),
});
