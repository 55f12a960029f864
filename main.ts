/**
 * verdict — local memory for coding agents. Entry point: argv in, exit code out; the only
 * Deno.exit in the program. The per-prompt hook has an entry of its own (it runs on every prompt,
 * so it loads only what it needs); every other command goes through the launcher.
 */
import { hookArgs } from "./src/cli/hook_argv.ts";

if (import.meta.main) {
  const hook = hookArgs(Deno.args);
  const code = hook
    ? await (await import("./src/cli/hook_entry.ts")).runUserPromptHook(hook, Deno.env.toObject(), Deno.cwd())
    : await (await import("./src/cli/main.ts")).main(Deno.args, Deno.env.toObject(), Deno.cwd());
  Deno.exit(code);
}
