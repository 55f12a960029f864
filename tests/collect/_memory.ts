/** Claude Code's memory lister over a projects directory, as collectDocs takes it (none for null). */
import { kit as claude } from "../../src/agents/claude/mod.ts";
import type { MemoryRoot } from "../../src/collect/docs.ts";

export function claudeMemory(projects: string | null): MemoryRoot[] {
  return projects ? [{ root: projects, find: claude.memory!.find }] : [];
}
