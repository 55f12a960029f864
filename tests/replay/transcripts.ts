/**
 * Other people's real session files (the shared data's transcripts/: Claude Code transcripts and
 * Codex rollouts), read in place and never copied, as a further label-free check of the hint: the
 * typed prompts of a transcript's person are nobody's decisions in a development history, and the
 * reverse. Each file goes through the collector's own parser (Claude's transcript parser, or
 * Codex's rollout parser for a file that opens with a `session_meta` line), with the collector's
 * defaults, so exactly what `verdict collect` counts as typed is counted here (headless and IDE
 * sessions yield nothing).
 */
import { createClaudeParser } from "../../src/agents/claude/transcript.ts";
import { createCodexParser } from "../../src/agents/codex/rollout.ts";
import type { VerdictRecord } from "../../src/record/record.ts";
import { sortedRecords } from "../../src/replay/replay.ts";
import type { History } from "./histories.ts";

export const TRANSCRIPTS_DIR = new URL("../../../shared/data/transcripts/", import.meta.url);

/**
 * Files that are not anyone's real session: the data's README says the jazzyalex files are schema
 * catalogs (trimmed or synthetic values).
 */
const NOT_REAL_SESSIONS = /^jazzyalex-/;

/** Why the transcripts cannot be read, or null when they can. */
export function transcriptsMissing(dir: URL = TRANSCRIPTS_DIR): string | null {
  try {
    Deno.statSync(dir);
    return null;
  } catch {
    return `the transcripts are absent (${decodeURIComponent(dir.pathname)})`;
  }
}

/**
 * The person a file belongs to: its name up to the first hyphen (the files are saved as
 * `<owner>-<original name>`), or to the second when the first part is an initial (d-kimuson).
 */
export function personOf(fileName: string): string {
  const parts = fileName.split("-");
  return parts[0]!.length === 1 && parts.length > 1 ? `${parts[0]}-${parts[1]}` : parts[0]!;
}

function parse(name: string, text: string): VerdictRecord[] {
  const newline = text.indexOf("\n");
  const firstLine = newline < 0 ? text : text.slice(0, newline);
  let codex = false;
  try {
    codex = (JSON.parse(firstLine) as { type?: unknown }).type === "session_meta";
  } catch {
    // Not JSON on the first line: read as a Claude transcript, which skips what does not parse.
  }
  // A path where the collector would find such a file (a subagent's file would yield nothing).
  const file = codex ? `/home/dev/.codex/sessions/${name}` : `/home/dev/.claude/projects/p/${name}`;
  const parser = codex
    ? createCodexParser({ file, includeHeadless: false }, null)
    : createClaudeParser({ file, includeHeadless: false }, null);
  text.split("\n").forEach((line, i) => {
    if (line.trim() !== "") parser.line(line, i + 1);
  });
  return parser.drain().filter((r) => r.kind === "prompt");
}

/**
 * Each person of the transcripts with their typed prompts (by record id once: a resumed session
 * copies entries), in time order; people whose files yield no typed prompt are left out. Sorted
 * by name.
 */
export function loadTranscriptPeople(dir: URL = TRANSCRIPTS_DIR): History[] {
  const byPerson = new Map<string, Map<string, VerdictRecord>>();
  const names = [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && e.name.endsWith(".jsonl") && !NOT_REAL_SESSIONS.test(e.name))
    .map((e) => e.name).sort();
  for (const name of names) {
    const text = Deno.readTextFileSync(new URL(name, dir));
    const person = personOf(name);
    const records = byPerson.get(person) ?? new Map<string, VerdictRecord>();
    for (const r of parse(name, text)) if (!records.has(r.id)) records.set(r.id, r);
    byPerson.set(person, records);
  }
  return [...byPerson].filter(([, records]) => records.size > 0)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([person, records]) => ({ name: person, records: sortedRecords([...records.values()]) }));
}
