/**
 * The real Gemini CLI (pinned in harness/versions.ts) against this checkout's verdict, fully
 * offline: the scripted Gemini API model on 127.0.0.1, a temp HOME, a git project. One story is
 * driven once (the scenario below) and each test checks one claim on what it left:
 *
 *  1. `verdict install` (BeforeAgent hook + MCP server in ~/.gemini/settings.json), then session
 *     A in the TUI: a decision, a GEMINI.md write (a memory-file note), a `!` shell line and
 *     `/memory show`;
 *  2. `verdict collect`, then session B in the TUI: a prompt the decision bears on (the hint),
 *     small talk (no hint), and a question the model answers through the MCP recall tool;
 *  3. the settings' off switch: with `hooksConfig.disabled` naming verdict's hook, doctor says
 *     Gemini CLI will not run it and a real `gemini -p` indeed runs none; then it is put back;
 *  4. a headless `gemini -p` session; `verdict collect` again (and once with include_headless);
 *  5. `verdict uninstall`, then `gemini -p` once more.
 */
import assert from "node:assert/strict";
import type { CliResult } from "../../cli_helper.ts";
import { contentsOf, geminiServer, textOfContent, toolNames } from "../harness/gemini_api.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, turnsOf } from "../harness/scenario.ts";
import * as shared from "../harness/story.ts";
import { testPrefix } from "../harness/versions.ts";
import type { Check } from "../../../src/hostfile/checks.ts";
import { Workspace } from "../harness/workspace.ts";
import { chatFiles, geminiPrint, GeminiTui, type HeadlessResult, seedGeminiHome } from "./gemini.ts";

const NAME = testPrefix("gemini");

/** verdict's recall tool as Gemini CLI offers it: mcp_<server>_<tool>. */
const RECALL_TOOL = "mcp_verdict_verdict_recall";

const MEMORY = "Please record that rule in GEMINI.md.";
const SHELL = "git status --short";
/** An @path prompt: Gemini CLI sends the file's text along; only the typed line is a prompt. */
const AT_FILE = "Summarize @README.md in one line";
const BEARS_ON_DECISION = "Should I install lodash with npm or pnpm";
const DISABLED = "Hooks disabled: should I install lodash with npm or pnpm";
const NOTE_TEXT = "# Rules\n\n- Use pnpm, never npm.\n";

interface Story extends shared.StoryResult {
  readonly verdictBin: string;
  readonly install: CliResult;
  readonly uninstall: CliResult;
  readonly before: string;
  readonly after: string;
  readonly installed: string;
  /** Doctor's hook check right after install. */
  readonly doctor: Check | undefined;
  /** With verdict's hook named in hooksConfig.disabled: doctor's hook check and a `gemini -p`. */
  readonly disabled: { doctor: Check | undefined; run: HeadlessResult };
  /** Doctor's hook check once the setting is put back. */
  readonly reenabled: Check | undefined;
  readonly chats: Readonly<Record<string, Record<string, unknown>[]>>;
  readonly hintScreen: string;
  readonly afterUninstall: HeadlessResult;
  readonly seconds: number;
  /** Every `verdict hook …` Gemini CLI ran, with its time (Workspace.hookReport). */
  readonly hooks: string;
}

/** `verdict doctor --json`'s check of Gemini CLI's hooks ("gemini hooks": each agent's checks carry its id). */
async function hooksCheck(ws: Workspace): Promise<Check | undefined> {
  return (await ws.doctorChecks())["gemini hooks"];
}

