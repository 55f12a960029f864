/**
 * The real pi (pinned in harness/versions.ts) against this checkout's verdict, fully offline (a
 * custom provider pointed at the scripted Chat Completions model on 127.0.0.1, a temp HOME, a git
 * project). One story, driven once; each test checks one claim on what it left:
 *
 *  1. `verdict install` (the extension `~/.pi/agent/extensions/verdict.ts`), then session A in the
 *     TUI: a decision, an AGENTS.md write (a note, left uncommitted), a `!` shell line and
 *     `/compact` (the compaction verdict, then the handoff), then one more prompt;
 *  2. `verdict collect`, then session B: a prompt the decision bears on (the hint) and small talk
 *     (no hint);
 *  3. a headless `pi -p`; `verdict collect` again (and once with include_headless);
 *  4. `verdict uninstall`, then `pi -p` once more.
 *
 * pi has no MCP support (its README: "No MCP"), so no MCP call is part of the story.
 */
import assert from "node:assert/strict";
import type { CliResult } from "../../cli_helper.ts";
import { type ChatReply, userTextsFrom } from "../harness/openai_chat.ts";
import type { Rule } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, turnsOf } from "../harness/scenario.ts";
import * as shared from "../harness/story.ts";
import { testPrefix } from "../harness/versions.ts";
import { listFiles, Workspace } from "../harness/workspace.ts";
import { type HeadlessResult, piFolder, piPrint, piServer, PiTui, seedPiHome, sessionFiles } from "./pi.ts";

const NAME = testPrefix("pi");

const MEMORY = "Please record that rule in AGENTS.md.";
const COMPACT = "/compact";
const NOTE_TEXT = "# Agent rules\n\n- Use pnpm, never npm.\n";

interface Story extends shared.StoryResult {
  readonly install: CliResult;
  readonly doctor: CliResult;
  readonly uninstall: CliResult;
  /** Every file under pi's folder but its sessions, with its text: before install, after uninstall. */
  readonly before: Readonly<Record<string, string>>;
  readonly after: Readonly<Record<string, string>>;
  readonly extension: string;
  readonly sessions: Readonly<Record<string, Record<string, unknown>[]>>;
  readonly hookCalls: readonly string[];
  readonly handoffFiles: readonly string[];
  readonly afterUninstall: HeadlessResult;
  readonly hooksAfterUninstall: number;
  readonly seconds: number;
}

async function folderTexts(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await listFiles(dir)) {
    if (!f.startsWith("sessions/")) out[f] = await Deno.readTextFile(`${dir}/${f}`);
  }
  return out;
}

const story = once(async (): Promise<Story> => {
  const started = performance.now();
  await using ws = await Workspace.create("pi");
  const P = ws.project;
  const script: Rule<ChatReply>[] = [
    { when: "from now on use pnpm", reply: { text: "Understood: pnpm only, never npm." } },
    {
      when: "record that rule in AGENTS.md",
      reply: { tool: "write", args: { path: `${P}/AGENTS.md`, content: NOTE_TEXT } },
    },
    { afterTool: true, when: "AGENTS.md", reply: { text: "Created AGENTS.md." } },
    { when: "lodash", reply: { text: "Run `pnpm add lodash`." } },
  ];
  await using server = piServer(script);
  await seedPiHome(ws, server);
  const before = await folderTexts(piFolder(ws));
  const steps = new shared.StoryRun(ws, server, (prompt) => piPrint(ws, prompt));

  const install = await ws.verdict(["install"]);
  const extension = await Deno.readTextFile(`${piFolder(ws)}/extensions/verdict.ts`);
  const doctor = await ws.verdict(["doctor"]);
  await steps.decideThenCompact(() => PiTui.start(ws, server), {
    memory: MEMORY,
    memoryFile: "AGENTS.md",
    compact: COMPACT,
  });
  await ws.verdictOk(["collect"]);
  // pi has no MCP: no question for the recall tool.
  await steps.askInNewSession(() => PiTui.start(ws, server), { askRecall: false });
  const { headless, records, headlessRecords } = await steps.headlessThenCollect();
  const hookCalls = (await ws.hookCalls()).map((c) => c.args);

  const uninstall = await ws.verdict(["uninstall"]);
  const afterUninstall = await steps.printAfterUninstall();
  const hooksAfterUninstall = (await ws.hookCalls()).length - hookCalls.length;

  const sessions = await shared.readJsonlFiles(await sessionFiles(ws));
  const handoffFiles = await ws.handoffFiles();
  return {
    requests: [...server.requests],
    marks: steps.marks,
    install,
    doctor,
    uninstall,
    before,
    after: await folderTexts(piFolder(ws)),
    extension,
    records,
    headlessRecords,
    sessions,
    hookCalls,
    handoffFiles,
    headless,
    afterUninstall,
    hooksAfterUninstall,
    seconds: (performance.now() - started) / 1000,
  };
});

function allEntries(s: Story): Record<string, unknown>[] {
  return Object.values(s.sessions).flat();
}

