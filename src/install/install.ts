/**
 * `verdict install` / `verdict uninstall` as a stage: read each host file, plan the edit (pure:
 * each agent's `hostFiles`, src/agents/<id>/), then back up and replace the changed files
 * atomically. Every file is planned before any is written, so a malformed or refused file
 * leaves all of them untouched, and every refusal is reported in one run.
 */
import type { Agent, HostFile, PlannedFile } from "../agents/agent.ts";
import { LOADED_AGENTS } from "../agents/loaded.ts";
import { JsoncSyntaxError } from "../config/jsonc.ts";
import { writeTextFileAtomic } from "../fsutil/atomic.ts";
import { andList } from "../agents/registry.ts";
import { type EditResult, HostFileError, refusalsOf } from "../hostfile/errors.ts";
import type { InstallFile, InstallJob } from "./jobs.ts";
import {
  entryAfterInstall,
  formatLedger,
  type Ledger,
  type LedgerEntry,
  parseLedger,
  pruningFor,
  restoredByLedger,
} from "./ledger.ts";

export type FileStatus = "created" | "updated" | "removed" | "unchanged" | "absent";

export interface FileReport {
  readonly file: InstallFile;
  readonly status: FileStatus;
  readonly changes: readonly string[];
  readonly notes: readonly string[];
  /** Contents before, or null when the file does not exist. */
  readonly before: string | null;
  readonly after: string;
  /** The file as it was read (null: missing), so a write can tell that someone changed it since. */
  readonly identity: string | null;
  /** The ledger's entry for the file once this job is applied (undefined: none). */
  readonly ledger: LedgerEntry | undefined;
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** Which file is at `path` and which version of it (inode, size, times), or null when none. */
async function identityOf(path: string): Promise<string | null> {
  try {
    const st = await Deno.stat(path);
    return [st.ino, st.size, st.mtime?.getTime(), st.ctime?.getTime()].join(":");
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** The file's text with the identity it had while it was read (read again if it changed meanwhile). */
async function readSteady(path: string): Promise<{ text: string | null; identity: string | null }> {
  for (let tries = 0;; tries++) {
    const identity = await identityOf(path);
    const text = await readOrNull(path);
    if (identity === (await identityOf(path)) || tries >= 4) return { text, identity };
  }
}

/** The install ledger (src/install/ledger.ts) the job names. */
export async function readLedger(job: InstallJob): Promise<Ledger> {
  return parseLedger(await readOrNull(job.ledger));
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
  entry: LedgerEntry | undefined,
): EditResult {
  const host = hostFileByRole(file.role).file;
  return job.action === "install"
    ? host.install(text, file.path, job.bin, job.env, planned)
    : restoredByLedger(entry, host.uninstall(text, file.path, pruningFor(entry)));
}

/**
 * The way past refusals that still wires the job's other agents: their flags, exactly (naming an
 * agent this job does not cover would wire one the person does not have, and naming too few
 * would leave some unwired). Null when every agent of the job was refused.
 */
function wayOut(job: InstallJob, refused: readonly Agent[]): string | null {
  const ids = new Set(refused.map((a) => a.id));
  const others = [...new Set(job.files.map((f) => hostFileByRole(f.role).agent))].filter((a) =>
    !ids.has(a.id)
  );
  if (others.length === 0) return null;
  const command = [
    `verdict ${job.action}`,
    ...others.map((a) => `--${a.id}`),
    ...(job.dryRun ? ["--dry-run"] : []),
  ];
  return `leave ${andList(refused.map((a) => a.label))} out: ${command.join(" ")}`;
}

/** One refusal of one file of the job. */
interface Refusal {
  readonly file: InstallFile;
  readonly agent: Agent;
  readonly error: HostFileError;
}

/** Said once for the whole list, so each entry's hint drops it. */
const ONCE_SAID = [/;? ?nothing was changed$/, /, then run the command again$/];

function fixOnly(hint: string | undefined): string {
  let out = hint ?? "fix it by hand";
  for (const said of ONCE_SAID) out = out.replace(said, "");
  return out;
}

/**
 * Every refusal of a job as one error. One refusal reads as it always did (its own message and
 * hint, with the way past it); several are listed, each with its agent, file, what is wrong and
 * what to do, under one line that counts them and says nothing was written.
 */
function refusedJob(job: InstallJob, refusals: readonly Refusal[]): HostFileError {
  const agents = [...new Set(refusals.map((r) => r.agent))];
  const past = wayOut(job, agents);
  if (refusals.length === 1) {
    const only = refusals[0]!.error;
    return new HostFileError(only.message, past ? `${only.hint ?? ""}; or ${past}` : only.hint ?? "");
  }
  const files = new Set(refusals.map((r) => r.file.role)).size;
  const counted = files === refusals.length
    ? `${files} of ${job.files.length} files refused`
    : `${refusals.length} refusals in ${files} of ${job.files.length} files`;
  return new HostFileError(
    `Cannot ${job.action}: ${counted} (${andList(agents.map((a) => a.label))}); nothing was written`,
    `fix each file as said, then run "verdict ${job.action}" again${past ? `; or ${past}` : ""}`,
    refusals.flatMap(({ agent, error }) => [
      `  - ${agent.label}: ${error.message}`,
      `    hint: ${fixOnly(error.hint)}`,
    ]),
  );
}

/** The refusals planning `file` met (a file that does not parse is one); rethrows anything else. */
function refusalsPlanning(err: unknown, file: InstallFile): HostFileError[] {
  if (err instanceof JsoncSyntaxError) {
    return [
      new HostFileError(
        `Cannot parse "${file.path}": ${err.message}`,
        `fix ${file.path}:${err.line}:${err.column} by hand, then run the command again; nothing was changed`,
      ),
    ];
  }
  // A refusal: something verdict did not write where it would write.
  const refused = refusalsOf(err);
  if (refused.length === 0) throw err;
  return refused;
}

/**
 * Reads every file and plans its edit. Every file is checked before anything is decided, so
 * that all refusals are reported at once; then HostFileError (nothing written) when any file
 * was refused.
 */
export async function planJob(job: InstallJob, ledger?: Ledger): Promise<FileReport[]> {
  const known = ledger ?? await readLedger(job);
  const reports: FileReport[] = [];
  const refusals: Refusal[] = [];
  const planned = new Map<string, PlannedFile>();
  for (const file of job.files) {
    let report: FileReport;
    try {
      report = await planFile(job, file, planned, known.get(file.real));
    } catch (err) {
      const agent = hostFileByRole(file.role).agent;
      for (const error of refusalsPlanning(err, file)) refusals.push({ file, agent, error });
      continue;
    }
    reports.push(report);
    if (report.status !== "absent") {
      planned.set(file.role, { path: file.path, agentPath: file.agentPath, text: report.after });
    }
  }
  if (refusals.length > 0) throw refusedJob(job, refusals);
  return reports;
}

/** One file's plan: read it, edit it, and say what its ledger entry becomes. */
async function planFile(
  job: InstallJob,
  file: InstallFile,
  planned: ReadonlyMap<string, PlannedFile>,
  entry: LedgerEntry | undefined,
): Promise<FileReport> {
  const { text: before, identity } = await readSteady(file.real);
  if (before === null && job.action === "uninstall") {
    return { file, status: "absent", changes: [], notes: [], before, after: "", identity, ledger: undefined };
  }
  const result = edit(job, file, before ?? "", planned, entry);
  const status: FileStatus = result.changes.length === 0
    ? "unchanged"
    : result.remove
    ? "removed"
    : before === null
    ? "created"
    : "updated";
  const changed = result.changes.length > 0;
  const ledger = job.action === "uninstall"
    ? (changed ? undefined : entry)
    : changed
    ? entryAfterInstall(entry, before, result)
    : entry;
  return {
    file,
    status,
    changes: result.changes,
    notes: result.notes,
    before,
    after: result.text,
    identity,
    ledger,
  };
}

/** Someone else wrote the file between its plan and its write. */
class ChangedMeanwhile extends Error {}

/** How often a file that keeps changing under install is planned again before install gives up. */
const REPLANS = 5;

/**
 * Backs up and atomically replaces every changed file, deletes the ones wholly verdict's, keeps
 * each file's newest backups (InstallFile.staleBackups go), and writes the ledger. Right before a
 * file is replaced its identity is checked against the one planned: a file an agent rewrote
 * meanwhile is planned again from its new text (`replan`), so its write is never undone.
 */
export async function applyJob(
  job: InstallJob,
  reports: readonly FileReport[],
  replan?: (file: InstallFile) => Promise<FileReport>,
): Promise<void> {
  const ledger = await readLedger(job);
  const planned = new Map<string, PlannedFile>(
    reports.map((r) => [r.file.role, { path: r.file.path, agentPath: r.file.agentPath, text: r.after }]),
  );
  const again = replan ?? ((file: InstallFile) => planFile(job, file, planned, ledger.get(file.real)));
  let ledgerChanged = false;
  for (const planned of reports) {
    let r = planned;
    for (let tries = 0;; tries++) {
      try {
        await applyFile(r);
        break;
      } catch (err) {
        if (!(err instanceof ChangedMeanwhile)) throw err;
        if (tries >= REPLANS) {
          throw new HostFileError(
            `Cannot ${job.action}: "${r.file.path}" changed ${
              REPLANS + 1
            } times while verdict was writing it`,
            `close the program that keeps writing it (${
              hostFileByRole(r.file.role).agent.label
            }), then run "verdict ${job.action}" again`,
          );
        }
        r = await again(r.file);
      }
    }
    if (r.changes.length > 0 || r.status === "absent") {
      if (r.ledger) ledger.set(r.file.real, r.ledger);
      else ledger.delete(r.file.real);
      ledgerChanged = true;
    }
  }
  if (!ledgerChanged) return;
  if (ledger.size > 0) await writeTextFileAtomic(job.ledger, formatLedger(ledger));
  else {await Deno.remove(job.ledger).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });}
}

async function applyFile(r: FileReport): Promise<void> {
  const unchangedSincePlan = async () => {
    if ((await identityOf(r.file.real)) !== r.identity) throw new ChangedMeanwhile();
  };
  if (r.status === "removed") {
    await unchangedSincePlan();
    await Deno.remove(r.file.real);
    return;
  }
  if (r.status !== "created" && r.status !== "updated") return;
  let mode = 0o600;
  await unchangedSincePlan();
  if (r.before !== null) {
    mode = ((await Deno.stat(r.file.real)).mode ?? 0o600) & 0o777;
    await Deno.writeTextFile(r.file.backup, r.before, { createNew: true, mode });
  }
  await writeTextFileAtomic(r.file.real, r.after, mode, unchangedSincePlan);
  if (r.before !== null) {
    for (const stale of r.file.staleBackups ?? []) await Deno.remove(stale).catch(() => {});
  }
}