const story = once(async (): Promise<Story> => {
  const started = performance.now();
  await using ws = await Workspace.create("gemini");
  await using server = geminiServer([
    { when: "from now on use pnpm", reply: { text: "Understood: pnpm only, never npm." } },
    {
      when: "record that rule in GEMINI.md",
      reply: { tool: "write_file", args: { file_path: `${ws.project}/GEMINI.md`, content: NOTE_TEXT } },
    },
    { afterTool: true, when: "write_file", reply: { text: "Wrote GEMINI.md." } },
    { when: "lodash", reply: { text: "Run `pnpm add lodash`." } },
    { when: "recall tool", reply: { tool: RECALL_TOOL, args: { query: "package manager pnpm npm" } } },
    { afterTool: true, when: RECALL_TOOL, reply: { text: "The recall tool says: pnpm, never npm." } },
  ]);
  const settings = await seedGeminiHome(ws);
  const before = await Deno.readTextFile(settings);
  const steps = new shared.StoryRun(ws, server, (prompt) => geminiPrint(ws, server, prompt));

  const install = await ws.verdict(["install"]);
  const installed = await Deno.readTextFile(settings);
  const doctor = await hooksCheck(ws);

  // Session A: the decision and what collect must tell apart.
  {
    await using tui = await GeminiTui.start(ws, server);
    steps.mark("decision");
    await tui.submit(shared.DECISION, "from now on use pnpm");
    steps.mark("memory");
    await tui.submit(MEMORY, "GEMINI.md");
    steps.mark("at-file");
    await tui.submit(AT_FILE, "summarize");
    steps.mark("shell");
    await tui.shell(SHELL);
    steps.mark("slash");
    await tui.submit("/memory show");
    await tui.quit();
  }
  await ws.verdictOk(["collect"]);

  const hintScreen = await steps.askInNewSession(() => GeminiTui.start(ws, server), {
    bearsOnDecision: BEARS_ON_DECISION,
  });

  // The off switch in the settings: the hook's own name in hooksConfig.disabled.
  const wired = JSON.parse(installed);
  const hookName = String(wired.hooks.BeforeAgent[0].hooks[0].name);
  await Deno.writeTextFile(
    settings,
    JSON.stringify({ ...wired, hooksConfig: { disabled: [hookName] } }, null, 2) + "\n",
  );
  const disabledDoctor = await hooksCheck(ws);
  steps.mark("disabled");
  const disabledRun = await geminiPrint(ws, server, DISABLED);
  await Deno.writeTextFile(settings, installed);
  const reenabled = await hooksCheck(ws);

  const { headless, records, headlessRecords } = await steps.headlessThenCollect();

  const uninstall = await ws.verdict(["uninstall"]);
  const after = await Deno.readTextFile(settings);
  const afterUninstall = await steps.printAfterUninstall();

  const chats = await shared.readJsonlFiles(await chatFiles(ws));
  return {
    verdictBin: ws.verdictBin,
    requests: [...server.requests],
    marks: steps.marks,
    install,
    uninstall,
    before,
    after,
    installed,
    doctor,
    disabled: { doctor: disabledDoctor, run: disabledRun },
    reenabled,
    records,
    headlessRecords,
    chats,
    hintScreen,
    headless,
    afterUninstall,
    seconds: (performance.now() - started) / 1000,
    hooks: await ws.hookReport(),
  };
});

// ---- reading what was recorded

/** The text of the last user content of a request (Gemini CLI appends hook context there). */
function lastUserText(r: RecordedRequest): string {
  const users = contentsOf(r.body).filter((c) => c.role === "user");
  return users.length ? textOfContent(users.at(-1)!) : "";
}

function allLines(s: Story): Record<string, unknown>[] {
  return Object.values(s.chats).flat();
}

// ---- the claims

Deno.test({
  name: `${NAME}: verdict install wires the hook and MCP in a form Gemini CLI loads and runs`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    console.log(`gemini client story: ${s.seconds.toFixed(1)} s`);
    assert.equal(s.install.code, 0, s.install.stderr);
    assertIncludes(s.install.stdout, "BeforeAgent hook added");
    assertIncludes(s.install.stdout, "mcpServers.verdict added");
    const settings = JSON.parse(s.installed);
    assertIncludes(
      settings.hooks.BeforeAgent[0].hooks[0].command,
      `exec ${s.verdictBin} hook user-prompt --agent gemini; exit 0`,
    );
    // Gemini CLI ran the hook (its context is in the chat: the BeforeAgent part of a typed prompt),
    const ran = allLines(s).some((l) =>
      l.type === "user" && JSON.stringify(l.content).includes(shared.HINT_MARK)
    );
    assert.ok(ran, "no BeforeAgent output in any chat");
    // and started the MCP server and offered its tool to the model.
    const first = turnsOf(s, "decision")[0]!;
    assert.ok(toolNames(first.body).includes(RECALL_TOOL), `tools offered: ${toolNames(first.body)}`);
    // doctor agrees.
    assert.equal(s.doctor?.status, "ok", s.doctor?.message ?? "doctor has no check of Gemini CLI's hooks");
  },
});

Deno.test({
  name: `${NAME}: with verdict's hook in hooksConfig.disabled, doctor says so and Gemini CLI runs none`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.disabled.doctor?.status, "fail", s.disabled.doctor?.message);
    assert.match(
      s.disabled.doctor!.message,
      /^Gemini CLI will not run verdict's hooks: hooksConfig\.disabled/,
    );
    assert.equal(s.disabled.run.code, 0, s.disabled.run.stderr);
    // The prompt bears on the decision (the same question got the hint in session B) …
    const turn = turnsOf(s, "disabled")[0]!;
    assertIncludes(lastUserText(turn), DISABLED);
    assertIncludes(lastUserText(turnsOf(s, "hint")[0]!), shared.HINT_MARK);
    // … yet no hint came: Gemini CLI did not run the disabled hook.
    assert.ok(!turn.text.includes(shared.HINT_MARK), "Gemini CLI ran a hook named in hooksConfig.disabled");
    assert.equal(s.reenabled?.status, "ok", s.reenabled?.message);
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
      AT_FILE,
      BEARS_ON_DECISION,
      shared.SMALL_TALK,
      shared.ASK_RECALL,
    ]);
    assert.ok(s.records.every((r) => r.origin === "gemini"));
    const notes = s.records.filter((r) => r.kind === "note");
    assert.deepEqual(notes.map((n) => n.text), [NOTE_TEXT.trim()]);
  },
});

