/**
 * `verdict doctor` as a stage: each check looks at one part of an installation and returns a
 * line saying what it found and, when something is wrong, the fix. Checks never throw: a problem
 * is a finding. The launcher side works out every path first (DoctorJob), so the checks run in
 * a Worker that may read exactly those paths and run only this program (for the sandbox probe).
 */
import type { Env } from "../config/paths.ts";
import { JsoncSyntaxError } from "../config/jsonc.ts";
import { DiskIndex, IndexStaleError } from "../rank/index_file.ts";
import { hookLabel, hookStatus } from "./claude_hooks.ts";
import { claudeMcpState } from "./claude_mcp.ts";
import { codexMcpState } from "./codex_toml.ts";
import { HostFileError } from "./errors.ts";
import { installedInterval } from "./schedule.ts";
import type { DoctorJob } from "./jobs.ts";
import { collectCounts, runProgram } from "./schedule_apply.ts";

/** Records older than this are reported (a scheduled collect runs at least daily). */
export const RECORDS_STALE_MS = 2 * 24 * 60 * 60 * 1000;

export type CheckStatus = "ok" | "warn" | "fail" | "skip";

export interface Check {
  readonly id: string;
  readonly status: CheckStatus;
  readonly message: string;
  /** What to do about it (null when nothing needs doing). */
  readonly fix: string | null;
}

const check = (id: string, status: CheckStatus, message: string, fix: string | null = null): Check => ({
  id,
  status,
  message,
  fix,
});

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** "3 days", "5 hours", "12 minutes", "under a minute". */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes === 0) return "under a minute";
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}

function reason(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "does not exist";
  if (err instanceof Deno.errors.PermissionDenied) return "is not readable (permission denied)";
  return (err as Error).message;
}

function configCheck(job: DoctorJob): Check {
  const c = job.config;
  if (c.error) return check("config", "fail", c.error.message, c.error.hint ?? `fix ${c.path}`);
  if (!c.exists) return check("config", "ok", `no file at ${c.path}; the defaults are in use`);
  return check("config", "ok", `${c.path} parses`);
}

/** Is `dir` a directory we can list? null when fine, else why not. */
async function unreadableDir(dir: string): Promise<string | null> {
  try {
    const info = await Deno.stat(dir);
    if (!info.isDirectory) return "is not a directory";
    for await (const _ of Deno.readDir(dir)) break;
    return null;
  } catch (err) {
    return reason(err);
  }
}

async function transcriptCheck(job: DoctorJob): Promise<Check[]> {
  const found: string[] = [];
  const out: Check[] = [];
  for (const root of job.transcriptRoots) {
    const why = await unreadableDir(root.path);
    if (why === null) found.push(`${root.label} ${root.path}`);
    else if (why !== "does not exist") {
      out.push(
        check(
          "transcripts",
          "fail",
          `${root.label} transcripts ${root.path} ${why}`,
          `make ${root.path} readable`,
        ),
      );
    }
  }
  if (found.length > 0) out.unshift(check("transcripts", "ok", found.join("; ")));
  else if (out.length === 0) {
    out.push(
      check(
        "transcripts",
        "warn",
        `no transcripts under ${job.transcriptRoots.map((r) => r.path).join(" or ")}`,
        "use Claude Code or Codex once, or point CLAUDE_CONFIG_DIR / CODEX_HOME at their folders",
      ),
    );
  }
  return out;
}

