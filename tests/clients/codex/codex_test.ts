/**
 * The real Codex CLI (pinned in harness/versions.ts) against this checkout's verdict, fully
 * offline: the scripted OpenAI Responses model on 127.0.0.1, a temp HOME, a git project. One
 * story is driven once (the scenario below) and each test checks one claim on what it left:
 *
 *  1. `verdict install` (hooks.json, the MCP server and the hooks' trust in config.toml), with
 *     `judge.block_manual` on, then session A in the TUI, with no trust-bypass flag: a decision,
 *     a skill invoked with arguments (`$release …`, Codex 0.169's custom slash commands are
 *     gone), an AGENTS.md write (apply_patch), a `!` shell line, a plan (update_plan) left
 *     unfinished, then `/compact` (PreCompact judges preserve_first and stops it), `/compact`
 *     again (it passes, and compacts), and a prompt after it (the SessionStart handoff);
 *  2. `verdict collect`, then session B in the TUI: a prompt the decision bears on (the hint),
 *     small talk (no hint), and a question the model answers through the MCP recall tool;
 *  3. the trust gate: with verdict's trust entry removed, doctor says Codex will not run the
 *     hook and `codex exec` indeed runs none; after `verdict install` both say it runs;
 *  4. a headless `codex exec` decision; `verdict collect` (and once with include_headless);
 *  5. `verdict uninstall`, then `codex exec` once more.
 */
import assert from "node:assert/strict";
import type { CliResult } from "../../cli_helper.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { inputItems, inputMessages, responsesServer, toolNames } from "../harness/openai_responses.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, turnsOf } from "../harness/scenario.ts";
import * as shared from "../harness/story.ts";
import { testPrefix } from "../harness/versions.ts";
import type { Check } from "../../../src/hostfile/checks.ts";
import { Workspace } from "../harness/workspace.ts";
import { codexDaemons, codexExec, CodexTui, type HeadlessResult, rollouts, seedCodexHome } from "./codex.ts";

const NAME = testPrefix("codex");

const SKILL = "$release version 2 with the pnpm switch";
const MEMORY = "Please record that rule in AGENTS.md.";
const SHELL = "!git status --short";
const PLAN = "Plan the release: keep a plan of the steps.";
const PLAN_STEPS = [
  { step: "Write the changelog", status: "in_progress" },
  { step: "Tag v2", status: "pending" },
];
const AFTER_COMPACT = "What is left to do for the release?";
const UNTRUSTED = "Untrusted: should I install lodash with npm or pnpm?";
const RETRUSTED = "Trusted again: should I install lodash with npm or pnpm?";
const NOTE_TEXT = "# Rules\n\n- Use pnpm, never npm.\n";
const PATCH = `*** Begin Patch\n*** Add File: AGENTS.md\n${
  NOTE_TEXT.split("\n").slice(0, -1).map((l) => `+${l}`).join("\n")
}\n*** End Patch\n`;

interface Story extends shared.StoryResult {
  readonly install: CliResult;
  readonly uninstall: CliResult;
  readonly before: { config: string };
  /** config.toml just before uninstall (Codex keeps writing its own counters to it meanwhile). */
  readonly beforeUninstall: string;
  readonly after: { config: string; hooksJson: boolean };
  /** The TUI's first screen in session A (no hook-review dialog when trust was recorded). */
  readonly startScreen: string;
  readonly doctor: Record<string, { status: string; message: string }>;
  /** The TUI's screen after the first `/compact` (stopped) and after the second (compacted). */
  readonly compactScreens: { stopped: string; passed: string };
  /** The handoff files the PreCompact hook wrote. */
  readonly handoffFiles: readonly string[];
  readonly untrusted: { doctor: Check; exec: HeadlessResult };
  readonly retrusted: { doctor: Check; exec: HeadlessResult };
  /** Every line of every rollout, by file. */
  readonly rollouts: Readonly<Record<string, Record<string, unknown>[]>>;
  readonly afterUninstall: HeadlessResult;
}

