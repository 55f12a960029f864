/**
 * Jobs: what a command's launcher side worked out (the clock, real paths, the binary) for the
 * side that runs in the narrowed Worker, and the exact paths each job may touch. A job travels
 * inside the plan as one internal option, so the permission rules (src/cli/grants.ts)
 * grant exactly the paths it names. Users cannot set it: the argument parser refuses options a
 * command does not declare.
 *
 * This module is imported by the launcher's permission rules (src/cli/grants.ts), so it stays
 * light: types and path arithmetic only (type imports are erased).
 */
import type { Check } from "../hostfile/checks.ts";
import type { DoctorAgent } from "../agents/agent.ts";
import { sqliteFiles } from "../store/paths.ts";
import { tempPathFor } from "../fsutil/atomic.ts";
import type { SchedulePlan, Scheduler } from "./schedule.ts";

export const JOB_OPTION = "_job";

export function encodeJob(job: unknown): string {
  return JSON.stringify(job);
}

/** The job in `options`, or null when there is none (e.g. `sandbox-probe --as install`). */
export function decodeJob<T>(options: Readonly<Record<string, unknown>>): T | null {
  const raw = options[JOB_OPTION];
  return typeof raw === "string" ? JSON.parse(raw) as T : null;
}

// ---- install / uninstall

export interface InstallFile {
  /** The agent's host file role (src/agents/agent.ts, HostFile). */
  readonly role: string;
  /** The path as the host names it (for messages). */
  readonly path: string;
  /** The real path (symlinks resolved): what is read and replaced, so a linked file stays linked. */
  readonly real: string;
  /** The path the agent itself names the file by (HostFile.agentPath; usually `path`). */
  readonly agentPath: string;
  /** Where the current contents are copied before a change. */
  readonly backup: string;
  /** Older backups of the file that go once `backup` is written (KEEP_BACKUPS are kept). */
  readonly staleBackups?: readonly string[];
}

/** Backups kept per host file: the newest ones; install and uninstall delete older ones. */
export const KEEP_BACKUPS = 3;

export interface InstallJob {
  readonly action: "install" | "uninstall";
  readonly dryRun: boolean;
  /** The program the entries run. */
  readonly bin: string;
  /** The from-source launcher `bin` names, as the launcher side left it ("created"…), or null. */
  readonly launcher?: { readonly path: string; readonly status: string } | null;
  /** VERDICT_* variables carried into the entries. */
  readonly env: Readonly<Record<string, string>>;
  readonly files: readonly InstallFile[];
  /** Hosts left out, with the reason (said in the output). */
  readonly skipped: readonly string[];
  /** What install created in each file (src/install/ledger.ts), in verdict's state folder. */
  readonly ledger: string;
}

/** Every path an install job may read and (unless a dry run) write. */
export function installJobPaths(job: InstallJob): string[] {
  return [
    ...job.files.flatMap((f) => [f.real, tempPathFor(f.real), f.backup, ...f.staleBackups ?? []]),
    job.ledger,
    tempPathFor(job.ledger),
  ];
}

// ---- schedule

export interface ScheduleJob {
  readonly action: "install" | "remove" | "status";
  readonly dryRun: boolean;
  readonly plan: SchedulePlan;
  readonly bin: string;
  readonly intervalMinutes: number;
  /** The archive (src/store/paths.ts: its database). */
  readonly records: string;
  /** The clock, ms since the epoch. */
  readonly now: number;
}

/** The one program a scheduler's commands run. */
export function schedulerProgram(scheduler: Scheduler): string | null {
  if (scheduler === "systemd") return "systemctl";
  if (scheduler === "launchd") return "launchctl";
  return null;
}

export function scheduleJobReads(job: ScheduleJob): string[] {
  const files = job.plan.files.flatMap((f) => [f.path, tempPathFor(f.path)]);
  return job.action === "status" ? [...files, ...sqliteFiles(job.records)] : files;
}

export function scheduleJobWrites(job: ScheduleJob): string[] {
  if (job.dryRun || job.action === "status") return [];
  return job.plan.files.flatMap((f) => [f.path, tempPathFor(f.path)]);
}

/** The program a schedule job may run: none for cron and schtasks, or in a dry run. */
export function scheduleJobRuns(job: ScheduleJob): string[] {
  const program = schedulerProgram(job.plan.scheduler);
  if (!program || (job.dryRun && job.action !== "status")) return [];
  return [program];
}

// ---- doctor

export interface DoctorJob {
  /** The clock, ms since the epoch. */
  readonly now: number;
  readonly config: {
    readonly path: string;
    readonly exists: boolean;
    /** The config error (message and hint) when it does not load. */
    readonly error: { readonly message: string; readonly hint: string | null } | null;
  };
  readonly transcriptRoots: readonly { readonly label: string; readonly path: string }[];
  readonly docRoots: readonly string[];
  readonly gitRepos: readonly string[];
  /** The archive's database, and its index segments folder (src/store/paths.ts). */
  readonly records: string;
  readonly index: string;
  /** Every registered agent: is it there at all, and where its host files are. */
  readonly agents: readonly DoctorAgent[];
  readonly scheduler: Scheduler;
  readonly scheduleFiles: readonly string[];
  /** The program install would wire now (hooks running another one are out of date). */
  readonly bin: string;
  /** argv of `sandbox-probe --as collect --read <path>` through this very program, or null. */
  readonly probe: { readonly argv: readonly string[]; readonly path: string } | null;
  /**
   * Checks the launcher ran before the Worker (it may start programs and read the state folder):
   * each agent's wiring run end to end (src/install/wiring.ts), ids without the agent, and the
   * hook's trouble ledger of the last day.
   */
  readonly wiring: readonly { readonly agent: string; readonly checks: readonly Check[] }[];
  readonly hookTrouble: Check;
  /** What systemd or launchd said about the job (the launcher asked), or null when not asked. */
  readonly scheduleActive: { readonly active: string | null; readonly detail: string } | null;
}

/** Every path the doctor's checks read. */
export function doctorReads(job: DoctorJob): string[] {
  return [
    job.config.path,
    ...job.transcriptRoots.map((r) => r.path),
    ...job.docRoots,
    ...job.gitRepos,
    ...sqliteFiles(job.records),
    job.index,
    ...job.agents.flatMap((a) => a.files.map((f) => f.path)),
    ...job.scheduleFiles,
  ];
}

/** The only program doctor runs: this one, for the sandbox probe. */
export function doctorRuns(job: DoctorJob): string[] {
  return job.probe ? [job.probe.argv[0]!] : [];
}
