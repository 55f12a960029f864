/**
 * The real GitHub Copilot CLI (pinned in harness/versions.ts) against this checkout's verdict,
 * fully offline (its BYOK mode, the scripted Chat Completions model on 127.0.0.1, a temp HOME,
 * a git project). One story, driven once; each test checks one claim on what it left:
 *
 *  1. `verdict install` (the userPromptSubmitted hook in settings.json, the MCP server in
 *     mcp-config.json), then session A in the TUI: a decision, an AGENTS.md write (a note), a
 *     `!` shell line and `/compact`, then one more prompt;
 *  2. `verdict collect`, then session B: a prompt the decision bears on (the hint), small talk
 *     (no hint), and a question the model answers through the MCP recall tool;
 *  3. a headless `copilot -p`; `verdict collect` again (and once with include_headless);
 *  4. `verdict uninstall`, then `copilot -p` once more.
 */
import assert from "node:assert/strict";
import { type ChatReply, lastUserText, toolNames, toolResults } from "../harness/openai_chat.ts";
import type { RecordedRequest, Rule } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, turnsOf } from "../harness/scenario.ts";
import * as shared from "../harness/story.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { copilotPrint, copilotServer, CopilotTui, eventFiles, seedCopilotHome } from "./copilot.ts";

const NAME = testPrefix("copilot");

/** verdict's recall tool as Copilot names MCP tools for the model (`<server>-<tool>`). */
const RECALL_TOOL = "verdict-verdict_recall";

const MEMORY = "Please record that rule in AGENTS.md.";
const COMPACT = "/compact";
const NOTE_TEXT = "# Agent rules\n\n- Use pnpm, never npm.\n";

interface Story extends shared.StoryResult {
  readonly install: { code: number; stdout: string; stderr: string };
  readonly uninstall: { code: number; stdout: string; stderr: string };
  readonly before: { settings: string; config: string };
  readonly after: { settings: string; config: string; mcp: string | null };
  readonly events: Readonly<Record<string, Record<string, unknown>[]>>;
  readonly afterUninstall: { code: number; stdout: string; stderr: string };
  readonly seconds: number;
}

const story = once(async (): Promise<Story> => {
  const started = performance.now();
  await using ws = await Workspace.create("copilot");
  const P = ws.project;
  const script: Rule<ChatReply>[] = [
    { when: "from now on use pnpm", reply: { text: "Understood: pnpm only, never npm." } },
    {
      when: "record that rule in AGENTS.md",
      reply: { tool: "create", args: { path: `${P}/AGENTS.md`, file_text: NOTE_TEXT } },
    },
    { afterTool: true, when: "AGENTS.md", reply: { text: "Created AGENTS.md." } },
    { when: "lodash", reply: { text: "Run `pnpm add lodash`." } },
    { when: "recall tool", reply: { tool: RECALL_TOOL, args: { query: "package manager pnpm npm" } } },
    { afterTool: true, when: "pnpm", reply: { text: "The recall tool says: pnpm, never npm." } },
  ];
  await using server = copilotServer(script);
  await seedCopilotHome(ws);
  const read = (name: string) => Deno.readTextFile(`${ws.home}/.copilot/${name}`);
  const before = { settings: await read("settings.json"), config: await read("config.json") };
  const steps = new shared.StoryRun(ws, server, (prompt) => copilotPrint(ws, server, prompt));

  const install = await ws.verdict(["install"]);
  await steps.decideThenCompact(() => CopilotTui.start(ws, server), {
    memory: MEMORY,
    memoryFile: "AGENTS.md",
    compact: COMPACT,
  });
  await ws.verdictOk(["collect"]);
  await steps.askInNewSession(() => CopilotTui.start(ws, server));
  const { headless, records, headlessRecords } = await steps.headlessThenCollect();

  const uninstall = await ws.verdict(["uninstall"]);
  const afterUninstall = await steps.printAfterUninstall();

  const events = await shared.readJsonlFiles(await eventFiles(ws));
  return {
    requests: [...server.requests],
    marks: steps.marks,
    install,
    uninstall,
    before,
    after: {
      settings: await read("settings.json"),
      config: await read("config.json"),
      mcp: await read("mcp-config.json").catch(() => null),
    },
    records,
    headlessRecords,
    events,
    headless,
    afterUninstall,
    seconds: (performance.now() - started) / 1000,
  };
});

/** The text of the last user message of a request (Copilot puts hook context in it). */
const promptMessage = (r: RecordedRequest) => lastUserText(r.body);

function allEvents(s: Story): Record<string, unknown>[] {
  return Object.values(s.events).flat();
}

const data = (e: Record<string, unknown>) => (e.data ?? {}) as Record<string, unknown>;

