/**
 * The `verdict` command install wires when verdict runs from source: a small shell script under
 * verdict's data folder ($XDG_DATA_HOME/verdict/bin/verdict) that runs this checkout's main.ts
 * with the absolute deno, the absolute lock and deno.json, and the verdict task's flags. An
 * agent started from a desktop launcher or an IDE has another PATH than the shell, so nothing
 * here is a bare word looked up on PATH. Named `verdict`, so the entries that run it are
 * recognised as verdict's as the ones running a compiled binary are.
 *
 * The script's text is pure (launcherScript); writing it is the launcher's side of install and
 * `schedule install` (writeLauncher), which runs with the command's full permissions.
 */
import { CHILD_DENO_ENV } from "../hostfile/binary.ts";
import { dirname, type Env, joinPath } from "../config/paths.ts";
import { writeTextFileAtomic } from "../fsutil/atomic.ts";
import { shellQuote } from "../hostfile/shell.ts";

/** The first line after the shebang: how `launcherState` knows a launcher install wrote. */
export const LAUNCHER_MARKER = '# written by "verdict install": runs verdict from source';

/** Where the launcher lives: verdict's data folder, whatever VERDICT_RECORDS says. */
export function launcherPath(env: Env, home: string): string {
  const xdg = env.XDG_DATA_HOME;
  const data = xdg && xdg.startsWith("/") ? xdg : joinPath(home, ".local/share");
  return joinPath(data, "verdict", "bin", "verdict");
}

export interface LauncherSpec {
  /** The deno executable, absolute. */
  readonly deno: string;
  /** The verdict task's flags between "run" and main.ts (lock made absolute). */
  readonly runFlags: readonly string[];
  /** The checkout's deno.json, absolute: a project's own deno.json where the agent runs is not read. */
  readonly denoConfig: string;
  /** The checkout's main.ts, absolute. */
  readonly main: string;
  /** DENO_DIR at install time, carried so the launcher finds the same cached packages. */
  readonly denoDir: string | null;
}

/** The launcher's text: one exec line, with every word quoted for the shell. */
export function launcherScript(spec: LauncherSpec): string {
  const words = [spec.deno, "run", ...spec.runFlags, `--config=${spec.denoConfig}`, spec.main];
  const lines = ["#!/bin/sh", LAUNCHER_MARKER];
  if (spec.denoDir) lines.push(`DENO_DIR=${shellQuote(spec.denoDir)}`, "export DENO_DIR");
  // deno run from source must not ask Deno's release server at a hook (the compiled binary never does).
  for (const [k, v] of Object.entries(CHILD_DENO_ENV)) lines.push(`${k}=${shellQuote(v)}`, `export ${k}`);
  lines.push(`exec ${words.map(shellQuote).join(" ")} "$@"`);
  return lines.join("\n") + "\n";
}

/** What writing the launcher did. */
export type LauncherOutcome = "created" | "updated" | "unchanged";

/**
 * Writes the launcher at `path` (0755, atomically) unless it already holds `text`. A file there
 * that install did not write is replaced only when it is a launcher of ours: anything else is
 * left, and the error says so.
 */
export async function writeLauncher(path: string, text: string): Promise<LauncherOutcome> {
  let before: string | null = null;
  try {
    before = await Deno.readTextFile(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  if (before === text) return "unchanged";
  if (before !== null && before.split("\n")[1] !== LAUNCHER_MARKER) {
    throw new Error(`${path} exists and was not written by verdict install`);
  }
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeTextFileAtomic(path, text, 0o755);
  // writeTextFileAtomic's mode is the temp file's; a umask may have narrowed it.
  await Deno.chmod(path, 0o755);
  return before === null ? "created" : "updated";
}
