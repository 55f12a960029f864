/**
 * The least Deno permissions each command needs, computed from its plan (pure). This table is
 * the whole permission story; SECURITY.md describes it and tests/sandbox/ proves it.
 *
 * Never granted to any command: env (the plan carries the environment snapshot), sys, ffi,
 * remote import, and net beyond loopback addresses named by the plan.
 */
import { derivedPaths, dirname } from "../config/paths.ts";
import { tempPathFor } from "../fsutil/atomic.ts";
import { type CommandPlan, sessionPaths, transcriptRoots } from "../cli/plan.ts";
import { stringOption } from "../cli/args.ts";
import { callLogPath, listenAddress, tokenFilePath } from "../serve/listen.ts";
import {
  decodeJob,
  type DoctorJob,
  doctorReads,
  doctorRuns,
  type InstallJob,
  installJobPaths,
  type ScheduleJob,
  scheduleJobReads,
  scheduleJobRuns,
  scheduleJobWrites,
} from "../install/jobs.ts";

export interface PermissionSet {
  readonly read: readonly string[];
  readonly write: readonly string[];
  /** host:port entries, loopback only. */
  readonly net: readonly string[];
  readonly run: readonly string[];
}

export const NO_PERMISSIONS: PermissionSet = { read: [], write: [], net: [], run: [] };

/** The default port of `verdict serve`. */
export const DEFAULT_SERVE_PORT = 8933;
export const DEFAULT_SERVE_BIND = "127.0.0.1";

function recordsFiles(records: string): string[] {
  const d = derivedPaths(records);
  return [records, d.index, d.collectState];
}

/** Files collect writes: records, index and state, each with its temp sibling, and the lock. */
export function collectWrites(records: string): string[] {
  const files = recordsFiles(records);
  return [...files, ...files.map(tempPathFor), derivedPaths(records).lock];
}

/** host:port of the judge service, when one is configured. */
export function judgeServiceNet(plan: CommandPlan): string[] {
  const url = plan.config.judge.service_url;
  if (!url) return [];
  const u = new URL(url);
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  return [`${u.hostname}:${port}`];
}

/** Address `serve` listens on, as host:port. */
export function serveAddress(plan: CommandPlan): { host: string; port: number } {
  const host = stringOption(plan.args, "bind") ?? plan.env.VERDICT_MCP_BIND ?? DEFAULT_SERVE_BIND;
  const rawPort = stringOption(plan.args, "port");
  const port = rawPort === undefined ? DEFAULT_SERVE_PORT : Number(rawPort);
  return { host, port };
}

function formatHostPort(host: string, port: number): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Read grants shared by the look-up commands: records, index, and the roots quotes come from. */
function lookupReads(plan: CommandPlan): string[] {
  const entities = stringOption(plan.args, "entities") ?? plan.config.entities;
  return [
    ...recordsFiles(plan.paths.records),
    ...transcriptRoots(plan.roots),
    ...plan.roots.docs,
    ...(entities ? [entities] : []),
  ];
}

function optionalFile(plan: CommandPlan, name: string): string[] {
  const v = stringOption(plan.args, name);
  return v && v !== "-" ? [v] : [];
}

