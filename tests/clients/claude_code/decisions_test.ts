/**
 * Issue 27's prompts on the real Claude Code CLI (pinned in harness/versions.ts), offline: the
 * scripted Anthropic model on 127.0.0.1, a temp HOME, a git project. One story, driven once:
 *
 *  1. `verdict install`, then session 1 in the TUI: four decisions, one prompt each (English and
 *     Chinese), then `verdict collect`;
 *  2. session 2: small talk, then a prompt that walks into each rule without saying it;
 *  3. session 3: a prompt that repeats the pnpm rule, a second prompt that acts against it, and
 *     small talk again.
 *
 * A rule is shown once per session (the cooldown), so the two pnpm probes sit in two sessions, and
 * a probe whose words touch another rule comes after that rule's own probe. Each claim is asserted
 * on the model requests Claude Code sent: a probe's turn carries the hook's context holding its
 * rule; a silent prompt's turn carries none, beside a turn of the same session that does. When a
 * claim fails, the message carries what `verdict hint --explain` says for that prompt against the
 * same archive (cooldown off) and how long each hook run took.
 */
import assert from "node:assert/strict";
import { anthropicServer, blocksOf, messagesOf } from "../harness/anthropic_messages.ts";
import type { RecordedRequest } from "../harness/model_server.ts";
import { assertIncludes, CLIENT_TEST, once, promptTexts, turnsOf } from "../harness/scenario.ts";
import { testPrefix } from "../harness/versions.ts";
import { type HookCall, Workspace } from "../harness/workspace.ts";
import { hookDeadlineMs } from "../../../src/hint/run.ts";
import { ClaudeTui, seedClaudeHome } from "./claude_code.ts";

const NAME = testPrefix("claude-code");

/** The marker verdict's hint block starts with (src/gate/render.ts). */
const HINT_MARK = "[verdict recall]";

const PNPM = "From now on we always use pnpm in this repo, never npm";
const LOCK = "统一用 PostgreSQL 的 advisory lock，不要再用 Redis 锁";
const ZOD = "前端表单校验统一用 zod schema，不再手写正则";
const TIMEOUT = "接口超时统一设为 15 秒";
const DECISIONS = [PNPM, LOCK, ZOD, TIMEOUT] as const;

/** A prompt of sessions 2 and 3, and the rule its turn must carry (null: no added context at all). */
interface Probe {
  readonly step: string;
  readonly prompt: string;
  readonly rule: string | null;
}

const SESSION_2: readonly Probe[] = [
  { step: "hello", prompt: "hello", rule: null },
  // Before "add zod with npm": that prompt shares "zod" with this rule and may show it too.
  { step: "zod-regex", prompt: "给注册表单加个手机号校验，写个正则就行", rule: ZOD },
  { step: "redis-lock", prompt: "should the job dedupe take a Redis lock or something else?", rule: LOCK },
  { step: "timeout", prompt: "把订单接口的超时改成 30 秒", rule: TIMEOUT },
  { step: "zod-npm", prompt: "add zod with npm", rule: PNPM },
];

const SESSION_3: readonly Probe[] = [
  // First in its session: its silence is the gate's (a repeat), not the cooldown's.
  { step: "repeat", prompt: "remember: always pnpm, never npm", rule: null },
  { step: "lodash", prompt: "add lodash to the package: npm install or pnpm add?", rule: PNPM },
  { step: "thanks", prompt: "thanks, that's all for today", rule: null },
];

const PROBES = [...SESSION_2, ...SESSION_3];

