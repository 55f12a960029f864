/**
 * The one optional config file: $VERDICT_CONFIG, else ~/.config/verdict/config.json (JSONC).
 * Missing → defaults. Malformed → ConfigError naming file, line and column. Unknown key → error
 * naming it, so a typo never silently disables a protection. Relative paths in the file resolve
 * against the file's own folder.
 */
import { ConfigError } from "../errors.ts";
import { compileCredentialRules } from "../record/secrets.ts";
import { JsoncSyntaxError, parseJsonc } from "./jsonc.ts";
import { dirname, resolvePath } from "./paths.ts";

export interface JudgeConfig {
  /** Optional loopback chat-completions endpoint asked in the ambiguous band. */
  readonly service_url: string | null;
  readonly service_model: string;
  readonly timeout_ms: number;
  /** Unlanded count at or below which the verdict is safe_to_compact. */
  readonly safe_max: number;
  /** Unlanded count above which the verdict is preserve_first. */
  readonly wait_min: number;
  /** Longest state text accepted; longer → exit 2. */
  readonly state_char_budget: number;
  /** Block a manual compaction on preserve_first (never an automatic one). */
  readonly block_manual: boolean;
}

export interface Config {
  /** Where the config came from, or null when defaults are used. */
  readonly source: string | null;
  readonly doc_roots: readonly string[];
  readonly git_repos: readonly string[];
  /** Entity list (TSV), or null. */
  readonly entities: string | null;
  readonly credential_patterns: readonly string[];
  /** When non-empty, the hook hints only sessions whose cwd base name is listed. */
  readonly hook_personas: readonly string[];
  /** Also collect prompts from headless/SDK sessions (claude -p, SDK, IDE entrypoints). */
  readonly include_headless: boolean;
  /** Minutes between scheduled collects. */
  readonly schedule_interval_minutes: number;
  /** The per-prompt hook may start and use the warm helper (docs/hook_startup.md). */
  readonly warm_helper: boolean;
  readonly judge: JudgeConfig;
}

export const DEFAULT_JUDGE: JudgeConfig = {
  service_url: null,
  service_model: "local",
  timeout_ms: 5000,
  safe_max: 0,
  wait_min: 2,
  state_char_budget: 8000,
  block_manual: false,
};

export const DEFAULT_CONFIG: Config = {
  source: null,
  doc_roots: [],
  git_repos: [],
  entities: null,
  credential_patterns: [],
  hook_personas: [],
  include_headless: false,
  schedule_interval_minutes: 60,
  warm_helper: true,
  judge: DEFAULT_JUDGE,
};

const TOP_KEYS = [
  "$schema",
  "doc_roots",
  "git_repos",
  "entities",
  "credential_patterns",
  "hook_personas",
  "include_headless",
  "schedule_interval_minutes",
  "warm_helper",
  "judge",
] as const;

const JUDGE_KEYS = Object.keys(DEFAULT_JUDGE);

/** Reads and validates the config at `path`; a missing file gives the defaults. */
export function loadConfig(path: string, home: string): Promise<Config> {
  try {
    const text = readConfigText(path);
    return Promise.resolve(text === null ? DEFAULT_CONFIG : parseConfig(text, path, home));
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * The config file's text; null when there is none. Read synchronously: the file is small, and
 * an async read goes through Deno's blocking thread pool, which cost the warm helper ~50-100 µs
 * a read against ~10 µs (docs/notes/2026-11-hook-startup-rounds.md, "The helper's own time").
 */
function readConfigText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw new ConfigError(
      `Cannot read config "${path}": ${(err as Error).message}`,
      "fix the file's permissions, or point VERDICT_CONFIG at another file",
    );
  }
}

/**
 * The config as the warm helper reads it for each prompt: the file read again at every `load`
 * (an edit between two prompts is honoured on the next one), parsed again only when its text
 * differs from the last read's. The text itself is compared, so no mtime granularity is trusted;
 * a file that does not parse is an error at every load, as loadConfig's.
 */
export class ConfigKeeper {
  #last: { path: string; home: string; text: string | null; config: Config } | null = null;

  load(path: string, home: string): Config {
    const text = readConfigText(path);
    const last = this.#last;
    if (last !== null && last.path === path && last.home === home && last.text === text) return last.config;
    const config = text === null ? DEFAULT_CONFIG : deepFreeze(parseConfig(text, path, home));
    this.#last = { path, home, text, config };
    return config;
  }
}

