/**
 * The development set of real prompt histories (../shared/data/histories/), read in place and
 * never copied. Each history becomes records the way `verdict collect` makes them from a Claude
 * Code `history.jsonl`: every line goes through the collector's own history parser.
 */
import { createHistoryParser } from "../../src/agents/claude/history.ts";
import type { VerdictRecord } from "../../src/record/record.ts";

export const HISTORIES_DIR = new URL("../../../shared/data/histories/", import.meta.url);

/** The home the histories' "~" stands for (any absolute folder; only equality of projects matters). */
const HOME = "/home/dev";

export interface History {
  readonly name: string;
  /** Typed prompts as records, in the archive's order. */
  readonly records: readonly VerdictRecord[];
}

/** Why the histories cannot be read, or null when they can. */
export function historiesMissing(): string | null {
  try {
    Deno.statSync(HISTORIES_DIR);
    return null;
  } catch {
    return `the development histories are absent (${decodeURIComponent(HISTORIES_DIR.pathname)})`;
  }
}

/** The names of the histories, sorted. */
export function historyNames(): string[] {
  const names: string[] = [];
  for (const e of Deno.readDirSync(HISTORIES_DIR)) {
    if (e.isDirectory) {
      try {
        Deno.statSync(new URL(`${e.name}/prompts.jsonl`, HISTORIES_DIR));
        names.push(e.name);
      } catch {
        // Not a history folder.
      }
    }
  }
  return names.sort();
}

function absoluteProject(project: string): string {
  if (project === "~") return HOME;
  if (project.startsWith("~/")) return `${HOME}/${project.slice(2)}`;
  return project;
}

/** One history as records: each prompt written as a history.jsonl line and parsed by the collector. */
export function loadHistory(name: string): History {
  const file = `${HOME}/.claude/history.jsonl`;
  const parser = createHistoryParser({ file, includeHeadless: false }, null);
  const text = Deno.readTextFileSync(new URL(`${name}/prompts.jsonl`, HISTORIES_DIR));
  let lineNo = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const p = JSON.parse(line) as { time: string; session: string; project: string; text: string };
    lineNo++;
    parser.line(
      JSON.stringify({
        display: p.text,
        pastedContents: {},
        timestamp: Date.parse(p.time),
        project: absoluteProject(p.project),
        sessionId: p.session,
      }),
      lineNo,
    );
  }
  return { name, records: parser.drain() };
}
