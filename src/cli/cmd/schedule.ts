/**
 * `verdict schedule install|remove|status`: the scheduled collect (systemd user timer on Linux,
 * launchd agent on macOS, a printed cron line or Task Scheduler command elsewhere).
 *
 * `launch` runs in the launcher: it reads the interval (--interval, else the config's
 * schedule_interval_minutes), finds the binary, generates the files (src/install/schedule.ts,
 * pure) and hands the job to a Worker that may write only those files and run only systemctl
 * (or launchctl). `run` runs in that Worker.
 */
import { booleanOption, intOption, stringOption } from "../../plan/args.ts";
import { nowMs } from "../../plan/clock.ts";
import { EXIT, UsageError } from "../../errors.ts";
import type { CommandIO, CommandPlan, RunConfined } from "../../plan/plan.ts";
import { dirname, joinPath } from "../../config/paths.ts";
import { storePaths } from "../../store/paths.ts";
import { carriedEnv } from "../../hostfile/binary.ts";
import { writeLauncher } from "../../install/launcher.ts";
import { wiredBinary } from "../wired_bin.ts";
import { formatAge } from "../../install/doctor.ts";
import { decodeJob, encodeJob, JOB_OPTION, type ScheduleJob } from "../../install/jobs.ts";
import { defaultScheduler, schedulePlan, type Scheduler, SCHEDULERS } from "../../install/schedule.ts";
import {
  type CommandOutcome,
  removeScheduleFiles,
  runCommands,
  RUNNING,
  scheduleStatus,
  writeScheduleFiles,
} from "../../install/schedule_apply.ts";
import { shellQuote } from "../../hostfile/shell.ts";

/** Bounds of --interval, the same as the config key's. */
const MIN_INTERVAL = 5;
const MAX_INTERVAL = 7 * 24 * 60;

function chooseScheduler(plan: CommandPlan): Scheduler {
  const named = stringOption(plan.args, "scheduler");
  if (named === undefined) return defaultScheduler(Deno.build.os);
  if (!(SCHEDULERS as readonly string[]).includes(named)) {
    throw new UsageError(`Unknown scheduler "${named}"`, `use one of: ${SCHEDULERS.join(", ")}`);
  }
  return named as Scheduler;
}

export async function launch(plan: CommandPlan, _io: CommandIO, runConfined: RunConfined): Promise<number> {
  const action = plan.command.split(" ")[1] as ScheduleJob["action"];
  if (plan.args.positionals.length > 0) {
    throw new UsageError(`"verdict ${plan.command}" takes no arguments, got "${plan.args.positionals[0]}"`);
  }
  const scheduler = chooseScheduler(plan);
  const interval = intOption(
    plan.args,
    "interval",
    plan.config.schedule_interval_minutes,
    MIN_INTERVAL,
    MAX_INTERVAL,
  );
  const home = plan.paths.home;
  const wired = wiredBinary(Deno.execPath(), plan.env, plan.cwd, home);
  const bin = wired.bin;
  if (action === "install" && wired.launcher && !booleanOption(plan.args, "dry-run")) {
    await writeLauncher(wired.launcher.path, await wired.launcher.text());
  }
  const xdg = plan.env.XDG_CONFIG_HOME;
  const configHome = xdg && xdg.startsWith("/") ? xdg : joinPath(home, ".config");
  const dryRun = booleanOption(plan.args, "dry-run");
  const job: ScheduleJob = {
    action,
    dryRun,
    plan: schedulePlan({
      scheduler,
      bin,
      intervalMinutes: interval,
      env: carriedEnv(plan.env, plan.cwd, home),
      home,
      configHome,
    }),
    bin,
    intervalMinutes: interval,
    records: storePaths(plan.paths.records).db,
    now: nowMs(plan.asOf),
  };
  if (action === "install" && !dryRun) {
    for (const f of job.plan.files) await Deno.mkdir(dirname(f.path), { recursive: true, mode: 0o755 });
  }
  const narrowed: CommandPlan = {
    ...plan,
    args: { ...plan.args, options: { ...plan.args.options, [JOB_OPTION]: encodeJob(job) } },
  };
  return await runConfined(narrowed);
}

const commandLine = (argv: readonly string[]) => argv.map(shellQuote).join(" ");

/** Lines for commands that ran; true when all of them succeeded. */
function reportCommands(outcomes: readonly CommandOutcome[], out: string[]): boolean {
  for (const o of outcomes) {
    out.push(
      o.ok ? `  ran: ${commandLine(o.argv)}` : `  could not run "${commandLine(o.argv)}": ${o.detail}`,
    );
  }
  return outcomes.every((o) => o.ok);
}

