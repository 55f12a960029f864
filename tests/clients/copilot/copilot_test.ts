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
import { chatMessages, type ChatReply, toolNames, toolResults } from "../harness/openai_chat.ts";
import type { RecordedRequest, Rule } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, readJsonl, turnsOf } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { copilotPrint, copilotServer, CopilotTui, eventFiles, seedCopilotHome } from "./copilot.ts";

const NAME = testPrefix("copilot");

const HINT_MARK = "[verdict recall]";
/** verdict's recall tool as Copilot names MCP tools for the model (`<server>-<tool>`). */
const RECALL_TOOL = "verdict-verdict_recall";

const DECISION = "From now on use pnpm, never npm, to install packages in this repo.";
const MEMORY = "Please record that rule in AGENTS.md.";
const SHELL = "!git status --short";
const COMPACT = "/compact";
const AFTER_COMPACT = "What is left to do?";
const BEARS_ON_DECISION = "Should I install lodash with npm or pnpm?";
const SMALL_TALK = "thanks, that is all for now";
const ASK_RECALL = "Check with the recall tool what we decided about package managers.";
const HEADLESS = "From now on always run the linter before committing.";
const AFTER_UNINSTALL = "Say hello after the uninstall.";
const NOTE_TEXT = "# Agent rules\n\n- Use pnpm, never npm.\n";

interface Story {
  readonly requests: readonly RecordedRequest[];
  readonly marks: Readonly<Record<string, number>>;
  readonly install: { code: number; stdout: string; stderr: string };
  readonly uninstall: { code: number; stdout: string; stderr: string };
  readonly before: { settings: string; config: string };
  readonly after: { settings: string; config: string; mcp: string | null };
  readonly records: Record<string, unknown>[];
  readonly headlessRecords: Record<string, unknown>[];
  readonly events: Readonly<Record<string, Record<string, unknown>[]>>;
  readonly headless: { code: number; stdout: string; stderr: string };
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
  const marks: Record<string, number> = {};
  const mark = (name: string) => (marks[name] = server.requests.length);

  const install = await ws.verdict(["install"]);
  {
    await using tui = await CopilotTui.start(ws, server);
    mark("decision");
    await tui.submit(DECISION, "from now on use pnpm");
    mark("memory");
    await tui.submit(MEMORY, "AGENTS.md");
    mark("shell");
    await tui.submit(SHELL);
    mark("compact");
    await tui.submit(COMPACT);
    mark("after-compact");
    await tui.submit(AFTER_COMPACT, "what is left to do");
    mark("quit-a");
    await tui.quit();
  }
  await ws.verdictOk(["collect"]);
  {
    await using tui = await CopilotTui.start(ws, server);
    mark("hint");
    await tui.submit(BEARS_ON_DECISION, "lodash");
    mark("small-talk");
    await tui.submit(SMALL_TALK, "thanks");
    mark("recall");
    await tui.submit(ASK_RECALL, "recall tool");
    mark("quit-b");
    await tui.quit();
  }
  mark("headless");
  const headless = await copilotPrint(ws, server, HEADLESS);
  await ws.verdictOk(["collect"]);
  const records = await ws.readRecords();
  const headlessRecords = await ws.collectIncludingHeadless();

  const uninstall = await ws.verdict(["uninstall"]);
  mark("after-uninstall");
  const afterUninstall = await copilotPrint(ws, server, AFTER_UNINSTALL);

  const events: Record<string, Record<string, unknown>[]> = {};
  for (const f of await eventFiles(ws)) events[f] = await readJsonl(f);
  return {
    requests: [...server.requests],
    marks,
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
function lastUserText(r: RecordedRequest): string {
  return chatMessages(r.body).filter((m) => m.role === "user").at(-1)?.text ?? "";
}

function turnFor(s: Story, typed: string): RecordedRequest {
  const hit = s.requests.find((r) => r.turn && (r.input?.text.includes(typed) ?? false));
  if (!hit) throw new Error(`no model request carried the prompt "${typed}"`);
  return hit;
}

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
      DECISION,
      MEMORY,
      AFTER_COMPACT,
      BEARS_ON_DECISION,
      SMALL_TALK,
      ASK_RECALL,
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
        e.type === "user.message" && String(data(e).transformedContent ?? "").includes(HINT_MARK)
      ),
      "tool result": events.find((e) => e.type === "tool.execution_complete"),
      "! shell line": events.find((e) => e.type === "tool.user_requested"),
      "compaction summary": events.find((e) => e.type === "session.compaction_complete"),
    };
    for (const [what, e] of Object.entries(machine)) assert.ok(e, `the session logs hold no ${what}`);
    const texts = s.records.map((r) => String(r.text));
    for (
      const bad of [
        HINT_MARK,
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
    assert.ok(
      !promptTexts(s.records).includes(HEADLESS),
      "a -p prompt was collected without include_headless",
    );
    assert.ok(
      promptTexts(s.headlessRecords).includes(HEADLESS),
      "include_headless did not collect the -p prompt",
    );
  },
});

Deno.test({
  name: `${NAME}: a hint reaches the model's request when an earlier decision bears on the prompt`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const text = lastUserText(turnsOf(s, "hint", { withSide: true })[0]!);
    assertIncludes(text, BEARS_ON_DECISION);
    assertIncludes(text, HINT_MARK);
    assertIncludes(text, DECISION);
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
      assert.ok(!t.text.includes(HINT_MARK.replaceAll("[", "\\[")) && !lastUserText(t).includes(HINT_MARK));
    }
    for (const t of turnsOf(s, "decision", { withSide: true })) {
      assert.ok(!lastUserText(t).includes(HINT_MARK));
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
    assertIncludes(toolResults(after.body).at(-1)!.text, DECISION, "the recall tool's result");
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
    const turn = turnFor(s, AFTER_UNINSTALL);
    assert.ok(!toolNames(turn.body).includes(RECALL_TOOL), "the uninstalled MCP server was still offered");
    assert.ok(!turn.text.includes("[verdict"), "verdict text reached the model after uninstall");
  },
});
