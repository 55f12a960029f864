/**
 * "Never stored, never shown", end to end through the real CLI: every credential example
 * (tests/collect/_credentials.ts, one or more per class of SECURITY.md's table) placed in every
 * source collect reads (each agent's sessions in its own format, history, docs, memory files,
 * commits), one record per example per source, and records holding credentials placed straight
 * into the archive (as an older version or a rule added later would leave them), then every
 * output that leaves the process: the data folder, recall, query, the hint hook, replay,
 * verdict_recall over MCP and its call log, the compaction handoff and the SessionStart context.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { recordId, recordLine, type VerdictRecord } from "../../src/record/record.ts";
import { exportedRecords, runCli, tempHome } from "../cli_helper.ts";
import { stdioClient, textOf } from "../serve/serve_helper.ts";
import { CREDENTIAL_EXAMPLES } from "./_credentials.ts";
import { git } from "./git_fixture.ts";
import { makeRepo, TranscriptBuilder } from "../judge/_helpers.ts";

const AGENT_FIXTURES = fileURLToPath(new URL("../fixtures/agents/", import.meta.url));

const SESSION = "5e0c0de0-0000-4000-8000-00000000c0de";
const PROJECT = "/home/dev/app";
const AS_OF = "2026-03-05T00:00:00Z";

/** Secrets long enough to search for without matching ordinary text ("x" is everywhere). */
const SEARCHABLE = CREDENTIAL_EXAMPLES.filter((ex) => ex.secret.length >= 6);

function leaks(text: string): string[] {
  return [...new Set(SEARCHABLE.filter((ex) => text.includes(ex.secret)).map((ex) => ex.secret))];
}

const said = (i: number, text: string) => `We decided zebracorn rotation ${i}: ${text}`;

function claudeLine(i: number, text: string): string {
  return JSON.stringify({
    parentUuid: i === 0 ? null : `u-${i - 1}`,
    isSidechain: false,
    userType: "external",
    cwd: PROJECT,
    sessionId: SESSION,
    version: "2.1.180",
    entrypoint: "cli",
    type: "user",
    message: { role: "user", content: text },
    uuid: `u-${i}`,
    timestamp: `2026-03-01T09:${String(i % 60).padStart(2, "0")}:00.000Z`,
    origin: { kind: "human" },
  });
}

function memoryWrite(i: number, text: string): string[] {
  const id = `toolu_${i}`;
  const base = {
    isSidechain: false,
    cwd: PROJECT,
    sessionId: SESSION,
    version: "2.1.180",
    entrypoint: "cli",
    timestamp: "2026-03-01T10:00:00.000Z",
  };
  return [
    JSON.stringify({
      ...base,
      type: "assistant",
      uuid: `a-${i}`,
      message: {
        role: "assistant",
        content: [{
          type: "tool_use",
          id,
          name: "Write",
          input: { file_path: `${PROJECT}/CLAUDE.md`, content: text },
        }],
      },
    }),
    JSON.stringify({
      ...base,
      type: "user",
      uuid: `r-${i}`,
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
      toolUseResult: { type: "create" },
    }),
  ];
}