Deno.test({
  name: `${NAME}: verdict install wires the hook and MCP in a form Copilot CLI loads and runs`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    console.log(`client tests: the Copilot CLI story took ${s.seconds.toFixed(1)} s`);
    assert.deepEqual(s.install.code, 0, s.install.stderr);
    assertIncludes(s.install.stdout, "userPromptSubmitted hook added");
    assertIncludes(s.install.stdout, "mcpServers.verdict added");
    // Copilot logs every hook run: the installed one ran, and succeeded.
    const runs = allEvents(s).filter((e) =>
      e.type === "hook.end" && data(e).hookType === "userPromptSubmitted"
    );
    assert.ok(runs.length >= 1, "the userPromptSubmitted hook never ran");
    assert.ok(runs.every((e) => data(e).success !== false), JSON.stringify(runs.map(data)));
    const offered = s.requests.filter((r) => r.turn).some((r) => toolNames(r.body).includes(RECALL_TOOL));
    assert.ok(offered, `no request offers ${RECALL_TOOL}`);
    // Copilot rewrites its managed config.json itself (comments, launch facts); the trust list is the
    // person's and Copilot's: verdict never adds to it.
    const trusted = (text: string) => JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")).trustedFolders;
    assert.deepEqual(trusted(s.after.config), trusted(s.before.config));
  },
});

Deno.test({
  name: `${NAME}: collect yields exactly the typed prompts and the memory-file write that landed`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(promptTexts(s.records), [
      shared.DECISION,
      MEMORY,
      shared.AFTER_COMPACT,
      shared.BEARS_ON_DECISION,
      shared.SMALL_TALK,
      shared.ASK_RECALL,
    ]);
    assert.deepEqual(s.records.filter((r) => r.kind === "note").map((n) => n.text), [NOTE_TEXT.trim()]);
    for (const r of s.records) assert.equal(r.origin, "copilot");
  },
});

Deno.test({
  name: `${NAME}: collect keeps out what the machine made (hook context, tool results, ! lines, summaries)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const events = allEvents(s);
    const machine = {
      "hook context": events.find((e) =>
        e.type === "user.message" && String(data(e).transformedContent ?? "").includes(shared.HINT_MARK)
      ),
      "tool result": events.find((e) => e.type === "tool.execution_complete"),
      "! shell line": events.find((e) => e.type === "tool.user_requested"),
      "compaction summary": events.find((e) => e.type === "session.compaction_complete"),
    };
    for (const [what, e] of Object.entries(machine)) assert.ok(e, `the session logs hold no ${what}`);
    const texts = s.records.map((r) => String(r.text));
    for (
      const bad of [
        shared.HINT_MARK,
        "system_reminder",
        "current_datetime",
        "git status",
        "/compact",
        "Created file",
      ]
    ) {
      assert.deepEqual(texts.filter((t) => t.includes(bad)), [], `a record holds "${bad}"`);
    }
  },
});

Deno.test({
  name: `${NAME}: the headless policy holds for copilot -p (left out unless include_headless)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.headless.code, 0, s.headless.stderr);
    shared.assertCollectedOnlyWithHeadless(s, shared.HEADLESS);
  },
});

Deno.test({
  name: `${NAME}: a hint reaches the model's request when an earlier decision bears on the prompt`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const text = promptMessage(turnsOf(s, "hint", { withSide: true })[0]!);
    assertIncludes(text, shared.BEARS_ON_DECISION);
    assertIncludes(text, shared.HINT_MARK);
    assertIncludes(text, shared.DECISION);
  },
});

Deno.test({
  name: `${NAME}: nothing reaches the model's request on small talk`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const turns = turnsOf(s, "small-talk", { withSide: true });
    assert.ok(turns.length >= 1, "small talk reached no model request");
    for (const t of turns) {
      assert.ok(
        !t.text.includes(shared.HINT_MARK.replaceAll("[", "\\[")) &&
          !promptMessage(t).includes(shared.HINT_MARK),
      );
    }
    for (const t of turnsOf(s, "decision", { withSide: true })) {
      assert.ok(!promptMessage(t).includes(shared.HINT_MARK));
    }
  },
});

Deno.test({
  name: `${NAME}: the MCP recall tool is listed, called, and its quote reaches the model`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const turns = turnsOf(s, "recall", { withSide: true });
    const after = turns.find((t) => toolResults(t.body).length > 0);
    assert.ok(after, "no request after the call carries a tool result");
    assertIncludes(toolResults(after.body).at(-1)!.text, shared.DECISION, "the recall tool's result");
  },
});

Deno.test({
  name:
    `${NAME}: no compaction hook is wired (Copilot's preCompact cannot carry a verdict); /compact still runs`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.ok(!s.install.stdout.includes("preCompact"), s.install.stdout);
    assert.ok(allEvents(s).some((e) => e.type === "session.compaction_complete"), "no compaction happened");
    assert.ok(!allEvents(s).some((e) => e.type === "hook.start" && data(e).hookType === "preCompact"));
  },
});

Deno.test({
  name: `${NAME}: verdict uninstall leaves no trace and Copilot CLI still works`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.uninstall.code, 0, s.uninstall.stderr);
    assert.deepEqual(JSON.parse(s.after.settings), JSON.parse(s.before.settings));
    // install created mcp-config.json; uninstall takes it away again.
    assert.equal(s.after.mcp, null, `mcp-config.json is still there: ${s.after.mcp}`);
    assert.deepEqual(s.afterUninstall.code, 0, s.afterUninstall.stderr);
    const turn = shared.turnFor(s, shared.AFTER_UNINSTALL, { withSide: true });
    assert.ok(!toolNames(turn.body).includes(RECALL_TOOL), "the uninstalled MCP server was still offered");
    assert.ok(!turn.text.includes("[verdict"), "verdict text reached the model after uninstall");
  },
});
