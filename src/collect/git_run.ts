/**
 * Runs git for the collector. Subprocesses are not sandboxed by Deno (DENO.md §5.2), so every call
 * is made as narrow as we can: a cleared environment (no user or system config, no pager, no
 * prompts, no optional lock files), read-only commands with fixed argument lists, and config
 * overrides that switch off the settings through which a repository's own config could make a
 * read command run other programs.
 *
 * How "git" is found: Deno resolves the program name against the PATH of the process, on the
 * Rust side, so this works inside a Worker that has no env permission. The child's environment
 * deliberately carries no PATH: when `env` holds a PATH, Deno resolves against that one instead,
 * and the Worker's `run: ["git"]` grant would no longer match what it resolved to.
 */

/** Why a git call failed; callers report it and go on. */
export type GitFailure =
  /** git is not installed (or not on the PATH the process started with). */
  | "missing"
  /** The sandbox does not allow running git. */
  | "not-permitted"
  /** The directory does not exist or is not inside a git work tree. */
  | "not-a-repository"
  /** git refused a repository owned by another user ("dubious ownership"). */
  | "unsafe-repository"
  /** Any other non-zero exit. */
  | "failed";

export class GitError extends Error {
  readonly failure: GitFailure;
  readonly dir: string;
  /** git's exit code, or null when git did not run. */
  readonly exitCode: number | null;
  constructor(failure: GitFailure, dir: string, message: string, exitCode: number | null) {
    super(message);
    this.name = "GitError";
    this.failure = failure;
    this.dir = dir;
    this.exitCode = exitCode;
  }
}

/**
 * The child's whole environment. HOME and XDG_CONFIG_HOME point at a path that does not exist so
 * no user config (aliases, pagers, signing, fsmonitor hooks) is read; results then do not depend
 * on who runs the collect.
 */
export const GIT_ENV: Readonly<Record<string, string>> = {
  LC_ALL: "C",
  LANG: "C",
  HOME: "/nonexistent/verdict-git-home",
  XDG_CONFIG_HOME: "/nonexistent/verdict-git-home",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
  GIT_PAGER: "cat",
  PAGER: "cat",
  GIT_NO_REPLACE_OBJECTS: "1",
  GIT_ATTR_NOSYSTEM: "1",
};

/**
 * Config overrides placed before every subcommand. A repository's own .git/config is still read,
 * and these are the keys through which it could make a read-only command start a program
 * (fsmonitor hook, signature verification) or change the bytes we parse (output encoding).
 */
const SAFE_CONFIG: readonly string[] = [
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "log.showSignature=false",
  "-c",
  "i18n.logOutputEncoding=UTF-8",
  "-c",
  "core.quotePath=false",
];

export interface GitRunOptions {
  /** Stops a long call (e.g. a log over a huge history) when the collect is cancelled. */
  readonly signal?: AbortSignal;
}

export interface GitResult {
  readonly code: number;
  readonly stdout: Uint8Array;
  readonly stderr: string;
}

/**
 * Runs `git -C dir <args>` and returns whatever it exits with. Throws GitError only when git
 * could not be started (missing, not permitted).
 */
export async function execGit(
  dir: string,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<GitResult> {
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("git", {
      args: ["-C", dir, ...SAFE_CONFIG, ...args],
      clearEnv: true,
      env: { ...GIT_ENV },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      ...(options.signal ? { signal: options.signal } : {}),
    }).output();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new GitError("missing", dir, `Cannot run git in "${dir}": git is not installed`, null);
    }
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      throw new GitError("not-permitted", dir, `Cannot run git in "${dir}": not permitted`, null);
    }
    throw new GitError("failed", dir, `Cannot run git in "${dir}": ${(err as Error).message}`, null);
  }
  return { code: output.code, stdout: output.stdout, stderr: new TextDecoder().decode(output.stderr).trim() };
}

/** The GitError for a call that exited non-zero. */
export function gitFailure(dir: string, args: readonly string[], result: GitResult): GitError {
  const firstLine = result.stderr.split("\n")[0] ?? "";
  return new GitError(
    classifyStderr(result.stderr),
    dir,
    `Cannot run "git ${args[0] ?? ""}" in "${dir}": ${firstLine || `exit code ${result.code}`}`,
    result.code,
  );
}

/**
 * Runs `git -C dir <args>` and returns its stdout bytes. Throws GitError (never anything else)
 * when git is missing, not permitted, or exits non-zero.
 */
export async function runGit(
  dir: string,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<Uint8Array> {
  const result = await execGit(dir, args, options);
  if (result.code !== 0) throw gitFailure(dir, args, result);
  return result.stdout;
}

/** Like runGit, decoded as UTF-8 (invalid bytes become U+FFFD rather than failing). */
export async function runGitText(
  dir: string,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<string> {
  return new TextDecoder().decode(await runGit(dir, args, options));
}

/** Maps git's (C-locale) error text to a failure kind. Pure. */
export function classifyStderr(stderr: string): GitFailure {
  if (/dubious ownership|unsafe repository/i.test(stderr)) return "unsafe-repository";
  if (/not a git repository|cannot change to|must be run in a work tree/i.test(stderr)) {
    return "not-a-repository";
  }
  return "failed";
}

export interface RepoInfo {
  /** The work tree's top level, as git prints it (a real path). */
  readonly top: string;
  /** The commit HEAD points at, or null in a repository with no commits yet. */
  readonly head: string | null;
}

/**
 * Top level and HEAD of the work tree containing `dir`, in one call. Throws GitError when `dir`
 * is not in a work tree (failure "not-a-repository") or git cannot run.
 */
export async function gitRepoInfo(dir: string, options: GitRunOptions = {}): Promise<RepoInfo> {
  const args = ["rev-parse", "--show-toplevel", "-q", "--verify", "HEAD^{commit}"];
  const result = await execGit(dir, args, options);
  const lines = new TextDecoder().decode(result.stdout).split("\n").filter((l) => l !== "");
  // `--verify -q` exits 1 without a message when HEAD does not resolve: an unborn branch.
  const unborn = result.code === 1 && result.stderr === "" && lines.length === 1;
  if (result.code !== 0 && !unborn) throw gitFailure(dir, args, result);
  const top = lines[0];
  if (top === undefined) {
    // A bare repository has no top level and prints nothing for it.
    throw new GitError("not-a-repository", dir, `Cannot use "${dir}": it is not inside a git work tree`, 0);
  }
  return { top, head: unborn ? null : lines[1] ?? null };
}