const story = once(async (): Promise<Story> => {
  await using ws = await Workspace.create("codex");
  // From a clone: install from `deno run`, no VERDICT_BIN, no verdict on Codex's PATH.
  ws.fromSource = true;
  // Disposed before the workspace: ends the app-server daemons Codex starts from its HOME.
  await using _daemons = codexDaemons(ws);
  await using server = responsesServer([
    { when: "from now on use pnpm", reply: { text: "Understood: pnpm only, never npm." } },
    { when: "record that rule in AGENTS.md", reply: { custom: "apply_patch", input: PATCH } },
    { afterTool: true, when: "AGENTS.md", reply: { text: "Wrote AGENTS.md." } },
    { when: "plan the release", reply: { tool: "update_plan", args: { plan: PLAN_STEPS } } },
    { afterTool: true, when: "Plan updated", reply: { text: "Next, I'll write the changelog." } },
    { when: "what is left to do", reply: { text: "The changelog, then the tag." } },
    { when: "lodash", once: false, reply: { text: "Run `pnpm add lodash`." } },
    // MCP tools are deferred: the model searches for them first (Codex runs the search itself).
    {
      when: "recall tool",
      reply: {
        item: {
          type: "tool_search_call",
          execution: "client",
          arguments: { query: "verdict recall", limit: 8 },
        },
      },
    },
    {
      afterTool: true,
      when: "mcp__verdict",
      reply: {
        tool: "verdict_recall",
        namespace: "mcp__verdict",
        args: { query: "package manager pnpm npm" },
      },
    },
    { afterTool: true, when: "earlier record", reply: { text: "The recall tool says: pnpm, never npm." } },
  ]);
  await seedCodexHome(ws, server);
  await Deno.mkdir(`${ws.home}/.codex/skills/release`, { recursive: true });
  await Deno.writeTextFile(
    `${ws.home}/.codex/skills/release/SKILL.md`,
    "---\nname: release\ndescription: Prepare release notes for a version\n---\n\nPrepare the release notes.\n",
  );
  const configPath = `${ws.home}/.codex/config.toml`;
  const before = { config: await Deno.readTextFile(configPath) };
  const steps = new shared.StoryRun(ws, server, (prompt) => codexExec(ws, [prompt]));

  const install = await ws.verdict(["install", "--codex"]);
  const doctor = await ws.doctorChecks();
  // The person asked verdict to stop a manual compaction while work is unlanded.
  await Deno.mkdir(`${ws.home}/.config/verdict`, { recursive: true });
  await Deno.writeTextFile(
    `${ws.home}/.config/verdict/config.json`,
    '{ "judge": { "block_manual": true } }\n',
  );

  // Session A: no --dangerously-bypass-hook-trust; the hook runs only because it is trusted.
  let startScreen = "";
  const compactScreens = { stopped: "", passed: "" };
  {
    await using tui = await CodexTui.start(ws, server);
    startScreen = await tui.tmux.screen();
    steps.mark("decision");
    await tui.submit(shared.DECISION, "from now on use pnpm");
    steps.mark("skill");
    await tui.submit(SKILL, "<skill>");
    steps.mark("memory");
    await tui.submit(MEMORY, "AGENTS.md");
    steps.mark("shell");
    await tui.submit(SHELL);
    steps.mark("plan");
    await tui.submit(PLAN, "plan the release");
    // PreCompact judges preserve_first and stops the compaction (continue: false)…
    steps.mark("compact-stopped");
    await tui.submit("/compact");
    compactScreens.stopped = await tui.tmux.waitForScreen(/Hook stopped/, "the stopped compaction", 60_000);
    await tui.idle();
    // …and a second /compact within 120 s goes through.
    steps.mark("compact");
    await tui.submit("/compact", "CONTEXT CHECKPOINT COMPACTION");
    compactScreens.passed = await tui.tmux.waitForScreen(/Context compacted/, "the compaction");
    steps.mark("after-compact");
    await tui.submit(AFTER_COMPACT, "what is left to do");
    steps.mark("session-a-end");
    await tui.quit();
  }
  await ws.verdictOk(["collect"]);

  await steps.askInNewSession(() => CodexTui.start(ws, server));

  // The trust gate, both ways, against the real binary.
  const installed = await Deno.readTextFile(configPath);
  await Deno.writeTextFile(configPath, installed.replace(/\n\[hooks\.state\.[^\n]*\n[^\n]*\n/, "\n"));
  const untrustedDoctor = (await ws.doctorChecks())["codex hooks"]!;
  steps.mark("untrusted");
  const untrustedExec = await codexExec(ws, [UNTRUSTED]);
  const reinstall = await ws.verdict(["install", "--codex"]);
  if (reinstall.code !== 0) throw new Error(`reinstall failed: ${reinstall.stderr}`);
  const retrustedDoctor = (await ws.doctorChecks())["codex hooks"]!;
  steps.mark("retrusted");
  const retrustedExec = await codexExec(ws, [RETRUSTED]);

  const { headless, records, headlessRecords } = await steps.headlessThenCollect();

  const beforeUninstall = await Deno.readTextFile(configPath);
  const uninstall = await ws.verdict(["uninstall", "--codex"]);
  const afterUninstall = await steps.printAfterUninstall();

  const handoffFiles = await ws.handoffFiles();
  const all = await shared.readJsonlFiles(await rollouts(ws));
  let hooksJson = true;
  try {
    await Deno.stat(`${ws.home}/.codex/hooks.json`);
  } catch {
    hooksJson = false;
  }
  return {
    requests: [...server.requests],
    marks: steps.marks,
    install,
    uninstall,
    before,
    beforeUninstall,
    after: { config: await Deno.readTextFile(configPath), hooksJson },
    startScreen,
    doctor,
    compactScreens,
    handoffFiles,
    untrusted: { doctor: untrustedDoctor, exec: untrustedExec },
    retrusted: { doctor: retrustedDoctor, exec: retrustedExec },
    records,
    headlessRecords,
    rollouts: all,
    headless,
    afterUninstall,
  };
});

// ---- reading what was recorded

/** The developer messages after the last user message of a request (Codex puts hook context there). */
function afterLastUser(r: RecordedRequest): string {
  const messages = inputMessages(r.body);
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === "user") last = i;
  });
  return messages.slice(last + 1).map((m) => m.text).join("\n");
}

