/**
 * Issue 27's prompts on a real agent CLI, the same story for every agent that runs it: session 1
 * types four decisions (English and Chinese), `verdict collect`; session 2 is small talk, then a
 * prompt that walks into each rule without saying it; session 3 is a prompt that repeats the pnpm
 * rule, one that acts against it, and small talk again.
 *
 * A rule is shown once per session (the cooldown), so the two pnpm probes sit in two sessions, and
 * a probe whose words touch another rule comes after that rule's own probe. Each claim is asserted
 * on the model requests the agent sent: a probe's turn carries the hook's context holding its rule;
 * a silent prompt's turn carries none, beside a turn of the same session that does. When a claim
 * fails, the message carries what `verdict hint --explain` says for that prompt against the same
 * archive (cooldown off) and how long each hook run took.
 *
 * What differs stays with the agent (tests/clients/<agent>/decisions_test.ts): its model server,
 * its home, its install, how its TUI starts, and where hook context and the person's messages
 * land in a request.
 */
import assert from "node:assert/strict";
import type { RecordedRequest } from "./model_server.ts";
import { assertIncludes, CLIENT_TEST, type Marked, promptTexts, turnsOf } from "./scenario.ts";
import { HINT_MARK, type StoryTui } from "./story.ts";
import type { HookCall, Workspace } from "./workspace.ts";
import { hookDeadlineMs } from "../../../src/hint/run.ts";

export const PNPM = "From now on we always use pnpm in this repo, never npm";
export const LOCK = "统一用 PostgreSQL 的 advisory lock，不要再用 Redis 锁";
export const ZOD = "前端表单校验统一用 zod schema，不再手写正则";
export const TIMEOUT = "接口超时统一设为 15 秒";
export const DECISIONS = [PNPM, LOCK, ZOD, TIMEOUT] as const;

/** The scripted model's answers to session 1 (either wire's text reply). */
export const DECISION_REPLIES = [
  { when: "pnpm in this repo", reply: { text: "Understood: pnpm only, never npm." } },
  { when: "advisory lock", reply: { text: "好的，以后用 PostgreSQL advisory lock。" } },
  { when: "zod schema", reply: { text: "好的，表单校验统一用 zod schema。" } },
  { when: "15 秒", reply: { text: "好的，接口超时统一 15 秒。" } },
] as const;

/** A prompt of sessions 2 and 3, and the rule its turn must carry (null: no added context at all). */
export interface Probe {
  readonly step: string;
  readonly prompt: string;
  readonly rule: string | null;
}

export const SESSION_2: readonly Probe[] = [
  { step: "hello", prompt: "hello", rule: null },
  // Before "add zod with npm": that prompt shares "zod" with this rule and may show it too.
  { step: "zod-regex", prompt: "给注册表单加个手机号校验，写个正则就行", rule: ZOD },
  { step: "redis-lock", prompt: "should the job dedupe take a Redis lock or something else?", rule: LOCK },
  { step: "timeout", prompt: "把订单接口的超时改成 30 秒", rule: TIMEOUT },
  { step: "zod-npm", prompt: "add zod with npm", rule: PNPM },
];

export const SESSION_3: readonly Probe[] = [
  // First in its session: its silence is the gate's (a repeat), not the cooldown's.
  { step: "repeat", prompt: "remember: always pnpm, never npm", rule: null },
  { step: "lodash", prompt: "add lodash to the package: npm install or pnpm add?", rule: PNPM },
  { step: "thanks", prompt: "thanks, that's all for today", rule: null },
];

/** Turns a probe's prompt into what an agent's TUI lets a person type (its reserved keys left out). */
export type Typeable = (prompt: string) => string;

/** The probes of sessions 2 and 3 as typed into an agent (`typeable`; the prompts as they are by default). */
export function probesFor(typeable: Typeable = (prompt) => prompt): {
  readonly session2: readonly Probe[];
  readonly session3: readonly Probe[];
  readonly step: (step: string) => Probe;
} {
  const typed = (p: Probe) => ({ ...p, prompt: typeable(p.prompt) });
  const session2 = SESSION_2.map(typed);
  const session3 = SESSION_3.map(typed);
  return { session2, session3, step: (step) => [...session2, ...session3].find((p) => p.step === step)! };
}

