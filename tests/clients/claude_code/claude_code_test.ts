/**
 * The real Claude Code CLI (pinned in harness/versions.ts) against this checkout's verdict, fully
 * offline: the scripted Anthropic model on 127.0.0.1, a temp HOME, a git project. One story is
 * driven once (the scenario below, about 30 s) and each test checks one claim on what it left:
 *
 *  1. `verdict install` (hooks + MCP), then session A in the TUI: a decision, a custom slash
 *     command with arguments, a CLAUDE.md write (a memory-file note), a `!` shell line and
 *     `/compact` with instructions (PreCompact judges; SessionStart(compact) hands off);
 *  2. `verdict collect`, then session B in the TUI: a prompt the decision bears on (the hint),
 *     small talk (no hint), and a question the model answers through the MCP recall tool;
 *  3. a headless `claude -p` session; `verdict collect` again (and once with include_headless);
 *  4. `verdict uninstall`, then `claude -p` once more.
 */
import assert from "node:assert/strict";
import {
  type AnthropicMessage,
  anthropicServer,
  blocksOf,
  messagesOf,
  toolNames,
} from "../harness/anthropic_messages.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, turnsOf } from "../harness/scenario.ts";
import * as shared from "../harness/story.ts";
import { testPrefix } from "../harness/versions.ts";
import { Workspace } from "../harness/workspace.ts";
import { claudePrint, ClaudeTui, seedClaudeHome, transcripts } from "./claude_code.ts";

const NAME = testPrefix("claude-code");

const SLASH = "/release version 2 with the pnpm switch";
const MEMORY = "Please record that rule in CLAUDE.md.";
const SHELL = "!git status --short";
const COMPACT = "/compact keep the package manager decision";
const NOTE_TEXT = "# Rules\n\n- Use pnpm, never npm.\n";

interface Story extends shared.StoryResult {
  /** The `verdict` the hooks run. */
  readonly verdictBin: string;
  readonly install: { code: number; stdout: string; stderr: string };
  readonly uninstall: { code: number; stdout: string; stderr: string };
  readonly before: { settings: string; claudeJson: Record<string, unknown> };
  readonly after: { settings: string; claudeJson: Record<string, unknown> };
  /** Every line of every transcript, by file. */
  readonly transcripts: Readonly<Record<string, Record<string, unknown>[]>>;
  /** The screen after the prompt the hint fired on. */
  readonly hintScreen: string;
  readonly afterUninstall: { code: number; stdout: string; stderr: string };
  readonly handoffFiles: string[];
}

const story = once(async (): Promise<Story> => {
  await using ws = await Workspace.create("claude-code");
  // From a clone: install from `deno run`, no VERDICT_BIN, no verdict on Claude Code's PATH.
  ws.fromSource = true;
  const P = ws.project;
  await using server = anthropicServer([
    { when: "from now on use pnpm", reply: { text: "Understood: pnpm only, never npm." } },
    {
      when: "record that rule in CLAUDE.md",
      reply: { tool: "Write", input: { file_path: `${P}/CLAUDE.md`, content: NOTE_TEXT } },
    },
    { afterTool: true, when: "CLAUDE.md", reply: { text: "Wrote CLAUDE.md." } },
    { when: "lodash", reply: { text: "Run `pnpm add lodash`." } },
    // MCP tools are deferred: the model first loads the tool's schema with ToolSearch.
    {
      when: "recall tool",
      reply: { tool: "ToolSearch", input: { query: "select:mcp__verdict__verdict_recall", max_results: 1 } },
    },
    {
      afterTool: true,
      when: "tool_reference",
      reply: { tool: "mcp__verdict__verdict_recall", input: { query: "package manager pnpm npm" } },
    },
    { afterTool: true, when: "earlier record", reply: { text: "The recall tool says: pnpm, never npm." } },
  ]);
  await seedClaudeHome(ws);
  await Deno.mkdir(`${P}/.claude/commands`, { recursive: true });
  await Deno.writeTextFile(`${P}/.claude/commands/release.md`, "Prepare the release notes for: $ARGUMENTS\n");
  const before = {
    settings: await Deno.readTextFile(`${ws.home}/.claude/settings.json`),
    claudeJson: JSON.parse(await Deno.readTextFile(`${ws.home}/.claude.json`)),
  };
  const steps = new shared.StoryRun(ws, server, (prompt) => claudePrint(ws, server, prompt));

  const install = await ws.verdict(["install"]);

  // Session A: the decision and everything collect must tell apart.
  {
    await using tui = await ClaudeTui.start(ws, server);
    steps.mark("decision");
    await tui.submit(shared.DECISION, "from now on use pnpm");
    steps.mark("slash");
    await tui.submit(SLASH, "release notes for");
    steps.mark("memory");
    await tui.submit(MEMORY, "CLAUDE.md");
    steps.mark("shell");
    await tui.submit(SHELL, "bash-stdout");
    steps.mark("compact");
    await tui.submit(COMPACT);
    steps.mark("after-compact");
    await tui.submit("What is left to do?", "what is left to do");
    await tui.quit();
  }
  await ws.verdictOk(["collect"]);

  const hintScreen = await steps.askInNewSession(() => ClaudeTui.start(ws, server));
  const { headless, records, headlessRecords } = await steps.headlessThenCollect();

  const uninstall = await ws.verdict(["uninstall"]);
  const afterUninstall = await steps.printAfterUninstall();

  const all = await shared.readJsonlFiles(await transcripts(ws));
  const handoffFiles = await ws.handoffFiles();
  return {
    verdictBin: ws.wiredBin,
    requests: [...server.requests],
    marks: steps.marks,
    install,
    uninstall,
    before,
    after: {
      settings: await Deno.readTextFile(`${ws.home}/.claude/settings.json`),
      claudeJson: JSON.parse(await Deno.readTextFile(`${ws.home}/.claude.json`)),
    },
    records,
    headlessRecords,
    transcripts: all,
    hintScreen,
    headless,
    afterUninstall,
    handoffFiles,
  };
});

