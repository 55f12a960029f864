/**
 * `verdict uninstall [--claude] [--codex] [--dry-run]`: removes exactly what install added (hook
 * commands ending in the install marker, verdict's own MCP entries, the delimited Codex block).
 * The code is install's (./install.ts); only the action differs.
 */
import type { CommandIO, CommandPlan, RunConfined } from "../../plan/plan.ts";
import { launchInstall } from "./install.ts";

export { run } from "./install.ts";

export async function launch(plan: CommandPlan, _io: CommandIO, runConfined: RunConfined): Promise<number> {
  return await launchInstall(plan, "uninstall", runConfined);
}
