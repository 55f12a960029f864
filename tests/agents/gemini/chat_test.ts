/**
 * The Gemini CLI reader: the parser on the real 0.61.0 samples (../shared/clients/gemini/samples,
 * read from there; skipped with a printed reason when absent) against the hand-decided
 * expectations.ts, then `verdict collect` end to end in a temp HOME laid out as Gemini CLI lays
 * it out (incremental, the headless policy, containment), then the machine-made shapes one by
 * one (synthetic lines in the shapes the 0.61 bundle writes).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createGeminiParser, NO_TYPED_LINES, type TypedLines } from "../../../src/agents/gemini/chat.ts";
import { parseTypedLog } from "../../../src/agents/gemini/project.ts";
import { asRecord, type VerdictRecord } from "../../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../../src/agents/registry.ts";
import { exportedRecords, runCli, tempHome } from "../../cli_helper.ts";
import { type ExpectedGemini, GEMINI_EXPECTATIONS, SAMPLE_PROJECT, SAMPLES_DIR } from "./expectations.ts";
import { GEMINI_SAMPLES, geminiProjectFolder } from "./samples.ts";

const DIR = fileURLToPath(SAMPLES_DIR);
let present = false;
try {
  present = Deno.statSync(`${DIR}logs.json`).isFile;
} catch {
  present = false;
}
if (!present) console.log(`gemini chat_test: sample tests skipped, ${DIR} is not present`);

function parse(text: string, context: TypedLines, includeHeadless = false, file = "/x/chats/s.jsonl") {
  const parser = createGeminiParser({ file, includeHeadless, context }, null);
  text.split("\n").forEach((line, i) => {
    if (line !== "") parser.line(line, i + 1);
  });
  return { records: parser.drain(), malformed: parser.malformed, carry: parser.carry() };
}

function simplify(records: readonly VerdictRecord[], kind: string): ExpectedGemini[] {
  return records.filter((r) => r.kind === kind).map((r) => ({
    line: r.source_line,
    time: r.time,
    text: r.text,
  }));
}

async function sampleContext(): Promise<TypedLines> {
  return { project: SAMPLE_PROJECT, typed: parseTypedLog(await Deno.readTextFile(`${DIR}logs.json`)) };
}

Deno.test({
  name: "gemini parser: each real sample yields exactly its hand-checked prompts and notes",
  ignore: !present,
  fn: async () => {
    const context = await sampleContext();
    for (const exp of GEMINI_EXPECTATIONS) {
      const text = await Deno.readTextFile(`${DIR}${exp.sample}`);
      const typed = parse(text, context);
      assert.deepEqual(simplify(typed.records, "prompt"), exp.prompts, `${exp.sample}: prompts`);
      assert.deepEqual(simplify(typed.records, "note"), exp.notes, `${exp.sample}: notes`);
      assert.equal(typed.malformed, 0, exp.sample);
      for (const r of typed.records) {
        assert.equal(r.origin, "gemini");
        assert.equal(r.session, exp.session);
        assert.equal(r.project, SAMPLE_PROJECT);
      }
      const all = parse(text, context, true);
      const want = [...exp.prompts, ...exp.headlessPrompts].sort((a, b) => a.line - b.line);
      assert.deepEqual(simplify(all.records, "prompt"), want, `${exp.sample}: with includeHeadless`);
    }
  },
});

Deno.test({
  name: "gemini parser: fed in two parts (resumed from its carry) it yields what one pass yields",
  ignore: !present,
  fn: async () => {
    const context = await sampleContext();
    for (const exp of GEMINI_EXPECTATIONS) {
      const lines = (await Deno.readTextFile(`${DIR}${exp.sample}`)).split("\n");
      for (const cut of [1, 4, 8, 13]) {
        const first = createGeminiParser({ file: "/f", includeHeadless: true, context }, null);
        lines.slice(0, cut).forEach((l, i) => l && first.line(l, i + 1));
        const carry = JSON.parse(JSON.stringify(first.carry()));
        const second = createGeminiParser({ file: "/f", includeHeadless: true, context }, carry);
        lines.slice(cut).forEach((l, i) => l && second.line(l, cut + i + 1));
        const got = [...first.drain(), ...second.drain()];
        const whole = parse(lines.join("\n"), context, true, "/f").records;
        assert.deepEqual(got, whole, `${exp.sample} cut at ${cut}`);
      }
    }
  },
});

/** A temp HOME holding the samples where Gemini CLI keeps them; returns it and the chat paths. */
async function sampleHome(): Promise<{ home: string; folder: string; chats: ReadonlyMap<string, string> }> {
  const home = await tempHome();
  const { files } = await GEMINI_SAMPLES.layOut(home);
  await GEMINI_SAMPLES.layOutSettings(home);
  return { home, folder: geminiProjectFolder(home), chats: files };
}

