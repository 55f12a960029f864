/**
 * Replay's semantics: time order, the own session, the per-session cooldown, equal times, and
 * that each decision is the hook's own (the real `verdict hint` on the same older records, clock
 * and ledger prints the same notice).
 */
import assert from "node:assert/strict";
import { recordLine, type VerdictRecord } from "../../src/record/record.ts";
import { renderHint } from "../../src/gate/render.ts";
import {
  decisionKey,
  freshIndexAgreement,
  replayArchive,
  replayerFor,
  type ReplayEvent,
  type ReplaySettings,
  sortedRecords,
} from "../../src/replay/replay.ts";
import { runCli, tempHome } from "../cli_helper.ts";
import { loadFixtures } from "../gate/gate_eval.ts";

const SETTINGS: ReplaySettings = { entities: [], personas: [] };
let serial = 0;

function prompt(
  time: string,
  session: string | null,
  text: string,
  project = "/home/dev/infra",
): VerdictRecord {
  serial++;
  return {
    id: `p${String(serial).padStart(16, "0")}`,
    kind: "prompt",
    origin: "claude",
    text,
    time,
    project,
    session,
    source_file: `/home/dev/.claude/projects/-home-dev-infra/${session ?? "none"}.jsonl`,
    source_line: serial,
    commit: null,
  };
}

const NOISE = [
  "fix the flaky login test",
  "rename the config loader",
  "why is the build slow",
  "add a readme section on setup",
  "bump the lint rules",
  "make the sidebar collapsible",
  "tidy up the imports in the api client",
  "write a changelog entry",
];

/**
 * A decision, then prompts that touch it from another session (ask, askAgain),
 * at the instant of another decision (atSameTime), in a third session (otherSession); plus an own-
 * session turn that matches better (ownTurn) and a later decision (future).
 */
function archive(): { records: VerdictRecord[]; ids: Record<string, string>; targets: Set<string> } {
  const records: VerdictRecord[] = NOISE.map((t, i) =>
    prompt(`2026-01-01T0${i}:00:00.000Z`, `noise-${i}`, t)
  );
  const decision = prompt(
    "2026-01-01T10:00:00.000Z",
    "s-decide",
    "From now on the nightly backups always use pg_dump per database, never pg_dumpall.",
  );
  const ownTurn = prompt(
    "2026-01-02T09:00:00.000Z",
    "s-ask",
    "we must always run pg_dumpall for the nightly backups",
  );
  const ask = prompt("2026-01-02T09:30:00.000Z", "s-ask", "should the nightly backups use pg_dumpall?");
  const askAgain = prompt("2026-01-02T09:40:00.000Z", "s-ask", "so pg_dumpall for the nightly backups then?");
  const sameTime = prompt(
    "2026-01-03T08:00:00.000Z",
    "s-same",
    "Decision: the nightly backups always go to the barman server with pg_basebackup.",
  );
  const atSameTime = prompt(
    "2026-01-03T08:00:00.000Z",
    "s-other",
    "pg_basebackup to the barman server tonight?",
  );
  const otherSession = prompt(
    "2026-01-04T09:00:00.000Z",
    "s-new",
    "pg_dump per database or pg_dumpall for the nightly backups?",
  );
  const future = prompt(
    "2026-02-01T00:00:00.000Z",
    "s-future",
    "We decided: nightly backups must use pgbackrest, never pg_dumpall again.",
  );
  records.push(decision, ownTurn, ask, askAgain, sameTime, atSameTime, otherSession, future);
  return {
    records,
    ids: {
      decision: decision.id,
      ownTurn: ownTurn.id,
      ask: ask.id,
      askAgain: askAgain.id,
      sameTime: sameTime.id,
      atSameTime: atSameTime.id,
      otherSession: otherSession.id,
      future: future.id,
    },
    // ownTurn is not replayed: it is there to be the better match that must never be quoted.
    targets: new Set([ask.id, askAgain.id, atSameTime.id, otherSession.id, future.id]),
  };
}

/** Replays the prompts named `targets` (all when absent); the others only join the archive. */
function replayAll(
  records: readonly VerdictRecord[],
  targets?: ReadonlySet<string>,
): { events: Map<string, ReplayEvent>; order: ReplayEvent[] } {
  const replayer = replayerFor(records, SETTINGS);
  const order = [...replayArchive(replayer, records, (r) => targets === undefined || targets.has(r.id))];
  return { events: new Map(order.map((e) => [e.prompt.id, e])), order };
}

Deno.test("replay: a prompt is quoted the older decision of another session, never its own session's", () => {
  const { records, ids, targets } = archive();
  const { events } = replayAll(records, targets);
  const ask = events.get(ids.ask!)!;
  assert.deepEqual(ask.quoted.map((r) => r.id), [ids.decision], ask.outcome.verdict.detail);
  assert.ok(!ask.quoted.some((r) => r.session === "s-ask"));
});