/** What the story left. */
export interface DecisionsStory extends Marked {
  /** The records of the collect after session 1. */
  readonly records: Record<string, unknown>[];
  /** `verdict hint --explain` on each probe against the archive session 1 left (cooldown off). */
  readonly explain: Readonly<Record<string, string>>;
  /** Each `verdict hook …` the agent ran: arguments, wall time, exit status. */
  readonly hooks: string;
  /** The `verdict hook user-prompt` run of each probe. */
  readonly hookRuns: Readonly<Record<string, HookCall>>;
  /** The hook's deadline in the workspace's environment (past it the hook prints nothing). */
  readonly deadlineMs: number;
}

/**
 * Drives the three sessions in `ws`, verdict installed for the agent, its TUI started by `start`
 * and answered by `server`.
 */
export async function driveDecisions(
  ws: Workspace,
  server: { readonly requests: readonly RecordedRequest[] },
  start: () => Promise<StoryTui>,
  typeable?: Typeable,
): Promise<DecisionsStory> {
  const { session2, session3 } = probesFor(typeable);
  const marks: Record<string, number> = {};
  const hookRuns: Record<string, HookCall> = {};
  const promptHooks = async () => (await ws.hookCalls()).filter((c) => c.args.startsWith("hook user-prompt"));

  {
    await using tui = await start();
    marks.decisions = server.requests.length;
    for (const d of DECISIONS) await tui.submit(d, d);
    await tui.quit();
  }
  await ws.verdictOk(["collect"]);
  const records = await ws.readRecords();

  // Before any prompt of sessions 2 and 3 reaches the archive: what the gate says on each, by hand.
  const explain: Record<string, string> = {};
  for (const p of [...session2, ...session3]) {
    const r = await ws.verdict(["hint", "--explain"], {
      env: { VERDICT_SEEN: "" },
      stdin: JSON.stringify({ session_id: "explain", prompt: p.prompt, cwd: ws.project }),
    });
    explain[p.step] = `exit ${r.code}\n${r.stderr}${r.stdout}`;
  }

  for (const [session, probes] of [["session-2", session2], ["session-3", session3]] as const) {
    marks[session] = server.requests.length;
    await using tui = await start();
    for (const p of probes) {
      marks[p.step] = server.requests.length;
      const before = (await promptHooks()).length;
      await tui.submit(p.prompt, p.prompt);
      const run = (await promptHooks())[before];
      if (!run) throw new Error(`the agent ran no prompt hook for "${p.prompt}":\n${await ws.hookReport()}`);
      hookRuns[p.step] = run;
    }
    await tui.quit();
  }
  marks.end = server.requests.length;
  return {
    requests: [...server.requests],
    marks,
    records,
    explain,
    hooks: await ws.hookReport(),
    hookRuns,
    deadlineMs: hookDeadlineMs(ws.env()),
  };
}

/** Where the agent puts things in a request. */
export interface RequestReader {
  /** The hook context the agent added after the person's latest message. */
  readonly contextOf: (r: RecordedRequest) => string;
  /** The text of every message of the person in the request (the conversation so far). */
  readonly usersOf: (r: RecordedRequest) => string;
  /** Whether a prompt's turn may be one the server counts as a side request (Copilot CLI's are). */
  readonly withSide?: boolean;
  /** The prompts as the agent's TUI lets them be typed (driveDecisions' `typeable`). */
  readonly typeable?: Typeable;
}

/** The turn that carried the probe's prompt (its first model request). */
function probeTurn(s: DecisionsStory, read: RequestReader, p: Probe): RecordedRequest {
  const turn = turnsOf(s, p.step, { withSide: read.withSide }).find((t) => t.input?.text.includes(p.prompt));
  if (!turn) throw new Error(`no model request carried the prompt "${p.prompt}"`);
  return turn;
}

/** What to read when a claim on `p` fails: the gate's own account and the hook runs. */
function why(s: DecisionsStory, p: Probe): string {
  const run = s.hookRuns[p.step];
  const its = run ? `${run.ms} ms, exit ${run.code}` : "none";
  return `\nverdict hint --explain on "${p.prompt}":\n${s.explain[p.step]}\nits hook run: ${its} ` +
    `(deadline ${s.deadlineMs} ms)\nall hook runs:\n${s.hooks}`;
}

