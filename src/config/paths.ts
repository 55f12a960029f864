/**
 * Where verdict reads and writes, derived from the environment alone (pure: the environment is
 * passed in, never read here). Every path is absolute. The agents' own folders are theirs to
 * say (src/agents/<id>/mod.ts).
 */

export type Env = Readonly<Record<string, string | undefined>>;

export interface Paths {
  readonly home: string;
  /** The config file to read ($VERDICT_CONFIG, else ~/.config/verdict/config.json). */
  readonly config: string;
  /** The records archive ($VERDICT_RECORDS, else $XDG_DATA_HOME/verdict/records.db; see src/store/paths.ts). */
  readonly records: string;
  /** Per-session state: cooldown ledgers, handoff files ($VERDICT_STATE, else $XDG_STATE_HOME/verdict). */
  readonly stateDir: string;
}

/** Joins path parts with "/" and removes "." and ".." segments lexically. */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((p) => p !== "").join("/");
  return normalizePath(joined);
}

export function normalizePath(path: string): string {
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(seg);
  }
  const body = out.join("/");
  return absolute ? "/" + body : body || ".";
}

export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  if (i <= 0) return i === 0 ? "/" : ".";
  return path.slice(0, i);
}

export function basename(path: string): string {
  const trimmed = path.endsWith("/") && path.length > 1 ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** Makes `path` absolute against `cwd`, expanding a leading "~/" to `home`. */
export function resolvePath(path: string, cwd: string, home: string): string {
  if (path === "~") return normalizePath(home);
  if (path.startsWith("~/")) return joinPath(home, path.slice(2));
  if (path.startsWith("/")) return normalizePath(path);
  return joinPath(cwd, path);
}

/** Is `child` equal to `parent` or inside it (both absolute, normalised)? */
export function isWithin(child: string, parent: string): boolean {
  if (parent === "/") return child.startsWith("/");
  return child === parent || child.startsWith(parent + "/");
}

export function defaultPaths(env: Env, cwd: string): Paths {
  const home = env.HOME || env.USERPROFILE;
  if (!home) throw new Error("Cannot find the home directory: HOME is not set");
  const abs = (p: string) => resolvePath(p, cwd, home);
  const xdg = (name: string, fallback: string) => {
    const v = env[name];
    return v && v.startsWith("/") ? v : joinPath(home, fallback);
  };
  return {
    home: normalizePath(home),
    config: env.VERDICT_CONFIG
      ? abs(env.VERDICT_CONFIG)
      : joinPath(xdg("XDG_CONFIG_HOME", ".config"), "verdict", "config.json"),
    records: env.VERDICT_RECORDS
      ? abs(env.VERDICT_RECORDS)
      : joinPath(xdg("XDG_DATA_HOME", ".local/share"), "verdict", "records.db"),
    stateDir: env.VERDICT_STATE
      ? abs(env.VERDICT_STATE)
      : joinPath(xdg("XDG_STATE_HOME", ".local/state"), "verdict"),
  };
}

/** Files derived from a records file: its index and the collector's per-file state. */
export function derivedPaths(records: string): { index: string; collectState: string; lock: string } {
  return {
    index: records + ".idx",
    collectState: records + ".state.json",
    lock: records + ".lock",
  };
}