// ---- reading what was recorded

function textOfMessage(m: AnthropicMessage): string {
  return blocksOf(m).map((b) => typeof b.text === "string" ? b.text : JSON.stringify(b)).join("\n");
}

/** What came after the last user message of a request (Claude Code sends hook context there). */
function afterLastUser(r: RecordedRequest): string {
  const messages = messagesOf(r.body);
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === "user") last = i;
  });
  return messages.slice(last + 1).map(textOfMessage).join("\n");
}

function allLines(s: Story): Record<string, unknown>[] {
  return Object.values(s.transcripts).flat();
}

// ---- the claims

Deno.test({
  name: `${NAME}: verdict install wires hooks and MCP in a form Claude Code loads and runs`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.install.code, 0, s.install.stderr);
    assertIncludes(s.install.stdout, "UserPromptSubmit hook added");
    assertIncludes(s.install.stdout, "mcpServers.verdict added");
    // The entries run the launcher install wrote, by absolute path: Claude Code's PATH has no verdict.
    assertIncludes(s.install.stdout, `verdict install: the entries run ${s.verdictBin}`);
    assertIncludes(s.install.stdout, "launcher created");
    // Claude Code ran the installed hooks: the SessionStart(compact) one succeeded with our output,
    const hookRuns = allLines(s).filter((l) =>
      (l.attachment as Record<string, unknown> | undefined)?.type === "hook_success"
    );
    assert.ok(
      hookRuns.some((l) => {
        const a = l.attachment as Record<string, unknown>;
        return a.hookName === "SessionStart:compact" && String(a.command).includes(s.verdictBin) &&
          String(a.stdout).includes(shared.HANDOFF_MARK);
      }),
      "no successful run of the installed SessionStart(compact) hook in the transcripts",
    );
    // no hook failed,
    const failures = allLines(s).filter((l) =>
      /hook_(error|non_blocking_error|blocking_error|cancelled)/.test(
        String((l.attachment as Record<string, unknown> | undefined)?.type ?? ""),
      )
    );
    assert.deepEqual(failures, [], "a hook failed");
    // and it started the MCP server and listed its tool to the model in session A. (Not always in the
    // very first request: 2.1.332 sends it before the MCP server has connected.)
    const sessionA = turnsOf(s, "decision", { to: "hint" });
    assert.ok(
      sessionA.some((t) => t.text.includes("mcp__verdict__verdict_recall")),
      "no request of session A listed mcp__verdict__verdict_recall",
    );
  },
});

Deno.test({
  name: `${NAME}: collect yields exactly the typed prompts and the memory-file write that landed`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(promptTexts(s.records), [
      shared.DECISION,
      SLASH,
      MEMORY,
      COMPACT,
      "What is left to do?",
      shared.BEARS_ON_DECISION,
      shared.SMALL_TALK,
      shared.ASK_RECALL,
    ]);
    const notes = s.records.filter((r) => r.kind === "note");
    assert.deepEqual(notes.map((n) => n.text), [NOTE_TEXT.trim()]);
    assert.deepEqual(
      notes[0]!.source_file,
      Object.keys(s.transcripts).find((f) =>
        s.transcripts[f]!.some((l) => l.type === "user" && JSON.stringify(l).includes(MEMORY))
      ),
    );
  },
});

