/**
 * The permission rules of the command table (./commands.ts): for each command, the least Deno
 * permissions its Worker needs under a plan, the rule its row names. Pure: from the plan alone
 * (install, uninstall, doctor and schedule from the job their launcher side pinned into it,
 * src/install/jobs.ts). Loaded by what confines a command (./run_confined.ts), not by the table,
 * so the per-prompt hint path does not carry the rules.
 */
import { judgeServiceNet } from "../config/config.ts";
import { dirname, resolvePath } from "../config/paths.ts";
import { tempPathFor } from "../fsutil/atomic.ts";
import { sqliteFiles, storePaths } from "../store/paths.ts";
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
import { NO_PERMISSIONS, type PermissionSet } from "../sandbox/permissions.ts";
import { callLogPath, listenAddress, tokenFilePath } from "../serve/listen.ts";
import { stringOption } from "../plan/args.ts";
import { MAIN_MODULE, warmFolderOf } from "../warm/wire.ts";
import { type CommandPlan, sessionPaths, transcriptRoots } from "../plan/plan.ts";
import { findCommand, type GrantRule } from "./commands.ts";
import { troublePath, troubleTempPath } from "../gate/health.ts";

// ---- pieces the rules share

/** What a reader of the archive opens: the database (and SQLite's files beside it) and the segments. */
function recordsFiles(records: string): string[] {
  const p = storePaths(records);
  return [...sqliteFiles(p.db), p.segments, p.legacy.records];
}

/**
 * What collect writes: the archive (database, segments, lock) and the files of an older
 * verdict's archive it migrates (renamed to `.migrated`, index and state removed).
 */
