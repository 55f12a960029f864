/**
 * The real Cline CLI (pinned in harness/versions.ts) against this checkout's verdict, fully
 * offline (an OpenAI-compatible provider pointed at the scripted Chat Completions model on
 * 127.0.0.1, a temp HOME, a git project). One story, driven once; each test checks one claim on
 * what it left:
 *
 *  1. `cline auth` (the provider), `cline mcp add` (a server of the person's own), `verdict install` (the plugin `~/.cline/plugins/verdict.js` and
 *     mcpServers.verdict in `~/.cline/data/settings/cline_mcp_settings.json`), `verdict doctor`;
 *  2. session A in the TUI: a decision, then a .clinerules write (a note);
 *  3. `verdict collect`, then session B in the TUI: a prompt the decision bears on (the hint),
 *     small talk (no hint), and a prompt that makes the model call verdict's MCP tool;
 *  4. a headless `cline "<prompt>"`; `verdict collect` again (and once with include_headless);
 *  5. `verdict uninstall`, then `cline "<prompt>"` once more.
 *
 * Cline has no moment before a compaction a plugin or hook can reach (docs/cline.md), so no
 * compaction is part of the story.
 */
import assert from "node:assert/strict";
import type { CliResult } from "../../cli_helper.ts";
import { type ChatReply, toolResults, userTextsFrom } from "../harness/openai_chat.ts";
import type { Rule } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts } from "../harness/scenario.ts";
import * as shared from "../harness/story.ts";
import { testPrefix } from "../harness/versions.ts";
import { listFiles, Workspace } from "../harness/workspace.ts";
import {
  cline,
  clineFolder,
  clineServer,
  ClineTui,
  type HeadlessResult,
  seedClineHome,
  sessionDocuments,
  stopHub,
} from "./cline.ts";

const NAME = testPrefix("cline");

const MEMORY = "Please record that rule in .clinerules.";
const RECALL = "Use the recall tool: what did I decide about installing packages?";
const NOTE_TEXT = "# Rules\n\n- Use pnpm, never npm.\n";
const MCP_SETTINGS = "data/settings/cline_mcp_settings.json";

interface Story extends shared.StoryResult {
  readonly install: CliResult;
  readonly doctor: CliResult;
  readonly uninstall: CliResult;
  /** The files install and uninstall touch (the plugins folder, the MCP settings), with their text. */
  readonly before: Readonly<Record<string, string>>;
  readonly after: Readonly<Record<string, string>>;
  readonly plugin: string;
  readonly mcpSettings: string;
  readonly documents: Readonly<Record<string, Record<string, unknown>>>;
  readonly hookCalls: readonly string[];
  readonly hookReport: string;
  readonly afterUninstall: HeadlessResult;
  readonly hooksAfterUninstall: number;
  readonly seconds: number;
}

/**
 * The files install and uninstall touch, with their text: the plugins folder and the MCP settings
 * file (Cline itself rewrites the rest of its settings folder as it runs: providers.json's
 * `updatedAt`, the notices it showed in cli-notices.json).
 */
async function wiredFiles(ws: Workspace): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await listFiles(`${clineFolder(ws)}/plugins`)) {
    out[`plugins/${f}`] = await Deno.readTextFile(`${clineFolder(ws)}/plugins/${f}`);
  }
  try {
    out[MCP_SETTINGS] = await Deno.readTextFile(`${clineFolder(ws)}/${MCP_SETTINGS}`);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out;
}