function allLines(s: Story): Record<string, unknown>[] {
  return Object.values(s.rollouts).flat();
}

const payload = (l: Record<string, unknown>) => (l.payload ?? {}) as Record<string, unknown>;

// ---- the claims

Deno.test({
  name: `${NAME}: verdict install wires the hook and MCP in a form Codex loads, trusts and runs`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.install.code, 0, s.install.stderr);
    assertIncludes(
      s.install.stdout,
      "UserPromptSubmit hook added, PreCompact hook added, SessionStart(compact) hook added",
    );
    assertIncludes(
      s.install.stdout,
      "[mcp_servers.verdict] added, UserPromptSubmit hook trusted, PreCompact hook trusted, SessionStart hook trusted",
    );
    assert.equal(s.doctor["codex hooks"]?.status, "ok", s.doctor["codex hooks"]?.message);
    assert.match(
      s.doctor["codex hooks"]!.message,
      /^UserPromptSubmit, PreCompact, SessionStart\(compact\) in .*, trusted$/,
    );
    // doctor ran the installed hook and MCP commands as Codex runs them (PATH without verdict).
    assert.equal(s.doctor["codex hook run"]?.status, "ok", s.doctor["codex hook run"]?.message);
    assert.equal(s.doctor["codex mcp run"]?.status, "ok", s.doctor["codex mcp run"]?.message);
    assertIncludes(s.install.stdout, "launcher created");
    // Codex did not ask to review the hook: it found it trusted.
    assert.ok(!/hooks? need review/i.test(s.startScreen), s.startScreen);
    // It ran them: their context reached the model (see the hint and compaction tests), and exec says so.
    assertIncludes(s.retrusted.exec.stdout + s.retrusted.exec.stderr, "UserPromptSubmit");
    // And it started the MCP server: its namespace came back from the tool search.
    const recall = turnsOf(s, "recall");
    assert.ok(recall.length >= 2, `the recall question made ${recall.length} turns`);
    assertIncludes(JSON.stringify(inputItems(recall[1]!.body).at(-1)), "mcp__verdict");
  },
});

Deno.test({
  name: `${NAME}: collect yields exactly the typed prompts and the AGENTS.md write that landed`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(promptTexts(s.records), [
      shared.DECISION,
      SKILL,
      MEMORY,
      PLAN,
      AFTER_COMPACT,
      shared.BEARS_ON_DECISION,
      shared.SMALL_TALK,
      shared.ASK_RECALL,
    ]);
    const notes = s.records.filter((r) => r.kind === "note").map((r) => r.text);
    assert.deepEqual(notes, [NOTE_TEXT.trim()]);
    // 0.169 writes the prompt as an item_completed UserMessage (no user_message events at all).
    const lines = allLines(s);
    assert.ok(lines.some((l) => l.type === "event_msg" && payload(l).type === "item_completed"));
    assert.ok(!lines.some((l) => l.type === "event_msg" && payload(l).type === "user_message"));
  },
});

