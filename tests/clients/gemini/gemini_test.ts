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
import { contentsOf, geminiServer, textOfContent, toolNames } from "../harness/gemini_api.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, readJsonl, turnsOf } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { chatFiles, geminiPrint, GeminiTui, seedGeminiHome } from "./gemini.ts";

const NAME = testPrefix("gemini");

/** The marker verdict's hint block starts with (src/gate/render.ts). */
const HINT_MARK = "[verdict recall]";
/** verdict's recall tool as Gemini CLI offers it: mcp_<server>_<tool>. */
const RECALL_TOOL = "mcp_verdict_verdict_recall";

const DECISION = "From now on use pnpm, never npm, to install packages in this repo.";
const MEMORY = "Please record that rule in GEMINI.md.";
const SHELL = "git status --short";
/** An @path prompt: Gemini CLI sends the file's text along; only the typed line is a prompt. */
const AT_FILE = "Summarize @README.md in one line";
const BEARS_ON_DECISION = "Should I install lodash with npm or pnpm";
const SMALL_TALK = "thanks, that is all for now";
const ASK_RECALL = "Check with the recall tool what we decided about package managers.";
const DISABLED = "Hooks disabled: should I install lodash with npm or pnpm";
const HEADLESS = "From now on always run the linter before committing.";
const AFTER_UNINSTALL = "Say hello after the uninstall.";
const NOTE_TEXT = "# Rules\n\n- Use pnpm, never npm.\n";

