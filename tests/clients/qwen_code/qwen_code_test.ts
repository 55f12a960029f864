/**
 * The real Qwen Code CLI (pinned in harness/versions.ts) against this checkout's verdict, fully
 * offline: the scripted Chat Completions model on 127.0.0.1, a temp HOME, a git project. One
 * story is driven once and each test checks one claim on what it left:
 *
 *  1. `verdict install` (three hooks + MCP in settings.json), then session A in the TUI: a
 *     decision, a QWEN.md write (a memory-file note), a `!` shell line and `/compress`
 *     (PreCompact judges and hands the summarizer the unlanded items; SessionStart(compact)
 *     gives the handoff back), then one more prompt;
 *  2. `verdict collect`, then session B: a prompt the decision bears on (the hint), small talk
 *     (no hint), and a question the model answers through the MCP recall tool;
 *  3. a headless `qwen -p`; `verdict collect` again (and once with include_headless);
 *  4. `verdict uninstall`, then `qwen -p` once more.
 */
import assert from "node:assert/strict";
import { type ChatReply, lastUserText, toolNames, toolResults } from "../harness/openai_chat.ts";
import type { RecordedRequest, Rule } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, turnsOf } from "../harness/scenario.ts";
import * as shared from "../harness/story.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { chatFiles, qwenPrint, qwenServer, QwenTui, seedQwenHome } from "./qwen_code.ts";

const NAME = testPrefix("qwen-code");

/** verdict's recall tool as Qwen names MCP tools for the model. */
const RECALL_TOOL = "mcp__verdict__verdict_recall";

const MEMORY = "Please record that rule in QWEN.md.";
const COMPACT = "/compress";
const NOTE_TEXT = "# Rules\n\n- Use pnpm, never npm.\n";

interface Story extends shared.StoryResult {
  readonly install: { code: number; stdout: string; stderr: string };
  readonly uninstall: { code: number; stdout: string; stderr: string };
  readonly settingsBefore: string;
  readonly settingsAfter: string;
  readonly chats: Readonly<Record<string, Record<string, unknown>[]>>;
  readonly afterUninstall: { code: number; stdout: string; stderr: string };
  readonly handoffFiles: string[];
  readonly seconds: number;
}

const story = once(async (): Promise<Story> => {
  const started = performance.now();
  await using ws = await Workspace.create("qwen-code");
  const P = ws.project;
  const script: Rule<ChatReply>[] = [
    { when: "from now on use pnpm", reply: { text: "Understood: pnpm only, never npm." } },
    {
      when: "record that rule in QWEN.md",
      reply: { tool: "write_file", args: { file_path: `${P}/QWEN.md`, content: NOTE_TEXT } },
    },
    { afterTool: true, when: "QWEN.md", reply: { text: "Wrote QWEN.md." } },
    { when: "lodash", reply: { text: "Run `pnpm add lodash`." } },
    { when: "recall tool", reply: { tool: RECALL_TOOL, args: { query: "package manager pnpm npm" } } },
    { afterTool: true, when: "pnpm", reply: { text: "The recall tool says: pnpm, never npm." } },
  ];
  await using server = qwenServer(script);
  await seedQwenHome(ws);
  const settingsBefore = await Deno.readTextFile(`${ws.home}/.qwen/settings.json`);
  const steps = new shared.StoryRun(ws, server, (prompt) => qwenPrint(ws, server, prompt));

  const install = await ws.verdict(["install"]);

  await steps.decideThenCompact(() => QwenTui.start(ws, server), {
    memory: MEMORY,
    memoryFile: "QWEN.md",
    compact: COMPACT,
  });
  await ws.verdictOk(["collect"]);

  await steps.askInNewSession(() => QwenTui.start(ws, server));
  const { headless, records, headlessRecords } = await steps.headlessThenCollect();

  const uninstall = await ws.verdict(["uninstall"]);
  const afterUninstall = await steps.printAfterUninstall();

  const chats = await shared.readJsonlFiles(await chatFiles(ws));
  const handoffFiles = await ws.handoffFiles();
  return {
    requests: [...server.requests],
    marks: steps.marks,
    install,
    uninstall,
    settingsBefore,
    settingsAfter: await Deno.readTextFile(`${ws.home}/.qwen/settings.json`),
    records,
    headlessRecords,
    chats,
    headless,
    afterUninstall,
    handoffFiles,
    seconds: (performance.now() - started) / 1000,
  };
});

// ---- reading what was recorded

/** The text of the last user message of a request (Qwen puts hook context in it, as a part). */
const promptMessage = (r: RecordedRequest) => lastUserText(r.body);

function allLines(s: Story): Record<string, unknown>[] {
  return Object.values(s.chats).flat();
}

// ---- the claims

