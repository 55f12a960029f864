/**
 * The Cline CLI: the session parser on real 3.0.65 sessions (tests/fixtures/agents/cline/samples/,
 * rewritten to /home/dev), fed whole, cut anywhere and resumed from its carry, and read again after
 * a rewrite; the plugin install writes (run for real: imported and its hook called, with a stand-in
 * verdict program), removes and refuses; the MCP entry; and the hook dialect. Each sample's
 * records were decided by hand, message by message (docs/cline.md).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  createClineParser,
  isClineMemoryPath,
  MAX_PENDING_BYTES,
  resultLanded,
  sessionFacts,
  typedText,
} from "../../../src/agents/cline/session.ts";
import {
  installPlugin,
  isOurPlugin,
  PLUGIN_MARKER,
  pluginProgram,
  pluginSource,
  uninstallPlugin,
} from "../../../src/agents/cline/plugin.ts";
import { clineMcpState, installClineMcp, uninstallClineMcp } from "../../../src/agents/cline/mcp.ts";
import { dialect } from "../../../src/agents/cline/hook_dialect.ts";
import { lastRunPluginFailure } from "../../../src/agents/cline/doctor.ts";
import { HostFileError } from "../../../src/hostfile/errors.ts";
import type { VerdictRecord } from "../../../src/record/record.ts";
import { feed, splitLines } from "../../collect/_feed.ts";
import { exportedRecords, runCli, tempHome } from "../../cli_helper.ts";
import { CLINE_EXPECTATIONS, messagesFile, metaFile } from "./expectations.ts";

const SAMPLES = fileURLToPath(new URL("../../fixtures/agents/cline/samples/", import.meta.url));

function factsOf(session: string) {
  return sessionFacts(JSON.parse(Deno.readTextFileSync(`${SAMPLES}${metaFile(session)}`)));
}

function brief(records: readonly VerdictRecord[], kind: string) {
  return records.filter((r) => r.kind === kind).map((r) => ({
    line: r.source_line,
    time: r.time,
    text: r.text,
  }));
}

for (const exp of CLINE_EXPECTATIONS) {
  Deno.test(`cline parser on the real sample ${exp.session}: exactly the typed prompts and landed notes`, () => {
    const path = `${SAMPLES}${messagesFile(exp.session)}`;
    const lines = splitLines(Deno.readTextFileSync(path));
    for (const includeHeadless of [false, true]) {
      const parser = createClineParser({ file: path, includeHeadless, context: factsOf(exp.session) }, null);
      const records = feed(parser, lines);
      const prompts = includeHeadless ? [...exp.prompts, ...exp.headlessPrompts] : exp.prompts;
      assert.deepEqual(
        brief(records, "prompt"),
        prompts,
        `${exp.session} includeHeadless=${includeHeadless}`,
      );
      assert.deepEqual(brief(records, "note"), exp.notes);
      assert.equal(parser.malformed, 0);
      for (const r of records) {
        assert.equal(r.origin, "cline");
        assert.equal(r.session, exp.session);
        assert.equal(r.project, "/home/dev/project");
        assert.ok(!r.text.includes("hook_context") && !r.text.includes("user_input"), r.text);
      }
    }
  });
}

Deno.test("cline parser: a document cut anywhere waits in the carry and the rest completes it, with the same records", () => {
  const exp = CLINE_EXPECTATIONS[0]!;
  const path = `${SAMPLES}${messagesFile(exp.session)}`;
  const lines = splitLines(Deno.readTextFileSync(path));
  const opts = { file: path, includeHeadless: false, context: factsOf(exp.session) };
  const whole = feed(createClineParser(opts, null), lines);
  assert.ok(whole.length > 0);
  for (let cut = 1; cut < lines.length; cut++) {
    const first = createClineParser(opts, null);
    const a = feed(first, lines.slice(0, cut));
    assert.deepEqual(a, [], `cut at ${cut}: a partial document yields nothing yet`);
    const carry = JSON.parse(JSON.stringify(first.carry()));
    const b = feed(createClineParser(opts, carry), lines.slice(cut), cut + 1);
    assert.deepEqual(b, whole, `cut at ${cut}`);
  }
});

Deno.test("cline parser: a document rewritten with one more message yields the same ids for the old ones, and a parsed one yields nothing more", () => {
  const exp = CLINE_EXPECTATIONS[0]!;
  const path = `${SAMPLES}${messagesFile(exp.session)}`;
  const doc = JSON.parse(Deno.readTextFileSync(path));
  const opts = { file: path, includeHeadless: false, context: factsOf(exp.session) };
  const shorter = { ...doc, messages: doc.messages.slice(0, 4) };
  const before = feed(createClineParser(opts, null), splitLines(JSON.stringify(shorter, null, 2)));
  const parser = createClineParser(opts, null);
  const after = feed(parser, splitLines(JSON.stringify(doc, null, 2)));
  assert.deepEqual(before.map((r) => r.id), after.slice(0, before.length).map((r) => r.id));
  assert.equal(new Set(after.map((r) => r.id)).size, after.length, "ids are unique");
  // Resumed after a whole document, nothing is yielded again and stray text is counted.
  const resumed = createClineParser(opts, JSON.parse(JSON.stringify(parser.carry())));
  assert.deepEqual(feed(resumed, ["}"]), []);
  assert.equal(resumed.malformed, 1);
});

Deno.test("cline parser: a headless session's prompts count only with include_headless; without a meta file they count", () => {
  const doc = JSON.stringify(
    {
      sessionId: "s1",
      messages: [{
        id: "m1",
        role: "user",
        ts: 1796608000000,
        content: [{ type: "text", text: '<user_input mode="act">Use pnpm.</user_input>' }],
      }],
    },
    null,
    2,
  );
  const run = (context: unknown, includeHeadless: boolean) =>
    feed(createClineParser({ file: "/f", includeHeadless, context }, null), splitLines(doc)).length;
  assert.equal(run({ interactive: false, cwd: "/p" }, false), 0);
  assert.equal(run({ interactive: false, cwd: "/p" }, true), 1);
  assert.equal(run({ interactive: true, cwd: "/p" }, false), 1);
  assert.equal(run(undefined, false), 1);
});

Deno.test("cline parser: a document that never completes is dropped past its cap and counted", () => {
  const parser = createClineParser({ file: "/f", includeHeadless: false }, null);
  const chunk = "x".repeat(1024 * 1024);
  // The line that passes the cap drops all the document held (its quotes take it past 8 MB).
  for (let i = 0; i < MAX_PENDING_BYTES / chunk.length; i++) parser.line(`"${chunk}"`, i + 1);
  assert.deepEqual(parser.drain(), []);
  assert.equal(parser.malformed, 1);
  assert.ok(JSON.stringify(parser.carry()).length < chunk.length, "the carry did not keep the dropped text");
});

Deno.test("cline typed text: only the <user_input> body of a plain user message", () => {
  const user = (text: string, metadata?: unknown) => ({
    role: "user",
    content: [{ type: "text", text }],
    metadata,
  });
  assert.equal(typedText(user('<user_input mode="act">Use pnpm.</user_input>')), "Use pnpm.");
  assert.equal(
    typedText(user('<user_input mode="plan"><mode_notice>switched</mode_notice>Plan it.</user_input>')),
    "Plan it.",
  );
  assert.equal(typedText(user('<hook_context source="RunStart">\nhint\n</hook_context>')), "");
  assert.equal(
    typedText(user('<user_input mode="act">x</user_input>', { displayRole: "system", userRunSpan: 0 })),
    "",
  );
  assert.equal(
    typedText(user('<user_input mode="act">summary</user_input>', { kind: "compaction_summary" })),
    "",
  );
  assert.equal(typedText(user("plain text without the wrapper")), "");
  assert.equal(
    typedText({
      role: "assistant",
      content: [{ type: "text", text: '<user_input mode="act">x</user_input>' }],
    }),
    "",
  );
});

Deno.test("cline memory paths and tool results", () => {
  for (
    const p of [
      "/p/.clinerules",
      "/p/.clinerules/style.md",
      "/p/AGENTS.md",
      "/p/.cline/rules/a.txt",
      "/h/Documents/Cline/Rules/r.md",
    ]
  ) {
    assert.ok(isClineMemoryPath(p), p);
  }
  for (
    const p of [
      "/p/README.md",
      "/p/.clinerules/workflows/release.md",
      "/p/.clinerules/hooks/x.md",
      "/p/src/a.ts",
    ]
  ) {
    assert.ok(!isClineMemoryPath(p), p);
  }
  assert.ok(resultLanded({ content: '{"result":"File created","success":true}' }));
  assert.ok(!resultLanded({ content: '{"error":"text not found","success":false}' }));
  assert.ok(!resultLanded({ content: "not json" }));
  assert.ok(!resultLanded({ content: '{"success":true}', is_error: true }));
});

Deno.test("cline plugin: install writes it, again changes nothing, uninstall deletes it; someone else's is refused and left", () => {
  const first = installPlugin("", "/h/.cline/plugins/verdict.js", "/opt/verdict", {
    VERDICT_CONFIG: "/c.json",
  });
  assert.ok(first.text.startsWith(PLUGIN_MARKER));
  assert.equal(pluginProgram(first.text), "/opt/verdict");
  assert.deepEqual(first.changes, ["plugin added"]);
  assert.match(first.notes.join("\n"), /CLINE_PLUGIN_IMPORT_TIMEOUT_MS/);
  assert.deepEqual(
    installPlugin(first.text, "/p", "/opt/verdict", { VERDICT_CONFIG: "/c.json" }).changes,
    [],
  );
  assert.deepEqual(installPlugin(first.text, "/p", "/usr/bin/verdict", {}).changes, ["plugin updated"]);
  const gone = uninstallPlugin(first.text, "/p");
  assert.equal(gone.remove, true);
  const foreign = "export default { name: 'mine', manifest: { capabilities: ['hooks'] } };\n";
  assert.throws(() => installPlugin(foreign, "/p", "/opt/verdict", {}), HostFileError);
  const kept = uninstallPlugin(foreign, "/p");
  assert.equal(kept.text, foreign);
  assert.notEqual(kept.remove, true);
  assert.ok(!isOurPlugin(foreign));
});

Deno.test("cline plugin: imported for real, its beforeRun runs the verdict program with the typed prompt and returns its context", async () => {
  const dir = await Deno.makeTempDir({ prefix: "verdict-cline-plugin-" });
  try {
    const seen = `${dir}/stdin.json`;
    const bin = `${dir}/verdict`;
    await Deno.writeTextFile(
      bin,
      `#!/bin/sh\necho "$@" > '${dir}/args'\ncat > '${seen}'\necho '{"additionalContext":"[verdict recall] use pnpm"}'\n`,
      { mode: 0o755 },
    );
    const file = `${dir}/verdict.js`;
    await Deno.writeTextFile(file, pluginSource(bin, { VERDICT_MARK: "1" }));
    const plugin = (await import(`file://${file}`)).default;
    assert.equal(plugin.name, "verdict");
    assert.deepEqual(plugin.manifest, { capabilities: ["hooks"] });
    plugin.setup({}, { session: { sessionId: "1796608661005_6op54" } });
    const snapshot = {
      conversationId: "conv_1",
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: '<user_input mode="act">Should I use npm?</user_input>' }],
        },
      ],
    };
    assert.deepEqual(await plugin.hooks.beforeRun({ snapshot }), {
      appendContext: "[verdict recall] use pnpm",
    });
    const input = JSON.parse(await Deno.readTextFile(seen));
    assert.equal(input.prompt, "Should I use npm?");
    assert.equal(input.session_id, "1796608661005_6op54");
    assert.equal(input.hook_event_name, "UserPromptSubmit");
    assert.equal((await Deno.readTextFile(`${dir}/args`)).trim(), "hook user-prompt --agent cline");
    // A subagent's run, or a last user message that was not typed, gets nothing and runs nothing.
    await Deno.remove(seen);
    assert.equal(
      await plugin.hooks.beforeRun({ snapshot: { ...snapshot, parentAgentId: "lead" } }),
      undefined,
    );
    const notTyped = {
      messages: [{ role: "user", content: [{ type: "text", text: "<hook_context>x</hook_context>" }] }],
    };
    assert.equal(await plugin.hooks.beforeRun({ snapshot: notTyped }), undefined);
    await assert.rejects(Deno.stat(seen), Deno.errors.NotFound);
    // A program that is missing adds nothing (and throws nothing).
    await Deno.writeTextFile(file, pluginSource(`${dir}/missing`, {}));
    const broken = (await import(`file://${file}?missing`)).default;
    assert.equal(await broken.hooks.beforeRun({ snapshot }), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cline MCP: the entry cline mcp add writes, added and removed byte for byte; someone else's refused", () => {
  const path = "/h/.cline/data/settings/cline_mcp_settings.json";
  const added = installClineMcp("", path, "/opt/verdict", {});
  assert.deepEqual(JSON.parse(added.text), {
    mcpServers: {
      verdict: { transport: { type: "stdio", command: "/opt/verdict", args: ["mcp"], env: {} } },
    },
  });
  assert.equal(clineMcpState(added.text, path), "ours");
  assert.equal(uninstallClineMcp(added.text, path).remove, true, "a file install created is deleted");
  const theirs =
    '{\n  "mcpServers": {\n    "probe": {\n      "transport": { "type": "stdio", "command": "/bin/echo" }\n    }\n  }\n}\n';
  const both = installClineMcp(theirs, path, "/opt/verdict", {});
  assert.equal(uninstallClineMcp(both.text, path).text, theirs, "uninstall leaves the file byte for byte");
  const flat = '{ "mcpServers": { "verdict": { "command": "/usr/local/bin/verdict", "args": ["mcp"] } } }';
  assert.equal(clineMcpState(flat, path), "ours", "the flat shape of verdict's entry is verdict's");
  const foreign =
    '{ "mcpServers": { "verdict": { "transport": { "type": "stdio", "command": "/bin/other" } } } }';
  assert.equal(clineMcpState(foreign, path), "other");
  assert.throws(() => installClineMcp(foreign, path, "/opt/verdict", {}), HostFileError);
  const disabled =
    '{ "mcpServers": { "verdict": { "transport": { "type": "stdio", "command": "/opt/verdict", "args": ["mcp"] }, "disabled": true } } }';
  assert.equal(
    JSON.parse(installClineMcp(disabled, path, "/opt/verdict", {}).text).mcpServers.verdict.disabled,
    true,
  );
});

Deno.test("cline hook dialect: the hint as additionalContext, nothing for the compaction events", () => {
  assert.deepEqual(dialect.render("user-prompt", { context: "[verdict recall] x" }), {
    additionalContext: "[verdict recall] x",
  });
  assert.equal(dialect.render("user-prompt", {}), null);
  assert.equal(dialect.render("pre-compact", { notice: "n", context: "c" }), null);
  assert.equal(dialect.render("session-start", { context: "c" }), null);
  assert.equal(dialect.canBlockCompaction, false);
  const input = dialect.read({
    hook_event_name: "UserPromptSubmit",
    prompt: "p",
    session_id: "s",
    cwd: "/p",
  });
  assert.equal(input.prompt, "p");
  assert.equal(input.session, "s");
  assert.equal(input.event, "user-prompt");
});

Deno.test("cline doctor: the last run's plugin failure in Cline's real log, and none once a later run started", () => {
  const log = Deno.readTextFileSync(`${SAMPLES}plugin-timeout.log`);
  const failure = lastRunPluginFailure(log);
  assert.deepEqual(failure, {
    time: "2026-12-07T02:23:49.305Z",
    msg:
      "plugin loading failed; continuing without plugins (plugin-sandbox call timed out after 1ms: initialize)",
  });
  const later = '{"level":30,"time":"2026-12-07T02:30:00.000Z","msg":"CLI run started"}';
  assert.equal(lastRunPluginFailure(`${log}${later}\n`), null);
  assert.equal(lastRunPluginFailure(""), null);
});

Deno.test("cline doctor: verdict doctor warns when Cline's last run loaded no plugin, and is ok once a later run started", async () => {
  const home = await tempHome();
  const env = { HOME: home, VERDICT_BIN: "/opt/verdict/bin/verdict" };
  await Deno.mkdir(`${home}/.cline/data/logs`, { recursive: true });
  const install = await runCli(["install", "--cline"], { env });
  assert.equal(install.code, 0, install.stderr);
  assert.match(install.stdout, /CLINE_PLUGIN_IMPORT_TIMEOUT_MS/, "install's note on the import timeout");
  const log = `${home}/.cline/data/logs/cline.log`;
  await Deno.writeTextFile(log, Deno.readTextFileSync(`${SAMPLES}plugin-timeout.log`));
  const plugin = async () => {
    const r = await runCli(["doctor", "--json"], { env });
    const checks = JSON.parse(r.stdout).checks as {
      id: string;
      status: string;
      message: string;
      fix?: string;
    }[];
    return checks.find((c) => c.id === "cline plugin")!;
  };
  const warned = await plugin();
  assert.equal(warned.status, "warn", warned.message);
  assert.match(warned.message, /went without plugins.*timed out after 1ms/);
  assert.match(JSON.stringify(warned), /CLINE_PLUGIN_IMPORT_TIMEOUT_MS=15000/);
  await Deno.writeTextFile(log, '{"time":"2026-12-07T02:30:00.000Z","msg":"CLI run started"}\n', {
    append: true,
  });
  const ok = await plugin();
  assert.equal(ok.status, "ok", ok.message);
});

Deno.test("cline plugin: a program path or variable holding quotes, newlines or code stays a string in the plugin", async () => {
  const dir = await Deno.makeTempDir({ prefix: "verdict-cline-inject-" });
  try {
    const bin =
      `${dir}/a"; globalThis.VERDICT_INJECTED = 1; "\n*/ \`\${globalThis.VERDICT_INJECTED = 2}\`/verdict`;
    const env = { VERDICT_CONFIG: `x\u2028"}; globalThis.VERDICT_INJECTED = 3; ({"` };
    const text = installPlugin("", `${dir}/verdict.js`, bin, env).text;
    assert.equal(pluginProgram(text), bin);
    await Deno.writeTextFile(`${dir}/verdict.js`, text);
    const plugin = (await import(`file://${dir}/verdict.js`)).default;
    assert.equal(plugin.name, "verdict");
    assert.equal(
      (globalThis as Record<string, unknown>).VERDICT_INJECTED,
      undefined,
      "the plugin ran injected code",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cline collect: a session document Cline rewrites with more messages is read whole again, with no record twice", async () => {
  const exp = CLINE_EXPECTATIONS[0]!;
  const home = await tempHome();
  const env = { HOME: home };
  const dir = `${home}/.cline/data/sessions/${exp.session}`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.copyFile(`${SAMPLES}${metaFile(exp.session)}`, `${dir}/${exp.session}.json`);
  const full = Deno.readTextFileSync(`${SAMPLES}${messagesFile(exp.session)}`);
  const doc = JSON.parse(full);
  const path = `${dir}/${exp.session}.messages.json`;
  // As Cline leaves it after the first prompt's answer: the first two messages, an earlier updated_at.
  await Deno.writeTextFile(
    path,
    JSON.stringify(
      { ...doc, updated_at: "2026-12-07T02:03:04.800Z", messages: doc.messages.slice(0, 2) },
      null,
      2,
    ) + "\n",
  );
  const first = await runCli(["collect"], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /\b1 new, 1 records\b/, first.stderr);
  await Deno.writeTextFile(path, full);
  const second = await runCli(["collect"], { env });
  assert.equal(second.code, 0, second.stderr);
  const records = (await exportedRecords(`${home}/.local/share/verdict/records.db`)).split("\n").filter((l) =>
    l
  )
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    records.map((r) => [r.kind, r.text, r.source_line]).sort(),
    [
      ...exp.prompts.map((p) => ["prompt", p.text, p.line]),
      ...exp.notes.map((n) => ["note", n.text, n.line]),
    ].sort(),
  );
  assert.match(second.stderr, new RegExp(`\\b3 new, ${records.length} records\\b`), second.stderr);
});
