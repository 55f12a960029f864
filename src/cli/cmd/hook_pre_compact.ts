/**
 * `verdict hook pre-compact`: Claude Code's PreCompact hook. Builds and judges the session from
 * the hook's transcript_path and cwd. On any verdict but safe_to_compact it writes the handoff
 * (each unlanded item with its source) under the state directory, for the SessionStart(compact)
 * hook to give back after the compaction; on safe_to_compact it removes a stale one.
 *
 * It blocks ONLY a manual compaction, ONLY on preserve_first, ONLY when judge.block_manual is
 * true, by printing `{"decision":"block","reason":…}` (FORMATS §4.3) naming the handoff file; a
 * second manual request within MANUAL_BLOCK_WINDOW_MS always passes. An automatic compaction is
 * never blocked. Always exit 0; on any error it prints nothing (a broken install never gets in
 * the way of a compaction).
 */
import { compileCredentialRules } from "../../collect/secrets.ts";
import type { CommandIO, CommandPlan } from "../plan.ts";
import { nowMs } from "../clock.ts";
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

export interface HookFields {
  readonly session_id: string | null;
  readonly hook_event_name: string | null;
  readonly trigger: string | null;
  readonly source: string | null;
}

/** The string fields of the hook JSON a compaction hook reads (null when absent or not a string). */
export function hookFields(stdin: Uint8Array | null): HookFields | null {
  if (stdin === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder().decode(stdin));
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const s = (x: unknown) => (typeof x === "string" && x !== "" ? x : null);
  return {
    session_id: s(o.session_id),
    hook_event_name: s(o.hook_event_name),
    trigger: s(o.trigger),
    source: s(o.source),
  };
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  try {
    const out = await preCompact(plan);
    if (out !== null) await io.stdout(JSON.stringify(out) + "\n");
  } catch {
    // Silent and harmless on any error.
  }
  return 0;
}

async function preCompact(plan: CommandPlan): Promise<Record<string, unknown> | null> {
  const fields = hookFields(plan.stdin);
  const transcript = plan.hookInput?.transcript_path ?? null;
  if (fields === null || transcript === null) return null;
  if (fields.hook_event_name !== null && fields.hook_event_name !== "PreCompact") return null;
  const config = plan.config.judge;
  const credentialRules = compileCredentialRules(plan.config.credential_patterns);
  const built = await buildSnapshot(
    { transcript_path: transcript, cwd: plan.hookInput?.cwd ?? null },
    { config, credentialRules },
  );
  const answer = await judgeChecked(built.snapshot, { config });
  const session = fields.session_id ?? answer.session;
  const stateDir = plan.paths.stateDir;
  if (answer.verdict === "safe_to_compact") {
    await removeHandoff(stateDir, session);
    return null;
  }
  const now = nowMs(plan.asOf);
  const handoff = await writeHandoff(
    stateDir,
    session,
    renderHandoff(built.snapshot, built.sources, answer, new Date(now).toISOString(), credentialRules),
  );
  const line = `verdict: ${answer.verdict} (${answer.reason}): ${describeCounts(answer.counts)}`;
  if (fields.trigger === "manual" && answer.verdict === "preserve_first" && config.block_manual) {
    if (await manualBlockDecision(stateDir, session, now) === "block") {
      return {
        decision: "block",
        reason: `${line}. Each unlanded item, with its source, is listed in ${handoff}. Land it first ` +
          `(commit, close the todos, answer the questions, write the decisions down), or run /compact again ` +
          `within ${MANUAL_BLOCK_WINDOW_MS / 1000} s to compact anyway.`,
      };
    }
  }
  return { systemMessage: `${line}; handoff: ${handoff}` };
}
