/**
 * The roots a Worker command may read, resolved by the launcher for its plan: every registered
 * agent's session roots, the doc roots and git repositories (config and command line), all real
 * paths. Loaded only for Worker commands: the hint path needs no roots and must not load the
 * agents' code.
 */
import { LOADED_AGENTS } from "../agents/loaded.ts";
import { sessionRoots } from "../agents/locate.ts";
import type { Config } from "../config/config.ts";
import { type Env, isWithin, joinPath, type Paths } from "../config/paths.ts";
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
  if (spec.name === "collect") {
    await requireDirectories([...stringsOption(args, "doc-root"), ...stringsOption(args, "git-repo")]);
  }
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
