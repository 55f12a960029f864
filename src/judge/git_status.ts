/**
 * What git says is changed or untracked in a working tree: `git status --porcelain` run in the
 * session's cwd with real git. Subprocesses are not sandboxed by Deno, so each call is narrow: a
 * cleared environment (no user or system config, no prompts, no optional locks, so a status
 * never takes the index lock from under a concurrent commit), fixed read-only argument lists,
 * and config overrides that keep a repository's own config from starting programs (fsmonitor).
 *
 * The runner is the collector's (src/collect/git_run.ts): cleared environment, fixed config
 * overrides, no PATH in the child so "git" resolves as the Worker's `run: ["git"]` grant expects.
 */
import { execGit } from "../collect/git_run.ts";

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

/** Runs git through the collector's one safe runner; a git that cannot start is a failure line. */
async function git(dir: string, args: readonly string[]): Promise<GitOutput> {
  try {
    const r = await execGit(dir, args);
    return { ok: r.code === 0, stdout: new TextDecoder().decode(r.stdout), stderr: r.stderr };
  } catch (err) {
    return { ok: false, stdout: "", stderr: `fatal: cannot run git: ${(err as Error).message}` };
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
