/**
 * The program install, `schedule install` and doctor wire into other tools' files: the compiled
 * binary itself when that is what runs, else $VERDICT_BIN, else (verdict running from source)
 * the launcher script install writes under verdict's data folder (src/install/launcher.ts).
 * Never the bare word `verdict`: an agent started from a desktop launcher has another PATH.
 */
import type { Env } from "../config/paths.ts";
import { isAbsoluteProgram, verdictBinary } from "../hostfile/binary.ts";
import { launcherPath, launcherScript } from "../install/launcher.ts";
import { DENO_JSON, MAIN_TS, verdictRunFlags } from "../task_flags.ts";
import { resolvePath } from "../config/paths.ts";

export interface WiredBin {
  /** The absolute program the entries run. */
  readonly bin: string;
  /** The launcher to write first (from source without $VERDICT_BIN), else null. */
  readonly launcher: { readonly path: string; text(): Promise<string> } | null;
}

/**
 * The cache folder the deno at `execPath` uses in `env` (what `deno info` says: DENO_DIR, else
 * the platform's cache folder, which XDG_CACHE_HOME moves), or null when it cannot tell. The
 * launcher names it, so an agent whose environment lacks those variables reads the same cached
 * packages instead of fetching them on a prompt.
 */
export async function denoCacheDir(execPath: string, env: Env): Promise<string | null> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  try {
    const out = await new Deno.Command(execPath, {
      args: ["info", "--json", "--no-config"],
      env: clean,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) return null;
    const dir = (JSON.parse(new TextDecoder().decode(out.stdout)) as { denoDir?: unknown }).denoDir;
    return typeof dir === "string" && dir.startsWith("/") ? dir : null;
  } catch {
    return null;
  }
}

export function wiredBinary(execPath: string, env: Env, cwd: string, home: string): WiredBin {
  const bin = verdictBinary(execPath, env, cwd, home);
  if (isAbsoluteProgram(bin)) return { bin, launcher: null };
  const path = launcherPath(env, home);
  const text = async () =>
    launcherScript({
      deno: execPath,
      runFlags: verdictRunFlags(),
      denoConfig: DENO_JSON,
      main: MAIN_TS,
      denoDir: env.DENO_DIR ? resolvePath(env.DENO_DIR, cwd, home) : await denoCacheDir(execPath, env),
    });
  return { bin: path, launcher: { path, text } };
}
