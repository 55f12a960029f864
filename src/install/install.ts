/**
 * `verdict install` / `verdict uninstall` as a stage: read each host file, plan the edit (pure:
 * each agent's `hostFiles`, src/agents/<id>/), then back up and replace the changed files
 * atomically. Every file is planned before any is written, so a malformed or refused file
 * leaves all of them untouched.
 */
import type { Agent, HostFile, PlannedFile } from "../agents/agent.ts";
import { LOADED_AGENTS } from "../agents/loaded.ts";
import { JsoncSyntaxError } from "../config/jsonc.ts";
import { writeTextFileAtomic } from "../fsutil/atomic.ts";
import { type EditResult, HostFileError } from "./errors.ts";
import type { InstallFile, InstallJob } from "./jobs.ts";

export type FileStatus = "created" | "updated" | "removed" | "unchanged" | "absent";

export interface FileReport {
  readonly file: InstallFile;
  readonly status: FileStatus;
  readonly changes: readonly string[];
  readonly notes: readonly string[];
  /** Contents before, or null when the file does not exist. */
  readonly before: string | null;
  readonly after: string;
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** The agent a host file role belongs to, and the file's edits. */
export function hostFileByRole(
  role: string,
  agents: readonly Agent[] = LOADED_AGENTS,
): { agent: Agent; file: HostFile } {
  for (const agent of agents) {
    const file = agent.hostFiles.find((f) => f.role === role);
    if (file) return { agent, file };
  }
  throw new Error(`Unknown host file role "${role}"`);
}

function edit(
  job: InstallJob,
  file: InstallFile,
  text: string,
  planned: ReadonlyMap<string, PlannedFile>,
): EditResult {
  const host = hostFileByRole(file.role).file;
  return job.action === "install"
    ? host.install(text, file.path, job.bin, job.env, planned)
    : host.uninstall(text, file.path);
}

/**
 * An agent's refusal of its file, with the way past it that still wires the job's other agents
 * (their flags, exactly: naming an agent this job does not cover would wire one the person does
 * not have, and naming too few would leave some unwired).
 */
function withWayOut(err: HostFileError, job: InstallJob, file: InstallFile): HostFileError {
  const refused = hostFileByRole(file.role).agent;
  const others = [...new Set(job.files.map((f) => hostFileByRole(f.role).agent))]
    .filter((a) => a.id !== refused.id);
  if (others.length === 0) return err;
  const command = [
    `verdict ${job.action}`,
    ...others.map((a) => `--${a.id}`),
    ...(job.dryRun ? ["--dry-run"] : []),
  ];
  return new HostFileError(
    err.message,
    `${err.hint ?? ""}; or leave ${refused.label} out: ${command.join(" ")}`,
  );
}

/** Reads every file and plans its edit; throws HostFileError (nothing written) on the first problem. */
export async function planJob(job: InstallJob): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  const planned = new Map<string, PlannedFile>();
  for (const file of job.files) {
    const before = await readOrNull(file.real);
    if (before === null && job.action === "uninstall") {
      reports.push({ file, status: "absent", changes: [], notes: [], before, after: "" });
      continue;
    }
    let result: EditResult;
    try {
      result = edit(job, file, before ?? "", planned);
    } catch (err) {
      if (err instanceof JsoncSyntaxError) {
        throw new HostFileError(
          `Cannot parse "${file.path}": ${err.message}`,
          `fix ${file.path}:${err.line}:${err.column} by hand, then run the command again; nothing was changed`,
        );
      }
      // A refusal (something verdict did not write where it would write) can also be stepped round.
      if (err instanceof HostFileError) throw withWayOut(err, job, file);
      throw err;
    }
    const status: FileStatus = result.changes.length === 0
      ? "unchanged"
      : result.remove
      ? "removed"
      : before === null
      ? "created"
      : "updated";
    reports.push({ file, status, changes: result.changes, notes: result.notes, before, after: result.text });
    planned.set(file.role, { path: file.path, agentPath: file.agentPath, text: result.text });
  }
  return reports;
}

/** Backs up and atomically replaces every changed file; deletes the ones wholly verdict's. */
export async function applyJob(reports: readonly FileReport[]): Promise<void> {
  for (const r of reports) {
    if (r.status === "removed") {
      await Deno.remove(r.file.real);
      continue;
    }
    if (r.status !== "created" && r.status !== "updated") continue;
    let mode = 0o600;
    if (r.before !== null) {
      mode = ((await Deno.stat(r.file.real)).mode ?? 0o600) & 0o777;
      await Deno.writeTextFile(r.file.backup, r.before, { createNew: true, mode });
    }
    await writeTextFileAtomic(r.file.real, r.after, mode);
  }
}
