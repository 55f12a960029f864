/**
 * The permission, unstable and V8 flags of the `verdict` task in deno.json: the single source for
 * the flags the compiled binary bakes in, the commands `verdict install` writes for a `deno run`
 * user, the demo and the tests that spawn the CLI.
 *
 * The V8 flags (`v8HeapFlags`) bound the garbage a long collect leaves resident, measured on a
 * first collect of 10^6 records (docs/store.md, "Measured"): Deno's young generation grows to
 * 64 MiB (two 32 MiB semi-spaces) and the old generation to about four times what is live before
 * V8 collects it; a live heap of 20 to 50 MB then stood at 290 MB resident. They cannot be set
 * from inside the program: V8 sizes its heap when the process starts.
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

/**
 * Flags that start main.ts under `deno run` as near as it gets to how the compiled binary starts:
 * the verdict task's permission, unstable and V8 flags, without the lock (a binary's npm packages
 * are pinned when it is built: it reads no lock at run time) and with `--no-config` (it reads no
 * deno.json either). The benches time the per-prompt hook this way against a hello-world, which
 * reads neither: at every start the lock costs a hello-world 1.07× and the config 1.02× (paired
 * runs, docs/notes/2026-11-hook-startup-rounds.md), and no installed hook reads the lock (docs/install.md's
 * from-source wrapper passes none).
 */
export function binaryLikeRunFlags(): string[] {
  const lock = new Set(lockFlags());
  return ["--no-config", ...verdictRunFlags().filter((w) => !lock.has(w))];
}

/**
 * What the verdict task passes to V8 (the value of its `--v8-flags=`), and why each:
 * - `--max-semi-space-size=4` (MiB): a young generation of 8 MiB instead of Deno's 64. What
 *   survives a scavenge of a collect is mostly the rows being indexed; the space itself was
 *   56 MiB of the peak. 8 MiB left 19 MB more at 10^6 records; 2 MiB 9 MB more at 10^5.
 * - `--heap-growing-percent=50`: after a full collection the old generation may grow by half of
 *   what is live before the next one, not by up to 300%: an index build's promoted garbage is
 *   collected at 1.5 times the live heap instead of piling up to some 100 MiB. 20 kept a first
 *   collect lower still but cost `verdict replay`, whose live heap is hundreds of MB, 1.5 times
 *   its CPU (50: 1.1 to 1.25 times).
 * The hook's heap is a few MB: neither changes its time (docs/store.md).
 */
export function v8HeapFlags(): string {
  const flag = verdictRunFlags().find((w) => w.startsWith("--v8-flags="));
  if (!flag) {
    throw new Error(`The verdict task in deno.json passes no --v8-flags: "${denoJson.tasks.verdict}"`);
  }
  return flag.slice("--v8-flags=".length);
}

/** Absolute path of the repository's main.ts. */
export const MAIN_TS: string = new URL("../main.ts", import.meta.url).pathname;

/** Absolute path of the repository's deno.json. */
export const DENO_JSON: string = new URL("../deno.json", import.meta.url).pathname;
