/**
 * The real prompt histories the hint is developed on, read in place and never copied: the first
 * five people (`histories/`) and nine more (`more-histories/`) beside the project in the shared
 * evaluation data. Each history becomes records the way `verdict collect` makes them from a Claude
 * Code `history.jsonl`: every line goes through the collector's own history parser.
 */
import { createHistoryParser } from "../../src/agents/claude/history.ts";
import type { VerdictRecord } from "../../src/record/record.ts";

/** The shared evaluation data: `histories/` and `more-histories/` in it. */
export const DATA_DIR = new URL("../../../shared/data/", import.meta.url);
export const HISTORIES_DIR = new URL("histories/", DATA_DIR);

/** The two folders of people, in the order they are reported. */
export const SHELVES = ["histories", "more-histories"] as const;
export type Shelf = typeof SHELVES[number];

/** One person's history: its name and where it lies. */
export interface PersonRef {
  readonly name: string;
  readonly shelf: Shelf;
  /** The folder holding `<name>/prompts.jsonl`. */
  readonly dir: URL;
}

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

/** The names of the histories in `dir` (the first five by default), sorted. */
export function historyNames(dir: URL = HISTORIES_DIR): string[] {
  const names: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) {
      try {
        Deno.statSync(new URL(`${e.name}/prompts.jsonl`, dir));
        names.push(e.name);
      } catch {
        // Not a history folder.
      }
    }
  }
  return names.sort();
}

/**
 * Every person of both shelves under `data` (each shelf's names sorted, the first shelf first),
 * and a line for each shelf that is absent (a printed skip, never an error).
 */
export function people(data: URL = DATA_DIR): { people: PersonRef[]; skipped: string[] } {
  const out: PersonRef[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const shelf of SHELVES) {
    const dir = new URL(`${shelf}/`, data);
    try {
      Deno.statSync(dir);
    } catch {
      skipped.push(`${shelf}: absent (${decodeURIComponent(dir.pathname)})`);
      continue;
    }
    for (const name of historyNames(dir)) {
      // Labels are filed by name: one name is one person.
      if (seen.has(name)) throw new Error(`Cannot read "${name}": it is in two shelves`);
      seen.add(name);
      out.push({ name, shelf, dir });
    }
  }
  return { people: out, skipped };
}

function absoluteProject(project: string): string {
  if (project === "~") return HOME;
  if (project.startsWith("~/")) return `${HOME}/${project.slice(2)}`;
  return project;
}

/** One history as records: each prompt written as a history.jsonl line and parsed by the collector. */
export function loadHistory(name: string, dir: URL = HISTORIES_DIR): History {
  const file = `${HOME}/.claude/history.jsonl`;
  const parser = createHistoryParser({ file, includeHeadless: false }, null);
  const text = Deno.readTextFileSync(new URL(`${name}/prompts.jsonl`, dir));
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
