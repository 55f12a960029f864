/**
 * Spawns the real CLI exactly as `deno task verdict` does (same flags), in a given environment.
 */
import { MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  /**
   * The whole environment of the child (nothing is inherited but PATH and DENO_DIR); the warm
   * helper is off (VERDICT_WARM=off) unless this says otherwise.
   */
  readonly env?: Record<string, string>;
  readonly stdin?: string | Uint8Array;
  readonly cwd?: string;
}

/**
 * The hook's deadline for tests that run the real hook and expect its hint (VERDICT_HOOK_DEADLINE_MS):
 * far beyond a loaded machine's start-up, well inside a host's timeout.
 */
export const GENEROUS_HOOK_DEADLINE_MS = "20000";

/** Deno's cache of the parent process, so a child with a temp HOME needs no downloads. */
export function denoDir(): string {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return explicit;
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`;
  return `${cache}/deno`;
}

export async function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR: denoDir(),
    NO_COLOR: "1",
    TZ: "Pacific/Kiritimati",
    LANG: "tr_TR.UTF-8",
    // A test about the warm helper turns it on (tests/warm/); no other test may leave one behind.
    VERDICT_WARM: "off",
    // The hook's deadline, generous: a loaded machine must not turn a hint test into a silent hook
    // (tests of the deadline itself inject the clock, tests/hint/hook_trouble_test.ts).
    VERDICT_HOOK_DEADLINE_MS: GENEROUS_HOOK_DEADLINE_MS,
    ...options.env,
  };
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, ...args],
    env,
    clearEnv: true,
    cwd: options.cwd ?? Deno.cwd(),
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let fed: Promise<void> = Promise.resolve();
  if (options.stdin !== undefined) {
    const bytes = typeof options.stdin === "string" ? new TextEncoder().encode(options.stdin) : options.stdin;
    // A child that stops reading early (a size cap) closes the pipe: its exit is the answer.
    fed = ReadableStream.from([bytes]).pipeTo(child.stdin).catch(() => {});
  }
  const out = await child.output();
  await fed;
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A fresh temp HOME with the usual folders; returns its path. */
export async function tempHome(): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "verdict-home-" });
  return await Deno.realPath(home);
}

/** Copies a directory tree (files only, no links). */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(`${from}/${e.name}`, `${to}/${e.name}`);
    else if (e.isFile) await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

/**
 * The archive named by `records` (a records path as the CLI takes it) as the JSONL `verdict
 * export` prints: one record a line, oldest first. Empty when there is no archive.
 */
export async function exportedRecords(records: string): Promise<string> {
  const { archiveRecordLines } = await import("../src/store/reader.ts");
  const { storePaths } = await import("../src/store/paths.ts");
  let out = "";
  for (const line of archiveRecordLines(storePaths(records))) out += line + "\n";
  return out;
}
