/**
 * The real Claude Code CLI with the warm helper on: its prompt hook starts the helper, the
 * helper answers the next prompt, and the hint it sends reaches the model's request as the
 * in-process hook's does (tests/clients/claude_code/claude_code_test.ts). Offline: the scripted
 * model on 127.0.0.1, a temp HOME.
 */
import assert from "node:assert/strict";
import { anthropicServer, blocksOf, messagesOf } from "../harness/anthropic_messages.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { ClaudeTui, seedClaudeHome } from "./claude_code.ts";

const NAME = testPrefix("claude-code");
const HINT_MARK = "[verdict recall]";
const DECISION = "From now on use pnpm, never npm, to install packages in this repo.";
const FIRST = "thanks, that is all for now";
const BEARS_ON_DECISION = "Should I install lodash with npm or pnpm?";

/** What Claude Code sent after the latest user message of a request (where hook context goes). */
function afterLastUser(r: RecordedRequest): string {
  const messages = messagesOf(r.body);
  const last = messages.map((m) => m.role).lastIndexOf("user");
  return messages.slice(last + 1).flatMap(blocksOf).map((b) => typeof b.text === "string" ? b.text : "").join(
    "\n",
  );
}

Deno.test({
  name:
    `${NAME}: with the warm helper on, the hook starts it, and the helper's hint reaches the model's request`,
  ...CLIENT_TEST,
  async fn() {
    await using ws = await Workspace.create("claude-code-warm");
    ws.warm = true;
    await using server = anthropicServer([
      { when: "from now on use pnpm", reply: { text: "Understood: pnpm only, never npm." } },
      { when: "thanks", reply: { text: "You are welcome." } },
      { when: "lodash", reply: { text: "Run `pnpm add lodash`." } },
    ]);
    await seedClaudeHome(ws);
    await ws.verdictOk(["install"]);
    {
      await using tui = await ClaudeTui.start(ws, server);
      await tui.submit(DECISION, "from now on use pnpm");
      await tui.quit();
    }
    await ws.verdictOk(["collect"]);
    try {
      await using tui = await ClaudeTui.start(ws, server);
      // The first prompts with the helper on (session A's) found none: their hook answered in-process
      // and started one; by now it answers.
      await tui.submit(FIRST, "thanks");
      const end = performance.now() + 30_000;
      while ((await ws.verdict(["warm", "status"])).code !== 0) {
        if (performance.now() > end) {
          const folder = `${ws.home}/.local/state/verdict/warm`;
          const listing = [];
          try {
            for await (const e of Deno.readDir(folder)) listing.push(e.name);
          } catch (err) {
            listing.push(String(err));
          }
          const log = await Deno.readTextFile(ws.hookLog).catch(() => "(no hook log)");
          const serve = await ws.verdict(["warm", "serve"], { env: { VERDICT_WARM_LOG: "1" } });
          throw new Error(
            `the helper the hook started never answered; ${folder}: ${listing.join(", ")}\nhooks:\n${log}\n` +
              `warm serve: ${serve.code} ${serve.stderr}`,
          );
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      const answered = async () =>
        Number(
          /, (\d+) prompt\(s\) answered\n/.exec((await ws.verdictOk(["warm", "status"])).stdout)?.[1] ?? -1,
        );
      const before = await answered();
      await tui.submit(BEARS_ON_DECISION, "lodash");
      assert.equal(await answered(), before + 1, "the helper answered the prompt the decision bears on");
      const turn = server.requests.find((r) =>
        r.turn && (r.input?.text.includes(BEARS_ON_DECISION) ?? false)
      );
      assert.ok(turn, "no model request carried the prompt");
      const context = afterLastUser(turn);
      assertIncludes(context, HINT_MARK);
      assertIncludes(context, DECISION);
      await tui.quit();
    } finally {
      await ws.verdict(["warm", "stop"]);
    }
    const after = await ws.verdict(["warm", "status"]);
    assert.equal(after.code, 1, "no helper left running");
  },
});
