/**
 * A record's position (sourcePosition), the one way every output shows where a record came
 * from: a line of a file, a commit of a repository, a row of a database (OpenCode's store has
 * no lines: its records carry the message or part id as `source_ref`), else the file alone.
 * Checked through each output that shows it: the hint's block, the MCP answer, recall's text
 * and JSON; and the archive line keeps the field (only for records that have it).
 */
import assert from "node:assert/strict";
import {
  asRecord,
  recordId,
  recordLine,
  sourcePosition,
  type VerdictRecord,
} from "../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../src/agents/registry.ts";
import { renderHint } from "../../src/gate/render.ts";
import { formatRecall } from "../../src/serve/format.ts";
import { CONTRACT } from "../../src/serve/contract.ts";
import { runCli, tempHome } from "../cli_helper.ts";
import { record as testRecord } from "../_records.ts";
import type { RecallHit } from "../../src/lookup/recall.ts";

const DB = "/home/dev/.local/share/opencode/opencode.db";

function record(over: Partial<VerdictRecord>): VerdictRecord {
  const { text, ...rest } = over;
  return testRecord(text ?? "From now on use pnpm, never npm.", {
    id: recordId("prompt", JSON.stringify(over)),
    time: "2026-12-01T10:00:00.000Z",
    project: "/home/dev/project",
    session: "s1",
    source_file: "/home/dev/.claude/projects/p/s1.jsonl",
    source_line: 7,
  }, rest);
}

const OPENCODE = record({
  origin: "opencode",
  source_file: DB,
  source_line: 0,
  source_ref: "msg_2315e541001MyFblDI1Qh9pBi",
});

Deno.test("sourcePosition(): file:line, repository and commit, database#row, else the file alone", () => {
  assert.equal(sourcePosition(record({})), "/home/dev/.claude/projects/p/s1.jsonl:7");
  assert.equal(
    sourcePosition(
      record({ kind: "commit", source_file: "/r", source_line: 0, commit: "0123456789abcdef0123" }),
    ),
    "/r 0123456789ab",
  );
  assert.equal(sourcePosition(OPENCODE), `${DB}#msg_2315e541001MyFblDI1Qh9pBi`);
  assert.equal(
    sourcePosition({ ...OPENCODE, kind: "note", source_ref: "prt_231550fb1001" }),
    `${DB}#prt_231550fb1001`,
  );
  // A row of no known id, or a commit record without its hash: the file, never "file:0".
  assert.equal(sourcePosition(record({ source_file: DB, source_line: 0 })), DB);
  assert.equal(sourcePosition(record({ kind: "tag", source_file: "/r", source_line: 0 })), "/r");
});

Deno.test("the hint's block shows an OpenCode quote at its message id, not at line 0", () => {
  const { context } = renderHint([{ record: OPENCODE, text: OPENCODE.text }]);
  assert.match(
    context,
    /^- 2026-12-01, prompt, \/home\/dev\/project, .*opencode\.db#msg_2315e541001MyFblDI1Qh9pBi$/m,
  );
  assert.doesNotMatch(context, /opencode\.db:0/);
  // Other sources as before.
  assert.match(
    renderHint([{ record: record({}), text: "From now on use pnpm, never npm." }]).context,
    /, \/home\/dev\/\.claude\/projects\/p\/s1\.jsonl:7$/m,
  );
});

Deno.test("the MCP answer shows the row id too", () => {
  const hit: RecallHit = {
    id: OPENCODE.id,
    kind: "prompt",
    origin: "opencode",
    time: OPENCODE.time,
    project: OPENCODE.project,
    session: "s1",
    source_file: DB,
    source_line: 0,
    source_ref: OPENCODE.source_ref,
    score: 1,
    matched: ["pnpm"],
    quote: OPENCODE.text,
    copies: { count: 1, first: OPENCODE.time, last: OPENCODE.time, complete: true },
  };
  const text = formatRecall({ hits: [hit], reason: null, explain: null }, CONTRACT.results.verdict_recall);
  assert.match(
    text.split("\n")[2]!,
    /· \/home\/dev\/\.local\/share\/opencode\/opencode\.db#msg_2315e541001MyFblDI1Qh9pBi ·/,
  );
  assert.ok(!text.includes("opencode.db:0"), text);
});

Deno.test("the archive line keeps source_ref, and writes none for records without one", () => {
  const line = recordLine(OPENCODE);
  assert.equal(JSON.parse(line).source_ref, OPENCODE.source_ref);
  assert.deepEqual(asRecord(JSON.parse(line), RECORD_ORIGINS), OPENCODE);
  const plain = recordLine(record({}));
  assert.ok(!plain.includes("source_ref"), plain);
  // A source_ref that is not a string is not one of our records.
  assert.equal(asRecord({ ...JSON.parse(line), source_ref: 7 }, RECORD_ORIGINS), null);
});

Deno.test("verdict recall shows it in its text and its JSON", async () => {
  const home = await tempHome();
  const records = `${home}/records.jsonl`;
  await Deno.writeTextFile(records, recordLine(OPENCODE) + "\n");
  const env = { HOME: home, VERDICT_RECORDS: records };
  const text = await runCli(["recall", "pnpm", "--as-of", "2026-12-02T00:00:00Z"], { env });
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    /^1\. 2026-12-01 {2}prompt {2}\/home\/dev\/project {2}.*opencode\.db#msg_2315e541001MyFblDI1Qh9pBi {2}score/m,
  );
  const json = await runCli(["recall", "pnpm", "--json", "--as-of", "2026-12-02T00:00:00Z"], { env });
  assert.equal(JSON.parse(json.stdout).hits[0].source_ref, OPENCODE.source_ref);
});