Deno.test({
  name:
    `${NAME}: collect keeps out what the machine made (hook context, skill body, environment, ! lines, compaction)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const lines = allLines(s);
    const userText = (l: Record<string, unknown>) =>
      l.type === "response_item" && (payload(l).role === "user" || payload(l).role === "developer")
        ? JSON.stringify(payload(l).content)
        : "";
    const machine = {
      "hook context": lines.find((l) => userText(l).includes(shared.HINT_MARK)),
      "compaction handoff": lines.find((l) => userText(l).includes(shared.HANDOFF_MARK)),
      "injected skill body": lines.find((l) => userText(l).includes("<skill>")),
      "environment block": lines.find((l) => userText(l).includes("<environment_context>")),
      "! shell command": lines.find((l) => userText(l).includes("<user_shell_command>")),
      "compaction": lines.find((l) => l.type === "compacted"),
    };
    for (const [what, line] of Object.entries(machine)) assert.ok(line, `the rollouts hold no ${what}`);
    const texts = s.records.map((r) => String(r.text));
    for (
      const bad of [
        shared.HINT_MARK,
        shared.HANDOFF_MARK,
        "<skill>",
        "Prepare the release notes",
        "<environment_context>",
        "git status",
        "<user_shell_command>",
        "summary",
        "CONTEXT CHECKPOINT",
      ]
    ) {
      assert.deepEqual(texts.filter((t) => t.includes(bad)), [], `a record holds "${bad}"`);
    }
  },
});

Deno.test({
  name: `${NAME}: the headless policy holds for codex exec (left out unless include_headless)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.headless.code, 0, s.headless.stderr);
    const file = Object.values(s.rollouts).find((ls) => JSON.stringify(ls).includes(shared.HEADLESS));
    if (!file) throw new Error("the exec session wrote no rollout");
    assert.equal(payload(file[0]!).source, "exec");
    for (const p of [shared.HEADLESS, UNTRUSTED, RETRUSTED]) shared.assertCollectedOnlyWithHeadless(s, p);
  },
});

Deno.test({
  name: `${NAME}: a hint reaches the model's request when an earlier decision bears on the prompt`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const turn = turnsOf(s, "hint")[0]!;
    assertIncludes(turn.input!.text, shared.BEARS_ON_DECISION);
    const context = afterLastUser(turn);
    assertIncludes(context, shared.HINT_MARK);
    assertIncludes(context, shared.DECISION);
  },
});

Deno.test({
  name: `${NAME}: nothing reaches the model's request on small talk`,
  ...CLIENT_TEST,
  async fn() {
    shared.assertNoHintOnSmallTalk(await story(), afterLastUser);
  },
});

Deno.test({
  name: `${NAME}: the MCP recall tool is listed, called, and its quote reaches the model`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const turns = turnsOf(s, "recall");
    assert.ok(turns.length >= 3, `expected the search, the call and the answer; got ${turns.length} turns`);
    // Listed: deferred behind tool_search, whose output (run by Codex) names verdict_recall.
    assert.ok(toolNames(turns[0]!.body).includes("tool_search"), toolNames(turns[0]!.body).join(", "));
    const search = inputItems(turns[1]!.body).at(-1)!;
    assert.equal(search.type, "tool_search_output");
    assertIncludes(JSON.stringify(search), "verdict_recall");
    // Called, and its result (the quote) is in the request after the call.
    const result = inputItems(turns[2]!.body).at(-1)!;
    assert.equal(result.type, "function_call_output");
    assertIncludes(JSON.stringify(result), shared.DECISION.replaceAll('"', '\\"'));
    const calls = allLines(s).filter((l) =>
      payload(l).type === "item_completed" &&
      (payload(l).item as Record<string, unknown>)?.type === "McpToolCall"
    );
    assert.equal(calls.length, 1);
  },
});

/** A screen's text with its line breaks and indentation folded (the TUI wraps long lines). */
function folded(screen: string): string {
  return screen.replace(/\s+/g, " ");
}