/** Installs; false when the files are written but the scheduler could not be told to run them. */
async function install(job: ScheduleJob, plan: CommandPlan, out: string[]): Promise<boolean> {
  const p = job.plan;
  if (p.files.length === 0) {
    out.push(
      `schedule: ${p.scheduler}, every ${job.intervalMinutes} minutes (verdict cannot register it itself)`,
    );
    out.push(...p.manualInstall);
    if (p.note) out.push(`note: ${p.note}`);
    return true;
  }
  if (job.dryRun) {
    for (const f of p.files) out.push(`--- would write ${f.path}`, f.text.trimEnd());
    for (const c of p.activate) out.push(`would run: ${commandLine(c)}`);
    out.push("dry run: nothing was written");
    return true;
  }
  out.push(`schedule: ${p.scheduler} runs "${job.bin} collect" every ${job.intervalMinutes} minutes`);
  if (p.note) out.push(`note: ${p.note}`);
  const files = await writeScheduleFiles(p, false);
  for (const f of files) out.push(`  ${f.status} ${f.path}`);
  const ok = reportCommands(await runCommands(p.activate, plan.env), out);
  if (ok) out.push(`done: ${p.scheduler} runs verdict collect from now on`);
  else {
    out.push(
      "not activated: the files are in place, but nothing runs them yet; run this by hand:",
      ...p.manualInstall.map((l) => `  ${l}`),
    );
  }
  return ok;
}

async function remove(job: ScheduleJob, plan: CommandPlan, out: string[]): Promise<void> {
  const p = job.plan;
  if (p.files.length === 0) {
    out.push(...p.manualRemove);
    return;
  }
  const present = await removeScheduleFiles(p, true);
  if (present.every((f) => f.status === "absent")) {
    out.push(`schedule: not installed (${p.files.map((f) => f.path).join(", ")} absent); nothing to remove`);
    return;
  }
  if (job.dryRun) {
    for (const c of p.deactivate) out.push(`would run: ${commandLine(c)}`);
    for (const f of present) if (f.status === "removed") out.push(`would remove ${f.path}`);
    for (const c of p.afterRemove) out.push(`would run: ${commandLine(c)}`);
    out.push("dry run: nothing was changed");
    return;
  }
  const stopped = reportCommands(await runCommands(p.deactivate, plan.env), out);
  for (const f of await removeScheduleFiles(p, false)) out.push(`  ${f.status} ${f.path}`);
  const reloaded = reportCommands(await runCommands(p.afterRemove, plan.env), out);
  if (stopped && reloaded) out.push(`done: ${p.scheduler} no longer runs verdict collect`);
  else {out.push(
      "the files are gone; to stop a job already loaded, run by hand:",
      ...p.manualRemove.map((l) => `  ${l}`),
    );}
}

async function status(job: ScheduleJob, plan: CommandPlan, io: CommandIO): Promise<void> {
  const s = await scheduleStatus(job, plan.env);
  if (booleanOption(plan.args, "json")) {
    await io.stdout(JSON.stringify({ ...s, records: job.records }, null, 2) + "\n");
    return;
  }
  const out: string[] = [`scheduler: ${s.scheduler}`];
  if (s.files.length === 0) {
    out.push("installed: cannot tell (verdict does not manage cron or Task Scheduler jobs)");
  } else if (s.installed) {
    const every = s.intervalMinutes === null ? "" : `, every ${s.intervalMinutes} minutes`;
    out.push(`installed: yes${every} (${s.files.map((f) => f.path).join(", ")})`);
  } else {out.push(`installed: no (${
      s.files.filter((f) => !f.present).map((f) =>
        f.path
      ).join(", ")
    } missing)`);}
  const unit = s.scheduler === "systemd" ? "timer" : "agent";
  const running = RUNNING[s.scheduler];
  if (s.active === running) out.push(`${unit}: ${s.active}`);
  else if (s.active !== null || s.activeDetail) {
    // Anything but a scheduler saying it runs the job (no user bus included) is not active.
    out.push(`${unit}: not active (${s.active ?? s.activeDetail})`);
  }
  if (s.lastWritten === null) out.push(`last collect: none yet (no records at ${job.records})`);
  else {
    const when = new Date(s.lastWritten).toISOString().replace(/\.\d+Z$/, "Z");
    out.push(`last collect: ${when} (${formatAge(job.now - s.lastWritten)} ago)`);
  }
  if (s.byKind) {
    const total = Object.values(s.byKind).reduce((a, b) => a + b, 0);
    out.push(
      `records: ${total} (${
        Object.entries(s.byKind).map(([k, v]) => `${k} ${v}`).join(", ")
      }) in ${job.records}`,
    );
  }
  await io.stdout(out.join("\n") + "\n");
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const job = decodeJob<ScheduleJob>(plan.args.options);
  if (!job) throw new UsageError(`"verdict ${plan.command}" was started without its job`);
  if (job.action === "status") {
    await status(job, plan, io);
    return EXIT.ok;
  }
  const out: string[] = [];
  const activated = job.action === "install"
    ? await install(job, plan, out)
    : (await remove(job, plan, out), true);
  await io.stdout(out.join("\n") + "\n");
  // Files a scheduler never loads collect nothing: a script must not read that as done.
  return activated ? EXIT.ok : EXIT.runtime;
}
