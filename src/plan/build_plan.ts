/**
 * Building a command's plan (plain data: paths with overrides, config, real roots, the clock,
 * the hook input). Kept apart from the launcher so the per-prompt hook entry (hook_entry.ts)
 * builds the same plan without loading the command table.
 */
import { type ParsedArgs, stringOption } from "./args.ts";
import { InputError, UsageError } from "../errors.ts";
import { type CommandPlan, EMPTY_ROOTS, type PlanSpec } from "./plan.ts";

import type { HookInput } from "../agents/agent.ts";
import { hookDialectOf } from "../agents/registry.ts";
import { resolveAsOf } from "./clock.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { defaultPaths, type Env, type Paths, resolvePath } from "../config/paths.ts";

/**
 * Root resolution loads every agent's folder (src/agents/loaded.ts): named through a variable,
 * since `deno run` reads every module a literal dynamic import names before the program starts,
 * and this module is on the per-prompt hook's path, which never resolves roots. The launcher
 * imports it before it narrows anything; the compile names it with --include.
 */
const ROOTS_MODULE: string = new URL("./roots.ts", import.meta.url).href;

/** How a plan gets the config at a path (default: loadConfig, the file as it is now). */
export type ConfigSource = (path: string, home: string) => Promise<Config>;

/** Builds the plan: paths with overrides, config, real roots, the clock, hook paths. */
export async function buildPlan(
  spec: PlanSpec,
  args: ParsedArgs,
  env: Env,
  cwd: string,
  stdin: Uint8Array | null,
  configOf: ConfigSource = loadConfig,
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
  const named = stringOption(args, "records");
  if (named && READS_NAMED_ARCHIVE.has(spec.name)) await requireArchive(abs(named));
  // Version and help need no config; everything else fails early on a bad one.
  const config: Config = spec.sandbox === "none"
    ? (await import("../config/config.ts")).DEFAULT_CONFIG
    : await configOf(paths.config, paths.home);
  const normalizedArgs = absolutizePathOptions(spec, args, abs);
  const roots = spec.sandbox === "worker"
    ? await (await import(ROOTS_MODULE)).resolveRoots(spec, normalizedArgs, config, paths, env, cwd)
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
    hookInput: stdin ? await hookInputOf(stdin, stringOption(args, "agent")) : null,
  };
}

/**
 * Commands that only read the archive: one named with --records that is not there is a
 * misspelled path, not an empty memory (collect, which creates it, is not among them).
 */
const READS_NAMED_ARCHIVE: ReadonlySet<string> = new Set(["export", "recall", "query", "hint"]);

async function requireArchive(records: string): Promise<void> {
  const base = records.replace(/\.(db|jsonl)$/, "");
  for (const candidate of [records, `${base}.db`, `${base}.jsonl`]) {
    try {
      await Deno.lstat(candidate);
      return;
    } catch {
      // not this one
    }
  }
  throw new InputError(
    `no archive at ${records} (given with --records)`,
    'check the path; leave --records out for the default archive, or run "verdict collect --out FILE" to make this one',
  );
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

function absolutizePathOptions(spec: PlanSpec, args: ParsedArgs, abs: (p: string) => string): ParsedArgs {
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

/** The hook input through the dialect of the agent `--agent` names; null when it does not parse. */
async function hookInputOf(stdin: Uint8Array, agent: string | undefined): Promise<HookInput | null> {
  const dialect = await hookDialectOf(agent);
  if (dialect === null) return null;
  try {
    const v: unknown = JSON.parse(new TextDecoder().decode(stdin));
    if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
    const input = dialect.read(v as Record<string, unknown>);
    const abs = (p: string | null) => (p !== null && p.startsWith("/") ? p : null);
    return { ...input, cwd: abs(input.cwd), transcript: abs(input.transcript) };
  } catch {
    return null;
  }
}
