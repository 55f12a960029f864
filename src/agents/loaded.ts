/**
 * Every registered agent with its folder loaded, for the stages (collect, install, doctor, the
 * launcher's root resolution). Loaded at import time (top-level await) on purpose: a command
 * running in a Worker loads all its code before the launcher drops its permissions (a module
 * loaded later would be refused), and importing this module is how a command says it needs the
 * agents. The per-prompt hint path never imports it.
 */
import type { Agent } from "./agent.ts";
import { loadAgents } from "./registry.ts";

export const LOADED_AGENTS: readonly Agent[] = await loadAgents();

/** The agent with this id; throws for an id no agent has (a job from another version). */
export function agentById(id: string): Agent {
  const agent = LOADED_AGENTS.find((a) => a.id === id);
  if (!agent) throw new Error(`Unknown agent "${id}"`);
  return agent;
}
