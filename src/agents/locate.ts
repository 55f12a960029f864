/**
 * Where the registered agents are on this machine: their session roots, resolved to real paths
 * (for the plan), and whether each is used here at all (for install and doctor). The only part
 * of the agents' code that touches the file system outside the stages.
 */
import type { SessionRoot } from "../config/roots.ts";
import { realRoots } from "../sandbox/contain.ts";
import { basename, dirname, joinPath } from "../config/paths.ts";
import type { Agent, AgentEnv, HostFile } from "./agent.ts";

/**
 * Each agent's session roots that exist, real, in registry then reader order (a reader's own
 * roots sorted and deduplicated), keeping only those `allowed` accepts.
 */
export async function sessionRoots(
  agents: readonly Agent[],
  at: AgentEnv,
  allowed: (path: string) => boolean,
): Promise<SessionRoot[]> {
  const out: SessionRoot[] = [];
  for (const agent of agents) {
    for (const reader of agent.sessions) {
      for (const path of await realRoots(reader.roots(at))) {
        if (!allowed(path)) continue;
        out.push({
          agent: agent.id,
          kind: reader.kind,
          path,
          layout: reader.layout,
          ...(reader.layout === "store" ? { companions: reader.companions(path) } : {}),
        });
      }
    }
  }
  return out;
}

/** Does any of the agent's presence paths exist (a dangling link counts: it was put there)? */
export async function isPresent(agent: Agent, at: AgentEnv): Promise<boolean> {
  for (const path of agent.presence(at)) {
    try {
      await Deno.lstat(path);
      return true;
    } catch {
      // Not this one.
    }
  }
  return false;
}

/** Where the agent writes its sessions: its first reader's first root (doctor and hints name it). */
export function mainSessionRoot(agent: Agent, at: AgentEnv): string {
  return agent.sessions[0]!.roots(at)[0]!;
}

/** The real path of `path`, or of its folder when the file does not exist yet (else `path`). */
export async function realPathOf(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    try {
      return joinPath(await Deno.realPath(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/** The path the agent names a host file by (HostFile.agentPath, given its folder's real path). */
export async function hostFileAgentPath(hostFile: HostFile, at: AgentEnv): Promise<string> {
  const path = hostFile.path(at);
  return hostFile.agentPath ? hostFile.agentPath(at, await realPathOf(dirname(path))) : path;
}