const story = once(async (): Promise<Story> => {
  const started = performance.now();
  await using ws = await Workspace.create("cline");
  const P = ws.project;
  const script: Rule<ChatReply>[] = [
    { when: "from now on use pnpm", reply: { text: "Understood: pnpm only, never npm." } },
    {
      when: "record that rule in .clinerules",
      reply: { tool: "editor", args: { path: `${P}/.clinerules`, new_text: NOTE_TEXT } },
    },
    { afterTool: true, when: "clinerules", reply: { text: "Created .clinerules." } },
    { when: "lodash", reply: { text: "Run pnpm add lodash." } },
    { when: "thanks, that is all", reply: { text: "You are welcome." } },
    {
      when: "recall tool",
      reply: { tool: "verdict__verdict_recall", args: { query: "install packages pnpm" } },
    },
    { afterTool: true, when: "pnpm", reply: { text: "The tool says: pnpm." } },
    { when: "linter", reply: { text: "Noted: lint first." } },
    { when: "hello after the uninstall", reply: { text: "Hello." } },
  ];
  await using server = clineServer(script);
  try {
    await seedClineHome(ws, server);
    // A server of the person's own, added the way Cline adds one: uninstall must leave it as it was.
    const own = await cline(ws, ["mcp", "add", "own-tools", "--yes", "--", "/bin/true"]);
    if (own.code !== 0) throw new Error(`cline mcp add exited ${own.code}:\n${own.stdout}\n${own.stderr}`);
    const before = await wiredFiles(ws);
    const steps = new shared.StoryRun(ws, server, (prompt) => cline(ws, [prompt]));

    const install = await ws.verdict(["install"]);
    const plugin = await Deno.readTextFile(`${clineFolder(ws)}/plugins/verdict.js`);
    const mcpSettings = await Deno.readTextFile(`${clineFolder(ws)}/${MCP_SETTINGS}`);
    const doctor = await ws.verdict(["doctor"]);
    {
      await using tui = await ClineTui.start(ws, server);
      steps.mark("decision");
      await tui.submit(shared.DECISION, "from now on use pnpm", "Understood: pnpm only");
      steps.mark("memory");
      await tui.submit(MEMORY, "clinerules", "Created .clinerules.");
      await tui.quit();
    }
    await ws.verdictOk(["collect"]);
    // Session B by hand: Cline's TUI is done with a prompt when the screen shows its reply.
    {
      await using tui = await ClineTui.start(ws, server);
      steps.mark("hint");
      await tui.submit(shared.BEARS_ON_DECISION, "lodash", "Run pnpm add lodash.");
      steps.mark("small-talk");
      await tui.submit(shared.SMALL_TALK, "thanks", "You are welcome.");
      steps.mark("recall");
      await tui.submit(RECALL, "recall tool", "The tool says: pnpm.");
      await tui.quit();
    }
    const { headless, records, headlessRecords } = await steps.headlessThenCollect();
    const hookCalls = (await ws.hookCalls()).map((c) => c.args);
    const hookReport = await ws.hookReport();

    const uninstall = await ws.verdict(["uninstall"]);
    const afterUninstall = await steps.printAfterUninstall();
    const hooksAfterUninstall = (await ws.hookCalls()).length - hookCalls.length;
    return {
      requests: [...server.requests],
      marks: steps.marks,
      install,
      doctor,
      uninstall,
      before,
      after: await wiredFiles(ws),
      plugin,
      mcpSettings,
      records,
      headlessRecords,
      documents: await sessionDocuments(ws),
      hookCalls,
      hookReport,
      headless,
      afterUninstall,
      hooksAfterUninstall,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await stopHub(ws);
  }
});

function allMessages(s: Story): Record<string, unknown>[] {
  return Object.values(s.documents).flatMap((d) => (Array.isArray(d.messages) ? d.messages : []));
}

Deno.test({
  name: `${NAME}: verdict install writes the plugin and the MCP entry; Cline runs the plugin at every prompt`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    console.log(`client tests: the Cline CLI story took ${s.seconds.toFixed(1)} s`);
    assert.equal(s.install.code, 0, s.install.stderr);
    assertIncludes(s.install.stdout, "plugin added");
    assertIncludes(s.install.stdout, "mcpServers.verdict added");
    assertIncludes(s.plugin, "verdict-cline-plugin");
    assert.match(s.doctor.stdout, /^ok +cline plugin +plugin \(the hint before each prompt\)/m);
    assert.match(s.doctor.stdout, /^ok +mcp /m);
    // doctor starts the MCP server the way Cline's entry says (the command in its transport).
    assert.match(s.doctor.stdout, /^ok +cline mcp run +.*lists \d+ tools \(verdict_recall/m, s.doctor.stdout);
    // Each of the five typed TUI prompts and the headless one ran the hint hook (tool turns do not).
    const ran = s.hookCalls.filter((c) => c.startsWith("hook user-prompt --agent cline")).length;
    assert.equal(ran, 6, s.hookReport);
  },
});

Deno.test({
  name: `${NAME}: collect yields exactly the typed prompts and the .clinerules write that landed`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(promptTexts(s.records), [
      shared.DECISION,
      MEMORY,
      shared.BEARS_ON_DECISION,
      shared.SMALL_TALK,
      RECALL,
    ]);
    assert.deepEqual(s.records.filter((r) => r.kind === "note").map((n) => n.text), [NOTE_TEXT.trim()]);
    for (const r of s.records) {
      assert.equal(r.origin, "cline");
      assert.equal(r.project, (s.records[0] as Record<string, unknown>).project);
    }
  },
});

