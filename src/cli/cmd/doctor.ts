/**
 * `verdict doctor [--json]`: checks an installation and says, one line each, what is wrong and
 * how to fix it. Exit 1 when a check failed, 0 otherwise (warnings included).
 *
 * `launch` runs in the launcher and loads the config itself, so a config that does not load is
 * a finding rather than an exit 3. It works out every path and runs what the Worker may not: each
 * agent's installed hook and MCP commands as the agent runs them (src/install/wiring.ts), the
 * scheduler's word on the collect job, the hook's trouble ledger. Then it hands the checks to a
 * Worker that may read exactly those paths and run only this program (for the sandbox probe).
 */
import { booleanOption } from "../../plan/args.ts";
import { nowMs } from "../../plan/clock.ts";
import { EXIT, UsageError, VerdictError } from "../../errors.ts";
import type { CommandIO, CommandPlan, RunConfined } from "../../plan/plan.ts";
import { type Config, loadConfig } from "../../config/config.ts";
import { dirname, isWithin, joinPath } from "../../config/paths.ts";
import { storePaths } from "../../store/paths.ts";
import { selfCommand } from "../../hostfile/binary.ts";
import { wiredBinary } from "../wired_bin.ts";
import type { AgentEnv, DoctorAgent } from "../../agents/agent.ts";
import { LOADED_AGENTS } from "../../agents/loaded.ts";
import { hostFileAgentPath, isPresent, mainSessionRoot } from "../../agents/locate.ts";
import { type Check, runDoctor } from "../../install/doctor.ts";
import { check } from "../../hostfile/checks.ts";
import { wiringChecks } from "../../install/wiring.ts";
import {
  describeTrouble,
  HOOK_DEADLINE_ENV,
  readTroubleSummary,
  TROUBLE_NOTICE_MIN,
  troubleTotal,
} from "../../gate/health.ts";
import { askScheduler, RUNNING } from "../../install/schedule_apply.ts";
import { decodeJob, type DoctorJob, encodeJob, JOB_OPTION } from "../../install/jobs.ts";
import { defaultScheduler, schedulePaths, type Scheduler } from "../../install/schedule.ts";
import { verdictRunFlags } from "../../task_flags.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A file outside every root for the probe to try: the config file when there is one. */
async function probeTarget(candidates: readonly string[], roots: readonly string[]): Promise<string> {
  for (const c of candidates) {
    if (roots.some((r) => isWithin(c, r))) continue;
    if (await exists(c)) return c;
  }
  return candidates[candidates.length - 1]!;
}

export async function launch(plan: CommandPlan, _io: CommandIO, runConfined: RunConfined): Promise<number> {
  if (plan.args.positionals.length > 0) {
    throw new UsageError(`"verdict doctor" takes no arguments, got "${plan.args.positionals[0]}"`);
  }
  const paths = plan.paths;
  let config: Config | null = null;
  let error: DoctorJob["config"]["error"] = null;
  try {
    config = await loadConfig(paths.config, paths.home);
  } catch (err) {
    if (!(err instanceof VerdictError)) throw err;
    error = { message: err.message, hint: err.hint ?? null };
  }
  const at: AgentEnv = { env: plan.env, home: paths.home, cwd: plan.cwd };
  const transcriptRoots = LOADED_AGENTS.map((a) => ({ label: a.label, path: mainSessionRoot(a, at) }));
  const agents: DoctorAgent[] = [];
  for (const agent of LOADED_AGENTS) {
    agents.push({
      id: agent.id,
      present: await isPresent(agent, at),
      files: [
        ...await Promise.all(
          agent.hostFiles.map(async (f) => ({
            role: f.role,
            path: f.path(at),
            agentPath: await hostFileAgentPath(f, at),
          })),
        ),
        ...(agent.doctorFiles ?? []).map((f) => ({ role: f.role, path: f.path(at), agentPath: f.path(at) })),
      ],
    });
  }
  const docRoots = config?.doc_roots ?? [];
  const gitRepos = config?.git_repos ?? [];
  const store = storePaths(paths.records);
  const home = paths.home;
  const xdg = plan.env.XDG_CONFIG_HOME;
  const scheduler = defaultScheduler(Deno.build.os);
  const roots = [...transcriptRoots.map((r) => r.path), ...docRoots, ...gitRepos, dirname(paths.records)];
  const target = await probeTarget([paths.config, "/etc/hostname", "/etc/hosts"], roots);
  const self = selfCommand(
    Deno.execPath(),
    decodeURIComponent(new URL(Deno.mainModule).pathname),
    verdictRunFlags(),
  );
  const now = nowMs(plan.asOf);
  const scheduleFiles = schedulePaths(
    scheduler,
    home,
    xdg && xdg.startsWith("/") ? xdg : joinPath(home, ".config"),
  );
  const wiring = await wiringChecks(
    LOADED_AGENTS.map((agent, i) => ({ agent, present: agents[i]!.present, files: agents[i]!.files })),
    { home, carried: carriedForRuns(plan.env), nonce: randomNonce },
  );
  const job: DoctorJob = {
    now,
    config: { path: paths.config, exists: await exists(paths.config), error },
    transcriptRoots,
    docRoots,
    gitRepos,
    records: store.db,
    index: store.segments,
    agents,
    scheduler,
    scheduleFiles,
    bin: wiredBinary(Deno.execPath(), plan.env, plan.cwd, home).bin,
    probe: error ? null : {
      argv: [...self, "sandbox-probe", "--as", "collect", "--read", target, "--config", paths.config],
      path: target,
    },
    wiring,
    hookTrouble: hookTroubleCheck(paths.stateDir, now),
    scheduleActive: await scheduleActivity(scheduler, scheduleFiles, plan.env),
  };
  const narrowed: CommandPlan = {
    ...plan,
    // The probe's collect must see the same records file as doctor (--records).
    env: { ...plan.env, VERDICT_RECORDS: paths.records },
    args: { ...plan.args, options: { ...plan.args.options, [JOB_OPTION]: encodeJob(job) } },
  };
  return await runConfined(narrowed);
}

