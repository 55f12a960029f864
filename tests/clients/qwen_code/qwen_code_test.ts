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
import { chatMessages, type ChatReply, toolNames, toolResults } from "../harness/openai_chat.ts";
import type { RecordedRequest, Rule } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, readJsonl, turnsOf } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { chatFiles, qwenPrint, qwenServer, QwenTui, seedQwenHome } from "./qwen_code.ts";

const NAME = testPrefix("qwen-code");

/** The marker verdict's hint block starts with (src/gate/render.ts). */
const HINT_MARK = "[verdict recall]";
/** The first words of the compaction handoff (src/cli/cmd/hook_pre_compact.ts, hook_session_start.ts). */
const HANDOFF_MARK = "[verdict compaction handoff]";
/** verdict's recall tool as Qwen names MCP tools for the model. */
const RECALL_TOOL = "mcp__verdict__verdict_recall";

const DECISION = "From now on use pnpm, never npm, to install packages in this repo.";
const MEMORY = "Please record that rule in QWEN.md.";
const SHELL = "!git status --short";
const COMPACT = "/compress";
const AFTER_COMPACT = "What is left to do?";
const BEARS_ON_DECISION = "Should I install lodash with npm or pnpm?";
const SMALL_TALK = "thanks, that is all for now";
const ASK_RECALL = "Check with the recall tool what we decided about package managers.";
const HEADLESS = "From now on always run the linter before committing.";
const AFTER_UNINSTALL = "Say hello after the uninstall.";
const NOTE_TEXT = "# Rules\n\n- Use pnpm, never npm.\n";

interface Story {
  readonly requests: readonly RecordedRequest[];
  readonly marks: Readonly<Record<string, number>>;
  readonly install: { code: number; stdout: string; stderr: string };
  readonly uninstall: { code: number; stdout: string; stderr: string };
  readonly settingsBefore: string;
  readonly settingsAfter: string;
  readonly records: Record<string, unknown>[];
  readonly headlessRecords: Record<string, unknown>[];
  readonly chats: Readonly<Record<string, Record<string, unknown>[]>>;
  readonly headless: { code: number; stdout: string; stderr: string };
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
  const marks: Record<string, number> = {};
  const mark = (name: string) => (marks[name] = server.requests.length);

  const install = await ws.verdict(["install"]);

  {
    await using tui = await QwenTui.start(ws, server);
    mark("decision");
    await tui.submit(DECISION, "from now on use pnpm");
    mark("memory");
    await tui.submit(MEMORY, "QWEN.md");
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
    await using tui = await QwenTui.start(ws, server);
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
  const headless = await qwenPrint(ws, server, HEADLESS);
  await ws.verdictOk(["collect"]);
  const records = await ws.readRecords();
  const headlessRecords = await ws.collectIncludingHeadless();

  const uninstall = await ws.verdict(["uninstall"]);
  mark("after-uninstall");
  const afterUninstall = await qwenPrint(ws, server, AFTER_UNINSTALL);

  const chats: Record<string, Record<string, unknown>[]> = {};
  for (const f of await chatFiles(ws)) chats[f] = await readJsonl(f);
  const handoffFiles: string[] = [];
  try {
    for await (const e of Deno.readDir(`${ws.home}/.local/state/verdict/handoff`)) handoffFiles.push(e.name);
  } catch {
    // none written
  }
  return {
    requests: [...server.requests],
    marks,
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
function lastUserText(r: RecordedRequest): string {
  return chatMessages(r.body).filter((m) => m.role === "user").at(-1)?.text ?? "";
}

function turnFor(s: Story, typed: string): RecordedRequest {
  const hit = s.requests.find((r) => r.turn && !r.side && (r.input?.text.includes(typed) ?? false));
  if (!hit) throw new Error(`no model request carried the prompt "${typed}"`);
  return hit;
}

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
      DECISION,
      MEMORY,
      AFTER_COMPACT,
      BEARS_ON_DECISION,
      SMALL_TALK,
      ASK_RECALL,
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
        HINT_MARK,
        HANDOFF_MARK,
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
    assert.ok(
      !promptTexts(s.records).includes(HEADLESS),
      "a -p prompt was collected without include_headless",
    );
    assert.ok(
      promptTexts(s.headlessRecords).includes(HEADLESS),
      "include_headless did not collect the -p prompt",
    );
    // The -p session's prompt has no file_history_snapshot after it (the rule collect relies on).
    const file = Object.values(s.chats).find((ls) =>
      ls.some((l) => JSON.stringify(l.message ?? "").includes(HEADLESS))
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
    const text = lastUserText(turn);
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
    const turns = turnsOf(s, "small-talk");
    assert.ok(turns.length >= 1, "small talk reached no model request");
    for (const t of turns) {
      assert.ok(!lastUserText(t).includes(HINT_MARK), `a hint came with "${SMALL_TALK}"`);
    }
    for (const t of turnsOf(s, "decision")) assert.ok(!lastUserText(t).includes(HINT_MARK));
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
    assertIncludes(result.text, DECISION, "the recall tool's result");
  },
});

Deno.test({
  name:
    `${NAME}: /compress runs PreCompact (the summarizer is told the unlanded items) and the handoff comes back`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.handoffFiles.length, 1, "the PreCompact hook wrote no handoff");
    const summary = turnsOf(s, "compact", { withSide: true }).find((r) => r.text.includes(HANDOFF_MARK));
    assert.ok(summary, "no compaction request carries the PreCompact context");
    assertIncludes(summary.text, "QWEN.md"); // the uncommitted file the handoff lists
    const next = turnsOf(s, "after-compact")[0]!;
    assertIncludes(next.text, HANDOFF_MARK, "the first request after the compaction");
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
    const turn = turnFor(s, AFTER_UNINSTALL);
    assert.ok(!turn.text.includes("mcp__verdict"), "the uninstalled MCP server was still offered");
    assert.ok(!turn.text.includes("[verdict"), "verdict text reached the model after uninstall");
  },
});