interface Exec {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

type DoctorLine = { id: string; status: string; message: string; fix: string | null };

interface Story {
  readonly verdictBin: string;
  readonly requests: readonly RecordedRequest[];
  readonly marks: Readonly<Record<string, number>>;
  readonly install: Exec;
  readonly uninstall: Exec;
  readonly before: string;
  readonly after: string;
  readonly installed: string;
  /** Doctor's hook check right after install. */
  readonly doctor: DoctorLine | undefined;
  /** With verdict's hook named in hooksConfig.disabled: doctor's hook check and a `gemini -p`. */
  readonly disabled: { doctor: DoctorLine | undefined; run: Exec };
  /** Doctor's hook check once the setting is put back. */
  readonly reenabled: DoctorLine | undefined;
  readonly records: Record<string, unknown>[];
  readonly headlessRecords: Record<string, unknown>[];
  readonly chats: Readonly<Record<string, Record<string, unknown>[]>>;
  readonly hintScreen: string;
  readonly headless: Exec;
  readonly afterUninstall: Exec;
  readonly seconds: number;
  /** Every `verdict hook …` Gemini CLI ran, with its time (Workspace.hookReport). */
  readonly hooks: string;
}

/** `verdict doctor --json`'s check of Gemini CLI's hooks ("gemini hooks": each agent's checks carry its id). */
async function hooksCheck(ws: Workspace): Promise<DoctorLine | undefined> {
  const r = await ws.verdict(["doctor", "--json"]);
  const checks = JSON.parse(r.stdout).checks as DoctorLine[];
  return checks.find((c) => c.id === "gemini hooks");
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
  const marks: Record<string, number> = {};
  const mark = (name: string) => (marks[name] = server.requests.length);

  const install = await ws.verdict(["install"]);
  const installed = await Deno.readTextFile(settings);
  const doctor = await hooksCheck(ws);

  // Session A: the decision and what collect must tell apart.
  {
    await using tui = await GeminiTui.start(ws, server);
    mark("decision");
    await tui.submit(DECISION, "from now on use pnpm");
    mark("memory");
    await tui.submit(MEMORY, "GEMINI.md");
    mark("at-file");
    await tui.submit(AT_FILE, "summarize");
    mark("shell");
    await tui.shell(SHELL);
    mark("slash");
    await tui.submit("/memory show");
    await tui.quit();
  }
  await ws.verdictOk(["collect"]);

  // Session B: a new session, so the decision is an earlier one.
  let hintScreen = "";
  {
    await using tui = await GeminiTui.start(ws, server);
    mark("hint");
    await tui.submit(BEARS_ON_DECISION, "lodash");
    hintScreen = await tui.tmux.screen();
    mark("small-talk");
    await tui.submit(SMALL_TALK, "thanks");
    mark("recall");
    await tui.submit(ASK_RECALL, "recall tool");
    mark("recall-end");
    await tui.quit();
  }

  // The off switch in the settings: the hook's own name in hooksConfig.disabled.
  const wired = JSON.parse(installed);
  const hookName = String(wired.hooks.BeforeAgent[0].hooks[0].name);
  await Deno.writeTextFile(
    settings,
    JSON.stringify({ ...wired, hooksConfig: { disabled: [hookName] } }, null, 2) + "\n",
  );
  const disabledDoctor = await hooksCheck(ws);
  mark("disabled");
  const disabledRun = await geminiPrint(ws, server, DISABLED);
  await Deno.writeTextFile(settings, installed);
  const reenabled = await hooksCheck(ws);

  mark("headless");
  const headless = await geminiPrint(ws, server, HEADLESS);
  await ws.verdictOk(["collect"]);
  const records = await ws.readRecords();
  const headlessRecords = await ws.collectIncludingHeadless();

  const uninstall = await ws.verdict(["uninstall"]);
  const after = await Deno.readTextFile(settings);
  mark("after-uninstall");
  const afterUninstall = await geminiPrint(ws, server, AFTER_UNINSTALL);

  const chats: Record<string, Record<string, unknown>[]> = {};
  for (const f of await chatFiles(ws)) chats[f] = await readJsonl(f);
  return {
    verdictBin: ws.verdictBin,
    requests: [...server.requests],
    marks,
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
    const ran = allLines(s).some((l) => l.type === "user" && JSON.stringify(l.content).includes(HINT_MARK));
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
    assertIncludes(lastUserText(turnsOf(s, "hint")[0]!), HINT_MARK);
    // … yet no hint came: Gemini CLI did not run the disabled hook.
    assert.ok(!turn.text.includes(HINT_MARK), "Gemini CLI ran a hook named in hooksConfig.disabled");
    assert.equal(s.reenabled?.status, "ok", s.reenabled?.message);
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
      AT_FILE,
      BEARS_ON_DECISION,
      SMALL_TALK,
      ASK_RECALL,
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
      const bad of [HINT_MARK, "<hook_context>", "<session_context>", "I ran the following", SHELL, "/memory"]
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
      ls.some((l) => JSON.stringify(l).includes(HEADLESS))
    );
    if (!file) throw new Error("the -p session wrote no chat");
    for (const p of [HEADLESS, DISABLED]) {
      assert.ok(
        !promptTexts(s.records).includes(p),
        `a -p prompt was collected without include_headless: ${p}`,
      );
      assert.ok(promptTexts(s.headlessRecords).includes(p), `include_headless did not collect "${p}"`);
    }
    // The interactive prompts are collected either way.
    assert.ok(promptTexts(s.headlessRecords).includes(DECISION));
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
      `<hook_context>${HINT_MARK}`,
      `the prompt's request (verdict hooks run:\n${s.hooks}\n)`,
    );
    assertIncludes(last, DECISION);
    // The person sees the one-line systemMessage.
    assertIncludes(s.hintScreen.replace(/\s+/g, " "), "verdict: you decided this before");
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
    // Nor on the decision itself in session A (its own session is never quoted back).
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
    assert.ok(toolNames(turns[0]!.body).includes(RECALL_TOOL));
    const last = contentsOf(turns[1]!.body).at(-1)!;
    const result = last.parts.find((p) => "functionResponse" in p);
    assert.ok(result, "the request after the call carries no tool result");
    assertIncludes(JSON.stringify(result), DECISION);
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
    assertIncludes(lastUserText(turn), AFTER_UNINSTALL);
    assert.ok(!toolNames(turn.body).includes(RECALL_TOOL), "the uninstalled MCP server was still offered");
    assert.ok(!turn.text.includes("[verdict"), "verdict text reached the model after uninstall");
  },
});
