/**
 * `verdict hook pre-compact`: the PreCompact hook. Builds and judges the session from the hook
 * input's transcript and cwd (read through the calling agent's dialect, `--agent`). On any
 * verdict but safe_to_compact it writes the handoff (each unlanded item with its source) under
 * the state directory, for the SessionStart(compact) hook to give back after the compaction; on
 * safe_to_compact it removes a stale one. The reply carries a notice for the person and the
 * handoff as context (agents that hand it to the summarizer, Qwen Code, use it).
 *
 * Where the agent can stop a compaction (its dialect's canBlockCompaction), it blocks ONLY a
 * manual compaction, ONLY on preserve_first, ONLY when judge.block_manual is true, by replying
 * with a block (Claude Code: `{"decision":"block","reason":…}`, FORMATS §4.3) naming the handoff
 * file; a second manual request within MANUAL_BLOCK_WINDOW_MS always passes. An automatic
 * compaction is never blocked. Always exit 0; on any error it prints nothing (a broken install
 * never gets in the way of a compaction).
 */
import type { HookReply } from "../../agents/agent.ts";
import { loadedHookDialect } from "../../agents/hook_dialects.ts";
import { LOADED_AGENTS } from "../../agents/loaded.ts";
import { DEFAULT_HOOK_AGENT } from "../../agents/registry.ts";
import { compileCredentialRules } from "../../record/secrets.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { stringOption } from "../../plan/args.ts";
import { nowMs } from "../../plan/clock.ts";
import { buildSnapshot } from "../../judge/build.ts";
import { judgeChecked } from "../../judge/judge.ts";
import {
  MANUAL_BLOCK_WINDOW_MS,
  manualBlockDecision,
  removeHandoff,
  renderHandoff,
  writeHandoff,
} from "../../judge/handoff.ts";
import { describeCounts } from "../../judge/rules.ts";

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  try {
    const dialect = loadedHookDialect(stringOption(plan.args, "agent"));
    const id = stringOption(plan.args, "agent") ?? DEFAULT_HOOK_AGENT;
    const agent = LOADED_AGENTS.find((a) => a.id === id);
    const reply = dialect && agent
      ? await preCompact(plan, dialect.canBlockCompaction, agent.judgeTranscript)
      : null;
    const out = reply ? dialect!.render("pre-compact", reply) : null;
    if (out !== null) await io.stdout(JSON.stringify(out) + "\n");
  } catch {
    // Silent and harmless on any error.
  }
  return 0;
}

async function preCompact(
  plan: CommandPlan,
  canBlock: boolean,
  reframe: ((text: string) => string) | null,
): Promise<HookReply | null> {
  const input = plan.hookInput;
  if (input === null || input.transcript === null) return null;
  if (input.event !== null && input.event !== "pre-compact") return null;
  const config = plan.config.judge;
  const credentialRules = compileCredentialRules(plan.config.credential_patterns);
  const built = await buildSnapshot(
    { transcript_path: input.transcript, cwd: input.cwd, reframe },
    { config, credentialRules },
  );
  const answer = await judgeChecked(built.snapshot, { config });
  const session = input.session ?? answer.session;
  const stateDir = plan.paths.stateDir;
  if (answer.verdict === "safe_to_compact") {
    await removeHandoff(stateDir, session);
    return null;
  }
  const now = nowMs(plan.asOf);
  const handoffText = renderHandoff(
    built.snapshot,
    built.sources,
    answer,
    new Date(now).toISOString(),
    credentialRules,
  );
  const handoff = await writeHandoff(stateDir, session, handoffText);
  const line = `verdict: ${answer.verdict} (${answer.reason}): ${describeCounts(answer.counts)}`;
  if (canBlock && input.trigger === "manual" && answer.verdict === "preserve_first" && config.block_manual) {
    if (await manualBlockDecision(stateDir, session, now) === "block") {
      return {
        block: `${line}. Each unlanded item, with its source, is listed in ${handoff}. Land it first ` +
          `(commit, close the todos, answer the questions, write the decisions down), or run /compact again ` +
          `within ${MANUAL_BLOCK_WINDOW_MS / 1000} s to compact anyway.`,
      };
    }
  }
  // For agents that hand a pre-compaction hook's context to the summarizer (Qwen Code).
  const context = `[verdict compaction handoff] ${line}. Keep each unlanded item below, with its source, ` +
    `in the summary (the list is also in ${handoff}):\n\n${handoffText}`;
  return { notice: `${line}; handoff: ${handoff}`, context };
}
