/**
 * "Never stored, never shown", end to end through the real CLI: every credential example
 * (tests/collect/_credentials.ts) placed in every source collect reads, and records holding
 * credentials placed straight into the archive (as an older version or a rule added later
 * would leave them), then every output that leaves the process: the data folder, recall,
 * query, the hint hook, verdict_recall over MCP and its call log.
 */
import assert from "node:assert/strict";
import { recordId, recordLine, type VerdictRecord } from "../../src/record/record.ts";
import { exportedRecords, runCli, tempHome } from "../cli_helper.ts";
import { stdioClient, textOf } from "../serve/serve_helper.ts";
import { CREDENTIAL_EXAMPLES } from "./_credentials.ts";
import { git } from "./git_fixture.ts";

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

Deno.test("no credential shape is stored from any source: prompts, history, Codex, notes, docs, memory files, commits", async () => {
  const w = await sourcesWorld();
  const r = await runCli(["collect"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const n = CREDENTIAL_EXAMPLES.length;
  // Every example is dropped from each of the seven places it was put.
  assert.match(r.stderr, new RegExp(`\\b${7 * n} dropped as credentials`));
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