async function readRecords(home: string, name = "records.jsonl"): Promise<VerdictRecord[]> {
  const text = await exportedRecords(`${home}/.local/share/verdict/${name}`);
  return text.split("\n").filter((l) => l).map((l) => asRecord(JSON.parse(l), RECORD_ORIGINS)!);
}

Deno.test({
  name:
    "verdict collect over the real Gemini CLI samples: exactly the typed prompts and the note; headless only when asked",
  ignore: !present,
  fn: async () => {
    const { home, chats } = await sampleHome();
    const r = await runCli(["collect"], { env: { HOME: home } });
    assert.equal(r.code, 0, r.stderr);
    const records = await readRecords(home);
    for (const exp of GEMINI_EXPECTATIONS) {
      const mine = records.filter((x) => x.source_file === chats.get(exp.sample)).sort((a, b) =>
        a.source_line - b.source_line
      );
      assert.deepEqual(simplify(mine, "prompt"), exp.prompts, exp.sample);
      assert.deepEqual(simplify(mine, "note"), exp.notes, exp.sample);
    }
    assert.ok(records.every((x) => x.origin === "gemini" && x.project === SAMPLE_PROJECT));
    assert.equal(
      records.length,
      GEMINI_EXPECTATIONS.reduce((n, e) => n + e.prompts.length + e.notes.length, 0),
    );

    const config = `${home}/headless.json`;
    await Deno.writeTextFile(config, '{ "include_headless": true }\n');
    const h = await runCli(["collect", "--full"], { env: { HOME: home, VERDICT_CONFIG: config } });
    assert.equal(h.code, 0, h.stderr);
    const withHeadless = (await readRecords(home)).filter((x) => x.kind === "prompt").map((x) => x.text);
    for (const exp of GEMINI_EXPECTATIONS) {
      for (const p of [...exp.prompts, ...exp.headlessPrompts]) {
        assert.ok(withHeadless.includes(p.text), p.text);
      }
    }
  },
});

Deno.test({
  name:
    "verdict collect reads a Gemini chat incrementally: a second run adds nothing, a grown file only its new prompt",
  ignore: !present,
  fn: async () => {
    const { home, folder, chats } = await sampleHome();
    assert.equal((await runCli(["collect"], { env: { HOME: home } })).code, 0);
    const before = await readRecords(home);
    const again = await runCli(["collect"], { env: { HOME: home } });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(await readRecords(home), before);

    const file = chats.get(GEMINI_EXPECTATIONS[0]!.sample)!;
    const session = GEMINI_EXPECTATIONS[0]!.session;
    const typed = "Also pin the node version in .nvmrc";
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        id: "new-1",
        timestamp: "2026-12-01T08:00:00.000Z",
        type: "user",
        content: [{ text: typed }],
      }) +
        "\n",
      { append: true },
    );
    const log = JSON.parse(await Deno.readTextFile(`${folder}/logs.json`));
    log.push({
      sessionId: session,
      messageId: 7,
      type: "user",
      message: typed,
      timestamp: "2026-12-01T08:00:00.000Z",
    });
    await Deno.writeTextFile(`${folder}/logs.json`, JSON.stringify(log, null, 2));
    const grown = await runCli(["collect"], { env: { HOME: home } });
    assert.equal(grown.code, 0, grown.stderr);
    const after = await readRecords(home);
    assert.deepEqual(after.filter((x) => !before.some((b) => b.id === x.id)).map((x) => x.text), [typed]);
  },
});

