/**
 * The lines of a TOML document that start at its top level: a line inside a multi-line string
 * (`"""…"""`, `'''…'''`) or inside a value that spans lines (an array or inline table) is the
 * value's, not a key or a table header, however it looks. Enough TOML to find headers and keys
 * without a TOML library; strings, escapes and comments are read as TOML reads them.
 */

/** One line that starts at the top level: its text (without \r), its 0-based index and offset. */
export interface TopLine {
  readonly text: string;
  readonly index: number;
  readonly offset: number;
}

const HEADER = /^\s*\[\[?\s*[^\]]+?\s*\]\]?\s*(#.*)?$/;

/** Where a scan is between lines: inside a multi-line string, and how deep in a value. */
interface ScanState {
  string: '"""' | "'''" | null;
  depth: number;
}

/** Reads `line` from `state` on, leaving `state` as it is at the line's end. */
function scan(line: string, state: ScanState, valueStarted: boolean): void {
  let afterEquals = valueStarted;
  for (let i = 0; i < line.length; i++) {
    if (state.string !== null) {
      if (state.string === '"""' && line[i] === "\\") {
        i++;
        continue;
      }
      if (line.startsWith(state.string, i)) {
        // A closing delimiter may be followed by one or two more quotes of the string's own.
        let end = i + 3;
        while (end < line.length && line[end] === state.string[0] && end < i + 5) end++;
        i = end - 1;
        state.string = null;
      }
      continue;
    }
    const c = line[i];
    if (c === "#") return;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      state.string = line.slice(i, i + 3) as '"""' | "'''";
      i += 2;
      continue;
    }
    if (c === '"' || c === "'") {
      for (i++; i < line.length && line[i] !== c; i++) if (c === '"' && line[i] === "\\") i++;
      continue;
    }
    if (c === "=" && state.depth === 0) afterEquals = true;
    if (!afterEquals && state.depth === 0) continue;
    if (c === "[" || c === "{") state.depth++;
    else if ((c === "]" || c === "}") && state.depth > 0) state.depth--;
  }
}

/** The document's top-level lines, in order. */
export function topLevelLines(text: string): TopLine[] {
  const out: TopLine[] = [];
  const state: ScanState = { string: null, depth: 0 };
  let offset = 0;
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    const inside = state.string !== null || state.depth > 0;
    if (!inside) out.push({ text: line, index, offset });
    if (inside || !HEADER.test(line)) scan(line, state, inside);
    offset += raw.length + 1;
  });
  return out;
}
