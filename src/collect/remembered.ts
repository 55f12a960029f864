/**
 * Decisions added by hand (`verdict remember`): one Markdown file beside the archive
 * (`remembered.md`), one section each, so that every such record has a real source a quote can be
 * traced to (file and line), and a person can read, edit or delete it like any note. A collect
 * reads the file again whenever it changed (its records replace those it gave before), as it
 * reads a doc root.
 *
 * A section:
 *   ## 2026-12-07 · /src/app
 *   <!-- verdict remember {"time":"2026-12-07T01:53:00.000Z","project":"/src/app"} -->
 *   Always use pnpm, never npm.
 * The comment line carries what the record needs beside the text; the heading is for people.
 */
import { createHash } from "node:crypto";
import { recordId, toRfc3339, type VerdictRecord } from "../record/record.ts";

/** The first line of the file (a person opening it sees what it is). */
export const REMEMBERED_TITLE = "# Decisions you asked verdict to remember";
const META = /^<!-- verdict remember (\{.*\}) -->$/;

export interface RememberedSection {
  readonly time: string;
  readonly project: string;
  readonly text: string;
}

/** The section for one remembered decision, as appended to the file. */
export function rememberedSection(s: RememberedSection): string {
  return `\n## ${s.time.slice(0, 10)} · ${s.project || "every project"}\n<!-- verdict remember ${
    JSON.stringify({ time: s.time, project: s.project })
  } -->\n${s.text.trim()}\n`;
}

/** The id of a remembered decision: from its file and its time (editing its text keeps its id). */
export function rememberedId(file: string, time: string): string {
  return recordId("doc", `remembered\n${file}\n${time}`);
}

/**
 * The records of the file's text: one per section that has its comment line and some text. The
 * record's line is its text's first line. A section without the comment line (a person wrote one
 * by hand) is skipped, as is an unknown time.
 */
export function rememberedRecords(file: string, text: string): VerdictRecord[] {
  const lines = text.split(/\r?\n/);
  const out: VerdictRecord[] = [];
  let i = 0;
  while (i < lines.length) {
    const m = META.exec(lines[i]!.trim());
    if (!m) {
      i++;
      continue;
    }
    let meta: { time?: unknown; project?: unknown };
    try {
      meta = JSON.parse(m[1]!) as { time?: unknown; project?: unknown };
    } catch {
      i++;
      continue;
    }
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^#{1,2}\s/.test(lines[end]!) && !META.test(lines[end]!.trim())) end++;
    i = end;
    const body = lines.slice(start, end).join("\n").trim();
    const time = toRfc3339(meta.time);
    if (body === "" || time === null) continue;
    out.push({
      id: rememberedId(file, time),
      kind: "doc",
      origin: "doc",
      text: body,
      time,
      project: typeof meta.project === "string" ? meta.project : "",
      session: null,
      source_file: file,
      source_line: start + 1,
      commit: null,
    });
  }
  return out;
}

/** The file's text, or null when it does not exist. */
export async function readRemembered(file: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(file);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** What the archive keeps of the file's text it last read (a collect reads it again when this changes). */
export function rememberedDigest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
