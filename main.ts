/**
 * verdict — local memory for coding agents. Entry point: argv in, exit code out; the only
 * Deno.exit in the program. The per-prompt hook has an entry of its own (it runs on every prompt,
 * so it loads only what it needs): it first asks the user's warm helper (src/warm/client.ts,
 * a few small modules), and runs the hook in-process only when no helper answers. Every other
 * command goes through the launcher.
 */
import { hookArgs } from "./src/hint/hook_argv.ts";
import { askWarmHelper, WARM_AFTER_ENV, WARM_AFTER_MAX_MS } from "./src/warm/client.ts";

/**
 * The launcher, named through a variable: `deno run` reads every module a literal dynamic import
 * names before the program starts, and the launcher's graph is the whole program, four times
 * what the hook runs (tests/cli/commands_test.ts "deno run reads only the modules the per-prompt
 * hook runs"). Imported at start like this, its own graph (the commands) is read then, with the
 * full permissions, so a command imported after narrowing is still one deno has read. The
 * compile names it with --include (scripts/compile.ts).
 */
const LAUNCHER = new URL("./src/cli/main.ts", import.meta.url).href;

/**
 * The in-process hook, named through a variable for the same reason: a prompt the warm helper
 * answers reads none of it (tests/warm/client_modules_test.ts). The compile names it with
 * --include.
 */
const HOOK_ENTRY = new URL("./src/hint/hook_entry.ts", import.meta.url).href;

/**
 * Starting the helper: named through a variable, so a hook that does not start one (nearly
 * every hook) never reads it. The compile names it with --include.
 */
const WARM_START = new URL("./src/warm/start.ts", import.meta.url).href;

/**
 * A helper a hook has just started (src/warm/start.ts) waits out that hook's deadline before it
 * loads the program: on two cores, loading the whole program beside the prompt it was started
 * from made that prompt's in-process hook twice as slow. Capped, whatever the variable says.
 */
async function waitOutStartingHook(argv: readonly string[], env: Record<string, string>): Promise<void> {
  const ms = Number(env[WARM_AFTER_ENV] ?? "0");
  if (argv[0] !== "warm" || argv[1] !== "serve" || !(ms > 0)) return;
  await new Promise((resolve) => setTimeout(resolve, Math.min(ms, WARM_AFTER_MAX_MS)));
}

if (import.meta.main) {
  const hook = hookArgs(Deno.args);
  let code: number;
  if (hook) {
    const env = Deno.env.toObject();
    const cwd = Deno.cwd();
    // An answer is printed by the client itself (it then tells the helper it was).
    const warm = await askWarmHelper(Deno.args, env, cwd);
    if (warm.kind === "answered") {
      code = warm.code;
    } else {
      code = await (await import(HOOK_ENTRY)).runUserPromptHook(hook, env, cwd, {
        stdin: warm.stdin,
        startHelper: warm.startHelper
          ? (stateDir: string) => import(WARM_START).then((m) => m.startHelper(stateDir, env))
          : undefined,
        helperRefused: warm.why.startsWith("refused: ") && !warm.startHelper,
      });
    }
  } else {
    const env = Deno.env.toObject();
    await waitOutStartingHook(Deno.args, env);
    code = await (await import(LAUNCHER)).main(Deno.args, env, Deno.cwd());
  }
  Deno.exit(code);
}
