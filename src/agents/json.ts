/**
 * What every agent's readers ask of the JSON their agent writes (session lines, settings, hook
 * files): is this value an object, does this line hold one. One home, so the session parsers
 * count a damaged line the same way (a LineParser's `malformed`, src/record/line_parser.ts).
 */

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON object a line holds, or null (blank, not JSON, or JSON that is not an object). */
export function parseObjectLine(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Cheap shape test for the lines a parser's prefilter skips without parsing them: a JSON object
 * line starts "{" and ends "}" (a blank line passes). One that fails is counted as damaged.
 */
export function looksLikeObjectLine(line: string): boolean {
  const t = line.trim();
  return t === "" || (t.startsWith("{") && t.endsWith("}"));
}