Deno.test({
  name: `${NAME}: verdict install writes the extension; pi loads it and runs verdict's hooks`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    console.log(`client tests: the pi story took ${s.seconds.toFixed(1)} s`);
    assert.equal(s.install.code, 0, s.install.stderr);
    assertIncludes(s.install.stdout, "extension added");
    assertIncludes(s.extension, "verdict-pi-extension");
    assert.match(s.doctor.stdout, /^ok +pi extension +extension \(hint, compaction verdict and handoff\)/m);
    // Nothing to register the MCP server with here, and doctor says why rather than failing.
    assert.match(
      s.doctor.stdout,
      /^skip +mcp +no agent found here takes an MCP server \(pi has no MCP support/m,
    );
    // Each prompt ran the hint hook, the compaction ran the other two.
    const ran = (sub: string) => s.hookCalls.filter((c) => c.startsWith(`hook ${sub} --agent pi`)).length;
    assert.ok(ran("user-prompt") >= 5, s.hookCalls.join("\n"));
    assert.equal(ran("pre-compact"), 1, s.hookCalls.join("\n"));
    assert.equal(ran("session-start"), 1, s.hookCalls.join("\n"));
    // The extension marks each session's mode; pi keeps that entry out of the model's context.
    const modes = allEntries(s).filter((e) => e.type === "custom" && e.customType === "verdict");
    assert.deepEqual(
      modes.map((e) => (e.data as Record<string, unknown>).mode),
      ["interactive", "interactive", "headless"],
    );
    for (const r of s.requests) assert.ok(!JSON.stringify(r.body).includes('"mode":"interactive"'));
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
    ]);
    assert.deepEqual(s.records.filter((r) => r.kind === "note").map((n) => n.text), [NOTE_TEXT.trim()]);
    for (const r of s.records) {
      assert.equal(r.origin, "pi");
      assert.equal(r.project, (s.records[0] as Record<string, unknown>).project);
    }
  },
});

Deno.test({
  name: `${NAME}: collect keeps out what the machine made (the hint, tool results, ! lines, summaries)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    // Presence first: the session files hold each machine-made thing.
    const entries = allEntries(s);
    const hints = entries.filter((e) => e.type === "custom_message" && e.customType === "verdict");
    assert.ok(hints.some((e) => String(e.content).includes(shared.HINT_MARK)), "no hint was stored");
    assert.ok(
      entries.some((e) => (e.message as Record<string, unknown> | undefined)?.role === "bashExecution"),
    );
    assert.ok(entries.some((e) => e.type === "compaction"));
    assert.ok(entries.some((e) => (e.message as Record<string, unknown> | undefined)?.role === "toolResult"));
    const texts = s.records.map((r) => String(r.text));
    for (
      const bad of [
        shared.HINT_MARK,
        shared.HANDOFF_MARK,
        "git status",
        "/compact",
        "Successfully wrote",
        "verdict",
      ]
    ) {
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
    assert.ok(hinted.length >= 2, `no message follows the prompt: ${JSON.stringify(hinted)}`);
    assertIncludes(hinted[1]!, shared.HINT_MARK, "the message after the prompt");
    assertIncludes(hinted[1]!, shared.DECISION, "the hint");
    const talk = userTextsFrom(shared.turnFor(s, shared.SMALL_TALK).body, shared.SMALL_TALK);
    assert.deepEqual(talk, [shared.SMALL_TALK], "small talk went out alone");
  },
});

Deno.test({
  name: `${NAME}: /compact runs the compaction verdict and the next request carries the handoff`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.ok(allEntries(s).some((e) => e.type === "compaction"), "pi did not compact");
    assert.equal(s.handoffFiles.length, 1, "the pre-compaction hook wrote no handoff");
    const next = turnsOf(s, "after-compact")[0]!;
    const after = userTextsFrom(next.body, shared.AFTER_COMPACT);
    assert.ok(after.length >= 2, JSON.stringify(after));
    assertIncludes(after[1]!, shared.HANDOFF_MARK, "the message after the first prompt after the compaction");
    assertIncludes(after[1]!, "AGENTS.md"); // the uncommitted file the handoff lists
  },
});

Deno.test({
  name: `${NAME}: a pi -p prompt is collected only with include_headless`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.headless.code, 0, s.headless.stderr);
    shared.assertCollectedOnlyWithHeadless(s, shared.HEADLESS);
  },
});

Deno.test({
  name: `${NAME}: uninstall leaves pi's folder byte for byte as it was, and pi working without verdict`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.equal(s.uninstall.code, 0, s.uninstall.stderr);
    assertIncludes(s.uninstall.stdout, "extension deleted");
    // pi writes auth.json itself at its first start (empty: the key is in models.json).
    const { ["settings.json"]: settingsAfter, ["auth.json"]: _auth, ...restAfter } = s.after;
    const { ["settings.json"]: settingsBefore, ...restBefore } = s.before;
    assert.deepEqual(restAfter, restBefore);
    // pi itself records the last changelog it showed in settings.json; nothing else changed there.
    const plain = (t: string | undefined) => {
      const o = JSON.parse(t ?? "{}");
      delete o.lastChangelogVersion;
      return o;
    };
    assert.deepEqual(plain(settingsAfter), plain(settingsBefore));
    assert.equal(s.afterUninstall.code, 0, s.afterUninstall.stderr);
    assert.equal(s.hooksAfterUninstall, 0, "pi still ran a verdict hook after the uninstall");
    const last = turnsOf(s, "after-uninstall")[0]!;
    assert.deepEqual(userTextsFrom(last.body, shared.AFTER_UNINSTALL), [shared.AFTER_UNINSTALL]);
  },
});
