/**
 * A command plan: everything a command needs, computed once in the launcher (which may read the
 * config and resolve roots) and handed to the command, possibly across a Worker boundary. It is
 * plain data (structured-clone safe): the command never reads the environment or globals itself.
 */
import type { HookInput } from "../agents/agent.ts";
import type { Config } from "../config/config.ts";
import type { Env, Paths } from "../config/paths.ts";
import type { OptionSpecs, ParsedArgs } from "./args.ts";
import type { Roots } from "../config/roots.ts";

export { EMPTY_ROOTS, type Roots, sessionPaths, transcriptRoots } from "../config/roots.ts";

/**
 * How a command is confined:
 * - "worker": runs in a Worker whose Deno permissions are its rule's set for the plan;
 * - "revoke": runs in-process, opens its few files, then revokes every permission class
 *   (cheaper than a Worker on the per-prompt hook path);
 * - "none": the launcher runs it as is: it needs no access (help, version), or it pins its plan
 *   first (`launch`) and then starts its own Worker under its rule (install, doctor…).
 */
export type SandboxMode = "worker" | "revoke" | "none";

/** What plan building reads of a command's spec (the command table's rows extend it). */
export interface PlanSpec {
  readonly name: string;
  readonly sandbox: SandboxMode;
  readonly options: OptionSpecs;
}

export interface CommandPlan {
  /** Registry name, e.g. "collect" or "compact build". */
  readonly command: string;
  readonly args: ParsedArgs;
  /** The environment snapshot the command may consult (the command gets no env permission). */
  readonly env: Env;
  readonly cwd: string;
  readonly paths: Paths;
  readonly config: Config;
  readonly roots: Roots;
  /** The pinned clock (--as-of or $VERDICT_ASOF) as RFC 3339, or null for the real clock. */
  readonly asOf: string | null;
  /** stdin, read by the launcher for commands whose permissions depend on it (hooks). */
  readonly stdin: Uint8Array | null;
  /**
   * The hook input read through the calling agent's dialect (`--agent`), when the command is a
   * hook that reads stdin in the launcher; `cwd` and `transcript` only when absolute (they
   * decide the hook's permissions).
   */
  readonly hookInput: HookInput | null;
}

/** Streams a command writes to. Always text; stage code never prints. */
export interface CommandIO {
  readonly stdout: (text: string) => Promise<void>;
  readonly stderr: (text: string) => Promise<void>;
  /** Is stderr a terminal (progress bars only then)? */
  readonly stderrIsTerminal: boolean;
  /**
   * Reads all of stdin up to `maxBytes`; returns null when there was more than that. With `json`,
   * reads only up to the end of the first JSON object or array (hook input: hosts may keep stdin
   * open after writing it).
   */
  readonly readStdin: (maxBytes: number, json?: boolean) => Promise<Uint8Array | null>;
}

export type CommandRun = (plan: CommandPlan, io: CommandIO) => Promise<number>;

/** Runs a plan in a Worker narrowed to its command's permission rule (the launcher's). */
export type RunConfined = (plan: CommandPlan) => Promise<number>;

/**
 * A command that narrows itself: the launcher hands it the confined run, so the command needs
 * nothing from the launcher's own files (the permission table).
 */
export type CommandLaunch = (plan: CommandPlan, io: CommandIO, runConfined: RunConfined) => Promise<number>;

export interface CommandModule {
  /** Runs the command: in its Worker ("worker"), or in the launcher ("revoke", "none"). */
  readonly run: CommandRun;
  /**
   * For a command that narrows itself: runs in the launcher instead of `run`, pins the plan
   * (clock, real paths, a job) and starts the Worker that runs `run` through `runConfined`
   * (src/cli/run_confined.ts).
   */
  readonly launch?: CommandLaunch;
}
