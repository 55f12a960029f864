/**
 * The real OpenCode (pinned in harness/versions.ts) against this checkout's verdict, fully
 * offline: the scripted Chat Completions model on 127.0.0.1, a temp HOME, a git project. One
 * story is driven once (the scenario below) and each test checks one claim on what it left:
 *
 *  1. `verdict install` (the hint plugin in ~/.config/opencode/plugin/verdict.js and mcp.verdict
 *     in opencode.json), then session A in the TUI: a decision, an AGENTS.md write (a note), a
 *     `!` shell command and `/compact`;
 *  2. `verdict collect`, then session B in the TUI: a prompt the decision bears on (the hint),
 *     small talk (no hint), and a question the model answers through the MCP recall tool;
 *  3. a headless `opencode run`; `verdict collect` again (and once with include_headless);
 *  4. `verdict uninstall`, then `opencode run` once more.
 *
 * OpenCode keeps its sessions in SQLite (~/.local/share/opencode/opencode.db); the claims about
 * what it stored read that database with node:sqlite once every OpenCode process has ended.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { CliResult } from "../../cli_helper.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { chatServer, lastUserText, systemText, toolNames, toolResults } from "../harness/openai_chat.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, turnsOf } from "../harness/scenario.ts";
import * as shared from "../harness/story.ts";
import { testPrefix } from "../harness/versions.ts";
import type { Check } from "../../../src/hostfile/checks.ts";
import { listFiles, Workspace } from "../harness/workspace.ts";
import {
  type HeadlessResult,
  isOpenCodeSide,
  openCodeRun,
  OpenCodeTui,
  seedOpenCodeHome,
} from "./opencode.ts";

const NAME = testPrefix("opencode");

/** verdict's recall tool as OpenCode offers it: <server>_<tool>. */
const RECALL_TOOL = "verdict_verdict_recall";
/** The synthetic text OpenCode stores in place of a `!` command's prompt. */
const SHELL_MARK = "The following tool was executed by the user";

const MEMORY = "Please record that rule in AGENTS.md.";
const SHELL = "!git status --short";
const NOTE_TEXT = "# Rules\n\n- Use pnpm, never npm.\n";

/** One row of OpenCode's `message` table with its parts, JSON decoded. */
interface StoredMessage {
  readonly id: string;
  readonly sessionId: string;
  readonly data: Record<string, unknown>;
  readonly parts: Record<string, unknown>[];
}

interface Story extends shared.StoryResult {
  readonly install: CliResult;
  readonly uninstall: CliResult;
  /** ~/.config/opencode/opencode.json before install, after install and after uninstall. */
  readonly config: { before: string; installed: string; after: string };
  /**
   * The files in ~/.config/opencode but the plugin package: before and after install, just
   * before uninstall (OpenCode writes its own .gitignore there meanwhile) and after it.
   */
  readonly configFiles: { before: string[]; installed: string[]; beforeUninstall: string[]; after: string[] };
  /** What ~/.config/opencode/plugin holds after uninstall (null: no such folder). */
  readonly pluginDirAfter: string[] | null;
  readonly doctor: Check | undefined;
  /** Every message OpenCode stored, in rowid order. */
  readonly messages: readonly StoredMessage[];
  /** Each session's `permission` column (what tells `opencode run` sessions apart). */
  readonly sessions: readonly { id: string; permission: unknown }[];
  readonly hintScreen: string;
  readonly afterUninstall: HeadlessResult;
  readonly hooks: string;
  readonly seconds: number;
}

/** Files under ~/.config/opencode except the plugin package the driver put there. */
async function configFiles(ws: Workspace): Promise<string[]> {
  return (await listFiles(`${ws.home}/.config/opencode`)).filter((f) =>
    !f.startsWith("node_modules/") && f !== "package.json" && f !== "package-lock.json" &&
    !f.startsWith("opencode.json.verdict-backup-")
  );
}

async function entries(dir: string): Promise<string[] | null> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

function parsed(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Every message and part OpenCode stored (read once every OpenCode process has ended). */
function readStore(
  path: string,
): { messages: StoredMessage[]; sessions: { id: string; permission: unknown }[] } {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const parts = db.prepare("SELECT data FROM part WHERE message_id = ? ORDER BY rowid");
    const messages = (db.prepare("SELECT id, session_id, data FROM message ORDER BY rowid").all() as {
      id: string;
      session_id: string;
      data: string;
    }[]).map((m) => ({
      id: m.id,
      sessionId: m.session_id,
      data: JSON.parse(m.data),
      parts: (parts.all(m.id) as { data: string }[]).map((p) => JSON.parse(p.data)),
    }));
    const sessions = (db.prepare("SELECT id, permission FROM session ORDER BY rowid").all() as {
      id: string;
      permission: unknown;
    }[]).map((s) => ({ id: s.id, permission: parsed(s.permission) }));
    return { messages, sessions };
  } finally {
    db.close();
  }
}

