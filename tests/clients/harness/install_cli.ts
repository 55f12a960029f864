/**
 * Pinned agent CLIs from the npm registry, installed once into a cache outside the repository
 * and reused by every later run:
 *
 *   $VERDICT_TEST_CLIENTS_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/verdict/test-clients
 *     └─ <package>@<version>/node_modules/…      e.g. @openai/codex@0.169.0/
 *
 * An install goes to a private temp folder beside its final place and is renamed into place
 * only when complete, so a crash never leaves a half-installed CLI that looks whole, and two
 * test processes installing the same version at once both end with the same complete folder
 * (the loser of the rename drops its copy). Clear the cache by removing the folder.
 */

/** Environment variable naming the cache folder (overrides the XDG default). */
export const CACHE_ENV = "VERDICT_TEST_CLIENTS_CACHE";

/** npm gives up on a registry it cannot reach after its own retries; this is the backstop. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** Versions are passed to npm as `<pkg>@<version>`: refuse anything that is not a version. */
const VERSION_SHAPE = /^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$/;

/** Test seams: where the cache is, and npm's environment (e.g. a registry on loopback). */
export interface InstallOptions {
  readonly cacheRoot?: string;
  readonly npmEnv?: Readonly<Record<string, string>>;
}

export function cacheRoot(opts: InstallOptions = {}): string {
  if (opts.cacheRoot) return opts.cacheRoot;
  const explicit = Deno.env.get(CACHE_ENV);
  if (explicit) return explicit;
  const xdg = Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  return `${xdg}/verdict/test-clients`;
}

/** Where `pkg@version` lives once installed. */
export function installDir(pkg: string, version: string, opts: InstallOptions = {}): string {
  return `${cacheRoot(opts)}/${pkg}@${version}`;
}

async function installedVersion(dir: string, pkg: string): Promise<string | null> {
  try {
    const meta = JSON.parse(await Deno.readTextFile(`${dir}/node_modules/${pkg}/package.json`));
    return typeof meta.version === "string" ? meta.version : null;
  } catch {
    return null;
  }
}

/**
 * The install prefix of `pkg@version` (its `node_modules/` holds the package), installing it
 * first when the cache does not have it. Throws, naming the package and npm's own words, when
 * the registry cannot be reached: the client tests never pass without their clients.
 */
export async function installCli(pkg: string, version: string, opts: InstallOptions = {}): Promise<string> {
  if (!VERSION_SHAPE.test(version)) {
    throw new TypeError(`Cannot install "${pkg}@${version}": "${version}" is not a version number`);
  }
  const dir = installDir(pkg, version, opts);
  if (await installedVersion(dir, pkg) === version) return dir;

  const parent = dir.slice(0, dir.lastIndexOf("/"));
  await Deno.mkdir(parent, { recursive: true });
  const partial = await Deno.makeTempDir({
    dir: parent,
    prefix: `${pkg.split("/").pop()}@${version}.partial-`,
  });
  try {
    console.error(`client tests: installing ${pkg}@${version} into ${dir} (once; later runs reuse it)`);
    const started = performance.now();
    const npm = new Deno.Command("npm", {
      args: [
        "install",
        "--prefix",
        partial,
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--loglevel=error",
        `${pkg}@${version}`,
      ],
      env: { npm_config_update_notifier: "false", ...opts.npmEnv },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(INSTALL_TIMEOUT_MS),
    });
    let out: Deno.CommandOutput;
    try {
      out = await npm.output();
    } catch (err) {
      throw new Error(
        `Cannot install "${pkg}@${version}": npm did not run (${(err as Error).message})\n` +
          "hint: the client tests install their agent CLIs with npm; put node and npm on PATH",
      );
    }
    if (!out.success) {
      const said = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-12).join("\n");
      throw new Error(
        `Cannot install "${pkg}@${version}": npm exited ${out.code}\n${said}\n` +
          "hint: the client tests need the npm registry once per version (later runs use the cache in " +
          `${cacheRoot(opts)}); check that npm can reach its registry ("npm view ${pkg} version")`,
      );
    }
    const got = await installedVersion(partial, pkg);
    if (got !== version) {
      throw new Error(`Cannot install "${pkg}@${version}": npm installed ${got ?? "nothing"} instead`);
    }
    try {
      await Deno.rename(partial, dir);
    } catch (err) {
      // Another process finished first: its folder is as good as ours.
      if (await installedVersion(dir, pkg) !== version) throw err;
      await Deno.remove(partial, { recursive: true });
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.error(`client tests: ${pkg}@${version} installed in ${seconds} s`);
    return dir;
  } catch (err) {
    await Deno.remove(partial, { recursive: true }).catch(() => {});
    throw err;
  }
}

/** Is `path` an executable file? */
export async function isExecutable(path: string): Promise<boolean> {
  try {
    const st = await Deno.stat(path);
    return st.isFile && ((st.mode ?? 0) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** The newest version the registry has of `pkg` (`npm view`); throws when it cannot be asked. */
export async function latestVersion(pkg: string, opts: InstallOptions = {}): Promise<string> {
  const out = await new Deno.Command("npm", {
    args: ["view", pkg, "version"],
    env: { npm_config_update_notifier: "false", ...opts.npmEnv },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const version = new TextDecoder().decode(out.stdout).trim();
  if (!out.success || !VERSION_SHAPE.test(version)) {
    const said = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join("\n");
    throw new Error(`Cannot ask the registry for the newest "${pkg}": npm exited ${out.code}\n${said}`);
  }
  return version;
}
