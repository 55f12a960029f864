/**
 * The permission and unstable flags of the `verdict` task in deno.json: the single source for
 * the flags the compiled binary bakes in, the demo and the tests that spawn the CLI.
 */
import denoJson from "../deno.json" with { type: "json" };

/** The repository's lock file (absolute), which pins every npm package verdict runs. */
export const LOCK_FILE: string = new URL("../deno.lock", import.meta.url).pathname;

/**
 * The lock flags every run of verdict's code takes. deno.json names no lock file (`"lock":
 * false`) so that `deno task` has no npm packages to install before it runs a task; the tasks
 * and every spawned run pass the lock explicitly instead, frozen.
 */
export function lockFlags(): string[] {
  return [`--lock=${LOCK_FILE}`, "--frozen"];
}

/**
 * Flags between "deno run" and "main.ts" in the verdict task, with its `--lock` made absolute
 * (the tests spawn the CLI from other folders).
 */
export function verdictRunFlags(): string[] {
  const task = denoJson.tasks.verdict;
  const words = task.split(/\s+/);
  const start = words.indexOf("run");
  const end = words.indexOf("main.ts");
  if (words[0] !== "deno" || start !== 1 || end === -1) {
    throw new Error(`Cannot read the verdict task's flags from deno.json: "${task}"`);
  }
  return words.slice(start + 1, end).map((w) => (w.startsWith("--lock=") ? `--lock=${LOCK_FILE}` : w));
}

/** Absolute path of the repository's main.ts. */
export const MAIN_TS: string = new URL("../main.ts", import.meta.url).pathname;
