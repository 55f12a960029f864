/**
 * The roots a Worker command may read, resolved by the launcher for its plan: every registered
 * agent's session roots, the doc roots and git repositories (config and command line), all real
 * paths. Loaded only for Worker commands: the hint path needs no roots and must not load the
 * agents' code.
 */
import { LOADED_AGENTS } from "../agents/loaded.ts";
import { sessionRoots } from "../agents/locate.ts";
import type { Config } from "../config/config.ts";
import { dirname, type Env, isWithin, joinPath, type Paths } from "../config/paths.ts";
import type { Roots } from "../config/roots.ts";
import { UsageError } from "../errors.ts";
import { realRoots } from "../sandbox/contain.ts";
import { type ParsedArgs, stringsOption } from "./args.ts";
import type { PlanSpec } from "./plan.ts";

/** macOS folders that raise a privacy prompt when a background job reads them. */
const PROTECTED_DIRS = ["Desktop", "Documents", "Downloads", "Library", "Movies", "Music", "Pictures"];

export async function resolveRoots(
  spec: Pick<PlanSpec, "name">,
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
  const unusable: { path: string; key: string; why: string }[] = [];
  if (spec.name === "collect") {
    await requireDirectories([...stringsOption(args, "doc-root"), ...stringsOption(args, "git-repo")]);
    for (const repo of stringsOption(args, "git-repo")) {
      if (!(await inWorkTree(repo))) {
        throw new UsageError(
          `Cannot read "${repo}" as a git repository: it is not a git work tree`,
          "give the folder of a git clone (the one holding .git), or use --doc-root for a plain folder",
        );
      }
    }
    for (const dir of config.doc_roots) {
      if (!(await isDirectory(dir))) {
        unusable.push({ path: dir, key: "doc_roots", why: "is not a directory" });
      }
    }
    for (const repo of config.git_repos) {
      if (!(await isDirectory(repo))) {
        unusable.push({ path: repo, key: "git_repos", why: "is not a directory" });
      } else if (!(await inWorkTree(repo))) {
        unusable.push({ path: repo, key: "git_repos", why: "is not a git work tree" });
      }
    }
  }
  return {
    sessions: await sessionRoots(LOADED_AGENTS, { env, home: paths.home, cwd }, allowed),
    docs: (await realRoots(docs)).filter(allowed),
    gitRepos: (await realRoots(repos)).filter(allowed),
    ...(unusable.length > 0 ? { unusable } : {}),
  };
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await Deno.stat(dir)).isDirectory;
  } catch {
    return false;
  }
}

/** Is `dir` in a git work tree: does it, or a folder above it, hold `.git` (a folder or a file)? */
async function inWorkTree(dir: string): Promise<boolean> {
  let at: string;
  try {
    at = await Deno.realPath(dir);
  } catch {
    return false;
  }
  for (;;) {
    try {
      await Deno.lstat(joinPath(at, ".git"));
      return true;
    } catch {
      // not here; try the folder above
    }
    if (at === "/") return false;
    at = dirname(at);
  }
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
