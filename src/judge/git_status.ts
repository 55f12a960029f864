/**
 * What git says is changed or untracked in a working tree: `git status --porcelain` run in the
 * session's cwd with real git. Subprocesses are not sandboxed by Deno, so each call is narrow: a
 * cleared environment (no user or system config, no prompts, no optional locks, so a status
 * never takes the index lock from under a concurrent commit), fixed read-only argument lists,
 * and config overrides that keep a repository's own config from starting programs (fsmonitor).
 *
 * The child environment carries no PATH on purpose: Deno then resolves "git" against the PATH
 * the process started with, which is what the Worker's `run: ["git"]` grant was computed for.
 */

/** The whole child environment. */
export const GIT_STATUS_ENV: Readonly<Record<string, string>> = {
  LC_ALL: "C",
  LANG: "C",
  HOME: "/nonexistent/verdict-git-home",
  XDG_CONFIG_HOME: "/nonexistent/verdict-git-home",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
};

/** Overrides placed before every subcommand. */
const OVERRIDES = [
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "core.quotePath=false",
];

export type RepoLookup =
  | { readonly kind: "repo"; readonly root: string }
  | { readonly kind: "not_repo" }
  | { readonly kind: "missing_dir" }
  | { readonly kind: "failed"; readonly message: string };

export type GitStatusResult =
  | { readonly kind: "ok"; readonly root: string; readonly entries: readonly string[] }
  | Exclude<RepoLookup, { kind: "repo" }>;

interface GitOutput {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

async function git(dir: string, args: readonly string[]): Promise<GitOutput> {
  try {
    const out = await new Deno.Command("git", {
      args: ["-C", dir, ...OVERRIDES, ...args],
      clearEnv: true,
      env: { ...GIT_STATUS_ENV },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { ok: out.success, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr).trim() };
  } catch (err) {
    const message = err instanceof Deno.errors.NotFound ? "git is not installed" : (err as Error).message;
    return { ok: false, stdout: "", stderr: `fatal: cannot run git: ${message}` };
  }
}

/** The repository holding `dir`, or why there is none. */
export async function repoOf(dir: string): Promise<RepoLookup> {
  const out = await git(dir, ["rev-parse", "--show-toplevel"]);
  if (out.ok && out.stdout.trim() !== "") return { kind: "repo", root: out.stdout.trim() };
  if (/cannot change to/i.test(out.stderr)) return { kind: "missing_dir" };
  if (/not a git repository/i.test(out.stderr)) return { kind: "not_repo" };
  if (out.ok) return { kind: "not_repo" }; // inside .git itself: no work tree
  return { kind: "failed", message: out.stderr.split("\n")[0] || "git failed" };
}

/**
 * Parses `git status --porcelain=v1 -z` output into one line per entry: "M src/a.ts",
 * "?? notes/", "R old.ts -> new.ts". Pure.
 */
export function parsePorcelainZ(text: string): string[] {
  const fields = text.split("\0");
  const out: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.length < 4) continue;
    const xy = f.slice(0, 2);
    const path = f.slice(3);
    if (xy[0] === "R" || xy[0] === "C") {
      const from = fields[++i] ?? "";
      out.push(`${xy.trim()} ${from} -> ${path}`);
    } else out.push(`${xy.trim()} ${path}`);
  }
  return out;
}

/** Changed and untracked entries of the work tree holding `dir` (paths relative to its root). */
export async function gitStatus(dir: string, pathspec: readonly string[] = []): Promise<GitStatusResult> {
  const repo = await repoOf(dir);
  if (repo.kind !== "repo") return repo;
  const args = ["status", "--porcelain=v1", "-z", "--untracked-files=normal"];
  if (pathspec.length > 0) args.push("--", ...pathspec);
  const out = await git(repo.root, args);
  if (!out.ok) return { kind: "failed", message: out.stderr.split("\n")[0] || "git status failed" };
  return { kind: "ok", root: repo.root, entries: parsePorcelainZ(out.stdout) };
}
