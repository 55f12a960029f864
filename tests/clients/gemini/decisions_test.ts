/**
 * Issue 27's prompts on the real Gemini CLI (pinned in harness/versions.ts), offline: the scripted
 * Gemini API on 127.0.0.1, a temp HOME, a git project, `verdict install`, then the three sessions
 * of harness/decisions.ts (four decisions; a prompt walking into each; a repeat, an act against the
 * pnpm rule, small talk) and their claims. Gemini CLI sends the hook's context inside the person's
 * latest message (`<hook_context>`).
 */
import { contentsOf, geminiServer, textOfContent } from "../harness/gemini_api.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { once } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { DECISION_REPLIES, decisionClaims, driveDecisions } from "../harness/decisions.ts";
import { GeminiTui, seedGeminiHome } from "./gemini.ts";

/** Gemini CLI opens its shortcuts panel on a typed "?": the probes are typed without their question mark. */
const typeable = (prompt: string) => prompt.replace(/\?$/, "");

const story = once(async () => {
  await using ws = await Workspace.create("gemini-decisions");
  await using server = geminiServer([...DECISION_REPLIES]);
  await seedGeminiHome(ws);
  await ws.verdictOk(["install"]);
  return await driveDecisions(ws, server, () => GeminiTui.start(ws, server), typeable);
});

const usersOf = (r: RecordedRequest) =>
  contentsOf(r.body).filter((c) => c.role === "user").map(textOfContent);

decisionClaims(testPrefix("gemini"), story, {
  contextOf: (r) => usersOf(r).at(-1) ?? "",
  usersOf: (r) => usersOf(r).join("\n"),
  typeable,
});