interface Story {
  readonly requests: readonly RecordedRequest[];
  readonly marks: Readonly<Record<string, number>>;
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

const story = once(async (): Promise<Story> => {
  await using ws = await Workspace.create("claude-code-decisions");
  await using server = anthropicServer([
    { when: "pnpm in this repo", reply: { text: "Understood: pnpm only, never npm." } },
    { when: "advisory lock", reply: { text: "好的，以后用 PostgreSQL advisory lock。" } },
    { when: "zod schema", reply: { text: "好的，表单校验统一用 zod schema。" } },
    { when: "15 秒", reply: { text: "好的，接口超时统一 15 秒。" } },
  ]);
  await seedClaudeHome(ws);
  await ws.verdictOk(["install"]);
  const marks: Record<string, number> = {};
  const hookRuns: Record<string, HookCall> = {};
  const promptHooks = async () => (await ws.hookCalls()).filter((c) => c.args.startsWith("hook user-prompt"));

  {
    await using tui = await ClaudeTui.start(ws, server);
    marks.decisions = server.requests.length;
    for (const d of DECISIONS) await tui.submit(d, d);
    await tui.quit();
  }
  await ws.verdictOk(["collect"]);
  const records = await ws.readRecords();

  // Before any prompt of sessions 2 and 3 reaches the archive: what the gate says on each, by hand.
  const explain: Record<string, string> = {};
  for (const p of PROBES) {
    const r = await ws.verdict(["hint", "--explain"], {
      env: { VERDICT_SEEN: "" },
      stdin: JSON.stringify({ session_id: "explain", prompt: p.prompt, cwd: ws.project }),
    });
    explain[p.step] = `exit ${r.code}\n${r.stderr}${r.stdout}`;
  }

  for (const [session, probes] of [["session-2", SESSION_2], ["session-3", SESSION_3]] as const) {
    marks[session] = server.requests.length;
    await using tui = await ClaudeTui.start(ws, server);
    for (const p of probes) {
      marks[p.step] = server.requests.length;
      const before = (await promptHooks()).length;
      await tui.submit(p.prompt, p.prompt);
      const run = (await promptHooks())[before];
      if (!run) {
        throw new Error(`Claude Code ran no prompt hook for "${p.prompt}":\n${await ws.hookReport()}`);
      }
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
});

// ---- reading what was recorded

/** What Claude Code sent after the latest user message of a request (where hook context goes). */
function afterLastUser(r: RecordedRequest): string {
  const messages = messagesOf(r.body);
  const last = messages.map((m) => m.role).lastIndexOf("user");
  return messages.slice(last + 1).flatMap(blocksOf).map((b) =>
    typeof b.text === "string" ? b.text : JSON.stringify(b)
  ).join("\n");
}

/** The turn that carried the probe's prompt (its first model request). */
function probeTurn(s: Story, p: Probe): RecordedRequest {
  const turn = turnsOf(s, p.step).find((t) => t.input?.text.includes(p.prompt));
  if (!turn) throw new Error(`no model request carried the prompt "${p.prompt}"`);
  return turn;
}

/** What to read when a claim on `p` fails: the gate's own account and the hook runs. */
function why(s: Story, p: Probe): string {
  const run = s.hookRuns[p.step];
  const its = run ? `${run.ms} ms, exit ${run.code}` : "none";
  return `\nverdict hint --explain on "${p.prompt}":\n${s.explain[p.step]}\nits hook run: ${its} ` +
    `(deadline ${s.deadlineMs} ms)\nall hook runs:\n${s.hooks}`;
}

function probe(step: string): Probe {
  return PROBES.find((p) => p.step === step)!;
}

/** A probe's turn carries the hook's context, and the context quotes its rule. */
function assertRuleShown(s: Story, p: Probe): void {
  const context = afterLastUser(probeTurn(s, p));
  assert.ok(context.includes(HINT_MARK), `no hint reached the model with "${p.prompt}"${why(s, p)}`);
  assert.ok(
    context.includes(p.rule!),
    `the hint on "${p.prompt}" does not quote "${p.rule}"; it says:\n${context}${why(s, p)}`,
  );
}

/** A silent prompt's turn carries no hook context, though its hook ran and another turn of its session got one. */
function assertSilent(s: Story, p: Probe, shownIn: Probe): void {
  assertRuleShown(s, shownIn);
  const run = s.hookRuns[p.step]!;
  assert.ok(
    run.code === 0 && run.ms < s.deadlineMs,
    `the prompt hook did not end inside its deadline on "${p.prompt}": its silence says nothing${why(s, p)}`,
  );
  for (const t of turnsOf(s, p.step)) {
    const context = afterLastUser(t);
    assert.ok(!context.includes(HINT_MARK), `a hint came with "${p.prompt}":\n${context}${why(s, p)}`);
    assert.ok(
      !DECISIONS.some((d) => context.includes(d)),
      `a decision came with "${p.prompt}":\n${context}${why(s, p)}`,
    );
  }
}

// ---- the claims

Deno.test({
  name: `${NAME}: session 1's four decisions (English and Chinese) are collected as typed`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assert.deepEqual(promptTexts(s.records), [...DECISIONS]);
    for (const d of DECISIONS) {
      assert.ok(
        turnsOf(s, "decisions", { to: "session-2" }).some((t) => t.input?.text.includes(d)),
        `no model request of session 1 carried "${d}"`,
      );
    }
  },
});

for (const step of ["zod-npm", "lodash"]) {
  Deno.test({
    name: `${NAME}: "${probe(step).prompt}" reaches the model with the pnpm rule`,
    ...CLIENT_TEST,
    async fn() {
      assertRuleShown(await story(), probe(step));
    },
  });
}

Deno.test({
  name: `${NAME}: "${probe("redis-lock").prompt}" reaches the model with the Chinese advisory-lock rule`,
  ...CLIENT_TEST,
  async fn() {
    assertRuleShown(await story(), probe("redis-lock"));
  },
});

Deno.test({
  name: `${NAME}: "${probe("zod-regex").prompt}" reaches the model with the zod rule`,
  ...CLIENT_TEST,
  async fn() {
    assertRuleShown(await story(), probe("zod-regex"));
  },
});

Deno.test({
  name: `${NAME}: "${probe("timeout").prompt}" reaches the model with the 15-second timeout rule`,
  ...CLIENT_TEST,
  async fn() {
    assertRuleShown(await story(), probe("timeout"));
  },
});

Deno.test({
  name:
    `${NAME}: small talk ("hello", "thanks, that's all for today") reaches the model with no added context`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assertSilent(s, probe("hello"), probe("zod-npm"));
    assertSilent(s, probe("thanks"), probe("lodash"));
  },
});

Deno.test({
  name:
    `${NAME}: a prompt that repeats the pnpm rule gets nothing, the next one that acts against it gets it`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    assertSilent(s, probe("repeat"), probe("lodash"));
    // Silent because it repeats the rule, by the gate's own account (not for want of a match).
    assertIncludes(s.explain.repeat!, "hint: silent (repeat)", "verdict hint --explain on the repeat");
  },
});

Deno.test({
  name: `${NAME}: sessions 2 and 3 are new sessions (the decisions are earlier, not live)`,
  ...CLIENT_TEST,
  async fn() {
    const s = await story();
    // Each session starts a new conversation: its first probe's request holds no message of session 1.
    for (const first of [SESSION_2[0]!, SESSION_3[0]!]) {
      const turn = probeTurn(s, first);
      const users = messagesOf(turn.body).filter((m) => m.role === "user").flatMap(blocksOf)
        .map((b) => String(b.text ?? "")).join("\n");
      for (const d of DECISIONS) {
        assert.ok(!users.includes(d), `session of "${first.prompt}" still holds "${d}"`);
      }
      assertIncludes(users, first.prompt);
    }
  },
});
