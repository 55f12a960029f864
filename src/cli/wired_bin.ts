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
  readonly launcher: { readonly path: string; readonly text: string } | null;
}

export function wiredBinary(execPath: string, env: Env, cwd: string, home: string): WiredBin {
  const bin = verdictBinary(execPath, env, cwd, home);
  if (isAbsoluteProgram(bin)) return { bin, launcher: null };
  const path = launcherPath(env, home);
  const text = launcherScript({
    deno: execPath,
    runFlags: verdictRunFlags(),
    denoConfig: DENO_JSON,
    main: MAIN_TS,
    denoDir: env.DENO_DIR ? resolvePath(env.DENO_DIR, cwd, home) : null,
  });
  return { bin: path, launcher: { path, text } };
}
