/**
 * The folder arithmetic several agents' mod.ts share: a folder a variable moves, how deep a
 * session file sits below its root, and the per-project memory folders Claude Code and Qwen Code
 * both keep. Pure but projectMemoryFiles, which lists through the collector's DirLister. Which
 * variable, which depth and which root stay each agent's to say.
 */
import { resolvePath } from "../config/paths.ts";
import type { AgentEnv, DirLister, MemoryFile } from "./agent.ts";

/** $`variable` (relative to the cwd, "~/" expanded) when it is set and not empty, else `fallback`. */
export function folderFromEnv(at: AgentEnv, variable: string, fallback: string): string {
  const dir = at.env[variable];
  return dir ? resolvePath(dir, at.cwd, at.home) : fallback;
}

/** Path depth of `path` below `root` (0 when it is the root or not below it). */
export function depthBelow(path: string, root: string): number {
  if (path === root || !path.startsWith(`${root}/`)) return 0;
  return path.slice(root.length + 1).split("/").length;
}

/** `<projects>/<project>/memory/*.md`, each belonging to its project directory. */
export async function projectMemoryFiles(projects: string, list: DirLister): Promise<MemoryFile[]> {
  const out: MemoryFile[] = [];
  for (const project of await list(projects, "dir")) {
    const projectDir = `${projects}/${project}`;
    // One look at the memory folder, not a listing of the project's (every session file is there).
    if ((await list(projectDir, "dir", "memory")).length === 0) continue;
    for (const name of await list(`${projectDir}/memory`, "file")) {
      if (/\.md$/i.test(name)) out.push({ path: `${projectDir}/memory/${name}`, project: projectDir });
    }
  }
  return out;
}