Deno.test("verdict collect: a Gemini chat, .project_root or logs.json linked to outside the root is not read", async () => {
  const home = await tempHome();
  const folder = `${home}/.gemini/tmp/shop`;
  await Deno.mkdir(`${folder}/chats`, { recursive: true });
  const outside = `${home}/outside`;
  await Deno.mkdir(outside);
  const secret = "TOPSECRET plan for the merger";
  const chat = (session: string) =>
    [
      { sessionId: session, projectHash: "0", startTime: "2026-03-03T09:00:00.000Z", kind: "main" },
      { id: "m1", timestamp: "2026-03-03T09:00:05.000Z", type: "user", content: [{ text: secret }] },
    ].map((l) => JSON.stringify(l)).join("\n") + "\n";
  // A chat whose file is a link to outside, in a folder whose side files are links too.
  await Deno.writeTextFile(`${outside}/session-escape.jsonl`, chat("s-escape"));
  await Deno.symlink(
    `${outside}/session-escape.jsonl`,
    `${folder}/chats/session-2026-03-03T09-00-escape.jsonl`,
  );
  await Deno.writeTextFile(`${outside}/root`, "/home/dev/secret-project\n");
  await Deno.symlink(`${outside}/root`, `${folder}/.project_root`);
  await Deno.writeTextFile(
    `${outside}/logs.json`,
    JSON.stringify([{ sessionId: "s-in", messageId: 0, type: "user", message: secret, timestamp: "x" }]),
  );
  await Deno.symlink(`${outside}/logs.json`, `${folder}/logs.json`);
  // A chat inside the root: its prompt would count only by the outside logs.json.
  await Deno.writeTextFile(`${folder}/chats/session-2026-03-03T09-00-inside.jsonl`, chat("s-in"));
  const r = await runCli(["collect"], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  // The linked chat is not even listed (the walk never follows links); the side files are refused.
  assert.match(r.stderr, /\.project_root.*outside the transcript roots/);
  assert.match(r.stderr, /logs\.json.*outside the transcript roots/);
  let text = "";
  try {
    text = await exportedRecords(`${home}/.local/share/verdict/records.jsonl`);
  } catch {
    // no records at all is the expected outcome too
  }
  assert.ok(!text.includes("TOPSECRET"), "text from outside the root reached the records");
  assert.ok(!text.includes("secret-project"));
  assert.match(r.stderr, /1 file\(s\) read/);
});

Deno.test("collect's sandbox: Deno refuses collect a read of Gemini CLI's settings.json (outside its session root)", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.gemini/tmp/shop/chats`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.gemini/settings.json`,
    '{"security":{"auth":{"selectedType":"gemini-api-key"}}}',
  );
  const r = await runCli(["sandbox-probe", "--as", "collect", "--read", `${home}/.gemini/settings.json`], {
    env: { HOME: home },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^refused: collect cannot read .*Requires read access/);
  const inside = await runCli([
    "sandbox-probe",
    "--as",
    "collect",
    "--read",
    `${home}/.gemini/tmp/shop/chats`,
  ], {
    env: { HOME: home },
  });
  assert.match(inside.stdout, /^allowed/);
});

// ---- the rules, one machine-made shape at a time (synthetic lines in the 0.61 shapes)

const SESSION = "s1";
const HEADER = JSON.stringify({
  sessionId: SESSION,
  projectHash: "0",
  startTime: "2026-03-03T09:00:00.000Z",
  kind: "main",
});
let n = 0;
function user(content: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: `u${++n}`,
    timestamp: "2026-03-03T09:00:05.000Z",
    type: "user",
    content,
    ...extra,
  });
}
const everything: TypedLines = { project: "/p", typed: new Map() };

function prompts(
  lines: readonly string[],
  context: TypedLines = everything,
  includeHeadless = true,
): string[] {
  return parse([HEADER, ...lines].join("\n"), context, includeHeadless).records.filter((r) =>
    r.kind === "prompt"
  )
    .map((r) => r.text);
}

Deno.test("gemini parser: displayContent is the typed text; without it, content is", () => {
  assert.deepEqual(
    prompts([
      user([{ text: "use pnpm" }, { text: "<hook_context>[verdict recall] x</hook_context>" }], {
        displayContent: [{ text: "use pnpm" }],
      }),
      user([{ text: "plain prompt, no hook" }]),
      user("string content"),
    ]),
    ["use pnpm", "plain prompt, no hook", "string content"],
  );
});

Deno.test("gemini parser: hook context, session context, shell mode, steering, plan switches and loop feedback are not typed", () => {
  assert.deepEqual(
    prompts([
      user([{ text: "<hook_context>SessionStart output</hook_context>" }]),
      user([{ text: "<session_context>\nThis is the Gemini CLI.\n</session_context>" }]),
      user([{ text: "I ran the following shell command:\n```sh\nls\n```" }]),
      user([{ text: "User steering update:\n<user_input>go</user_input>" }]),
      user([{ text: "User has manually exited Plan Mode. Switching to Default." }]),
      user([{ text: "System: Potential loop detected. Details: x." }]),
      user([{ functionResponse: { id: "c1", name: "read_file", response: { output: "file text" } } }]),
      user([{ text: "the hint [verdict recall] quoted back" }]),
      user([{ text: "   " }]),
    ]),
    [],
  );
});

