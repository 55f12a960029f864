/**
 * The permission and unstable flags of the `verdict` task in deno.json: the single source for
 * the flags the compiled binary bakes in, the demo and the tests that spawn the CLI.
 */
import denoJson from "../deno.json" with { type: "json" };

/** Flags between "deno run" and "main.ts" in the verdict task. */
export function verdictRunFlags(): string[] {
  const task = denoJson.tasks.verdict;
  const words = task.split(/\s+/);
  const start = words.indexOf("run");
  const end = words.indexOf("main.ts");
  if (words[0] !== "deno" || start !== 1 || end === -1) {
    throw new Error(`Cannot read the verdict task's flags from deno.json: "${task}"`);
  }
  return words.slice(start + 1, end);
}

/** Absolute path of the repository's main.ts. */
export const MAIN_TS: string = new URL("../main.ts", import.meta.url).pathname;
