/**
 * `verdict mcp`: the MCP tools over stdio. stdout carries the protocol and nothing else
 * (console.log is routed to stderr first); diagnostics go to stderr. Stops when stdin closes
 * or on SIGINT/SIGTERM (forwarded by the launcher), exit 0. Everything is imported statically:
 * the Worker loads this module before the launcher drops its permissions, and a later dynamic
 * import could be refused.
 */
import { compileCredentialRules } from "../../record/secrets.ts";
import { parseTime } from "../../plan/clock.ts";
import { EXIT, UsageError, VerdictError } from "../../errors.ts";
import { type CommandIO, type CommandPlan, transcriptRoots } from "../../plan/plan.ts";
import { judgeServiceNet } from "../../config/config.ts";
import { stopSignal } from "../../sandbox/stop.ts";
import { type CallLog, NO_CALL_LOG, openCallLog } from "../../serve/call_log.ts";
import { assertNetConfined } from "../../serve/confine.ts";
import { callLogPath } from "../../serve/listen.ts";
import { buildToolSet, type ToolSetup } from "../../serve/setup.ts";
import { serveStdio } from "../../serve/stdio.ts";
import denoJson from "../../../deno.json" with { type: "json" };

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  noArguments(plan, "mcp");
  routeConsoleToStderr();
  const log = diagnostics(io, "verdict mcp");
  await assertNetConfined(judgeServiceNet(plan.config));
  const callLog = await openPlanCallLog(plan, log);
  const served = buildToolSet(toolSetup(plan, "stdio", callLog, log));
  try {
    await serveStdio({ tools: served.tools, identity: { version: VERSION }, signal: stopSignal.signal, log });
  } finally {
    served.close();
    await callLog.close();
  }
  return EXIT.ok;
}

/** The version, from deno.json as the launcher reads it (without importing the launcher). */
export const VERSION: string = denoJson.version;

export function noArguments(plan: CommandPlan, command: string): void {
  const extra = plan.args.positionals[0];
  if (extra !== undefined) {
    throw new UsageError(
      `"verdict ${command}" takes no arguments, got "${extra}"`,
      `run "verdict ${command} --help" for its options`,
    );
  }
}

/** Anything printed with console.log/info/debug goes to stderr: stdout is never polluted. */
export function routeConsoleToStderr(): void {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
}

/** A diagnostics writer: one line on stderr, prefixed, never awaited by the caller. */
export function diagnostics(io: CommandIO, prefix: string): (line: string) => void {
  return (line) => void io.stderr(`${prefix}: ${line}\n`).catch(() => {});
}

/** Opens $VERDICT_CALL_LOG when set. */
export async function openPlanCallLog(plan: CommandPlan, log: (line: string) => void): Promise<CallLog> {
  const path = callLogPath(plan.env, plan.cwd, plan.paths.home);
  if (path === null) return NO_CALL_LOG;
  try {
    return await openCallLog(path, {
      withQueries: plan.env.VERDICT_CALL_LOG_QUERIES === "1",
      credentialRules: compileCredentialRules(plan.config.credential_patterns),
      onError: log,
    });
  } catch (err) {
    throw new VerdictError(
      `Cannot open the call log "${path}": ${(err as Error).message}`,
      EXIT.runtime,
      "check VERDICT_CALL_LOG names a file in an existing directory",
    );
  }
}

/** The tool set's inputs, from the plan. */
export function toolSetup(
  plan: CommandPlan,
  transport: "stdio" | "http",
  callLog: CallLog,
  log: (line: string) => void,
): ToolSetup {
  const roots = transcriptRoots(plan.roots);
  const pinned = plan.env.VERDICT_ASOF ? parseTime(plan.env.VERDICT_ASOF) : null;
  if (plan.env.VERDICT_ASOF && pinned === null) {
    log("ignoring VERDICT_ASOF: the server takes an RFC 3339 time only (not a file)");
  }
  return {
    transport,
    recordsPath: plan.paths.records,
    quoteRoots: [...roots, ...plan.roots.docs],
    transcriptRoots: roots,
    entitiesPath: plan.config.entities,
    credentialRules: compileCredentialRules(plan.config.credential_patterns),
    judge: plan.config.judge,
    // Over stdio the client starts the server in its project; over HTTP the caller is unknown.
    project: transport === "stdio" ? plan.cwd : null,
    asOfMs: pinned === null ? null : Date.parse(pinned),
    callLog,
    log,
  };
}