Deno.test("gemini parser: SessionStart context before the typed text (-p mode) is removed, even in displayContent", () => {
  const text = "<hook_context>a</hook_context>\n\n<hook_context>b</hook_context>\n\nFrom now on use pnpm";
  assert.deepEqual(prompts([user([{ text }], { displayContent: [{ text }] })]), ["From now on use pnpm"]);
});

Deno.test("gemini parser: a continuation carrying the prompt's displayContent is not a second prompt", () => {
  const typed = "refactor the billing module";
  const display = { displayContent: [{ text: typed }] };
  assert.deepEqual(
    prompts([
      user([{ text: typed }]),
      // next-speaker check, loop recovery, AfterAgent retry: new content, the turn's displayContent
      user([{ text: "Please continue." }], display),
      user([{ text: "System: Potential loop detected." }], display),
      user([{ text: "Answer again, shorter." }], display),
      // the person typing the same line again (a hook added context) is a prompt
      user([{ text: typed }, { text: "<hook_context>x</hook_context>" }], display),
    ]),
    [typed, typed],
  );
});

Deno.test("gemini parser: only lines logs.json says were typed count, unless includeHeadless", () => {
  const context: TypedLines = {
    project: "/p",
    typed: parseTypedLog(JSON.stringify([
      { sessionId: SESSION, messageId: 0, type: "user", message: "typed in the TUI  ", timestamp: "t" },
      { sessionId: "other", messageId: 0, type: "user", message: "from -p", timestamp: "t" },
    ])),
  };
  const lines = [user([{ text: "typed in the TUI" }]), user([{ text: "from -p" }])];
  assert.deepEqual(prompts(lines, context, false), ["typed in the TUI"]);
  assert.deepEqual(prompts(lines, NO_TYPED_LINES, false), []);
  assert.deepEqual(prompts(lines, context, true), ["typed in the TUI", "from -p"]);
});

Deno.test("gemini parser: subagent files, lines before a header and $set copies yield nothing", () => {
  const sub = JSON.stringify({ sessionId: "sub", projectHash: "0", startTime: "t", kind: "subagent" });
  assert.deepEqual(parse([sub, user([{ text: "delegated task" }])].join("\n"), everything, true).records, []);
  assert.deepEqual(parse(user([{ text: "no header yet" }]), everything, true).records, []);
  const set = JSON.stringify({
    $set: { messages: [{ id: "x", timestamp: "t", type: "user", content: [{ text: "old" }] }] },
  });
  assert.deepEqual(prompts([set]), []);
});

Deno.test("gemini parser: notes from successful memory-file writes and save_memory; failed or other files none", () => {
  const model = (calls: unknown[]) =>
    JSON.stringify({
      id: `g${++n}`,
      timestamp: "2026-03-03T09:01:00.000Z",
      type: "gemini",
      content: "",
      toolCalls: calls,
    });
  const call = (name: string, args: unknown, status = "success") => ({
    id: `${name}-${++n}`,
    name,
    args,
    status,
  });
  const { records } = parse(
    [
      HEADER,
      model([call("write_file", { file_path: "/p/GEMINI.md", content: "# Rules\n- pnpm\n" })]),
      model([
        call("replace", {
          file_path: "/p/docs/AGENTS.md",
          old_string: "a",
          new_string: "- tabs, not spaces",
        }),
      ]),
      model([call("save_memory", { fact: "The user prefers pnpm." })]),
      model([call("write_file", { file_path: "/p/GEMINI.md", content: "nope" }, "error")]),
      model([call("write_file", { file_path: "/p/README.md", content: "readme" })]),
    ].join("\n"),
    everything,
  );
  assert.deepEqual(records.map((r) => [r.kind, r.text]), [
    ["note", "# Rules\n- pnpm"],
    ["note", "- tabs, not spaces"],
    ["note", "The user prefers pnpm."],
  ]);
});

Deno.test("gemini parser: malformed lines are counted, never thrown", () => {
  const r = parse(
    [HEADER, "{not json", "[1,2]", user([{ text: "still read" }])].join("\n"),
    everything,
    true,
  );
  assert.equal(r.malformed, 2);
  assert.deepEqual(r.records.map((x) => x.text), ["still read"]);
});
