/**
 * Starting the warm helper from a hook that found none: `verdict warm serve`, detached, its
 * stdio to null (an agent CLI waits for the hook's stdout to close; a child holding it would
 * hold the prompt), as this very program: the compiled binary, or deno with the verdict task's
 * flags and main.ts. Loaded only when a hook starts a helper.
 */
import { childDenoEnv, isCompiledBinary } from "../hostfile/binary.ts";
import { verdictRunFlags } from "../task_flags.ts";
import { defaultPaths, type Env } from "../config/paths.ts";
import { ensurePrivateFolder } from "./folder.ts";
import { WARM_AFTER_ENV } from "./client.ts";
import { HOOK_DEADLINE_MS } from "../hint/run.ts";
import { MAIN_MODULE, pickEnv, WARM_ENV_KEYS, WARM_STARTING, warmFolderOf } from "./wire.ts";

/**
 * No second start within this long of the last: a helper that cannot start (an unwritable folder,
 * a broken install) must not cost every prompt a process start.
 */
export const WARM_RESPAWN_MS = 30_000;

/**
 * What a started helper keeps of the hook's environment: the variables its paths come from
 * (WARM_ENV_KEYS), its log switch, and what the Deno runtime running it reads (its cache, and the
 * npm registry and proxy for a `deno run` install whose cache lacks a package), with Deno's update
 * check and prompts off (CHILD_DENO_ENV). Nothing else: an
 * agent's environment holds API keys and tokens, and a helper outlives the prompt that started it
 * by minutes. DENO_AUTH_TOKENS is left out too: verdict fetches nothing that needs one.
 */
export const HELPER_ENV_KEYS: readonly string[] = [
  ...WARM_ENV_KEYS,
  "VERDICT_WARM_LOG",
  "PATH",
  "TMPDIR",
  "NO_COLOR",
  "XDG_CACHE_HOME",
  "DENO_DIR",
  "NPM_CONFIG_REGISTRY",
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "NO_PROXY",
  "no_proxy",
];

/**
 * The helper's environment (pure): HELPER_ENV_KEYS of the hook's, with a relative VERDICT_CONFIG,
 * VERDICT_RECORDS or VERDICT_STATE made absolute against the hook's cwd. The helper runs in its
 * folder, not the hook's cwd; resolved there, a relative path would name other roots, and the
 * helper would listen where no hook asks.
 */
export function helperEnv(env: Env, cwd: string): Record<string, string> {
  const out = childDenoEnv(pickEnv(env, HELPER_ENV_KEYS));
  const paths = defaultPaths(env, cwd);
  const resolved = {
    VERDICT_CONFIG: paths.config,
    VERDICT_RECORDS: paths.records,
    VERDICT_STATE: paths.stateDir,
  };
  for (const [key, path] of Object.entries(resolved)) {
    if (out[key]) out[key] = path;
  }
  return out;
}

/** The argv that runs `verdict warm serve` as this program (pure). */
export function helperCommand(execPath: string, mainModulePath: string, runFlags: () => string[]): string[] {
  if (isCompiledBinary(execPath)) return [execPath, "warm", "serve"];
  return [execPath, "run", ...runFlags(), mainModulePath, "warm", "serve"];
}

/** Starts a helper for `stateDir` unless one was started within WARM_RESPAWN_MS; never throws. */
export function startHelper(
  stateDir: string,
  env: Env,
  nowMs: number = Date.now(),
  cwd: string = Deno.cwd(),
): boolean {
  const folder = warmFolderOf(stateDir);
  if (ensurePrivateFolder(folder) !== null) return false;
  // The marker says when a helper was last started here; hooks of several agents can find no
  // helper at the same moment, so the look and the write happen under the marker's own lock
  // (flock, never waited for: a hook that finds it held leaves the start to that holder).
  let marker: Deno.FsFile;
  try {
    marker = Deno.openSync(`${folder}/${WARM_STARTING}`, {
      read: true,
      write: true,
      create: true,
      mode: 0o600,
    });
  } catch {
    return false;
  }
  try {
    if (!marker.tryLockSync(true)) return false;
    const seen = marker.statSync();
    if (!seen.isFile) return false;
    // An empty marker was made just now: no start yet.
    const last = seen.size === 0 ? null : seen.mtime?.getTime() ?? 0;
    if (last !== null && Math.abs(nowMs - last) < WARM_RESPAWN_MS) return false;
    marker.truncateSync(0);
    marker.writeSync(new TextEncoder().encode(`${Deno.pid}\n`));
    const main = decodeURIComponent(MAIN_MODULE.pathname);
    const [program, ...args] = helperCommand(Deno.execPath(), main, verdictRunFlags);
    const env2 = helperEnv(env, cwd);
    // It waits out this hook's deadline before loading the program (main.ts): not beside this prompt.
    env2[WARM_AFTER_ENV] = String(HOOK_DEADLINE_MS);
    new Deno.Command(program!, {
      args,
      env: env2,
      clearEnv: true,
      cwd: folder,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn().unref();
    return true;
  } catch {
    return false;
  } finally {
    marker.close(); // releases the lock
  }
}