/** One config object serves many prompts: none of them may change it for the next. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Parses config text; pure apart from the error messages naming `path`. */
export function parseConfig(text: string, path: string, home: string): Config {
  let raw: unknown;
  try {
    raw = parseJsonc(text);
  } catch (err) {
    if (err instanceof JsoncSyntaxError) {
      throw new ConfigError(
        `Cannot parse config "${path}": ${err.message}`,
        `fix the file at ${path}:${err.line}:${err.column} (JSON with comments)`,
      );
    }
    throw err;
  }
  const where = `config "${path}"`;
  const obj = expectObject(raw, where, "the top level");
  rejectUnknown(obj, TOP_KEYS, where, "");
  const base = dirname(path);
  const paths = (key: string) => stringList(obj[key], where, key).map((p) => resolvePath(p, base, home));

  const judgeRaw = obj.judge === undefined ? {} : expectObject(obj.judge, where, "judge");
  rejectUnknown(judgeRaw, JUDGE_KEYS, where, "judge.");
  const judge: JudgeConfig = {
    service_url: optionalString(judgeRaw.service_url, where, "judge.service_url"),
    service_model: optionalString(judgeRaw.service_model, where, "judge.service_model") ??
      DEFAULT_JUDGE.service_model,
    timeout_ms: intIn(judgeRaw.timeout_ms, where, "judge.timeout_ms", 1, 600_000) ??
      DEFAULT_JUDGE.timeout_ms,
    safe_max: intIn(judgeRaw.safe_max, where, "judge.safe_max", 0, 1000) ??
      DEFAULT_JUDGE.safe_max,
    wait_min: intIn(judgeRaw.wait_min, where, "judge.wait_min", 0, 1000) ??
      DEFAULT_JUDGE.wait_min,
    state_char_budget: intIn(judgeRaw.state_char_budget, where, "judge.state_char_budget", 200, 10_000_000) ??
      DEFAULT_JUDGE.state_char_budget,
    block_manual: optionalBool(judgeRaw.block_manual, where, "judge.block_manual") ??
      DEFAULT_JUDGE.block_manual,
  };
  if (judge.wait_min < judge.safe_max) {
    throw new ConfigError(
      `Invalid ${where}: judge.wait_min (${judge.wait_min}) is below judge.safe_max (${judge.safe_max})`,
      "wait_min must be at least safe_max; the band between them is where the verdict is wait",
    );
  }
  if (judge.service_url !== null) checkLoopbackUrl(judge.service_url, where);

  const entities = optionalString(obj.entities, where, "entities");
  const credentialPatterns = stringList(obj.credential_patterns, where, "credential_patterns");
  // Compiled here only to validate: a bad rule must fail every command, not just collect.
  compileCredentialRules(credentialPatterns);
  return {
    source: path,
    doc_roots: paths("doc_roots"),
    git_repos: paths("git_repos"),
    entities: entities === null ? null : resolvePath(entities, base, home),
    credential_patterns: credentialPatterns,
    hook_personas: stringList(obj.hook_personas, where, "hook_personas"),
    include_headless: optionalBool(obj.include_headless, where, "include_headless") ?? false,
    schedule_interval_minutes: intIn(
      obj.schedule_interval_minutes,
      where,
      "schedule_interval_minutes",
      5,
      7 * 24 * 60,
    ) ?? DEFAULT_CONFIG.schedule_interval_minutes,
    warm_helper: optionalBool(obj.warm_helper, where, "warm_helper") ?? DEFAULT_CONFIG.warm_helper,
    judge,
  };
}

/**
 * True for http URLs whose host is one of the loopback names verdict's net permission holds. Not
 * https: the judge's client speaks plain HTTP over its own connection to that address (so that no
 * proxy variable can divert it, src/judge/direct.ts), and on loopback TLS would guard nothing.
 */
export function isLoopbackUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:") return false;
  if (parsed.username || parsed.password) return false;
  return isGrantedLoopback(parsed.hostname);
}

function checkLoopbackUrl(url: string, where: string): void {
  if (!isLoopbackUrl(url)) {
    throw new ConfigError(
      `Refusing ${where}: judge.service_url "${url}" is not a loopback http URL`,
      "the judge service must run on this machine, at http://127.0.0.1:PORT/..., http://localhost:PORT/... or " +
        "http://[::1]:PORT/... (verdict's network permission holds these alone); nothing leaves it",
    );
  }
}

function expectObject(v: unknown, where: string, key: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new ConfigError(`Invalid ${where}: ${key} must be an object`);
  }
  return v as Record<string, unknown>;
}

function rejectUnknown(
  obj: Record<string, unknown>,
  known: readonly string[],
  where: string,
  prefix: string,
): void {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) {
      throw new ConfigError(
        `Unknown key "${prefix}${key}" in ${where}`,
        `known keys: ${known.filter((k) => k !== "$schema").map((k) => prefix + k).join(", ")}`,
      );
    }
  }
}

function stringList(v: unknown, where: string, key: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x === "")) {
    throw new ConfigError(`Invalid ${where}: ${key} must be a list of non-empty strings`);
  }
  return [...v] as string[];
}

function optionalString(v: unknown, where: string, key: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || v === "") {
    throw new ConfigError(`Invalid ${where}: ${key} must be a non-empty string`);
  }
  return v;
}

function optionalBool(v: unknown, where: string, key: string): boolean | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "boolean") throw new ConfigError(`Invalid ${where}: ${key} must be true or false`);
  return v;
}

function intIn(v: unknown, where: string, key: string, min: number, max: number): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw new ConfigError(`Invalid ${where}: ${key} must be a whole number from ${min} to ${max}`);
  }
  return v;
}

/** host:port of the judge service, when one is configured (what a command's net permission names). */
export function judgeServiceNet(config: Config): string[] {
  const url = config.judge.service_url;
  if (!url) return [];
  const u = new URL(url);
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  return [`${u.hostname}:${port}`];
}

/**
 * The loopback names verdict's network permission holds: the base grant the binary is built
 * with (the verdict task's `--allow-net`, src/task_flags.ts) is exactly these, so they are
 * also the only hosts a judge service URL or `verdict serve --bind` may name. Deno checks a host
 * as written, not what it resolves to, and cannot grant a range: 127.0.0.2 is loopback but not
 * granted, so it is refused up front with a clear error rather than by Deno later.
 */
export const LOOPBACK_NAMES: readonly string[] = ["127.0.0.1", "localhost", "::1"];

/** Is `host` (IPv6 with or without brackets, any case) one of LOOPBACK_NAMES? */
export function isGrantedLoopback(host: string): boolean {
  const h = host.toLowerCase();
  const bare = h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
  return LOOPBACK_NAMES.includes(bare);
}
