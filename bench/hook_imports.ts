/**
 * For bench:scale: a process that loads what the per-prompt hook loads (main.ts's entry check
 * and the hook's own entry, with everything they import) and runs nothing. Its time against a
 * hello-world is the floor Deno's start-up and module loading put under the hook.
 */
import "../src/hint/hook_argv.ts";
import "../src/hint/hook_entry.ts";
