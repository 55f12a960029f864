/**
 * Issue 27's prompts on the real Cline CLI (pinned in harness/versions.ts), offline: the scripted
 * OpenAI Chat model on 127.0.0.1, a temp HOME, a git project, `verdict install` (the plugin), then
 * the three sessions of harness/decisions.ts (four decisions; a prompt walking into each; a repeat,
 * an act against the pnpm rule, small talk) and their claims. Cline's TUI is done with a prompt when
 * the screen shows its reply, so every prompt gets a reply of its own. The plugin sends the hint as
 * a message of its own after the person's prompt: the request's latest run of user messages.
 */
import { latestInput, userTexts } from "../harness/openai_chat.ts";
import { once } from "../harness/scenario.ts";
import type { StoryTui } from "../harness/story.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { decisionClaims, DECISIONS, driveDecisions, SESSION_2, SESSION_3 } from "../harness/decisions.ts";
import { clineServer, ClineTui, seedClineHome, stopHub } from "./cline.ts";

/** Each prompt's reply, one the screen shows once: "Reply 3 of 12." */
const PROMPTS = [...DECISIONS, ...SESSION_2.map((p) => p.prompt), ...SESSION_3.map((p) => p.prompt)];
const REPLIES = new Map(PROMPTS.map((p, i) => [p, `Reply ${i + 1} of ${PROMPTS.length}.`]));

const story = once(async () => {
  await using ws = await Workspace.create("cline-decisions");
  await using server = clineServer([...REPLIES].map(([when, text]) => ({ when, reply: { text } })));
  try {
    await seedClineHome(ws, server);
    await ws.verdictOk(["install"]);
    const start = async (): Promise<StoryTui> => {
      const tui = await ClineTui.start(ws, server);
      return {
        tmux: tui.tmux,
        submit: (text, expect) => tui.submit(text, expect ?? text, REPLIES.get(text)!),
        quit: () => tui.quit(),
        [Symbol.asyncDispose]: () => tui[Symbol.asyncDispose](),
      };
    };
    return await driveDecisions(ws, server, start);
  } finally {
    await stopHub(ws);
  }
});

decisionClaims(testPrefix("cline"), story, {
  contextOf: (r) => latestInput(r.body).text,
  usersOf: (r) => userTexts(r.body).join("\n"),
});
