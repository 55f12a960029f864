/**
 * Starting the warm helper from a hook that found none: `verdict warm serve`, detached, its
 * stdio to null (an agent CLI waits for the hook's stdout to close; a child holding it would
 * hold the prompt), as this very program: the compiled binary, or deno with the verdict task's
 * flags and main.ts. Loaded only when a hook starts a helper.
 */
import { isCompiledBinary } from "../install/binary.ts";
import { verdictRunFlags } from "../../scripts/task_flags.ts";
import type { Env } from "../config/paths.ts";
import { ensurePrivateFolder } from "./folder.ts";
import { WARM_AFTER_ENV } from "./client.ts";
import { HOOK_DEADLINE_MS } from "../cli/hint_run.ts";
import { MAIN_MODULE, WARM_STARTING, warmFolderOf } from "./wire.ts";

/**
 * No second start within this long of the last: a helper that cannot start (a socket path over
 * the system's limit, a broken install) must not cost every prompt a process start.
 */
export const WARM_RESPAWN_MS = 30_000;

/** The argv that runs `verdict warm serve` as this program (pure). */
export function helperCommand(execPath: string, mainModulePath: string, runFlags: () => string[]): string[] {
  if (isCompiledBinary(execPath)) return [execPath, "warm", "serve"];
  return [execPath, "run", ...runFlags(), mainModulePath, "warm", "serve"];
}

/** Starts a helper for `stateDir` unless one was started within WARM_RESPAWN_MS; never throws. */
export function startHelper(stateDir: string, env: Env, nowMs: number = Date.now()): boolean {
  const folder = warmFolderOf(stateDir);
  if (ensurePrivateFolder(folder) !== null) return false;
  const marker = `${folder}/${WARM_STARTING}`;
  try {
    const last = Deno.lstatSync(marker).mtime?.getTime() ?? 0;
    if (Math.abs(nowMs - last) < WARM_RESPAWN_MS) return false;
  } catch { /* never started here */ }
  try {
    Deno.writeTextFileSync(marker, `${Deno.pid}\n`, { mode: 0o600 });
    const main = decodeURIComponent(MAIN_MODULE.pathname);
    const [program, ...args] = helperCommand(Deno.execPath(), main, verdictRunFlags);
    const env2: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) if (v !== undefined) env2[k] = v;
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
  }
}