/** A probe's turn carries the hook's context, and the context quotes its rule. */
function assertRuleShown(s: DecisionsStory, read: RequestReader, p: Probe): void {
  const context = read.contextOf(probeTurn(s, read, p));
  assert.ok(context.includes(HINT_MARK), `no hint reached the model with "${p.prompt}"${why(s, p)}`);
  assert.ok(
    context.includes(p.rule!),
    `the hint on "${p.prompt}" does not quote "${p.rule}"; it says:\n${context}${why(s, p)}`,
  );
}

/** A silent prompt's turn carries no hook context, though its hook ran and another turn of its session got one. */
function assertSilent(s: DecisionsStory, read: RequestReader, p: Probe, shownIn: Probe): void {
  assertRuleShown(s, read, shownIn);
  const run = s.hookRuns[p.step]!;
  assert.ok(
    run.code === 0 && run.ms < s.deadlineMs,
    `the prompt hook did not end inside its deadline on "${p.prompt}": its silence says nothing${why(s, p)}`,
  );
  for (const t of turnsOf(s, p.step, { withSide: read.withSide })) {
    const context = read.contextOf(t);
    assert.ok(!context.includes(HINT_MARK), `a hint came with "${p.prompt}":\n${context}${why(s, p)}`);
    assert.ok(
      !DECISIONS.some((d) => context.includes(d)),
      `a decision came with "${p.prompt}":\n${context}${why(s, p)}`,
    );
  }
}

/** The story's claims, each a test named after the agent (`name`: its label and version). */
export function decisionClaims(
  name: string,
  story: () => Promise<DecisionsStory>,
  read: RequestReader,
): void {
  const { session2, session3, step: probe } = probesFor(read.typeable);
  Deno.test({
    name: `${name}: session 1's four decisions (English and Chinese) are collected as typed`,
    ...CLIENT_TEST,
    async fn() {
      const s = await story();
      assert.deepEqual(promptTexts(s.records), [...DECISIONS]);
      for (const d of DECISIONS) {
        assert.ok(
          turnsOf(s, "decisions", { to: "session-2", withSide: read.withSide }).some((t) =>
            t.input?.text.includes(d)
          ),
          `no model request of session 1 carried "${d}"`,
        );
      }
    },
  });

  for (const step of ["zod-npm", "lodash"]) {
    Deno.test({
      name: `${name}: "${probe(step).prompt}" reaches the model with the pnpm rule`,
      ...CLIENT_TEST,
      async fn() {
        assertRuleShown(await story(), read, probe(step));
      },
    });
  }

  for (
    const [step, rule] of [
      ["redis-lock", "the Chinese advisory-lock rule"],
      ["zod-regex", "the zod rule"],
      ["timeout", "the 15-second timeout rule"],
    ] as const
  ) {
    Deno.test({
      name: `${name}: "${probe(step).prompt}" reaches the model with ${rule}`,
      ...CLIENT_TEST,
      async fn() {
        assertRuleShown(await story(), read, probe(step));
      },
    });
  }

  Deno.test({
    name:
      `${name}: small talk ("hello", "thanks, that's all for today") reaches the model with no added context`,
    ...CLIENT_TEST,
    async fn() {
      const s = await story();
      assertSilent(s, read, probe("hello"), probe("zod-npm"));
      assertSilent(s, read, probe("thanks"), probe("lodash"));
    },
  });

  Deno.test({
    name:
      `${name}: a prompt that repeats the pnpm rule gets nothing, the next one that acts against it gets it`,
    ...CLIENT_TEST,
    async fn() {
      const s = await story();
      assertSilent(s, read, probe("repeat"), probe("lodash"));
      // Silent because it repeats the rule, by the gate's own account (not for want of a match).
      assertIncludes(s.explain.repeat!, "hint: silent (repeat)", "verdict hint --explain on the repeat");
    },
  });

  Deno.test({
    name: `${name}: sessions 2 and 3 are new sessions (the decisions are earlier, not live)`,
    ...CLIENT_TEST,
    async fn() {
      const s = await story();
      // Each session starts a new conversation: its first probe's request holds no message of session 1.
      for (const first of [session2[0]!, session3[0]!]) {
        const users = read.usersOf(probeTurn(s, read, first));
        for (const d of DECISIONS) {
          assert.ok(!users.includes(d), `session of "${first.prompt}" still holds "${d}"`);
        }
        assertIncludes(users, first.prompt);
      }
    },
  });
}
