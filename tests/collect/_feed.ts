/** Helpers shared by the transcript parser tests: feed a whole text to a LineParser. */
import { fileURLToPath } from "node:url";
import type { LineParser } from "../../src/record/line_parser.ts";
import type { VerdictRecord } from "../../src/record/record.ts";

/** Splits like the collector's line reader: "\n" ends a line, a trailing "\r" is dropped. */
export function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** Feeds `lines` (numbered from `firstLine`), skipping empty ones as the reader does; drains. */
export function feed<C>(parser: LineParser<C>, lines: readonly string[], firstLine = 1): VerdictRecord[] {
  lines.forEach((line, i) => {
    if (line.length > 0) parser.line(line, firstLine + i);
  });
  return parser.drain();
}

/** Reads a fixture under tests/fixtures/collect/. */
export function fixturePath(rel: string): string {
  return fileURLToPath(new URL(`../fixtures/collect/${rel}`, import.meta.url));
}

export function fixtureLines(rel: string): string[] {
  return splitLines(Deno.readTextFileSync(fixturePath(rel)));
}

/** Every fixture file under tests/fixtures/collect/ with the given extension, sorted. */
export function allFixtureFiles(ext = ".jsonl"): string[] {
  const root = fixturePath("");
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`, `${rel}${e.name}/`);
      else if (e.isFile && e.name.endsWith(ext)) out.push(`${rel}${e.name}`);
    }
  };
  walk(root, "");
  return out.sort();
}

/**
 * Re-serialises a JSON line with a space after every ":" and "," outside strings (the
 * hand-written style), so prefilters are checked against both spellings.
 */
export function spaced(line: string): string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return line;
  }
  return spacedJson(value);
}

function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const parts = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${spacedJson(v)}`);
    return `{${parts.join(", ")}}`;
  }
  return JSON.stringify(value);
}
