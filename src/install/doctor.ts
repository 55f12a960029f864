/**
 * `verdict doctor` as a stage: each check looks at one part of an installation and returns a
 * line saying what it found and, when something is wrong, the fix. Checks never throw: a problem
 * is a finding. The launcher side works out every path first and runs the checks that start
 * other programs (DoctorJob's wiring, hookTrouble and scheduleActive), so the rest run in a Worker
 * that may read exactly those paths and run only this program (for the sandbox probe).
 */
import type { Agent, DoctorAgent } from "../agents/agent.ts";
import { LOADED_AGENTS } from "../agents/loaded.ts";
import { andList, noneOfList, orList } from "../agents/registry.ts";
import type { Env } from "../config/paths.ts";
import { type Check, check, parseFailure, readOrNull, reason } from "../hostfile/checks.ts";
import { installedInterval } from "./schedule.ts";
import type { DoctorJob } from "./jobs.ts";
import { RUNNING, runProgram } from "./schedule_apply.ts";
import { childDenoEnv } from "../hostfile/binary.ts";
import { type ArchiveStatus, archiveStatus } from "../store/status.ts";
import { storePaths } from "../store/paths.ts";
import { VerdictError } from "../errors.ts";

export type { Check, CheckStatus } from "../hostfile/checks.ts";

/** Records older than this are reported (a scheduled collect runs at least daily). */
export const RECORDS_STALE_MS = 2 * 24 * 60 * 60 * 1000;

/** "3 days", "5 hours", "12 minutes", "under a minute". */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes === 0) return "under a minute";
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
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

/** Why a session root (a folder, or a store file such as OpenCode's database) cannot be read. */
async function unreadableSessions(path: string): Promise<string | null> {
  try {
    const info = await Deno.stat(path);
    if (info.isFile) {
      (await Deno.open(path, { read: true })).close();
      return null;
    }
  } catch (err) {
    return reason(err);
  }
  return await unreadableDir(path);
}

