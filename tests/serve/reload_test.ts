/**
 * End to end with real data: `verdict collect` builds the records from a transcript, a running
 * server answers from them in the contract's format, and when a second collect replaces the
 * records file the same server answers from the new data on the next call, without a restart.
 */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../cli_helper.ts";
import { httpClient, startServe, stdioClient, textOf } from "./serve_helper.ts";
import { CONTRACT } from "../../src/serve/contract.ts";

const SESSION_A = "5c0375b4-0000-4000-8000-00000000000a";
const SESSION_B = "5c0375b4-0000-4000-8000-00000000000b";

/** One typed prompt as Claude Code 2.1 writes it (see tests/fixtures/collect/claude/). */
function promptLine(session: string, uuid: string, time: string, text: string, cwd: string): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd,
    sessionId: session,
    version: "2.1.230",
    gitBranch: "main",
    entrypoint: "cli",
    promptId: `p-${uuid}`,
    permissionMode: "default",
    origin: { kind: "human" },
    uuid,
    timestamp: time,
    type: "user",
    message: { role: "user", content: text },
  }) + "\n";
}

async function writeTranscript(home: string, session: string, lines: string): Promise<string> {
  const dir = `${home}/.claude/projects/-src-app`;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/${session}.jsonl`;
  await Deno.writeTextFile(path, lines);
  return path;
}

async function collect(home: string): Promise<void> {
  const r = await runCli(["collect", "--quiet"], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
}

/** A regular expression for one hit header line, built from the contract's template. */
function hitLinePattern(): RegExp {
  const f = CONTRACT.results.verdict_recall;
  const escaped = f.hit.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  const fields: Record<string, string> = {
    rank: "\\d+",
    date: "\\d{4}-\\d{2}-\\d{2}",
    kind: "(prompt|note|doc|commit|tag)",
    project: ".+",
    source: ".+",
    score: `\\d+\\.\\d{${f.score_decimals}}`,
    matched: ".+",
  };
  return new RegExp("^" + escaped.replace(/\\?\{([a-z_]+)\\?\}/g, (_, k: string) => fields[k]!) + "$");
}

Deno.test("a running serve answers from collected records, and from the new file after collect replaces it", async () => {
  const home = await tempHome();
  await writeTranscript(
    home,
    SESSION_A,
    promptLine(
      SESSION_A,
      "u-a1",
      "2026-03-02T10:00:00.000Z",
      "We decided: nightly zeppelin backups with pg_dump.",
      "/src/app",
    ),
  );
  await collect(home);
  const serve = await startServe(home, [], { VERDICT_ASOF: "2026-04-01T00:00:00Z" });
  const client = await httpClient(serve.url);
  try {
    const first = await client.callTool({ name: "verdict_recall", arguments: { query: "zeppelin backups" } });
    const lines = textOf(first).split("\n");
    assert.equal(lines[0], CONTRACT.results.verdict_recall.header.replace("{count}", "1"));
    assert.equal(lines[1], "");
    assert.match(lines[2]!, hitLinePattern());
    assert.match(
      lines[2]!,
      /^\[1\] 2026-03-02 · prompt · \/src\/app · .*5c0375b4-0000-4000-8000-00000000000a\.jsonl:1 · /,
    );
    assert.equal(lines[3], "> We decided: nightly zeppelin backups with pg_dump.");
    const none = await client.callTool({ name: "verdict_recall", arguments: { query: "quokka" } });
    assert.match(textOf(none), /^No match: /);

    // A second session arrives; collect rewrites the records file (temp file + rename).
    await writeTranscript(
      home,
      SESSION_B,
      promptLine(
        SESSION_B,
        "u-b1",
        "2026-03-05T08:00:00.000Z",
        "Let's use quokka for the queue migration.",
        "/src/app",
      ),
    );
    await collect(home);
    const after = await client.callTool({ name: "verdict_recall", arguments: { query: "quokka migration" } });
    assert.match(textOf(after), /^1 earlier record/);
    assert.match(textOf(after), /> Let's use quokka for the queue migration\./);
    // The old record is still there.
    const again = await client.callTool({ name: "verdict_recall", arguments: { query: "zeppelin" } });
    assert.match(textOf(again), /nightly zeppelin backups/);
  } finally {
    await client.close();
    assert.equal((await serve.stop()).code, 0);
  }
});

Deno.test("verdict mcp over stdio answers from the records in the contract's format, and reloads too", async () => {
  const home = await tempHome();
  await writeTranscript(
    home,
    SESSION_A,
    promptLine(
      SESSION_A,
      "u-a1",
      "2026-03-02T10:00:00.000Z",
      "Decision: keep the ledger in SQLite.",
      "/src/app",
    ),
  );
  const { client } = await stdioClient(home, [], { VERDICT_ASOF: "2026-04-01T00:00:00Z" });
  try {
    const before = await client.callTool({ name: "verdict_recall", arguments: { query: "ledger sqlite" } });
    assert.match(textOf(before), /^No match: no records yet/);
    await collect(home);
    const after = await client.callTool({
      name: "verdict_recall",
      arguments: { query: "ledger sqlite", top: 1 },
    });
    const lines = textOf(after).split("\n");
    assert.match(lines[2]!, hitLinePattern());
    assert.equal(lines[3], "> Decision: keep the ledger in SQLite.");
  } finally {
    await client.close();
  }
});
