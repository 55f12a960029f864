/**
 * The pooled-recall pool's unit (tests/replay/replay_eval.ts poolCandidates): one candidate per
 * text, shown now or earlier in the session or not, on records of our own (no history needed).
 */
import assert from "node:assert/strict";
import type { VerdictRecord } from "../../src/record/record.ts";
import { statementKey } from "../../src/gate/statements.ts";
import { pairKey, poolCandidates } from "./replay_eval.ts";

let serial = 0;
function record(text: string, session = "s-old"): VerdictRecord {
  serial++;
  return {
    id: `p${String(serial).padStart(16, "0")}`,
    kind: "prompt",
    origin: "claude",
    text,
    time: `2026-01-0${serial % 9 + 1}T10:00:00.000Z`,
    project: "/home/dev/app",
    session,
    source_file: `/home/dev/.claude/projects/-home-dev-app/${session}.jsonl`,
    source_line: serial,
    commit: null,
  };
}

const PROMPT = "npm install or pnpm add for the new package?";
const RULE = "From now on we always use pnpm, never npm.";

Deno.test("a text resent three times is one pool candidate, shown when any copy is", () => {
  const copies = [record(RULE), record(RULE, "s-two"), record(RULE, "s-three")];
  const other = record("the sidebar should stay collapsed on mobile");
  // Not shown: the three copies are one relevant decision missed, not three.
  const missed = poolCandidates(PROMPT, [], [...copies], new Set(), new Set());
  assert.equal(missed.size, 1);
  assert.deepEqual([...missed.values()].map((c) => [c.record.id, c.shown, c.rank]), [[
    copies[0]!.id,
    null,
    1,
  ]]);
  // The hint quoted the second copy: the one candidate is shown now, whichever copy recall ranks.
  const quoted = poolCandidates(PROMPT, [copies[1]!], [copies[0]!, other, copies[2]!], new Set(), new Set());
  assert.equal(quoted.size, 2);
  assert.equal(quoted.get(pairKey(PROMPT, RULE))?.shown, "now");
  assert.equal(quoted.get(pairKey(PROMPT, other.text))?.shown, null);
});

Deno.test("a candidate whose statement the hint quotes now, or showed earlier in the session, counts as shown", () => {
  const longer = record(`${RULE} Keep the lockfile committed.`);
  const now = poolCandidates(PROMPT, [], [longer], new Set([statementKey(RULE)]), new Set());
  assert.equal([...now.values()][0]?.shown, "now");
  const byStatement = poolCandidates(PROMPT, [], [longer], new Set(), new Set([statementKey(RULE)]));
  assert.equal([...byStatement.values()][0]?.shown, "earlier");
  const byRecord = poolCandidates(PROMPT, [], [longer], new Set(), new Set([longer.id]));
  assert.equal([...byRecord.values()][0]?.shown, "earlier");
  // A copy shown now outranks a copy shown earlier: the candidate is shown now.
  const first = record(RULE);
  const second = record(RULE, "s-two");
  const both = poolCandidates(PROMPT, [], [first, second], new Set([second.id]), new Set([first.id]));
  assert.equal(both.size, 1);
  assert.equal([...both.values()][0]?.shown, "now");
  // Nothing of it shown: not shown.
  const none = poolCandidates(
    PROMPT,
    [],
    [longer],
    new Set([statementKey("use yarn")]),
    new Set(["p-other"]),
  );
  assert.equal([...none.values()][0]?.shown, null);
});