async function sourcesWorld(): Promise<{ home: string; env: Record<string, string>; data: string }> {
  const home = await tempHome();
  const projectDir = `${home}/.claude/projects/-home-dev-app`;
  await Deno.mkdir(`${projectDir}/memory`, { recursive: true });
  const lines: string[] = [];
  CREDENTIAL_EXAMPLES.forEach((ex, i) => {
    lines.push(claudeLine(i, said(i, ex.text)), ...memoryWrite(i, said(i, ex.text)));
  });
  await Deno.writeTextFile(`${projectDir}/${SESSION}.jsonl`, lines.join("\n") + "\n");
  await Deno.writeTextFile(
    `${home}/.claude/history.jsonl`,
    CREDENTIAL_EXAMPLES.map((ex, i) =>
      JSON.stringify({
        display: said(i, ex.text),
        pastedContents: {},
        timestamp: Date.parse("2026-03-02T00:00:00Z") + i * 1000,
        project: PROJECT,
        sessionId: "history-only",
      })
    ).join("\n") + "\n",
  );
  const codexDir = `${home}/.codex/sessions/2026/03/02`;
  await Deno.mkdir(codexDir, { recursive: true });
  await Deno.writeTextFile(
    `${codexDir}/rollout-2026-03-02T00-00-00-c0de.jsonl`,
    [
      JSON.stringify({
        timestamp: "2026-03-02T00:00:00.000Z",
        type: "session_meta",
        payload: { id: "codex-c0de", source: "cli", originator: "codex_cli_rs", cwd: PROJECT },
      }),
      ...CREDENTIAL_EXAMPLES.map((ex, i) =>
        JSON.stringify({
          timestamp: "2026-03-02T00:01:00.000Z",
          type: "event_msg",
          payload: { type: "user_message", message: said(i, ex.text), kind: "plain" },
        })
      ),
    ].join("\n") + "\n",
  );
  await otherAgents(home);
  const docs = `${home}/notes`;
  await Deno.mkdir(docs);
  for (const [i, ex] of CREDENTIAL_EXAMPLES.entries()) {
    const md =
      `# Ops ${i}\n\n## Access\n\n${ex.text}\n\n## Rotation\n\nWe decided zebracorn rotation is monthly.\n`;
    await Deno.writeTextFile(`${docs}/ops-${i}.md`, md);
    await Deno.writeTextFile(`${projectDir}/memory/ops-${i}.md`, md);
  }
  const repo = `${home}/src/app`;
  await Deno.mkdir(repo, { recursive: true });
  await git(repo, ["init", "-q", "-b", "main"]);
  for (const [i, ex] of CREDENTIAL_EXAMPLES.entries()) {
    await Deno.writeTextFile(`${repo}/f.txt`, `${i}\n`);
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-q", "-m", said(i, ex.text)], "2026-02-01T10:00:00Z");
  }
  await Deno.mkdir(`${home}/.config/verdict`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.config/verdict/config.json`,
    JSON.stringify({ doc_roots: [docs], git_repos: [repo] }),
  );
  return { home, env: { HOME: home, VERDICT_ASOF: AS_OF }, data: `${home}/.local/share/verdict` };
}

/**
 * Gemini CLI, Qwen Code, Copilot CLI, OpenCode, pi and Cline CLI sessions holding one typed prompt
 * per example, each made from the agent's synthetic fixture (tests/fixtures/agents/<id>/home) by repeating
 * its typed prompt with the example as its text.
 */
async function otherAgents(home: string): Promise<void> {
  const n = CREDENTIAL_EXAMPLES.length;
  const at = (i: number) => new Date(Date.parse("2026-03-03T10:00:00Z") + i * 1000).toISOString();
  // Gemini: the chat's typed prompts, each also in logs.json (which marks it typed in the UI).
  const gemini = ".gemini/tmp/shop";
  await Deno.mkdir(`${home}/${gemini}/chats`, { recursive: true });
  await Deno.copyFile(
    `${AGENT_FIXTURES}gemini/home/${gemini}/.project_root`,
    `${home}/${gemini}/.project_root`,
  );
  const chatName = "session-2026-03-03T09-00-5b1e7c2a.jsonl";
  const chat = (await Deno.readTextFile(`${AGENT_FIXTURES}gemini/home/${gemini}/chats/${chatName}`))
    .split("\n");
  const geminiSession = "5b1e7c2a-3d4f-4a6b-8c9d-0e1f2a3b4c5d";
  const geminiPrompts = CREDENTIAL_EXAMPLES.map((ex, i) =>
    JSON.stringify({ id: `g-${i}`, timestamp: at(i), type: "user", content: [{ text: said(i, ex.text) }] })
  );
  await Deno.writeTextFile(
    `${home}/${gemini}/chats/${chatName}`,
    [chat[0], chat[1], ...geminiPrompts].join("\n") + "\n",
  );
  await Deno.writeTextFile(
    `${home}/${gemini}/logs.json`,
    JSON.stringify(CREDENTIAL_EXAMPLES.map((ex, i) => ({
      sessionId: geminiSession,
      messageId: i,
      type: "user",
      message: said(i, ex.text),
      timestamp: at(i),
    }))),
  );
  // Qwen Code: each typed prompt followed by the snapshot that marks it interactive.
  const qwen = ".qwen/projects/-home-dev-shop/chats";
  await Deno.mkdir(`${home}/${qwen}`, { recursive: true });
  const [qwenUser, qwenSnapshot] = (await Deno.readTextFile(
    `${AGENT_FIXTURES}qwen/home/${qwen}/7d2e9f10-4a5b-4c6d-8e7f-901a2b3c4d5e.jsonl`,
  )).split("\n").map((l) => JSON.parse(l === "" ? "null" : l));
  let parent: string | null = null;
  const qwenLines: string[] = [];
  CREDENTIAL_EXAMPLES.forEach((ex, i) => {
    qwenLines.push(JSON.stringify({
      ...qwenUser,
      uuid: `qu-${i}`,
      parentUuid: parent,
      timestamp: at(i),
      message: { role: "user", parts: [{ text: said(i, ex.text) }] },
    }));
    qwenLines.push(
      JSON.stringify({ ...qwenSnapshot, uuid: `qs-${i}`, parentUuid: `qu-${i}`, timestamp: at(i) }),
    );
    parent = `qs-${i}`;
  });
  await Deno.writeTextFile(
    `${home}/${qwen}/7d2e9f10-4a5b-4c6d-8e7f-901a2b3c4d5e.jsonl`,
    qwenLines.join("\n") + "\n",
  );
  // Copilot CLI: the session's start, then each typed prompt and the interactive system message.
  const copilot = ".copilot/session-state/3f9a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
  await Deno.mkdir(`${home}/${copilot}`, { recursive: true });
  const [start, user, system] =
    (await Deno.readTextFile(`${AGENT_FIXTURES}copilot/home/${copilot}/events.jsonl`))
      .split("\n").map((l) => JSON.parse(l === "" ? "null" : l));
  const copilotLines = [JSON.stringify(start)];
  CREDENTIAL_EXAMPLES.forEach((ex, i) => {
    copilotLines.push(JSON.stringify({
      ...user,
      id: `cu-${i}`,
      timestamp: at(i),
      data: {
        ...user.data,
        content: said(i, ex.text),
        transformedContent: said(i, ex.text),
        messageId: `m-${i}`,
      },
    }));
    copilotLines.push(JSON.stringify({ ...system, id: `cs-${i}`, parentId: `cu-${i}`, timestamp: at(i) }));
  });
  await Deno.writeTextFile(`${home}/${copilot}/events.jsonl`, copilotLines.join("\n") + "\n");
  // OpenCode: the fixture database with one more typed message per example.
  const opencode = `${home}/.local/share/opencode`;
  await Deno.mkdir(opencode, { recursive: true });
  await Deno.copyFile(
    `${AGENT_FIXTURES}opencode/home/.local/share/opencode/opencode.db`,
    `${opencode}/opencode.db`,
  );
  const db = new DatabaseSync(`${opencode}/opencode.db`);
  try {
    CREDENTIAL_EXAMPLES.forEach((ex, i) => {
      const time = 1772449300000 + i * 1000;
      db.prepare("INSERT INTO message VALUES (?, 'ses_fixture1', ?, ?, ?)").run(
        `msg_e${String(i).padStart(4, "0")}`,
        time,
        time,
        JSON.stringify({ role: "user", time: { created: time }, agent: "build" }),
      );
      db.prepare("INSERT INTO part VALUES (?, ?, 'ses_fixture1', ?, ?, ?)").run(
        `prt_e${String(i).padStart(4, "0")}`,
        `msg_e${String(i).padStart(4, "0")}`,
        time,
        time,
        JSON.stringify({ type: "text", text: said(i, ex.text) }),
      );
    });
  } finally {
    db.close();
  }
  // pi: the fixture session's header and mode entry, then each typed prompt.
  const pi = ".pi/agent/sessions/--home-dev-shop--";
  await Deno.mkdir(`${home}/${pi}`, { recursive: true });
  const piName = "2026-03-02T09-15-00-000Z_01a24e25-2a4d-7667-8477-bea4c4534250.jsonl";
  const piLines = (await Deno.readTextFile(`${AGENT_FIXTURES}pi/home/${pi}/${piName}`)).split("\n")
    .filter((l) => l !== "").map((l) => JSON.parse(l));
  const piHead = piLines.filter((e) => e.type === "session" || e.type === "custom");
  await Deno.writeTextFile(
    `${home}/${pi}/${piName}`,
    [
      ...piHead.map((e) => JSON.stringify(e)),
      ...CREDENTIAL_EXAMPLES.map((ex, i) =>
        JSON.stringify({
          type: "message",
          id: `p${String(i).padStart(7, "0")}`,
          parentId: null,
          timestamp: at(i),
          message: { role: "user", content: [{ type: "text", text: said(i, ex.text) }], timestamp: 0 },
        })
      ),
    ].join("\n") + "\n",
  );
  // Cline CLI: the fixture session's meta file, and its messages document with each typed prompt.
  const clineId = "1772442900000_shop1";
  const cline = `.cline/data/sessions/${clineId}`;
  await Deno.mkdir(`${home}/${cline}`, { recursive: true });
  await Deno.copyFile(
    `${AGENT_FIXTURES}cline/home/${cline}/${clineId}.json`,
    `${home}/${cline}/${clineId}.json`,
  );
  const clineDoc = JSON.parse(
    await Deno.readTextFile(`${AGENT_FIXTURES}cline/home/${cline}/${clineId}.messages.json`),
  );
  clineDoc.messages = CREDENTIAL_EXAMPLES.map((ex, i) => ({
    id: `c-${i}`,
    role: "user",
    content: [{ type: "text", text: `<user_input mode="act">${said(i, ex.text)}</user_input>` }],
    ts: Date.parse(at(i)),
  }));
  await Deno.writeTextFile(
    `${home}/${cline}/${clineId}.messages.json`,
    JSON.stringify(clineDoc, null, 2) + "\n",
  );
  assert.equal(n, CREDENTIAL_EXAMPLES.length);
}

/** Where each example is placed: Claude prompts, memory writes, history, Codex, six more agents, docs, memory files, commits. */
const PLACES = 13;

Deno.test("no credential shape is stored from any source: every agent's sessions, history, notes, docs, memory files, commits", async () => {
  const w = await sourcesWorld();
  const r = await runCli(["collect"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const n = CREDENTIAL_EXAMPLES.length;
  // Every example is dropped from each of the places it was put.
  assert.match(r.stderr, new RegExp(`\\b${PLACES * n} dropped as credentials`), r.stderr);
  // Of the agents' prompts only OpenCode's fixture prompt, which holds none, is kept; no commit is.
  assert.match(r.stderr, /\(prompt 1, note 0, doc \d+, commit 0, tag 0\)/, r.stderr);
  // Every file of the archive: the database, its log, the index segments.
  for (const f of await filesUnder(w.data)) {
    const text = new TextDecoder().decode(await Deno.readFile(f));
    assert.deepEqual(leaks(text), [], `credentials in ${f}`);
  }
  // What holds no credential is still collected: the sections beside them.
  const records = await exportedRecords(`${w.data}/records.db`);
  assert.equal(records.split("\n").filter((l) => l.includes("rotation is monthly")).length, 2 * n);
});

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) out.push(...await filesUnder(`${dir}/${e.name}`));
    else if (e.isFile) out.push(`${dir}/${e.name}`);
  }
  return out;
}

/**
 * An archive an older verdict wrote (a records file, no index: the look-ups rank it in memory
 * until a collect migrates it) whose records hold credentials.
 */
async function archiveWorld(): Promise<{ home: string; env: Record<string, string> }> {
  const home = await tempHome();
  const data = `${home}/.local/share/verdict`;
  await Deno.mkdir(data, { recursive: true });
  const records: VerdictRecord[] = CREDENTIAL_EXAMPLES.map((ex, i) => ({
    id: recordId("prompt", `old:${i}`),
    kind: "prompt",
    origin: "claude",
    text: said(i, ex.text),
    time: "2026-03-01T09:00:00.000Z",
    project: PROJECT,
    session: "old-session",
    source_file: "/nowhere/old.jsonl",
    source_line: i + 1,
    commit: null,
  }));
  await Deno.writeTextFile(`${data}/records.jsonl`, records.map((r) => recordLine(r) + "\n").join(""));
  return { home, env: { HOME: home, VERDICT_ASOF: AS_OF } };
}

Deno.test("recall, query, the hint hook, replay and verdict_recall never show a credential, even one already in the archive", async () => {
  const w = await archiveWorld();
  const recall = await runCli(["recall", "--top", "50", "zebracorn rotation"], { env: w.env });
  assert.equal(recall.code, 0, recall.stderr);
  assert.deepEqual(leaks(recall.stdout), [], "recall");
  const json = await runCli(["recall", "--json", "--top", "50", "zebracorn rotation"], { env: w.env });
  assert.deepEqual(leaks(json.stdout), [], "recall --json");
  const query = await runCli(["query", "--as-of", AS_OF, "--top", "50", "zebracorn rotation"], {
    env: w.env,
  });
  assert.equal(query.code, 0, query.stderr);
  assert.deepEqual(leaks(query.stdout), [], "query");
  for (const [i, ex] of SEARCHABLE.entries()) {
    const hook = await runCli(["hook", "user-prompt"], {
      env: w.env,
      stdin: JSON.stringify({
        session_id: `live-${i}`,
        cwd: PROJECT,
        hook_event_name: "UserPromptSubmit",
        prompt: `should zebracorn rotation ${CREDENTIAL_EXAMPLES.indexOf(ex)} change? ${
          ex.text.slice(0, 12)
        }`,
      }),
    });
    assert.equal(hook.code, 0);
    assert.deepEqual(leaks(hook.stdout), [], `hint for ${ex.rule}`);
  }
  for (const args of [["replay", "--explain"], ["replay", "--json"]]) {
    const replay = await runCli(args, { env: w.env });
    assert.equal(replay.code, 0, replay.stderr);
    assert.deepEqual(leaks(replay.stdout), [], args.join(" "));
  }
  const log = `${w.home}/calls.jsonl`;
  const { client } = await stdioClient(w.home, [], { VERDICT_CALL_LOG: log, VERDICT_CALL_LOG_QUERIES: "1" });
  try {
    const result = await client.callTool({
      name: "verdict_recall",
      arguments: { query: "zebracorn rotation", top: 20 },
    });
    assert.deepEqual(leaks(textOf(result)), [], "verdict_recall");
    // A query holding a credential is logged without it.
    for (const ex of SEARCHABLE) {
      await client.callTool({ name: "verdict_recall", arguments: { query: ex.text, top: 1 } });
    }
  } finally {
    await client.close();
  }
  const logged = await Deno.readTextFile(log);
  assert.equal(logged.trimEnd().split("\n").length, 1 + SEARCHABLE.length);
  assert.deepEqual(leaks(logged), [], "call log");
  assert.match(logged, /"query":"zebracorn rotation"/, "a query without a credential is still logged");
});

Deno.test("the compaction handoff and the SessionStart context never show a credential of any class", async () => {
  const home = await tempHome();
  const session = "5e0c0de0-0000-4000-8000-0000000c0de2";
  const dir = `${home}/.claude/projects/-repo`;
  await Deno.mkdir(dir, { recursive: true });
  const t = new TranscriptBuilder(session, "/placeholder");
  t.prompt("set up the release");
  t.tool("TodoWrite", {
    todos: CREDENTIAL_EXAMPLES.map((ex, i) => ({
      content: said(i, ex.text),
      status: "pending",
      activeForm: "x",
    })),
  });
  const transcript = `${dir}/${session}.jsonl`;
  await Deno.writeTextFile(transcript, t.text());
  const repo = await makeRepo(home);
  await Deno.writeTextFile(`${home}/config.json`, "{}");
  const env = { HOME: home, VERDICT_CONFIG: `${home}/config.json` };
  const pre = await runCli(["hook", "pre-compact"], {
    env,
    stdin: JSON.stringify({
      session_id: session,
      transcript_path: transcript,
      cwd: repo,
      hook_event_name: "PreCompact",
      trigger: "auto",
      custom_instructions: "",
    }),
  });
  assert.equal(pre.code, 0, pre.stderr);
  assert.deepEqual(leaks(pre.stdout), [], "the pre-compact hook's message");
  const handoff = await Deno.readTextFile(`${home}/.local/state/verdict/handoff/${session}.md`);
  assert.deepEqual(leaks(handoff), [], "the handoff");
  // Each example's item is still there, its text withheld: every class was caught on this path.
  assert.equal(
    handoff.split("[verdict: credential removed]").length - 1,
    CREDENTIAL_EXAMPLES.length,
    handoff,
  );
  const start = await runCli(["hook", "session-start"], {
    env,
    stdin: JSON.stringify({
      session_id: session,
      transcript_path: transcript,
      cwd: repo,
      hook_event_name: "SessionStart",
      source: "compact",
    }),
  });
  assert.equal(start.code, 0, start.stderr);
  assert.match(start.stdout, /verdict compaction handoff/);
  assert.deepEqual(leaks(start.stdout), [], "the SessionStart context");
  // A handoff written before the rules caught them is screened on its way back as well.
  await Deno.writeTextFile(
    `${home}/.local/state/verdict/handoff/${session}.md`,
    "# verdict handoff\n\n" +
      CREDENTIAL_EXAMPLES.map((ex, i) =>
        `- todo (TodoWrite, line ${i + 2}): ${ex.text.replaceAll("\n", " ")}\n`
      ).join(""),
  );
  const again = await runCli(["hook", "session-start"], {
    env,
    stdin: JSON.stringify({ session_id: session, transcript_path: transcript, cwd: repo, source: "compact" }),
  });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(leaks(again.stdout), [], "the SessionStart context of an old handoff");
});

Deno.test("export never prints a record holding a credential, even one already in the archive", async () => {
  const w = await archiveWorld();
  const exported = await runCli(["export"], { env: w.env });
  assert.equal(exported.code, 0, exported.stderr);
  assert.deepEqual(leaks(exported.stdout), [], "export");
  assert.equal(exported.stdout, "", "every record of this archive holds a credential");
  assert.match(exported.stderr, new RegExp(`\\b${CREDENTIAL_EXAMPLES.length} record\\(s\\) withheld`));
  // Once collect has screened the archive again, export prints what is left, and says nothing.
  const data = `${w.home}/.local/share/verdict`;
  const clean: VerdictRecord = {
    id: recordId("prompt", "old:clean"),
    kind: "prompt",
    origin: "claude",
    text: "We decided zebracorn rotation is monthly.",
    time: "2026-03-02T09:00:00.000Z",
    project: PROJECT,
    session: "old-session",
    source_file: "/nowhere/old.jsonl",
    source_line: 999,
    commit: null,
  };
  await Deno.writeTextFile(`${data}/records.jsonl`, recordLine(clean) + "\n", { append: true });
  const collect = await runCli(["collect"], { env: w.env });
  assert.equal(collect.code, 0, collect.stderr);
  const again = await runCli(["export"], { env: w.env });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(again.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).text), [clean.text]);
  assert.equal(again.stderr, "");
});
