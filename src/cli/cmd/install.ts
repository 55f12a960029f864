/**
 * `verdict install [--<agent>]... [--dry-run]` (and, through the same code, `verdict uninstall`),
 * for every agent of src/agents/registry.ts. Two halves:
 *
 * - `launch` runs in the launcher: it pins the clock, resolves each host file's real path and
 *   its backup name, finds the binary to wire, then hands the job to a Worker that may read and
 *   write exactly those files (its rule in src/cli/grants.ts) and nothing else;
 * - `run` runs in that Worker: plan every edit, print the diff (dry run) or back up and write.
 */
import { booleanOption } from "../../plan/args.ts";
import { nowMs } from "../../plan/clock.ts";
import { EXIT, InputError, UsageError } from "../../errors.ts";
import type { CommandIO, CommandPlan, RunConfined } from "../../plan/plan.ts";
import { basename, dirname, joinPath } from "../../config/paths.ts";
import type { Agent, AgentEnv } from "../../agents/agent.ts";
import { LOADED_AGENTS } from "../../agents/loaded.ts";
import { hostFileAgentPath, isPresent, realPathOf } from "../../agents/locate.ts";
import { andList, noneOfList, orList } from "../../agents/registry.ts";
import { carriedEnv } from "../../hostfile/binary.ts";
import { writeLauncher } from "../../install/launcher.ts";
import { wiredBinary } from "../wired_bin.ts";
import { unifiedDiff } from "../../install/diff.ts";
import { backupPath, backupStamp } from "../../install/host_files.ts";
import { applyJob, type FileReport, hostFileByRole, planJob } from "../../install/install.ts";
import {
  decodeJob,
  encodeJob,
  type InstallFile,
  type InstallJob,
  JOB_OPTION,
  KEEP_BACKUPS,
} from "../../install/jobs.ts";
import { LEDGER_FILE } from "../../install/ledger.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The backups of `file` that go once a new one is written: all but the newest KEEP_BACKUPS - 1
 * (their names sort by time: backupStamp).
 */
async function staleBackupsOf(file: string): Promise<string[]> {
  const prefix = `${basename(backupPath(file, ""))}`;
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dirname(file))) {
      if (e.isFile && e.name.startsWith(prefix)) names.push(e.name);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  names.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  return names.slice(KEEP_BACKUPS - 1).map((n) => joinPath(dirname(file), n));
}

/** The first backup name for `file` at `stamp` that is not taken. */
async function freeBackup(file: string, stamp: string): Promise<string> {
  for (let n = 1;; n++) {
    const candidate = backupPath(file, n === 1 ? stamp : `${stamp}-${n}`);
    if (!(await exists(candidate))) return candidate;
  }
}

interface HostChoice {
  readonly hosts: readonly Agent[];
  readonly skipped: string[];
}

/** The agents named by their flags; else, for install, those found here; for uninstall, all. */
async function chooseHosts(
  plan: CommandPlan,
  action: InstallJob["action"],
  at: AgentEnv,
): Promise<HostChoice> {
  const flagged = LOADED_AGENTS.filter((a) => booleanOption(plan.args, a.id));
  if (flagged.length > 0) return { hosts: flagged, skipped: [] };
  if (action === "uninstall") return { hosts: LOADED_AGENTS, skipped: [] };
  const hosts: Agent[] = [];
  const skipped: string[] = [];
  for (const agent of LOADED_AGENTS) {
    if (await isPresent(agent, at)) hosts.push(agent);
    else skipped.push(`${agent.label}: ${agent.folder(at)} not found (pass --${agent.id} to wire it anyway)`);
  }
  if (hosts.length === 0) {
    throw new UsageError(
      `Cannot install: found ${noneOfList(LOADED_AGENTS.map((a) => `${a.label} (${a.folder(at)})`))}`,
      `pass ${orList(LOADED_AGENTS.map((a) => `--${a.id}`))} to wire one anyway`,
    );
  }
  return { hosts, skipped };
}

/** Writes the from-source launcher; a file there that is not one is a refusal (exit 3, nothing written). */
async function writeLauncherOrSay(path: string, text: string): Promise<string> {
  try {
    return await writeLauncher(path, text);
  } catch (err) {
    throw new InputError(
      `Cannot write the verdict launcher: ${(err as Error).message}`,
      `move ${path} away, or set VERDICT_BIN=/absolute/path/to/verdict, then run verdict install again`,
    );
  }
}

