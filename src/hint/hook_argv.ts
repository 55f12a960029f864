/**
 * Which argv the per-prompt hook's own entry (hook_entry.ts) takes over: `hook user-prompt`
 * with nothing after it but an optional `--agent ID` (what install writes). Imports nothing, so
 * the entry point decides before loading either entry.
 */
import type { ParsedArgs } from "../plan/args.ts";

/** An agent id as the agent table spells them; anything else is the launcher's to report. */
const AGENT_ID = /^[a-z][a-z0-9-]*$/;

/** The parsed arguments when argv is one this entry takes over, else null. */
export function hookArgs(argv: readonly string[]): ParsedArgs | null {
  if (argv[0] !== "hook" || argv[1] !== "user-prompt") return null;
  const rest = argv.slice(2);
  if (rest.length === 0) return { options: {}, positionals: [] };
  const agent = rest.length === 2 && rest[0] === "--agent"
    ? rest[1]!
    : rest.length === 1 && rest[0]!.startsWith("--agent=")
    ? rest[0]!.slice("--agent=".length)
    : null;
  return agent !== null && AGENT_ID.test(agent) ? { options: { agent }, positionals: [] } : null;
}