function collectWrites(records: string): string[] {
  const p = storePaths(records);
  const legacy = p.legacy;
  return [
    ...sqliteFiles(p.db),
    p.segments,
    p.lock,
    legacy.records,
    `${legacy.records}.migrated`,
    legacy.index,
    legacy.state,
    legacy.lock,
  ];
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

/** The file an option names, unless it is "-" (stdin) or absent. */
function optionalFile(plan: CommandPlan, name: string): string[] {
  const v = stringOption(plan.args, name);
  return v && v !== "-" ? [v] : [];
}

/** mcp and serve: look-ups, the call log, and (serve) exactly the address it binds. */
function serverGrants(plan: CommandPlan, serving: boolean): PermissionSet {
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
  const token = serving ? tokenFilePath(request) : null;
  const listen = serving && !plan.args.options["print-addr"] ? listenAddress(request) : null;
  return {
    read: [...lookupReads(plan), ...(token ? [token] : [])],
    write: callLog ? [callLog] : [],
    net: [
      ...(listen ? [formatHostPort(listen.host, listen.port)] : []),
      ...judgeServiceNet(plan.config),
    ],
    // Compaction tools build snapshots from transcripts under the roots (git status).
    run: ["git"],
  };
}

/**
 * Where the warm helper listens: loopback, on a port the system picks (port 0: this grant allows
 * no other); the helper gives the permission up once it listens. Its clients (the per-prompt
 * hook, `warm status`, `warm stop`) read the port from its address file, so their grant is the
 * loopback address, any port.
 */
export const WARM_LISTEN_NET = "127.0.0.1:0";
export const WARM_CLIENT_NET = "127.0.0.1";

/**
 * `warm serve`: what the hint reads (config, archive, entity list, ledgers), its own folder,
 * and the executable and main module (its build identity). Writes only the ledgers (the cooldown
 * ledgers and the hook trouble ledger) and its folder; net only to listen on a loopback port;
 * runs nothing.
 */
function warmServeGrants(plan: CommandPlan): PermissionSet {
  const folder = warmFolderOf(plan.paths.stateDir);
  const ledgers = `${plan.paths.stateDir}/seen`;
  const trouble = troublePath(plan.paths.stateDir);
  const troubleFiles = [trouble, troubleTempPath(trouble)];
  return {
    read: [
      plan.paths.config,
      ...recordsFiles(plan.paths.records),
      ...(plan.config.entities ? [plan.config.entities] : []),
      ledgers,
      ...troubleFiles,
      folder,
      ...buildFiles(),
    ],
    write: [ledgers, ...troubleFiles, folder],
    net: [WARM_LISTEN_NET],
    run: [],
    sys: ["uid"],
  };
}

/** `warm status` / `warm stop`: the helper's folder (its address file), loopback, the build identity's files, the trouble ledger. */
function warmClientGrants(plan: CommandPlan): PermissionSet {
  const folder = warmFolderOf(plan.paths.stateDir);
  return {
    // The hook's trouble ledger too: status reports the last day's counts.
    read: [folder, ...buildFiles(), troublePath(plan.paths.stateDir)],
    write: [],
    net: [WARM_CLIENT_NET],
    run: [],
    sys: ["uid"],
  };
}

/** The files the build identity stats (src/warm/wire.ts buildIdentity): the executable and main.ts. */
function buildFiles(): string[] {
  return [
    Deno.execPath(),
    ...(MAIN_MODULE.protocol === "file:" ? [decodeURIComponent(MAIN_MODULE.pathname)] : []),
  ];
}

/** The compaction hooks: the transcript and cwd the hook input names, and verdict's state. */
function compactionHookGrants(plan: CommandPlan): PermissionSet {
  const hook = plan.hookInput;
  return {
    read: [
      ...(hook?.transcript ? [hook.transcript] : []),
      ...(hook?.cwd ? [hook.cwd] : []),
      plan.paths.stateDir,
    ],
    write: [plan.paths.stateDir],
    net: judgeServiceNet(plan.config),
    run: ["git"],
  };
}

// ---- each command's rule

/** For commands that read and write nothing beyond what they opened before revoking. */
function noGrants(): PermissionSet {
  return NO_PERMISSIONS;
}

function collectGrants(plan: CommandPlan): PermissionSet {
  const needsGit = plan.roots.gitRepos.length > 0 || plan.roots.docs.length > 0;
  return {
    read: [
      // Every registered agent's session roots (directories and single files).
      ...sessionPaths(plan.roots),
      ...plan.roots.docs,
      ...plan.roots.gitRepos,
      // Deno's rename needs read access to both names.
      ...collectWrites(plan.paths.records),
      // Decisions added by hand (verdict remember), read like a doc.
      storePaths(plan.paths.records).remembered,
    ],
    write: collectWrites(plan.paths.records),
    net: [],
    run: needsGit ? ["git"] : [],
  };
}

/** What reads the archive and nothing else: export, show, decisions. */
function archiveReadGrants(plan: CommandPlan): PermissionSet {
  return { read: recordsFiles(plan.paths.records), write: [], net: [], run: [] };
}

function recallGrants(plan: CommandPlan): PermissionSet {
  return { read: lookupReads(plan), write: [], net: [], run: [] };
}

/** The archive (every record; quotes are the stored text) and the entity list. */
function replayGrants(plan: CommandPlan): PermissionSet {
  return {
    read: [...recordsFiles(plan.paths.records), ...(plan.config.entities ? [plan.config.entities] : [])],
    write: [],
    net: [],
    run: [],
  };
}

function queryGrants(plan: CommandPlan): PermissionSet {
  return {
    read: [...lookupReads(plan), ...optionalFile(plan, "live-transcript")],
    write: [],
    net: [],
    run: [],
  };
}

function mcpGrants(plan: CommandPlan): PermissionSet {
  return serverGrants(plan, false);
}

function serveGrants(plan: CommandPlan): PermissionSet {
  return serverGrants(plan, true);
}

function compactBuildGrants(plan: CommandPlan): PermissionSet {
  const cwd = stringOption(plan.args, "cwd");
  return {
    read: [...optionalFile(plan, "transcript"), ...optionalFile(plan, "summary"), ...(cwd ? [cwd] : [])],
    write: [],
    net: [],
    run: ["git"],
  };
}

function compactJudgeGrants(plan: CommandPlan): PermissionSet {
  return {
    read: optionalFile(plan, "snapshot"),
    write: [],
    net: judgeServiceNet(plan.config),
    run: [],
  };
}

function compactVerifyGrants(plan: CommandPlan): PermissionSet {
  const corpus = stringOption(plan.args, "corpus");
  // Transcript cases name files beside the corpus.
  return {
    read: corpus ? [corpus, dirname(corpus)] : [],
    write: [],
    net: judgeServiceNet(plan.config),
    run: ["git"],
  };
}

/** install and uninstall: exactly the host files, their temp siblings and backups; no run, no net. */
function installGrants(plan: CommandPlan): PermissionSet {
  const job = decodeJob<InstallJob>(plan.args.options);
  const files = job ? installJobPaths(job) : [];
  return { read: files, write: job?.dryRun ? [] : files, net: [], run: [] };
}

/** schedule: its files; systemctl or launchctl only (cron and schtasks lines are only printed). */
function scheduleGrants(plan: CommandPlan): PermissionSet {
  const job = decodeJob<ScheduleJob>(plan.args.options);
  if (!job) return NO_PERMISSIONS;
  return { read: scheduleJobReads(job), write: scheduleJobWrites(job), net: [], run: scheduleJobRuns(job) };
}

/** doctor: what the checks look at; runs only this program (the sandbox probe). */
function doctorGrants(plan: CommandPlan): PermissionSet {
  const job = decodeJob<DoctorJob>(plan.args.options);
  if (!job) return NO_PERMISSIONS;
  return { read: doctorReads(job), write: [], net: [], run: doctorRuns(job) };
}

/**
 * What a change by hand (forget, retract, mute, remember, import) reads and writes: the archive's
 * own files and its lock, nothing else.
 */
function archiveEdits(records: string): string[] {
  const p = storePaths(records);
  return [...sqliteFiles(p.db), p.segments, p.lock];
}

/** forget, retract, unretract, mute, unmute: they change only the archive. */
function archiveEditGrants(plan: CommandPlan): PermissionSet {
  const files = archiveEdits(plan.paths.records);
  return { read: files, write: files, net: [], run: [] };
}

/** remember: the archive and remembered.md beside it, replaced through its temp file. */
function rememberGrants(plan: CommandPlan): PermissionSet {
  const remembered = storePaths(plan.paths.records).remembered;
  const files = [...archiveEdits(plan.paths.records), remembered, tempPathFor(remembered)];
  return { read: files, write: files, net: [], run: [] };
}

/** import: the archive, and the export file it merges (read only). */
function importGrants(plan: CommandPlan): PermissionSet {
  const files = archiveEdits(plan.paths.records);
  const file = plan.args.positionals[0];
  return { read: [...files, ...(file ? [file] : [])], write: files, net: [], run: [] };
}

/** report: what it reads of the archive, and the page --html writes (through its temp file). */
function reportGrants(plan: CommandPlan): PermissionSet {
  const html = stringOption(plan.args, "html");
  const file = html === undefined ? [] : [resolvePath(html, plan.cwd, plan.paths.home)];
  const writes = file.flatMap((f) => [f, `${f}.tmp`]);
  return {
    read: [
      ...recordsFiles(plan.paths.records),
      ...(plan.config.entities ? [plan.config.entities] : []),
      ...writes,
    ],
    write: writes,
    net: [],
    run: [],
  };
}

/** The probed command's own rule (none for probing the probe). */
function sandboxProbeGrants(plan: CommandPlan): PermissionSet {
  const as = stringOption(plan.args, "as") ?? "collect";
  return as === "sandbox-probe" ? NO_PERMISSIONS : permissionsFor(as, plan);
}

/** Every rule by the name a row of the command table gives. */
export const GRANTS: Readonly<Record<GrantRule, (plan: CommandPlan) => PermissionSet>> = {
  "none": noGrants,
  "collect": collectGrants,
  "archive read": archiveReadGrants,
  "recall": recallGrants,
  "replay": replayGrants,
  "query": queryGrants,
  "mcp": mcpGrants,
  "serve": serveGrants,
  "compact build": compactBuildGrants,
  "compact judge": compactJudgeGrants,
  "compact verify": compactVerifyGrants,
  "warm serve": warmServeGrants,
  "warm client": warmClientGrants,
  "compaction hook": compactionHookGrants,
  "install": installGrants,
  "schedule": scheduleGrants,
  "doctor": doctorGrants,
  "sandbox-probe": sandboxProbeGrants,
  "archive edit": archiveEditGrants,
  "remember": rememberGrants,
  "import": importGrants,
  "report": reportGrants,
};

/** The permissions of `command` under `plan` (its row's rule; none for an unknown name). */
export function permissionsFor(command: string, plan: CommandPlan): PermissionSet {
  const spec = findCommand(command);
  return spec ? GRANTS[spec.permissions](plan) : NO_PERMISSIONS;
}