const story = once(async (): Promise<Story> => {
  const started = performance.now();
  await using ws = await Workspace.create("opencode");
  await using server = chatServer([
    { when: "from now on use pnpm", reply: { text: "Understood: pnpm only, never npm." } },
    {
      when: "record that rule in AGENTS.md",
      reply: { tool: "write", args: { filePath: `${ws.project}/AGENTS.md`, content: NOTE_TEXT } },
    },
    { afterTool: true, when: "wrote file successfully", reply: { text: "Wrote AGENTS.md." } },
    { when: "lodash", reply: { text: "Run `pnpm add lodash`." } },
    { when: "recall tool", reply: { tool: RECALL_TOOL, args: { query: "package manager pnpm npm" } } },
    { afterTool: true, when: "never npm", reply: { text: "The recall tool says: pnpm, never npm." } },
  ], { side: isOpenCodeSide });
  const configPath = await seedOpenCodeHome(ws, server);
  const before = await Deno.readTextFile(configPath);
  const filesBefore = await configFiles(ws);
  const steps = new shared.StoryRun(ws, server, (prompt) => openCodeRun(ws, server, prompt));

  const install = await ws.verdict(["install"]);
  const installed = await Deno.readTextFile(configPath);
  const filesInstalled = await configFiles(ws);
  const doctor = (await ws.doctorChecks())["opencode plugin"];

  // Session A: the decision and what collect must tell apart.
  {
    await using tui = await OpenCodeTui.start(ws, server);
    steps.mark("decision");
    await tui.submit(shared.DECISION, "from now on use pnpm");
    steps.mark("memory");
    await tui.submit(MEMORY, "AGENTS.md");
    steps.mark("shell");
    // git status names the file just written: its line on screen says the command ran.
    await tui.submit(SHELL, undefined, /\?\? AGENTS\.md/);
    steps.mark("compact");
    await tui.submit("/compact", (r) => r.side && systemText(r.body).includes("summarization"));
    steps.mark("session-a-end");
    await tui.quit();
  }
  await ws.verdictOk(["collect"]);

  const hintScreen = await steps.askInNewSession(() => OpenCodeTui.start(ws, server));
  const { headless, records, headlessRecords } = await steps.headlessThenCollect();

  const filesBeforeUninstall = await configFiles(ws);
  const uninstall = await ws.verdict(["uninstall"]);
  const after = await Deno.readTextFile(configPath);
  const filesAfter = await configFiles(ws);
  const pluginDirAfter = await entries(`${ws.home}/.config/opencode/plugin`);
  const afterUninstall = await steps.printAfterUninstall();

  const store = readStore(`${ws.home}/.local/share/opencode/opencode.db`);
  return {
    requests: [...server.requests],
    marks: steps.marks,
    install,
    uninstall,
    config: { before, installed, after },
    configFiles: {
      before: filesBefore,
      installed: filesInstalled,
      beforeUninstall: filesBeforeUninstall,
      after: filesAfter,
    },
    pluginDirAfter,
    doctor,
    records,
    headlessRecords,
    messages: store.messages,
    sessions: store.sessions,
    hintScreen,
    headless,
    afterUninstall,
    hooks: await ws.hookReport(),
    seconds: (performance.now() - started) / 1000,
  };
});

// ---- reading what was recorded

/** The text of the last user message of a request (the hint travels inside it). */
const promptMessage = (r: RecordedRequest) => lastUserText(r.body);

const role = (m: StoredMessage) => m.data.role;
const texts = (m: StoredMessage) => m.parts.filter((p) => p.type === "text");

// ---- the claims

Deno.test({
  name: `${NAME}: verdict install wires the hint plugin and MCP in a form OpenCode loads and runs`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    console.log(`opencode client story: ${s.seconds.toFixed(1)} s`);
    assert.equal(s.install.code, 0, s.install.stderr);
    assertIncludes(s.install.stdout, "hint plugin added");
    assert.deepEqual(s.configFiles.installed, [...s.configFiles.before, "plugin/verdict.js"].sort());
    assert.equal(JSON.parse(s.config.installed).mcp?.verdict?.type, "local", s.config.installed);
    assert.equal(s.doctor?.status, "ok", s.doctor?.message ?? 'doctor has no "opencode plugin" check');
    // OpenCode loaded the plugin and ran it: its synthetic part is stored with a typed prompt,
    const ran = s.messages.some((m) =>
      role(m) === "user" &&
      texts(m).some((p) => p.synthetic === true && String(p.text).includes(shared.HINT_MARK))
    );
    assert.ok(ran, `no message holds the plugin's hint part (verdict hooks run:\n${s.hooks})`);
    // and it started the MCP server and offered its tool to the model.
    const first = turnsOf(s, "decision")[0]!;
    assert.ok(toolNames(first.body).includes(RECALL_TOOL), `tools offered: ${toolNames(first.body)}`);
  },
});