Deno.test({
  name:
    `${NAME}: collect keeps out what the machine made (hook context, tool results, summaries, environment, ! lines)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const lines = allLines(s);
    const att = (l: Record<string, unknown>) => (l.attachment ?? {}) as Record<string, unknown>;
    // Each kind of machine-made text really is in the transcripts (so its absence below means something) …
    const machine = {
      "hook context": lines.find((l) => att(l).type === "hook_additional_context"),
      "tool result": lines.find((l) => l.type === "user" && l.toolUseResult !== undefined),
      "compaction summary": lines.find((l) => l.type === "user" && l.isCompactSummary === true),
      "environment block": lines.find((l) => att(l).type === "environment"),
      "! shell input": lines.find((l) =>
        l.type === "user" && JSON.stringify(l.message).includes("<bash-input>")
      ),
      "! shell output": lines.find((l) =>
        l.type === "user" && JSON.stringify(l.message).includes("<bash-stdout>")
      ),
    };
    for (const [what, line] of Object.entries(machine)) assert.ok(line, `the transcripts hold no ${what}`);
    // … and none of it became a record.
    const texts = s.records.map((r) => String(r.text));
    for (
      const bad of [
        shared.HINT_MARK,
        shared.HANDOFF_MARK,
        "File created successfully",
        "This session is being continued",
        "git status --short",
        "<bash",
        "<local-command",
        "<command-name>",
        "Primary working directory",
      ]
    ) {
      assert.deepEqual(texts.filter((t) => t.includes(bad)), [], `a record holds "${bad}"`);
    }
  },
});

Deno.test({
  name: `${NAME}: the headless policy holds for claude -p (left out unless include_headless)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.headless.code, 0, s.headless.stdout);
    const file = Object.entries(s.transcripts).find(([, ls]) =>
      ls.some((l) => l.type === "user" && JSON.stringify(l.message).includes(shared.HEADLESS))
    );
    if (!file) throw new Error("the -p session wrote no transcript");
    const entrypoints = new Set(file[1].filter((l) => l.type === "user").map((l) => l.entrypoint));
    assert.deepEqual([...entrypoints], ["sdk-cli"]);
    shared.assertCollectedOnlyWithHeadless(s, shared.HEADLESS);
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
    // The person sees the one-line systemMessage.
    assertIncludes(s.hintScreen.replace(/\s+/g, " "), "verdict: you decided this before");
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
    assert.ok(turns.length >= 3, `expected ToolSearch, the call and the answer; got ${turns.length} turns`);
    // Listed: by name among the deferred tools, and with its schema once ToolSearch loaded it.
    assertIncludes(turns[0]!.text, "mcp__verdict__verdict_recall");
    assert.ok(
      toolNames(turns[1]!.body).includes("mcp__verdict__verdict_recall"),
      "the loaded tool is not offered",
    );
    // Called, and its result (the quote) is in the request after the call.
    const last = messagesOf(turns[2]!.body).at(-1)!;
    const result = blocksOf(last).find((b) => b.type === "tool_result");
    assert.ok(result, "the request after the call carries no tool result");
    assertIncludes(JSON.stringify(result), shared.DECISION.replaceAll('"', '\\"'));
  },
});

Deno.test({
  name: `${NAME}: /compact runs PreCompact and the SessionStart handoff reaches the model after it`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.handoffFiles.length, 1, "the PreCompact hook wrote no handoff");
    const boundary = allLines(s).find((l) => l.type === "system" && l.subtype === "compact_boundary");
    assert.ok(boundary, "no compaction happened");
    const next = turnsOf(s, "after-compact")[0]!;
    const context = afterLastUser(next);
    assertIncludes(context, shared.HANDOFF_MARK);
    assertIncludes(context, "CLAUDE.md"); // the uncommitted file the handoff lists
  },
});

Deno.test({
  name: `${NAME}: verdict uninstall leaves no trace and Claude Code still works`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(s.uninstall.code, 0, s.uninstall.stderr);
    assert.deepEqual(JSON.parse(s.after.settings), JSON.parse(s.before.settings));
    const servers = (s.after.claudeJson.mcpServers ?? {}) as Record<string, unknown>;
    assert.ok(!("verdict" in servers), "mcpServers.verdict is still there");
    assert.deepEqual(s.afterUninstall.code, 0, s.afterUninstall.stderr);
    const turn = shared.turnFor(s, shared.AFTER_UNINSTALL);
    assert.ok(!turn.text.includes("mcp__verdict"), "the uninstalled MCP server was still listed");
    assert.ok(!turn.text.includes("[verdict"), "verdict text reached the model after uninstall");
    const file = Object.values(s.transcripts).find((ls) =>
      ls.some((l) => JSON.stringify(l.message ?? "").includes(shared.AFTER_UNINSTALL))
    )!;
    assert.deepEqual(
      file.filter((l) =>
        String((l.attachment as Record<string, unknown> | undefined)?.type ?? "").startsWith("hook")
      ),
      [],
    );
  },
});