/** Launcher half, shared by install and uninstall. */
export async function launchInstall(
  plan: CommandPlan,
  action: InstallJob["action"],
  runConfined: RunConfined,
): Promise<number> {
  if (plan.args.positionals.length > 0) {
    throw new UsageError(
      `"verdict ${action}" takes no arguments, got "${plan.args.positionals[0]}"`,
      `run "verdict ${action} --help"`,
    );
  }
  const dryRun = booleanOption(plan.args, "dry-run");
  const at: AgentEnv = { env: plan.env, home: plan.paths.home, cwd: plan.cwd };
  const { hosts, skipped } = await chooseHosts(plan, action, at);
  const stamp = backupStamp(nowMs(plan.asOf));
  const files: InstallFile[] = [];
  for (const host of hosts) {
    for (const hostFile of host.hostFiles) {
      const path = hostFile.path(at);
      const real = await realPathOf(path);
      const agentPath = await hostFileAgentPath(hostFile, at);
      files.push({
        role: hostFile.role,
        path,
        real,
        agentPath,
        backup: await freeBackup(real, stamp),
        staleBackups: await staleBackupsOf(real),
      });
    }
  }
  const wired = wiredBinary(Deno.execPath(), plan.env, plan.cwd, plan.paths.home);
  let launcher: InstallJob["launcher"] = null;
  if (action === "install" && wired.launcher) {
    launcher = {
      path: wired.launcher.path,
      status: dryRun
        ? "would be written"
        : await writeLauncherOrSay(wired.launcher.path, await wired.launcher.text()),
    };
  }
  if (!dryRun && action === "install") {
    // The Worker may write only the files themselves (and the ledger), so their folders are made here.
    for (const f of files) await Deno.mkdir(dirname(f.real), { recursive: true, mode: 0o700 });
    await Deno.mkdir(plan.paths.stateDir, { recursive: true, mode: 0o700 });
  }
  const job: InstallJob = {
    action,
    dryRun,
    bin: wired.bin,
    launcher,
    env: carriedEnv(plan.env, plan.cwd, plan.paths.home),
    files,
    skipped,
    ledger: joinPath(plan.paths.stateDir, LEDGER_FILE),
  };
  const narrowed: CommandPlan = {
    ...plan,
    args: { ...plan.args, options: { ...plan.args.options, [JOB_OPTION]: encodeJob(job) } },
  };
  return await runConfined(narrowed);
}

export async function launch(plan: CommandPlan, _io: CommandIO, runConfined: RunConfined): Promise<number> {
  return await launchInstall(plan, "install", runConfined);
}

const STATUS_WORD: Readonly<Record<FileReport["status"], string>> = {
  created: "created",
  updated: "updated",
  removed: "removed",
  unchanged: "unchanged",
  absent: "absent",
};

function describe(r: FileReport, action: InstallJob["action"], dryRun: boolean): string[] {
  const label = hostFileByRole(r.file.role).file.label;
  const verb = dryRun && r.changes.length > 0 ? `would be ${STATUS_WORD[r.status]}` : STATUS_WORD[r.status];
  let what: string;
  if (r.status === "absent") what = "no such file; nothing to remove";
  else if (r.changes.length === 0) {
    what = action === "install" ? "already installed" : "nothing of verdict's here";
  } else what = r.changes.join(", ");
  const lines = [`${label}: ${r.file.path} ${verb}: ${what}`];
  // A removed file was wholly verdict's and applyJob keeps no copy of it: only an update has a backup.
  if (!dryRun && r.status === "updated") lines.push(`  backup: ${r.file.backup}`);
  for (const note of r.notes) lines.push(`  note: ${note}`);
  return lines;
}

/** Worker half, shared by install and uninstall. */
export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const job = decodeJob<InstallJob>(plan.args.options);
  if (!job) throw new UsageError(`"verdict ${plan.command}" was started without its job`);
  // A HostFileError is an InputError: it reaches the user as exit 3 with its hint.
  const reports: FileReport[] = await planJob(job);
  const out: string[] = [];
  const changed = reports.filter((r) => r.changes.length > 0);
  if (job.action === "install") {
    out.push(`verdict install: the entries run ${job.bin}`);
    if (job.launcher) {
      out.push(
        `  launcher ${job.launcher.status}: it runs this checkout (${job.launcher.path}; put its folder on PATH to type "verdict")`,
      );
    }
  }
  if (job.dryRun) {
    for (const r of changed) {
      out.push(
        unifiedDiff(r.before ?? "", r.after, r.file.path, `${r.file.path} (after verdict ${job.action})`)
          .trimEnd(),
      );
    }
  } else await applyJob(job, reports);
  for (const r of reports) out.push(...describe(r, job.action, job.dryRun));
  for (const s of job.skipped) out.push(`skipped: ${s}`);
  if (changed.length === 0) {
    out.push(
      job.action === "install"
        ? "nothing to do: verdict is already installed"
        : "nothing to do: no entry written by verdict install was found",
    );
  } else if (job.dryRun) out.push("dry run: nothing was written");
  else {
    const hosts = [...new Set(changed.map((r) => hostFileByRole(r.file.role).agent.label))];
    out.push(`done: restart ${andList(hosts)} so ${hosts.length > 1 ? "they load" : "it loads"} the change`);
  }
  await io.stdout(out.join("\n") + "\n");
  return EXIT.ok;
}