Deno.test("replay: nothing later than the prompt is ever visible (the future decision is never quoted before its time)", () => {
  const { records, ids } = archive();
  const { order } = replayAll(records);
  for (const e of order) {
    for (const q of e.quoted) assert.ok(q.time < e.prompt.time, `${e.prompt.id} quoted ${q.id}`);
    assert.equal(e.archiveSize, records.filter((r) => r.time < e.prompt.time).length);
  }
  assert.ok(!order.some((e) => e.quoted.some((q) => q.id === ids.future)));
});

Deno.test("replay: a record of the same instant is not visible to a prompt of that instant", () => {
  const { records, ids, targets } = archive();
  const { events } = replayAll(records, targets);
  const e = events.get(ids.atSameTime!)!;
  assert.ok(!e.quoted.some((q) => q.id === ids.sameTime));
});

Deno.test("replay: the cooldown is per session, as in the hook", () => {
  const { records, ids, targets } = archive();
  const { events } = replayAll(records, targets);
  const again = events.get(ids.askAgain!)!;
  assert.ok(again.shownBefore.has(ids.decision!), "the first quote entered s-ask's ledger");
  assert.ok(!again.quoted.some((q) => q.id === ids.decision), "not shown twice in s-ask");
  const other = events.get(ids.otherSession!)!;
  assert.equal(other.shownBefore.size, 0);
  assert.ok(other.quoted.some((q) => q.id === ids.decision), "another session sees it again");
});

Deno.test("replay: deterministic — the same records in any order give the same decisions", () => {
  const { records } = archive();
  const a = replayAll(records).order.map((e) => `${e.prompt.id}:${decisionKey(e.outcome)}`);
  const b = replayAll([...records].reverse()).order.map((e) => `${e.prompt.id}:${decisionKey(e.outcome)}`);
  assert.deepEqual(a, b);
});

Deno.test("replay's decisions equal an index built from scratch at every prompt (English: the bound is exact)", () => {
  const { records } = loadFixtures();
  const english = records.filter((r) => !/[\u3400-\u9fff]/.test(r.text));
  const replayer = replayerFor(english, SETTINGS);
  const events = [...replayArchive(replayer, english, () => true)];
  assert.ok(events.filter((e) => e.outcome.verdict.speak).length >= 3, "some prompts fire");
  const check = freshIndexAgreement(events, replayer.records, SETTINGS);
  assert.deepEqual(check.differ, []);
  assert.equal(check.agree, events.length);
});

Deno.test("replay runs the hook's own code: `verdict hint` on the same older records, clock and ledger prints the same notice", async () => {
  const { records } = loadFixtures();
  const english = sortedRecords(records.filter((r) => !/[\u3400-\u9fff]/.test(r.text)));
  const replayer = replayerFor(english, SETTINGS);
  const events = [...replayArchive(replayer, english, () => true)];
  const fired = events.filter((e) => e.outcome.verdict.speak);
  const silent = events.filter((e) => !e.outcome.verdict.speak && e.archiveSize > 20);
  const sample = [
    ...fired.slice(0, 3),
    ...fired.filter((e) => e.shownBefore.size > 0).slice(0, 1),
    ...silent.slice(-3),
  ];
  assert.ok(sample.length >= 6);
  const home = await tempHome();
  try {
    for (const [i, e] of sample.entries()) {
      const dir = `${home}/case-${i}`;
      await Deno.mkdir(dir);
      const older = replayer.records.slice(0, e.archiveSize);
      await Deno.writeTextFile(`${dir}/records.jsonl`, older.map((r) => recordLine(r) + "\n").join(""));
      await Deno.writeTextFile(
        `${dir}/seen.jsonl`,
        [...e.shownBefore].map((id) =>
          JSON.stringify({ time: e.prompt.time, session: e.prompt.session, id }) + "\n"
        )
          .join(""),
      );
      const r = await runCli(
        [
          "hint",
          "--records",
          `${dir}/records.jsonl`,
          "--seen",
          `${dir}/seen.jsonl`,
          "--as-of",
          e.prompt.time,
        ],
        {
          env: { HOME: home },
          stdin: JSON.stringify({
            session_id: e.prompt.session,
            prompt: e.prompt.text,
            cwd: e.prompt.project,
          }),
        },
      );
      assert.equal(r.code, 0, r.stderr);
      const expected = e.quotes.length > 0 ? renderHint(e.quotes).notice : null;
      const got = r.stdout.trim() === ""
        ? null
        : (JSON.parse(r.stdout) as { systemMessage: string }).systemMessage;
      assert.equal(got, expected, `prompt ${e.prompt.id}: ${e.prompt.text}`);
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