Deno.test({
  name: `${NAME}: verdict install wires hooks and MCP in a form Qwen Code loads and runs`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    console.log(`client tests: the Qwen Code story took ${s.seconds.toFixed(1)} s`);
    assert.deepEqual(s.install.code, 0, s.install.stderr);
    assertIncludes(s.install.stdout, "UserPromptSubmit hook added");
    assertIncludes(s.install.stdout, "PreCompact hook added");
    assertIncludes(s.install.stdout, "mcpServers.verdict added");
    // Qwen ran the installed prompt hook (its context is recorded with the prompt) …
    const hooked = allLines(s).filter((l) =>
      typeof (l.systemPayload as Record<string, unknown> | undefined)?.hookContext === "string"
    );
    assert.ok(hooked.length >= 1, "no prompt carries hook context: the UserPromptSubmit hook did not run");
    // … and started the MCP server and offered its tool to the model.
    const offered = s.requests.filter((r) => r.turn && !r.side).some((r) =>
      toolNames(r.body).includes(RECALL_TOOL) || r.text.includes(RECALL_TOOL)
    );
    assert.ok(offered, `no request offers ${RECALL_TOOL}`);
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
    const notes = s.records.filter((r) => r.kind === "note");
    assert.deepEqual(notes.map((n) => n.text), [NOTE_TEXT.trim()]);
    for (const r of s.records) assert.equal(r.origin, "qwen");
  },
});

Deno.test({
  name:
    `${NAME}: collect keeps out what the machine made (hook context, tool results, slash commands, ! lines, summaries)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const lines = allLines(s);
    const payload = (l: Record<string, unknown>) => (l.systemPayload ?? {}) as Record<string, unknown>;
    const machine = {
      "hook context": lines.find((l) => typeof payload(l).hookContext === "string"),
      "tool result": lines.find((l) => l.type === "tool_result"),
      "slash command": lines.find((l) => l.subtype === "slash_command"),
    };
    for (const [what, line] of Object.entries(machine)) assert.ok(line, `the chats hold no ${what}`);
    const texts = s.records.map((r) => String(r.text));
    for (
      const bad of [
        shared.HINT_MARK,
        shared.HANDOFF_MARK,
        "qwen:user-prompt-submit-context",
        "Successfully created",
        "git status",
        "/compress",
        "I ran the following shell command",
      ]
    ) {
      assert.deepEqual(texts.filter((t) => t.includes(bad)), [], `a record holds "${bad}"`);
    }
  },
});

Deno.test({
  name: `${NAME}: the headless policy holds for qwen -p (left out unless include_headless)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.headless.code, 0, s.headless.stderr);
    shared.assertCollectedOnlyWithHeadless(s, shared.HEADLESS);
    // The -p session's prompt has no file_history_snapshot after it (the rule collect relies on).
    const file = Object.values(s.chats).find((ls) =>
      ls.some((l) => JSON.stringify(l.message ?? "").includes(shared.HEADLESS))
    )!;
    assert.ok(
      !file.some((l) => l.subtype === "file_history_snapshot"),
      "qwen -p wrote a file_history_snapshot",
    );
  },
});

Deno.test({
  name: `${NAME}: a hint reaches the model's request when an earlier decision bears on the prompt`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const turn = turnsOf(s, "hint")[0]!;
    const text = promptMessage(turn);
    assertIncludes(text, shared.BEARS_ON_DECISION);
    assertIncludes(text, shared.HINT_MARK);
    assertIncludes(text, shared.DECISION);
  },
});

Deno.test({
  name: `${NAME}: nothing reaches the model's request on small talk`,
  ...CLIENT_TEST,
  async fn() {
    shared.assertNoHintOnSmallTalk(await story(), promptMessage);
  },
});

Deno.test({
  name: `${NAME}: the MCP recall tool is listed, called, and its quote reaches the model`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const turns = turnsOf(s, "recall");
    assert.ok(turns.length >= 2, `expected the call and the answer; got ${turns.length} turns`);
    const after = turns.find((t) => toolResults(t.body).length > 0);
    assert.ok(after, "no request after the call carries a tool result");
    const result = toolResults(after.body).at(-1)!;
    assertIncludes(result.text, shared.DECISION, "the recall tool's result");
  },
});

Deno.test({
  name:
    `${NAME}: /compress runs PreCompact (the summarizer is told the unlanded items) and the handoff comes back`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.handoffFiles.length, 1, "the PreCompact hook wrote no handoff");
    const summary = turnsOf(s, "compact", { withSide: true }).find((r) =>
      r.text.includes(shared.HANDOFF_MARK)
    );
    assert.ok(summary, "no compaction request carries the PreCompact context");
    assertIncludes(summary.text, "QWEN.md"); // the uncommitted file the handoff lists
    const next = turnsOf(s, "after-compact")[0]!;
    assertIncludes(next.text, shared.HANDOFF_MARK, "the first request after the compaction");
  },
});

Deno.test({
  name: `${NAME}: verdict uninstall leaves no trace and Qwen Code still works`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.uninstall.code, 0, s.uninstall.stderr);
    // Qwen stamps its own settings schema version ("$version") on first run; nothing else may differ.
    const { $version: _stamped, ...after } = JSON.parse(s.settingsAfter);
    assert.deepEqual(after, JSON.parse(s.settingsBefore));
    assert.ok(!s.settingsAfter.includes("verdict"), "settings.json still names verdict");
    assert.deepEqual(s.afterUninstall.code, 0, s.afterUninstall.stderr);
    const turn = shared.turnFor(s, shared.AFTER_UNINSTALL);
    assert.ok(!turn.text.includes("mcp__verdict"), "the uninstalled MCP server was still offered");
    assert.ok(!turn.text.includes("[verdict"), "verdict text reached the model after uninstall");
  },
});
