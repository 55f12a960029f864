/**
 * Which program the hooks, the MCP registration and the scheduled collect should run: the
 * compiled verdict binary itself when that is what is running, else $VERDICT_BIN, else the word
 * `verdict` (found on PATH when the host runs it). Pure: the executable path and the
 * environment are passed in.
 */
import { basename, type Env, resolvePath } from "../config/paths.ts";

/** Is `execPath` a compiled verdict binary rather than the deno executable running main.ts? */
export function isCompiledBinary(execPath: string): boolean {
  const name = basename(execPath.replaceAll("\\", "/")).replace(/\.exe$/i, "");
  return name !== "deno";
}

/** The program other tools should run to reach verdict. */
export function verdictBinary(execPath: string, env: Env, cwd: string, home: string): string {
  if (isCompiledBinary(execPath)) return execPath;
  const fromEnv = env.VERDICT_BIN;
  if (fromEnv) {
    return fromEnv.startsWith("/") || /^[A-Za-z]:\\/.test(fromEnv)
      ? fromEnv
      : resolvePath(fromEnv, cwd, home);
  }
  return "verdict";
}

/** Is `bin` a path (absolute) rather than a bare name looked up on PATH? */
export function isAbsoluteProgram(bin: string): boolean {
  return bin.startsWith("/") || /^[A-Za-z]:\\/.test(bin);
}

/**
 * The argv that runs this very program: the compiled binary, or deno with the verdict task's
 * flags and main.ts.
 */
export function selfCommand(execPath: string, mainModulePath: string, runFlags: readonly string[]): string[] {
  if (isCompiledBinary(execPath)) return [execPath];
  return [execPath, "run", "--quiet", ...runFlags, mainModulePath];
}

/**
 * Set in the environment of every Deno process verdict starts (the warm helper a hook starts,
 * doctor's probe): under `deno run`, Deno asks its release server whether a newer Deno exists (a
 * connection outside every permission, through any proxy the environment names), and could ask
 * on the terminal for a permission. Neither may happen in a process verdict starts.
 */
export const CHILD_DENO_ENV: Readonly<Record<string, string>> = {
  DENO_NO_UPDATE_CHECK: "1",
  DENO_NO_PROMPT: "1",
  // Deno's OpenTelemetry export, which an inherited OTEL_DENO=true would turn on (doctor's probe
  // gets doctor's environment): it sends to a collector, possibly another machine's.
  OTEL_DENO: "false",
};

/** `env` with CHILD_DENO_ENV over it (pure): the environment of a Deno process verdict starts. */
export function childDenoEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return { ...out, ...CHILD_DENO_ENV };
}

/** Environment variables carried into every entry install writes, when set at install time. */
export const CARRIED_ENV = ["VERDICT_RECORDS", "VERDICT_STATE", "VERDICT_CONFIG"] as const;

/**
 * The VERDICT_* paths set when install runs, made absolute, so hooks and the MCP server find the
 * same records without the host passing the variables on.
 */
export function carriedEnv(env: Env, cwd: string, home: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of CARRIED_ENV) {
    const v = env[name];
    if (v) out[name] = resolvePath(v, cwd, home);
  }
  return out;
}
