/**
 * The launcher: argv and environment in, exit code out. It parses the command line, loads the
 * config, resolves the roots, computes the command's permissions and runs the command under
 * them. Nothing here prints except help and error reports.
 */
import denoJson from "../../deno.json" with { type: "json" };
import { parseArgs, type ParsedArgs, stringOption, stringsOption } from "./args.ts";
import { commandHelp, COMMANDS, type CommandSpec, findCommand, GROUPS, mainHelp } from "./commands.ts";
import { describeError, EXIT, UsageError } from "../errors.ts";
import { IN_PROCESS_COMMANDS } from "./in_process.ts";
import { processIO, readStdinCapped } from "./io.ts";
import { type CommandPlan, EMPTY_ROOTS, type HookPaths, type Roots } from "./plan.ts";
import { resolveAsOf } from "./clock.ts";
import { type Config, loadConfig } from "../config/config.ts";
import {
  defaultPaths,
  dirname,
  type Env,
  isWithin,
  joinPath,
  type Paths,
  resolvePath,
} from "../config/paths.ts";
import { realRoots } from "../sandbox/contain.ts";
import { permissionsFor } from "../sandbox/permissions.ts";

export const VERSION: string = denoJson.version;

/** Largest hook input accepted on stdin (Claude Code sends far less). */
export const MAX_HOOK_STDIN = 4 * 1024 * 1024;

/** Commands whose stdin is read by the launcher because their permissions depend on it. */
const STDIN_IN_PLAN = new Set(["hook pre-compact", "hook session-start"]);

/** macOS folders that raise a privacy prompt when a background job reads them. */
const PROTECTED_DIRS = ["Desktop", "Documents", "Downloads", "Library", "Movies", "Music", "Pictures"];

export async function main(argv: readonly string[], env: Env, cwd: string): Promise<number> {
  const io = processIO();
  try {
    return await dispatch(argv, env, cwd);
  } catch (err) {
    // A hook never fails loudly: a broken config or install must not block or mark a prompt.
    if (argv[0] === "hook") return EXIT.ok;
    const { code, lines } = describeError(err);
    await io.stderr(lines.join("\n") + "\n");
    return code;
  }
}

function resolveCommand(argv: readonly string[]): { spec: CommandSpec; rest: string[] } {
  const first = argv[0]!;
  let name = first;
  let rest = argv.slice(1);
  if (GROUPS.has(first)) {
    const sub = argv[1];
    const subs = COMMANDS.filter((c) => c.name.startsWith(first + " ")).map((c) => c.name.split(" ")[1]);
    if (!sub || sub.startsWith("-")) {
      throw new UsageError(
        `"verdict ${first}" needs a sub-command: ${subs.join(", ")}`,
        `run "verdict ${first} ${subs[0]} --help"`,
      );
    }
    name = `${first} ${sub}`;
    rest = argv.slice(2);
  }
  const spec = findCommand(name);
  if (!spec) {
    throw new UsageError(`Unknown command "${name}"`, 'run "verdict --help" for the list of commands');
  }
  return { spec, rest };
}

async function dispatch(argv: readonly string[], env: Env, cwd: string): Promise<number> {
  const io = processIO();
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    const topic = argv[0] === "help" ? argv.slice(1) : [];
    if (topic.length > 0) {
      const { spec } = resolveCommand(topic);
      await io.stdout(commandHelp(spec));
    } else await io.stdout(mainHelp(VERSION));
    return EXIT.ok;
  }
  if (argv[0] === "--version") argv = ["version"];
  const { spec, rest } = resolveCommand(argv);
  if (rest.includes("--help") || rest.includes("-h")) {
    await io.stdout(commandHelp(spec));
    return EXIT.ok;
  }
  const args = parseArgs(rest, spec.options, spec.name);
  if (spec.sandbox === "none" || spec.sandbox === "revoke") {
    // A revoke-mode command opens its files from the plan, then revokes every permission itself.
    const mod = await IN_PROCESS_COMMANDS[spec.name]!();
    return await mod.run(await buildPlan(spec, args, env, cwd, null), io);
  }
  let stdin: Uint8Array | null = null;
  if (STDIN_IN_PLAN.has(spec.name)) {
    stdin = await readStdinCapped(MAX_HOOK_STDIN);
    if (stdin === null) stdin = new Uint8Array();
  }
  const plan = await buildPlan(spec, args, env, cwd, stdin);
  if (spec.name === "collect") {
    // The sandboxed collect may write only its own files, not create their folder.
    await Deno.mkdir(dirname(plan.paths.records), { recursive: true, mode: 0o700 });
  }
  const as = spec.name === "sandbox-probe" ? stringOption(args, "as") ?? "collect" : spec.name;
  const asSpec = findCommand(as);
  if (!asSpec) throw new UsageError(`Unknown command "${as}" for --as`, 'try "--as collect"');
  if (asSpec.sandbox === "revoke") {
    // Probing a revoke-mode command (hint): drop every permission exactly as it does, then try.
    const mod = await IN_PROCESS_COMMANDS["sandbox-probe"]!();
    const { revokeAll } = await import("../sandbox/revoke.ts");
    await revokeAll();
    return await mod.run(plan, io);
  }
  const { runInWorker } = await import("../sandbox/launch.ts");
  return await runInWorker(plan, permissionsFor(as, plan));
}