async function transcriptCheck(job: DoctorJob, agents: readonly Agent[]): Promise<Check[]> {
  const found: string[] = [];
  const out: Check[] = [];
  for (const root of job.transcriptRoots) {
    const why = await unreadableSessions(root.path);
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
        `use ${orList(agents.map((a) => a.label))} once, or point ${
          agents.map((a) => a.folderVariable).join(" / ")
        } at their folders`,
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

function recordsCheck(job: DoctorJob): Check[] {
  let status: ArchiveStatus | null;
  try {
    status = archiveStatus(storePaths(job.records));
  } catch (err) {
    return [
      check(
        "records",
        "fail",
        `the archive ${job.records} cannot be read: ${reason(err)}`,
        // A foreign, newer or damaged archive says what to do; anything else is a permission.
        err instanceof VerdictError && err.hint ? err.hint : `make ${job.records} readable`,
      ),
      check("index", "skip", "the archive cannot be read, so neither can its index"),
    ];
  }
  if (status === null) {
    return [
      check("records", "fail", `no archive at ${job.records}`, "run verdict collect"),
      check("index", "skip", "no records, so no index to check"),
    ];
  }
  const counts = status.byKind;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const what = `${total} records (${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ")})`;
  const age = job.now - (status.collectedAt ?? 0);
  const out: Check[] = [
    age > RECORDS_STALE_MS
      ? check(
        "records",
        "warn",
        `${what} in ${job.records}, last collected ${formatAge(age)} ago`,
        "run verdict collect (or verdict schedule install to keep them fresh)",
      )
      : check("records", "ok", `${what} in ${job.records}, last collected ${formatAge(age)} ago`),
  ];
  const index = status.index;
  out.push(
    index.ok
      ? check("index", "ok", `${index.docs} documents in ${index.segments} segment(s) under ${job.index}`)
      : check(
        "index",
        "fail",
        `the index under ${job.index} cannot serve: ${index.reason}`,
        "run verdict collect (it rebuilds the index)",
      ),
  );
  const m = status.marks;
  const said = `${m.retracted} retracted, ${m.muted} muted, ${m.pinned} pinned, ${m.forgotten} forgotten`;
  out.push(
    m.dangling.length === 0
      ? check("marks", "ok", `${said} (verdict decisions lists them with their ids)`)
      : check(
        "marks",
        "warn",
        `${said}; marks on records no longer in the archive: ${m.dangling.join(", ")}`,
        "verdict unretract ID / verdict unmute ID drops such a mark; a retraction whose replacement is gone shows only that it no longer holds",
      ),
  );
  return out;
}

/** The doctor job's entry for an agent (every agent has one: the launcher lists them all). */
function jobAgent(job: DoctorJob, agent: Agent): DoctorAgent {
  const found = job.agents.find((a) => a.id === agent.id);
  if (!found) throw new Error(`The doctor job has no entry for agent "${agent.id}"`);
  return found;
}

/**
 * Is the MCP server registered with any agent (in the host file each one registers it in)? An
 * entry named "verdict" that runs another program (a stub, a fork, a hand-made server) is not
 * verdict's: it is named, and install refuses to replace it, so the fix is by hand.
 */
async function mcpCheck(job: DoctorJob, agents: readonly Agent[]): Promise<Check> {
  const ours: string[] = [];
  const others: string[] = [];
  for (const agent of agents) {
    const files = jobAgent(job, agent).files;
    for (const hostFile of agent.hostFiles) {
      if (!hostFile.mcpState) continue;
      const path = files.find((f) => f.role === hostFile.role)!.path;
      try {
        const text = await readOrNull(path);
        const state = text === null ? null : hostFile.mcpState(text, path);
        if (state === "ours") ours.push(`${agent.label} (${path})`);
        else if (state === "other") others.push(`${agent.label} (${path})`);
      } catch (err) {
        return parseFailure("mcp", path, err);
      }
    }
  }
  const foreign = others.length === 0
    ? ""
    : `; the "verdict" server in ${andList(others)} runs another program, not "verdict mcp"`;
  const foreignFix = "remove or rename that entry by hand, then run verdict install";
  const takers = agents.filter((a) => a.noMcp === undefined);
  const without = agents.filter((a) => a.noMcp !== undefined && jobAgent(job, a).present);
  if (
    ours.length === 0 && others.length === 0 && without.length > 0 &&
    !takers.some((a) => jobAgent(job, a).present)
  ) {
    // Only agents without MCP support are here (pi): nothing to register it with.
    return check(
      "mcp",
      "skip",
      `no agent found here takes an MCP server (${without.map((a) => a.noMcp).join("; ")})`,
    );
  }
  if (ours.length === 0) {
    return check(
      "mcp",
      "fail",
      `the MCP server is registered with ${noneOfList(takers.map((a) => a.label))}${foreign}`,
      others.length === 0 ? "run verdict install" : foreignFix,
    );
  }
  if (others.length > 0) {
    return check("mcp", "warn", `registered with ${andList(ours)}${foreign}`, foreignFix);
  }
  return check("mcp", "ok", `registered with ${andList(ours)}`);
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
  const asked = job.scheduleActive;
  const running = RUNNING[job.scheduler];
  if (asked && running && asked.active !== running) {
    // The files alone collect nothing: a timer systemd never enabled (no user bus) is broken.
    return check(
      "schedule",
      "fail",
      `${job.scheduler} has the collect job${every} but it is not active (${asked.active ?? asked.detail})`,
      job.scheduler === "systemd"
        ? "systemctl --user enable --now verdict-collect.timer (in a session with a user bus), or verdict schedule install"
        : "launchctl load -w ~/Library/LaunchAgents/dev.verdict.collect.plist, or verdict schedule install",
    );
  }
  return check("schedule", "ok", `${job.scheduler} runs collect${every} (${job.scheduleFiles.join(", ")})`);
}

/** The probe's environment: doctor's own, with Deno's update check and prompts off (pure). */
export function probeEnv(env: Env): Record<string, string> {
  return childDenoEnv(env);
}

async function sandboxCheck(job: DoctorJob, env: Env): Promise<Check> {
  if (!job.probe) return check("sandbox", "skip", "permission probe not run: the config does not load");
  const { argv, path } = job.probe;
  const run = await runProgram(argv, probeEnv(env));
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

/**
 * The id an agent's own check is reported under: the agent's id, then what the check names
 * ("codex hooks", "opencode plugin"), so every agent's checks are told apart the same way.
 */
export function agentCheckId(agentId: string, check: string): string {
  return `${agentId} ${check}`;
}

/**
 * Each agent's own checks (its hooks), then its wiring run end to end (the launcher ran those),
 * in registry order, under agentCheckId.
 */
async function agentChecks(job: DoctorJob, agents: readonly Agent[]): Promise<Check[]> {
  const out: Check[] = [];
  for (const agent of agents) {
    const checks = await agent.doctor({ agent: jobAgent(job, agent), bin: job.bin, read: readOrNull });
    const wired = job.wiring.find((w) => w.agent === agent.id)?.checks ?? [];
    out.push(...[...checks, ...wired].map((c) => ({ ...c, id: agentCheckId(agent.id, c.id) })));
  }
  return out;
}

/** Runs every check, in a fixed order. */
export async function runDoctor(
  job: DoctorJob,
  env: Env,
  agents: readonly Agent[] = LOADED_AGENTS,
): Promise<Check[]> {
  return [
    configCheck(job),
    ...await transcriptCheck(job, agents),
    ...await rootsCheck(job),
    ...recordsCheck(job),
    ...await agentChecks(job, agents),
    await mcpCheck(job, agents),
    job.hookTrouble,
    await scheduleCheck(job),
    await sandboxCheck(job, env),
  ];
}