Deno.test({
  name:
    `${NAME}: collect keeps out what the machine made (hook context, tool results, session context, ! lines, slash commands)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const lines = allLines(s);
    const text = (l: Record<string, unknown>) => JSON.stringify(l.content ?? "");
    // Each kind of machine-made text really is in the chats (so its absence below means something) …
    const machine = {
      "hook context": lines.find((l) => l.type === "user" && text(l).includes("<hook_context>")),
      "tool result": lines.find((l) => l.type === "user" && text(l).includes("functionResponse")),
      "session context": lines.find((l) => JSON.stringify(l).includes("<session_context>")),
      "! shell line": lines.find((l) =>
        l.type === "user" && text(l).includes("I ran the following shell command")
      ),
      "slash command output": lines.find((l) => l.type === "info"),
      "@path file text": lines.find((l) => l.type === "user" && text(l).includes("# demo app")),
    };
    for (const [what, line] of Object.entries(machine)) assert.ok(line, `the chats hold no ${what}`);
    // … and none of it became a record.
    const texts = s.records.map((r) => String(r.text));
    for (
      const bad of [
        shared.HINT_MARK,
        "<hook_context>",
        "<session_context>",
        "I ran the following",
        SHELL,
        "/memory",
      ]
    ) {
      assert.deepEqual(texts.filter((t) => t.includes(bad)), [], `a record holds "${bad}"`);
    }
  },
});

Deno.test({
  name: `${NAME}: the headless policy holds for gemini -p (left out unless include_headless)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.headless.code, 0, s.headless.stderr);
    const file = Object.entries(s.chats).find(([, ls]) =>
      ls.some((l) => JSON.stringify(l).includes(shared.HEADLESS))
    );
    if (!file) throw new Error("the -p session wrote no chat");
    for (const p of [shared.HEADLESS, DISABLED]) shared.assertCollectedOnlyWithHeadless(s, p);
    // The interactive prompts are collected either way.
    assert.ok(promptTexts(s.headlessRecords).includes(shared.DECISION));
  },
});

Deno.test({
  name: `${NAME}: a hint reaches the model's request when an earlier decision bears on the prompt`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const turn = turnsOf(s, "hint")[0]!;
    const last = lastUserText(turn);
    assertIncludes(last, BEARS_ON_DECISION);
    assertIncludes(
      last,
      `<hook_context>${shared.HINT_MARK}`,
      `the prompt's request (verdict hooks run:\n${s.hooks}\n)`,
    );
    assertIncludes(last, shared.DECISION);
    // The person sees the one-line systemMessage.
    assertIncludes(s.hintScreen.replace(/\s+/g, " "), "verdict: you decided this before");
  },
});

Deno.test({
  name: `${NAME}: nothing reaches the model's request on small talk`,
  ...CLIENT_TEST,
  async fn() {
    shared.assertNoHintOnSmallTalk(await story(), lastUserText);
  },
});

Deno.test({
  name: `${NAME}: the MCP recall tool is listed, called, and its quote reaches the model`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const turns = turnsOf(s, "recall");
    assert.ok(turns.length >= 2, `expected the call and the answer; got ${turns.length} turns`);
    assert.ok(toolNames(turns[0]!.body).includes(RECALL_TOOL));
    const last = contentsOf(turns[1]!.body).at(-1)!;
    const result = last.parts.find((p) => "functionResponse" in p);
    assert.ok(result, "the request after the call carries no tool result");
    assertIncludes(JSON.stringify(result), shared.DECISION);
  },
});

Deno.test({
  name: `${NAME}: verdict uninstall leaves no trace and Gemini CLI still works`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.uninstall.code, 0, s.uninstall.stderr);
    assert.deepEqual(JSON.parse(s.after), JSON.parse(s.before));
    assert.equal(s.afterUninstall.code, 0, s.afterUninstall.stderr);
    const turn = turnsOf(s, "after-uninstall")[0]!;
    assertIncludes(lastUserText(turn), shared.AFTER_UNINSTALL);
    assert.ok(!toolNames(turn.body).includes(RECALL_TOOL), "the uninstalled MCP server was still offered");
    assert.ok(!turn.text.includes("[verdict"), "verdict text reached the model after uninstall");
  },
});