/** Builds the plan: paths with overrides, config, real roots, the clock, hook paths. */
export async function buildPlan(
  spec: CommandSpec,
  args: ParsedArgs,
  env: Env,
  cwd: string,
  stdin: Uint8Array | null,
): Promise<CommandPlan> {
  const base = defaultPaths(env, cwd);
  const abs = (p: string) => resolvePath(p, cwd, base.home);
  const configOpt = stringOption(args, "config");
  const recordsOpt = stringOption(args, "out") ?? stringOption(args, "records");
  const paths: Paths = {
    ...base,
    config: configOpt ? abs(configOpt) : base.config,
    records: recordsOpt ? abs(recordsOpt) : base.records,
  };
  // Version and help need no config; everything else fails early on a bad one.
  const config: Config = spec.sandbox === "none"
    ? (await import("../config/config.ts")).DEFAULT_CONFIG
    : await loadConfig(paths.config, paths.home);
  const normalizedArgs = absolutizePathOptions(spec, args, abs);
  const roots = spec.sandbox === "worker"
    ? await resolveRoots(spec, normalizedArgs, config, paths, env, cwd)
    : EMPTY_ROOTS;
  const asOf = "as-of" in spec.options
    ? await resolveAsOf(stringOption(args, "as-of"), env.VERDICT_ASOF)
    : null;
  if (spec.name === "query" && asOf === null) {
    throw new UsageError(
      '"verdict query" needs --as-of (or VERDICT_ASOF)',
      "pass the caller's clock, e.g. --as-of 2026-11-29T12:00:00Z",
    );
  }
  return {
    command: spec.name,
    args: normalizedArgs,
    env: { ...env },
    cwd,
    paths,
    config,
    roots,
    asOf,
    stdin,
    hookInput: stdin ? hookPaths(stdin) : null,
  };
}

/** Options naming files or directories, made absolute so a Worker never needs the cwd. */
const PATH_OPTIONS = [
  "out",
  "records",
  "seen",
  "entities",
  "live-transcript",
  "token-file",
  "transcript",
  "cwd",
  "summary",
  "snapshot",
  "corpus",
  "read",
  "config",
];

function absolutizePathOptions(spec: CommandSpec, args: ParsedArgs, abs: (p: string) => string): ParsedArgs {
  const options = { ...args.options };
  for (const name of PATH_OPTIONS) {
    const v = options[name];
    if (typeof v === "string" && v !== "-" && v !== "" && name in spec.options) options[name] = abs(v);
  }
  for (const name of ["git-repo", "doc-root"]) {
    const v = options[name];
    if (Array.isArray(v)) options[name] = v.map(abs);
  }
  return { options, positionals: args.positionals };
}

async function resolveRoots(
  spec: CommandSpec,
  args: ParsedArgs,
  config: Config,
  paths: Paths,
  env: Env,
  cwd: string,
): Promise<Roots> {
  const skipProtected = args.options["skip-protected"] === true;
  const allowed = (p: string) =>
    !skipProtected || !PROTECTED_DIRS.some((d) => isWithin(p, joinPath(paths.home, d)));
  const docs = [...config.doc_roots, ...stringsOption(args, "doc-root")].filter(allowed);
  const repos = [...config.git_repos, ...stringsOption(args, "git-repo")].filter(allowed);
  if (spec.name === "collect") {
    await requireDirectories([...stringsOption(args, "doc-root"), ...stringsOption(args, "git-repo")]);
  }
  // Loaded here, not at startup: only Worker commands get roots, and the hint path must not
  // load the agents' code.
  const { LOADED_AGENTS } = await import("../agents/loaded.ts");
  const { sessionRoots } = await import("../agents/locate.ts");
  return {
    sessions: await sessionRoots(LOADED_AGENTS, { env, home: paths.home, cwd }, allowed),
    docs: (await realRoots(docs)).filter(allowed),
    gitRepos: (await realRoots(repos)).filter(allowed),
  };
}

/** Directories named on the command line must exist: a typo should not read as "nothing new". */
async function requireDirectories(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(dir);
    } catch {
      throw new UsageError(
        `Cannot read "${dir}": no such directory`,
        "check the path given on the command line",
      );
    }
    if (!info.isDirectory) throw new UsageError(`Cannot read "${dir}": not a directory`);
  }
}

function hookPaths(stdin: Uint8Array): HookPaths | null {
  try {
    const v = JSON.parse(new TextDecoder().decode(stdin)) as Record<string, unknown>;
    const str = (x: unknown) => (typeof x === "string" && x.startsWith("/") ? x : null);
    return { transcript_path: str(v.transcript_path), cwd: str(v.cwd) };
  } catch {
    return null;
  }
}
