/**
 * Every registered agent with its folder loaded, for the stages (collect, install, doctor, the
 * launcher's root resolution). Loaded at import time (top-level await) on purpose: a command
 * running in a Worker loads all its code before the launcher drops its permissions (a module
 * loaded later would be refused), and importing this module is how a command says it needs the
 * agents. The per-prompt hint path never imports it.
 */
import type { Agent, AgentEntry, AgentKit } from "./agent.ts";
import { AGENTS } from "./registry.ts";

/**
 * Each registered agent's folder, by id. Here and not in the registry's rows: the registry is
 * on the per-prompt hook's path, and `deno run` reads every module a literal dynamic import
 * names before the program starts, so loaders there cost every hook the whole program's graph.
 */
export const AGENT_FOLDERS: Readonly<Record<string, () => Promise<{ readonly kit: AgentKit }>>> = {
  claude: () => import("./claude/mod.ts"),
  codex: () => import("./codex/mod.ts"),
  gemini: () => import("./gemini/mod.ts"),
  opencode: () => import("./opencode/mod.ts"),
  qwen: () => import("./qwen/mod.ts"),
  copilot: () => import("./copilot/mod.ts"),
  pi: () => import("./pi/mod.ts"),
  cline: () => import("./cline/mod.ts"),
};

/** Loads every agent's folder, in table order. */
export async function loadAgents(entries: readonly AgentEntry[] = AGENTS): Promise<Agent[]> {
  return await Promise.all(entries.map(async (e) => {
    const load = AGENT_FOLDERS[e.id];
    if (!load) throw new Error(`Agent "${e.id}" has no folder loader in src/agents/loaded.ts`);
    return { ...e, ...(await load()).kit };
  }));
}

export const LOADED_AGENTS: readonly Agent[] = await loadAgents();

/** The agent with this id; throws for an id no agent has (a job from another version). */
export function agentById(id: string): Agent {
  const agent = LOADED_AGENTS.find((a) => a.id === id);
  if (!agent) throw new Error(`Unknown agent "${id}"`);
  return agent;
}
