/**
 * Real git repositories for the docs and git tests, built in temp dirs with fixed identities and
 * dates so every hash and time is the same on every machine. The user's git config is never read
 * (cleared environment), so a signing or hook setting cannot change the result.
 */

const IDENTITY = {
  GIT_AUTHOR_NAME: "Test Author",
  GIT_AUTHOR_EMAIL: "author@example.invalid",
  GIT_COMMITTER_NAME: "Test Committer",
  GIT_COMMITTER_EMAIL: "committer@example.invalid",
};

/** Runs git in `dir` with a fixed environment; `date` (ISO 8601) pins author, committer and tagger. */
export async function git(
  dir: string,
  args: readonly string[],
  date = "2026-01-01T00:00:00Z",
): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, ...args],
    clearEnv: true,
    env: {
      ...IDENTITY,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      HOME: "/nonexistent/verdict-test-home",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      LC_ALL: "C",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} failed in ${dir}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text.trim();
}

const created: string[] = [];

// Removed when the test module ends, so repeated runs leave nothing behind in the temp dir.
globalThis.addEventListener("unload", () => {
  for (const dir of created) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // Already gone, or a test left it unremovable: nothing to undo.
    }
  }
});

/** A temp dir, as a real path (the collector's inputs are real paths). */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: `verdict-collect-${prefix}-` }));
  created.push(dir);
  return dir;
}

/** A new repository with branch "main" and no commits. */
export async function initRepo(dir: string): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  await git(dir, ["init", "-q", "-b", "main"]);
  return await Deno.realPath(dir);
}

/** Writes `files` (relative path → text) under `dir`, creating directories. */
export async function writeFiles(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = `${dir}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

/** Writes files, stages everything, and commits at `date`; returns the commit hash. */
export async function commit(
  repo: string,
  files: Readonly<Record<string, string>>,
  message: string,
  date: string,
): Promise<string> {
  await writeFiles(repo, files);
  await git(repo, ["add", "-A"], date);
  await git(repo, ["commit", "-q", "--allow-empty", "-m", message], date);
  return await git(repo, ["rev-parse", "HEAD"], date);
}

/** Sets a file's modification (and access) time. */
export async function setMtime(path: string, iso: string): Promise<void> {
  const t = new Date(iso);
  await Deno.utime(path, t, t);
}
