/**
 * The scheduled collect's I/O: write or remove the scheduler's files, run its commands, and
 * read back the state for `verdict schedule status`. Commands run with the environment the
 * command was given (systemctl --user needs the session's bus address).
 */
import { type ArchiveStatus, archiveStatus } from "../store/status.ts";
import { storePaths } from "../store/paths.ts";
import type { Env } from "../config/paths.ts";
import { writeTextFileAtomic } from "../fsutil/atomic.ts";
import type { ScheduleJob } from "./jobs.ts";
import {
  installedInterval,
  LAUNCHD_LABEL,
  type SchedulePlan,
  type Scheduler,
  SYSTEMD_TIMER,
} from "./schedule.ts";

export interface FileOutcome {
  readonly path: string;
  readonly status: "created" | "updated" | "unchanged" | "removed" | "absent";
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** Writes the plan's files (atomically, mode 0644 as the schedulers expect). */
export async function writeScheduleFiles(plan: SchedulePlan, dryRun: boolean): Promise<FileOutcome[]> {
  const out: FileOutcome[] = [];
  for (const f of plan.files) {
    const before = await readOrNull(f.path);
    const status = before === null ? "created" : before === f.text ? "unchanged" : "updated";
    if (!dryRun && status !== "unchanged") await writeTextFileAtomic(f.path, f.text, 0o644);
    out.push({ path: f.path, status });
  }
  return out;
}

export async function removeScheduleFiles(plan: SchedulePlan, dryRun: boolean): Promise<FileOutcome[]> {
  const out: FileOutcome[] = [];
  for (const f of plan.files) {
    const present = (await readOrNull(f.path)) !== null;
    if (present && !dryRun) await Deno.remove(f.path);
    out.push({ path: f.path, status: present ? "removed" : "absent" });
  }
  return out;
}

export interface CommandOutcome {
  readonly argv: readonly string[];
  readonly ok: boolean;
  /** Why it failed (first line of stderr, or the spawn error). */
  readonly detail: string;
}

/** Runs `commands` in order, stopping at the first that fails. */
export async function runCommands(
  commands: readonly (readonly string[])[],
  env: Env,
): Promise<CommandOutcome[]> {
  const out: CommandOutcome[] = [];
  for (const argv of commands) {
    const result = await runOne(argv, env);
    out.push(result);
    if (!result.ok) break;
  }
  return out;
}

/** What a program run said: its exit code and output, or why it could not start. */
export type ProgramResult =
  | { readonly started: true; readonly code: number; readonly stdout: string; readonly stderr: string }
  | { readonly started: false; readonly error: string };

/** Runs `argv` with exactly `env` (a cleared environment), no stdin. Never throws. */
export async function runProgram(argv: readonly string[], env: Env): Promise<ProgramResult> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  try {
    const o = await new Deno.Command(argv[0]!, {
      args: argv.slice(1),
      env: clean,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { started: true, code: o.code, stdout: dec.decode(o.stdout), stderr: dec.decode(o.stderr) };
  } catch (err) {
    const error = err instanceof Deno.errors.NotFound ? `${argv[0]} not found` : (err as Error).message;
    return { started: false, error };
  }
}

async function runOne(argv: readonly string[], env: Env): Promise<CommandOutcome & { stdout: string }> {
  const r = await runProgram(argv, env);
  if (!r.started) return { argv, ok: false, detail: r.error, stdout: "" };
  const stderr = r.stderr.trim().split("\n")[0] ?? "";
  const ok = r.code === 0;
  return { argv, ok, detail: ok ? "" : stderr || `exit status ${r.code}`, stdout: r.stdout };
}

/** What the scheduler says when a running job is what it says. */
export const RUNNING: Readonly<Partial<Record<Scheduler, string>>> = { systemd: "active", launchd: "loaded" };

/**
 * Asks systemd or launchd about verdict's job: what it said ("active", "inactive", "loaded",
 * "not loaded"), or null with why it could not be asked (no user bus, no systemctl). Nothing to
 * ask for cron and schtasks.
 */
export async function askScheduler(
  scheduler: Scheduler,
  env: Env,
): Promise<{ active: string | null; activeDetail: string }> {
  if (scheduler === "systemd") {
    const r = await runOne(["systemctl", "--user", "is-active", SYSTEMD_TIMER], env);
    const said = r.stdout.trim();
    return said ? { active: said, activeDetail: "" } : { active: null, activeDetail: r.detail };
  }
  if (scheduler === "launchd") {
    const r = await runOne(["launchctl", "list", LAUNCHD_LABEL], env);
    if (r.ok) return { active: "loaded", activeDetail: "" };
    if (/could not find|not find/i.test(r.detail)) return { active: "not loaded", activeDetail: "" };
    return { active: null, activeDetail: r.detail };
  }
  return { active: null, activeDetail: "" };
}

export interface ScheduleStatus {
  readonly scheduler: Scheduler;
  readonly files: readonly { path: string; present: boolean }[];
  /** Every file is there (always false for cron and schtasks, which verdict cannot see). */
  readonly installed: boolean;
  readonly intervalMinutes: number | null;
  /** What the scheduler says: "active", "inactive", "loaded", "not loaded", or null when it could not be asked. */
  readonly active: string | null;
  readonly activeDetail: string;
  /** When a collect last committed to the archive, ms since the epoch. */
  readonly lastWritten: number | null;
  readonly byKind: Readonly<Record<string, number>> | null;
}

export async function scheduleStatus(job: ScheduleJob, env: Env): Promise<ScheduleStatus> {
  const plan = job.plan;
  const files = [];
  let interval: number | null = null;
  for (const f of plan.files) {
    const text = await readOrNull(f.path).catch(() => null);
    files.push({ path: f.path, present: text !== null });
    if (text !== null) interval = installedInterval(plan.scheduler, text) ?? interval;
  }
  const installed = files.length > 0 && files.every((f) => f.present);
  const { active, activeDetail } = await askScheduler(plan.scheduler, env);
  let archive: ArchiveStatus | null = null;
  try {
    archive = archiveStatus(storePaths(job.records));
  } catch {
    // An unreadable archive shows as none here; doctor names the problem.
  }
  return {
    scheduler: plan.scheduler,
    files,
    installed,
    intervalMinutes: interval,
    active,
    activeDetail,
    lastWritten: archive?.collectedAt ?? null,
    byKind: archive?.byKind ?? null,
  };
}