Deno.test({
  name:
    `${NAME}: /compact runs PreCompact: preserve_first stops it (block_manual), the second /compact passes`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    // Stopped: Codex made no compaction request, showed why, and wrote no compaction.
    const stopped = turnsOf(s, "compact-stopped");
    assert.deepEqual(stopped.filter((r) => r.text.includes("CONTEXT CHECKPOINT")), [], "it compacted anyway");
    const why = folded(s.compactScreens.stopped);
    assertIncludes(why, "Hook stopped");
    assertIncludes(why, "verdict: preserve_first (over_threshold)");
    assertIncludes(why, "Land it first");
    // Passed: the request was made, and the person saw the verdict and where the handoff is.
    assert.ok(turnsOf(s, "compact").some((r) => r.text.includes("CONTEXT CHECKPOINT COMPACTION")));
    const seen = folded(s.compactScreens.passed);
    assertIncludes(seen, "Hook · verdict: preserve_first (over_threshold)");
    assertIncludes(seen, "handoff:");
    const sessionA = Object.values(s.rollouts).find((ls) => JSON.stringify(ls).includes(PLAN))!;
    assert.equal(
      sessionA.filter((l) => l.type === "compacted").length,
      1,
      "one compaction, the second /compact",
    );
    assert.deepEqual(s.handoffFiles, [`${String(payload(sessionA[0]!).id)}.md`]);
  },
});

Deno.test({
  name:
    `${NAME}: the SessionStart(compact) handoff, judged from the rollout, reaches the model after the compaction`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const next = turnsOf(s, "after-compact")[0]!;
    assertIncludes(next.input!.text, AFTER_COMPACT);
    const messages = inputMessages(next.body);
    const summary = messages.findIndex((m) => m.text.includes("Another language model started"));
    const handoff = messages.findIndex((m) => m.role === "developer" && m.text.includes(shared.HANDOFF_MARK));
    assert.ok(summary >= 0, "the request holds no compaction summary");
    assert.ok(handoff > summary, "the handoff is not in the request after the compaction summary");
    const text = messages[handoff]!.text;
    // What the judge read from the rollout: the plan's open steps (update_plan), the untracked
    // AGENTS.md the patch added, the decision nothing wrote down, the announced next step.
    assertIncludes(text, "- todo (TodoWrite, line ");
    assertIncludes(text, "Write the changelog (in_progress)");
    assertIncludes(text, "Tag v2 (pending)");
    assertIncludes(text, "?? AGENTS.md");
    assertIncludes(text, `(typed prompt, line `);
    assertIncludes(text, shared.DECISION);
    assertIncludes(text, "Next, I'll write the changelog.");
  },
});

Deno.test({
  name: `${NAME}: Codex runs no untrusted hook, doctor says so, and after verdict install the hook runs`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.untrusted.doctor.status, "fail");
    assert.match(
      s.untrusted.doctor.message,
      /^Codex will not run verdict's UserPromptSubmit hook: it is not trusted/,
    );
    assert.equal(s.untrusted.exec.code, 0, s.untrusted.exec.stderr);
    const untrusted = shared.turnFor(s, UNTRUSTED);
    assert.ok(!afterLastUser(untrusted).includes(shared.HINT_MARK), "Codex ran an untrusted hook");
    assert.equal(s.retrusted.doctor.status, "ok", s.retrusted.doctor.message);
    const retrusted = shared.turnFor(s, RETRUSTED);
    assertIncludes(afterLastUser(retrusted), shared.HINT_MARK);
  },
});

Deno.test({
  name: `${NAME}: verdict uninstall leaves no trace and Codex still works`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.uninstall.code, 0, s.uninstall.stderr);
    // Only our block went: every other byte is what Codex and the person left there.
    const block = /\n# >>> verdict:[^\n]*\n[\s\S]*?# <<< verdict <<<\n/;
    assert.match(s.beforeUninstall, block);
    assert.equal(s.after.config, s.beforeUninstall.replace(block, ""));
    assert.ok(!/mcp_servers\.verdict|verdict install|\[hooks\.state/.test(s.after.config), s.after.config);
    // And it is the file from before install, but for the counters Codex itself bumps.
    const counters = (t: string) => t.replace(/^("gpt-[^"]*") = \d+$/gm, "$1 = N");
    assert.equal(counters(s.after.config), counters(s.before.config));
    assert.equal(s.after.hooksJson, false, "hooks.json (created by install) is still there");
    assert.equal(s.afterUninstall.code, 0, s.afterUninstall.stderr);
    const turn = shared.turnFor(s, shared.AFTER_UNINSTALL);
    assert.ok(!turn.text.includes("mcp__verdict"), "the uninstalled MCP server was still offered");
    assert.ok(!turn.text.includes("[verdict"), "verdict text reached the model after uninstall");
  },
});