async function rootsCheck(job: DoctorJob): Promise<Check[]> {
  if (job.config.error) {
    return [check("roots", "skip", "doc_roots and git_repos not checked: the config does not load")];
  }
  const out: Check[] = [];
  for (const dir of job.docRoots) {
    const why = await unreadableDir(dir);
    if (why) {
      out.push(
        check(
          "doc_roots",
          "fail",
          `doc root ${dir} ${why}`,
          `create it, or remove it from "doc_roots" in ${job.config.path}`,
        ),
      );
    }
  }
  for (const repo of job.gitRepos) {
    let why = await unreadableDir(repo);
    if (!why) {
      try {
        await Deno.stat(`${repo}/.git`);
      } catch {
        why = "is not a git work tree (no .git)";
      }
    }
    if (why) {
      out.push(
        check(
          "git_repos",
          "fail",
          `git repo ${repo} ${why}`,
          `fix the path, or remove it from "git_repos" in ${job.config.path}`,
        ),
      );
    }
  }
  if (out.length > 0) return out;
  const n = (k: number, word: string) => `${k} ${word}${k === 1 ? "" : "s"}`;
  return [
    check(
      "roots",
      "ok",
      job.docRoots.length + job.gitRepos.length === 0
        ? "no doc_roots or git_repos configured"
        : `${n(job.docRoots.length, "doc root")} and ${n(job.gitRepos.length, "git repo")}, all readable`,
    ),
  ];
}

async function recordsCheck(job: DoctorJob): Promise<Check[]> {
  let records: Deno.FileInfo;
  try {
    records = await Deno.stat(job.records);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      return [
        check("records", "fail", `no records file at ${job.records}`, "run verdict collect"),
        check("index", "skip", "no records, so no index to check"),
      ];
    }
    return [
      check("records", "fail", `records file ${job.records} ${reason(err)}`, `make ${job.records} readable`),
    ];
  }
  const counts = await collectCounts(job.collectState);
  const stateTime = await Deno.stat(job.collectState).then((s) => s.mtime?.getTime() ?? 0, () => 0);
  const written = Math.max(records.mtime?.getTime() ?? 0, stateTime);
  const age = job.now - written;
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : null;
  const what = counts
    ? `${total} records (${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ")})`
    : "records (no collect state beside them)";
  const out: Check[] = [
    age > RECORDS_STALE_MS
      ? check(
        "records",
        "warn",
        `${what} in ${job.records}, last changed ${formatAge(age)} ago`,
        "run verdict collect (or verdict schedule install to keep them fresh)",
      )
      : check("records", "ok", `${what} in ${job.records}, last changed ${formatAge(age)} ago`),
  ];
  out.push(await indexCheck(job, records));
  return out;
}

async function indexCheck(job: DoctorJob, records: Deno.FileInfo): Promise<Check> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(job.index, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      return check(
        "index",
        "fail",
        `no index beside the records (${job.index})`,
        "run verdict collect --full",
      );
    }
    return check("index", "fail", `index ${job.index} ${reason(err)}`, `make ${job.index} readable`);
  }
  try {
    const index = DiskIndex.open(file, records.size, records.mtime?.getTime() ?? 0);
    const docs = index.docCount;
    index.close();
    return check("index", "ok", `${job.index} matches the records (${docs} documents)`);
  } catch (err) {
    file.close();
    if (err instanceof IndexStaleError) {
      return check("index", "fail", `${job.index} is stale: ${err.message}`, "run verdict collect --full");
    }
    return check(
      "index",
      "fail",
      `${job.index} cannot be read: ${(err as Error).message}`,
      "run verdict collect --full",
    );
  }
}

/** A host file's parse problem as a failed check. */
function parseFailure(id: string, path: string, err: unknown): Check {
  if (err instanceof JsoncSyntaxError) {
    return check(
      id,
      "fail",
      `Cannot parse "${path}": ${err.message}`,
      `fix ${path}:${err.line}:${err.column}`,
    );
  }
  if (err instanceof HostFileError) return check(id, "fail", err.message, err.hint);
  return check(id, "fail", `Cannot read "${path}": ${reason(err)}`, `make ${path} readable`);
}