Deno.test({
  name: `${NAME}: collect keeps out what the machine made (the hint, tool results, the system prompt)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    // Presence first: the session documents hold the hint and the tool results.
    const text = JSON.stringify(allMessages(s));
    assertIncludes(text, '<hook_context source=\\"RunStart\\">', "the stored messages");
    assertIncludes(text, shared.HINT_MARK, "the stored messages");
    assertIncludes(text, "tool_result", "the stored messages");
    const texts = s.records.map((r) => String(r.text));
    for (const bad of [shared.HINT_MARK, "hook_context", "user_input", "File created", "You are Cline"]) {
      assert.deepEqual(texts.filter((t) => t.includes(bad)), [], `a record holds "${bad}"`);
    }
  },
});

Deno.test({
  name: `${NAME}: a prompt that bears on the decision reaches the model with the hint; small talk without`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const hinted = userTextsFrom(shared.turnFor(s, shared.BEARS_ON_DECISION).body, shared.BEARS_ON_DECISION);
    assert.ok(
      hinted.length >= 2,
      `no message follows the prompt: ${JSON.stringify(hinted)}\n${s.hookReport}`,
    );
    assertIncludes(hinted[1]!, shared.HINT_MARK, "the message after the prompt");
    assertIncludes(hinted[1]!, shared.DECISION, "the hint");
    const talk = userTextsFrom(shared.turnFor(s, shared.SMALL_TALK).body, shared.SMALL_TALK);
    assert.deepEqual(talk, [shared.SMALL_TALK], "small talk went out alone");
  },
});

Deno.test({
  name: `${NAME}: the model calls verdict's MCP tool and gets the decision back`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    const turns = s.requests.slice(s.marks["recall"]).filter((r) => r.turn && !r.side);
    const offered = turns[0]!.body as { tools?: { function: { name: string } }[] };
    assert.ok(
      (offered.tools ?? []).some((t) => t.function.name === "verdict__verdict_recall"),
      "Cline did not offer verdict's MCP tool",
    );
    const results = turns.flatMap((r) => toolResults(r.body)).map((t) => t.text);
    assert.ok(results.some((t) => t.includes("pnpm")), `no tool result holds the decision: ${results}`);
  },
});

Deno.test({
  name: `${NAME}: a cline "<prompt>" run is collected only with include_headless`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.headless.code, 0, s.headless.stderr);
    shared.assertCollectedOnlyWithHeadless(s, shared.HEADLESS);
  },
});

Deno.test({
  name:
    `${NAME}: uninstall leaves Cline's plugins and MCP settings as they were, and Cline working without verdict`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.uninstall.code, 0, s.uninstall.stderr);
    assertIncludes(s.uninstall.stdout, "plugin deleted");
    assertIncludes(s.uninstall.stdout, "mcpServers.verdict removed");
    assert.deepEqual(s.after, s.before);
    assert.deepEqual(
      Object.keys(s.before),
      [MCP_SETTINGS],
      "before the install: no plugin, the person's own server",
    );
    assertIncludes(s.before[MCP_SETTINGS]!, '"own-tools"');
    assertIncludes(s.mcpSettings, '"verdict"', "the MCP settings install wrote");
    assert.equal(s.afterUninstall.code, 0, s.afterUninstall.stderr);
    assert.equal(s.hooksAfterUninstall, 0, "Cline still ran a verdict hook after the uninstall");
    const last = s.requests.slice(s.marks["after-uninstall"]).find((r) => r.turn && !r.side)!;
    assert.deepEqual(userTextsFrom(last.body, shared.AFTER_UNINSTALL), [shared.AFTER_UNINSTALL]);
  },
});