/** Doctor's own settings a hook run keeps (the rest of the shell's environment an agent may not have). */
const CARRIED = ["VERDICT_WARM", HOOK_DEADLINE_ENV] as const;

function carriedForRuns(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of CARRIED) if (env[k] !== undefined) out[k] = env[k]!;
  return out;
}

function randomNonce(): string {
  return [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The hook's trouble ledger of the last day (src/gate/health.ts), as a check: a failure from as
 * many prompts as make the hook itself say verdict is not working (TROUBLE_NOTICE_MIN), so doctor
 * never answers that line with "all ok"; fewer are a warning.
 */
function hookTroubleCheck(stateDir: string, now: number): Check {
  const summary = readTroubleSummary(stateDir, now);
  const what = summary === null ? null : describeTrouble(summary);
  if (summary === null || what === null) {
    return check("hook trouble", "ok", "no prompt went without its hint in the last day");
  }
  const fixes = [
    ...(summary.counts.late > 0
      ? [
        "late answers: a loaded machine, or a cold start each prompt; verdict warm status says whether the warm helper runs (it answers in milliseconds); VERDICT_HOOK_DEADLINE_MS moves the deadline",
      ]
      : []),
    ...(summary.counts["no-archive"] > 0 ? ["no archive: run verdict collect"] : []),
    ...(summary.counts.config > 0 ? ["a config that does not load: see the config check"] : []),
    ...(summary.counts.refused > 0
      ? ["refused by the warm helper: verdict warm stop, then the next prompt starts one"]
      : []),
  ];
  return check(
    "hook trouble",
    troubleTotal(summary) >= TROUBLE_NOTICE_MIN ? "fail" : "warn",
    what,
    fixes.join("; "),
  );
}

/** What systemd or launchd says about the installed job, asked only when its files are there. */
async function scheduleActivity(
  scheduler: Scheduler,
  files: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<DoctorJob["scheduleActive"]> {
  if (files.length === 0 || !RUNNING[scheduler]) return null;
  for (const f of files) if (!(await exists(f))) return null;
  const { active, activeDetail } = await askScheduler(scheduler, env);
  return { active, detail: activeDetail };
}

const LABEL: Readonly<Record<Check["status"], string>> = {
  ok: "ok",
  warn: "warn",
  fail: "FAIL",
  skip: "skip",
};

export function formatChecks(checks: readonly Check[]): string {
  const width = Math.max(...checks.map((c) => c.id.length));
  const lines = checks.map((c) =>
    `${LABEL[c.status].padEnd(4)}  ${c.id.padEnd(width)}  ${c.message}${c.fix ? ` — fix: ${c.fix}` : ""}`
  );
  const fails = checks.filter((c) => c.status === "fail").length;
  const warns = checks.filter((c) => c.status === "warn").length;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  lines.push(
    fails + warns === 0
      ? "doctor: all ok"
      : `doctor: ${plural(fails, "problem")}, ${plural(warns, "warning")}`,
  );
  return lines.join("\n") + "\n";
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const job = decodeJob<DoctorJob>(plan.args.options);
  if (!job) throw new UsageError('"verdict doctor" was started without its job');
  const checks = await runDoctor(job, plan.env);
  const ok = checks.every((c) => c.status !== "fail");
  if (booleanOption(plan.args, "json")) await io.stdout(JSON.stringify({ ok, checks }, null, 2) + "\n");
  else await io.stdout(formatChecks(checks));
  return ok ? EXIT.ok : EXIT.finding;
}
