/**
 * verdict — local memory for coding agents. Entry point: argv in, exit code out; the only
 * Deno.exit in the program.
 */
import { main } from "./src/cli/main.ts";

if (import.meta.main) {
  const code = await main(Deno.args, Deno.env.toObject(), Deno.cwd());
  Deno.exit(code);
}