Deno.test({
  name: `${NAME}: collect yields exactly the typed prompts and the AGENTS.md write that landed`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(promptTexts(s.records), [
      shared.DECISION,
      MEMORY,
      shared.BEARS_ON_DECISION,
      shared.SMALL_TALK,
      shared.ASK_RECALL,
    ]);
    assert.ok(
      s.records.every((r) => r.origin === "opencode"),
      JSON.stringify(s.records.map((r) => r.origin)),
    );
    const notes = s.records.filter((r) => r.kind === "note").map((r) => r.text);
    assert.deepEqual(notes, [NOTE_TEXT.trim()]);
  },
});

Deno.test({
  name:
    `${NAME}: collect keeps out what the machine made (plugin context, ! commands, compaction, tool results, titles)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    // Each kind of machine-made text really is in the database (so its absence below means something) …
    const userParts = s.messages.filter((m) => role(m) === "user").flatMap((m) => m.parts);
    const toolParts = s.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool");
    const toolState = (p: Record<string, unknown>) => (p.state ?? {}) as Record<string, unknown>;
    const machine = {
      "plugin hint part": userParts.find((p) =>
        p.synthetic === true && String(p.text).includes(shared.HINT_MARK)
      ),
      "! command's synthetic prompt": userParts.find((p) =>
        p.synthetic === true && String(p.text).includes(SHELL_MARK)
      ),
      "! command's bash call": toolParts.find((p) =>
        p.tool === "bash" && JSON.stringify(toolState(p).input).includes("git status --short")
      ),
      "compaction request": userParts.find((p) => p.type === "compaction"),
      "compaction summary": s.messages.find((m) => m.data.summary === true),
      "MCP tool result": toolParts.find((p) => p.tool === RECALL_TOOL && toolState(p).status === "completed"),
    };
    for (const [what, found] of Object.entries(machine)) assert.ok(found, `the database holds no ${what}`);
    // … and none of it became a record.
    const all = s.headlessRecords.map((r) => String(r.text));
    for (
      const bad of [
        shared.HINT_MARK,
        SHELL_MARK,
        "git status",
        "side request answered",
        "Wrote file successfully",
      ]
    ) {
      assert.deepEqual(all.filter((t) => t.includes(bad)), [], `a record holds "${bad}"`);
    }
  },
});

Deno.test({
  name: `${NAME}: the headless policy holds for opencode run (left out unless include_headless, unquoted)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.headless.code, 0, s.headless.stderr);
    // opencode run stores the prompt quoted: collect undoes it.
    const stored = s.messages.find((m) =>
      role(m) === "user" && texts(m).some((p) => String(p.text).includes(shared.HEADLESS))
    );
    if (!stored) throw new Error("the run session stored no prompt");
    assert.equal(texts(stored)[0]!.text, JSON.stringify(shared.HEADLESS));
    shared.assertCollectedOnlyWithHeadless(s, shared.HEADLESS);
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
    const last = promptMessage(turn);
    assertIncludes(last, shared.BEARS_ON_DECISION);
    assertIncludes(last, shared.HINT_MARK, `the prompt's request (verdict hooks run:\n${s.hooks}\n)`);
    assertIncludes(last, shared.DECISION);
    // The quote says where it is: the database and the message's id (it has no lines).
    const decision = s.messages.find((m) => role(m) === "user" && texts(m)[0]?.text === shared.DECISION)!;
    assertIncludes(last, `/opencode.db#${decision.id}`);
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
    assert.ok(toolNames(turns[0]!.body).includes(RECALL_TOOL));
    const results = toolResults(turns[1]!.body);
    assert.ok(results.length > 0, "the request after the call carries no tool result");
    assertIncludes(results.at(-1)!.text, shared.DECISION);
    assertIncludes(results.at(-1)!.text, "/opencode.db#msg_");
  },
});

Deno.test({
  name: `${NAME}: verdict uninstall leaves no trace and OpenCode still works`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.uninstall.code, 0, s.uninstall.stderr);
    // opencode.json has its bytes from before install back; of the files, only the plugin went.
    assert.equal(s.config.after, s.config.before);
    assertIncludes(s.uninstall.stdout, "hint plugin deleted");
    assert.deepEqual(
      s.configFiles.after,
      s.configFiles.beforeUninstall.filter((f) => f !== "plugin/verdict.js"),
    );
    // The plugin/ folder install made stays, empty (docs/install.md: the uninstall runs with
    // write access to the plugin file alone, not to its folder).
    assert.deepEqual(s.pluginDirAfter, []);
    assert.equal(s.afterUninstall.code, 0, s.afterUninstall.stderr);
    const turn = turnsOf(s, "after-uninstall")[0]!;
    assertIncludes(promptMessage(turn), shared.AFTER_UNINSTALL);
    assert.ok(
      !toolNames(turn.body).some((t) => t.startsWith("verdict_")),
      "the uninstalled MCP server was still offered",
    );
    assert.ok(!turn.text.includes("[verdict"), "verdict text reached the model after uninstall");
  },
});