/** The permissions of `command` under `plan`. */
export function permissionsFor(command: string, plan: CommandPlan): PermissionSet {
  switch (command) {
    case "collect": {
      const needsGit = plan.roots.gitRepos.length > 0 || plan.roots.docs.length > 0;
      return {
        read: [
          // Every registered agent's session roots (directories and single files).
          ...sessionPaths(plan.roots),
          ...plan.roots.docs,
          ...plan.roots.gitRepos,
          // Deno's rename needs read access to both names.
          ...collectWrites(plan.paths.records),
        ],
        write: collectWrites(plan.paths.records),
        net: [],
        run: needsGit ? ["git"] : [],
      };
    }
    case "recall":
      return { read: lookupReads(plan), write: [], net: [], run: [] };
    case "query":
      return {
        read: [...lookupReads(plan), ...optionalFile(plan, "live-transcript")],
        write: [],
        net: [],
        run: [],
      };
    case "mcp":
    case "serve": {
      const callLog = callLogPath(plan.env, plan.cwd, plan.paths.home);
      const request = {
        bind: stringOption(plan.args, "bind"),
        port: stringOption(plan.args, "port"),
        tokenFile: stringOption(plan.args, "token-file"),
        env: plan.env,
        cwd: plan.cwd,
        home: plan.paths.home,
      };
      // The same resolution serve itself uses: the grant is exactly the address it binds, none
      // for malformed flags (serve then refuses) or --print-addr (nothing listens).
      const serving = command === "serve";
      const token = serving ? tokenFilePath(request) : null;
      const listen = serving && !plan.args.options["print-addr"] ? listenAddress(request) : null;
      return {
        read: [...lookupReads(plan), ...(token ? [token] : [])],
        write: callLog ? [callLog] : [],
        net: [
          ...(listen ? [formatHostPort(listen.host, listen.port)] : []),
          ...judgeServiceNet(plan),
        ],
        // Compaction tools build snapshots from transcripts under the roots (git status).
        run: ["git"],
      };
    }
    case "compact build": {
      const cwd = stringOption(plan.args, "cwd");
      return {
        read: [...optionalFile(plan, "transcript"), ...optionalFile(plan, "summary"), ...(cwd ? [cwd] : [])],
        write: [],
        net: [],
        run: ["git"],
      };
    }
    case "compact judge":
      return { read: optionalFile(plan, "snapshot"), write: [], net: judgeServiceNet(plan), run: [] };
    case "compact verify": {
      const corpus = stringOption(plan.args, "corpus");
      // Transcript cases name files beside the corpus.
      return {
        read: corpus ? [corpus, dirname(corpus)] : [],
        write: [],
        net: judgeServiceNet(plan),
        run: ["git"],
      };
    }
    case "hook pre-compact":
    case "hook session-start": {
      const hook = plan.hookInput;
      return {
        read: [
          ...(hook?.transcript_path ? [hook.transcript_path] : []),
          ...(hook?.cwd ? [hook.cwd] : []),
          plan.paths.stateDir,
        ],
        write: [plan.paths.stateDir],
        net: judgeServiceNet(plan),
        run: ["git"],
      };
    }
    case "install":
    case "uninstall": {
      // Exactly the host files, their temp siblings and backups; nothing else, no run, no net.
      const job = decodeJob<InstallJob>(plan.args.options);
      const files = job ? installJobPaths(job) : [];
      return { read: files, write: job?.dryRun ? [] : files, net: [], run: [] };
    }
    case "schedule install":
    case "schedule remove":
    case "schedule status": {
      const job = decodeJob<ScheduleJob>(plan.args.options);
      if (!job) return NO_PERMISSIONS;
      // systemctl or launchctl only; cron and schtasks lines are only printed.
      return {
        read: scheduleJobReads(job),
        write: scheduleJobWrites(job),
        net: [],
        run: scheduleJobRuns(job),
      };
    }
    case "doctor": {
      // Reads what the checks look at; runs only this program (the sandbox probe).
      const job = decodeJob<DoctorJob>(plan.args.options);
      if (!job) return NO_PERMISSIONS;
      return { read: doctorReads(job), write: [], net: [], run: doctorRuns(job) };
    }
    case "sandbox-probe": {
      const as = stringOption(plan.args, "as") ?? "collect";
      if (as === "sandbox-probe") return NO_PERMISSIONS;
      return permissionsFor(as, plan);
    }
    default:
      return NO_PERMISSIONS;
  }
}

/** The Worker `deno.permissions` object for a set: every class not listed is off. */
export function workerPermissions(set: PermissionSet): Deno.PermissionOptionsObject {
  const list = (xs: readonly string[]) => (xs.length === 0 ? false : [...new Set(xs)].sort());
  return {
    read: list(set.read),
    write: list(set.write),
    net: list(set.net),
    run: list(set.run),
    env: false,
    sys: false,
    ffi: false,
    import: false,
  };
}
