/**
 * verdict — local memory for coding agents. Entry point: argv in, exit code out; the only
 * Deno.exit in the program. The per-prompt hook has an entry of its own (it runs on every prompt,
 * so it loads only what it needs); every other command goes through the launcher.
 */
import { hookArgs } from "./src/cli/hook_argv.ts";

/**
 * The launcher, named through a variable: `deno run` reads every module a literal dynamic import
 * names before the program starts, and the launcher's graph is the whole program, four times
 * what the hook runs (tests/cli/commands_test.ts "deno run reads only the modules the per-prompt
 * hook runs"). Imported at start like this, its own graph (the commands) is read then, with the
 * full permissions, so a command imported after narrowing is still one deno has read. The
 * compile names it with --include (scripts/compile.ts).
 */
const LAUNCHER = new URL("./src/cli/main.ts", import.meta.url).href;

if (import.meta.main) {
  const hook = hookArgs(Deno.args);
  const code = hook
    ? await (await import("./src/cli/hook_entry.ts")).runUserPromptHook(hook, Deno.env.toObject(), Deno.cwd())
    : await (await import(LAUNCHER)).main(Deno.args, Deno.env.toObject(), Deno.cwd());
  Deno.exit(code);
}
