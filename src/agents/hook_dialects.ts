/**
 * Every registered agent's hook dialect, loaded at import time (top-level await) for the hook
 * entries that run in a Worker: like loaded.ts, a module loaded after the launcher narrowed the
 * Worker's permissions would be refused. The per-prompt hook, which runs in-process, loads only
 * its own agent's dialect instead (registry.ts `hookDialectOf`).
 */
import type { HookDialect } from "./agent.ts";
import { AGENTS, DEFAULT_HOOK_AGENT } from "./registry.ts";

const DIALECTS: ReadonlyMap<string, HookDialect> = new Map(
  await Promise.all(
    AGENTS.filter((a) => a.hookDialect !== null).map(async (a) =>
      [a.id, (await a.hookDialect!()).dialect] as const
    ),
  ),
);

/** The dialect of the agent `id` names (Claude Code's for none), or null for an unknown id. */
export function loadedHookDialect(id: string | undefined): HookDialect | null {
  return DIALECTS.get(id ?? DEFAULT_HOOK_AGENT) ?? null;
}