async function hooksCheck(job: DoctorJob): Promise<Check> {
  if (!job.claudePresent) return check("hooks", "skip", "Claude Code not found; no hooks to check");
  let statuses;
  try {
    statuses = hookStatus((await readOrNull(job.claudeSettings)) ?? "", job.claudeSettings);
  } catch (err) {
    return parseFailure("hooks", job.claudeSettings, err);
  }
  const missing = statuses.filter((s) => s.state === "missing");
  if (missing.length > 0) {
    return check(
      "hooks",
      "fail",
      `not registered in ${job.claudeSettings}: ${missing.map((s) => hookLabel(s.spec)).join(", ")}`,
      "run verdict install --claude",
    );
  }
  const elsewhere = statuses.filter((s) => s.program !== null && s.program !== job.bin);
  if (elsewhere.length > 0) {
    return check(
      "hooks",
      "warn",
      `the hooks run ${elsewhere[0]!.program}, but this verdict is ${job.bin}`,
      "run verdict install --claude to point them here",
    );
  }
  const labels = statuses.map((s) =>
    hookLabel(s.spec) + (s.state === "hand-wired" ? " (wired by hand)" : "")
  );
  return check("hooks", "ok", `${labels.join(", ")} in ${job.claudeSettings}`);
}

async function mcpCheck(job: DoctorJob): Promise<Check> {
  const where: string[] = [];
  try {
    const claude = await readOrNull(job.claudeConfig);
    if (claude !== null && claudeMcpState(claude, job.claudeConfig) !== null) {
      where.push(`Claude Code (${job.claudeConfig})`);
    }
  } catch (err) {
    return parseFailure("mcp", job.claudeConfig, err);
  }
  try {
    const codex = await readOrNull(job.codexConfig);
    if (codex !== null && codexMcpState(codex, job.codexConfig) !== null) {
      where.push(`Codex (${job.codexConfig})`);
    }
  } catch (err) {
    return parseFailure("mcp", job.codexConfig, err);
  }
  if (where.length === 0) {
    return check(
      "mcp",
      "fail",
      "the MCP server is registered with neither Claude Code nor Codex",
      "run verdict install",
    );
  }
  return check("mcp", "ok", `registered with ${where.join(" and ")}`);
}

async function scheduleCheck(job: DoctorJob): Promise<Check> {
  if (job.scheduleFiles.length === 0) {
    return check(
      "schedule",
      "skip",
      `cannot see ${job.scheduler === "cron" ? "cron" : "Task Scheduler"} jobs from here`,
    );
  }
  const missing: string[] = [];
  let interval: number | null = null;
  for (const path of job.scheduleFiles) {
    const text = await readOrNull(path).catch(() => null);
    if (text === null) missing.push(path);
    else interval = installedInterval(job.scheduler, text) ?? interval;
  }
  if (missing.length > 0) {
    return check(
      "schedule",
      "warn",
      `scheduled collect not installed (${missing[0]} missing)`,
      "run verdict schedule install",
    );
  }
  const every = interval === null ? "" : ` every ${interval} minutes`;
  return check("schedule", "ok", `${job.scheduler} runs collect${every} (${job.scheduleFiles.join(", ")})`);
}

async function sandboxCheck(job: DoctorJob, env: Env): Promise<Check> {
  if (!job.probe) return check("sandbox", "skip", "permission probe not run: the config does not load");
  const { argv, path } = job.probe;
  const run = await runProgram(argv, env);
  if (!run.started) return check("sandbox", "fail", `the permission probe did not start: ${run.error}`, null);
  const { code, stdout, stderr } = run;
  const probeCmd = `verdict sandbox-probe --as collect --read ${path}`;
  if (code === 0 && stdout.startsWith("refused")) {
    return check("sandbox", "ok", `Deno refused collect a read of ${path} (outside its roots)`);
  }
  if (code === 1) {
    return check(
      "sandbox",
      "fail",
      `collect could read ${path}, outside its roots: the permission scoping is not working`,
      `rerun "${probeCmd}" and report it (see SECURITY.md)`,
    );
  }
  const why = (stderr.trim().split("\n")[0] ?? "") || `exit status ${code}`;
  return check("sandbox", "fail", `the permission probe failed: ${why}`, `run "${probeCmd}" to see why`);
}

/** Runs every check, in a fixed order. */
export async function runDoctor(job: DoctorJob, env: Env): Promise<Check[]> {
  return [
    configCheck(job),
    ...await transcriptCheck(job),
    ...await rootsCheck(job),
    ...await recordsCheck(job),
    await hooksCheck(job),
    await mcpCheck(job),
    await scheduleCheck(job),
    await sandboxCheck(job, env),
  ];
}
