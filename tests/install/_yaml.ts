/**
 * A minimal reader for the YAML our workflow uses (block mappings and sequences, `|` block
 * scalars, flow sequences of scalars, quoted and plain scalars, comments). Enough to check the
 * release workflow's shape; not a YAML implementation.
 */
export type Yaml = string | Yaml[] | { [key: string]: Yaml };

interface Line {
  readonly indent: number;
  readonly text: string;
}

function scalar(raw: string): Yaml {
  const t = raw.trim();
  if (t.startsWith("[") && t.endsWith("]")) {
    const inner = t.slice(1, -1).trim();
    return inner === "" ? [] : inner.split(",").map((x) => scalar(x) as string);
  }
  if ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))) return t.slice(1, -1);
  return t;
}

/** Strips a trailing comment (outside quotes). */
function uncomment(s: string): string {
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || s[i - 1] === " ")) return s.slice(0, i).trimEnd();
  }
  return s;
}

export function parseYaml(text: string): Yaml {
  const lines: Line[] = text.split("\n").map((l) => ({
    indent: l.length - l.trimStart().length,
    text: l.trimEnd(),
  }));
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && (lines[i]!.text.trim() === "" || lines[i]!.text.trim().startsWith("#"))) i++;
  };

  function block(indent: number): string {
    const out: string[] = [];
    while (i < lines.length && (lines[i]!.text.trim() === "" || lines[i]!.indent >= indent)) {
      out.push(lines[i]!.text.slice(indent));
      i++;
    }
    while (out.length > 0 && out[out.length - 1] === "") out.pop();
    return out.join("\n") + "\n";
  }

  /** A value after "key:" on the same line, or the nested node on the lines below. */
  function valueAfter(rest: string, parentIndent: number): Yaml {
    const r = uncomment(rest).trim();
    if (r === "|") {
      skipBlank();
      return block(lines[i]!.indent);
    }
    if (r !== "") return scalar(r);
    skipBlank();
    if (
      i >= lines.length || lines[i]!.indent <= parentIndent && !lines[i]!.text.trimStart().startsWith("- ")
    ) {
      return "";
    }
    return node(lines[i]!.indent);
  }

  function mappingEntry(content: string, indent: number, into: Record<string, Yaml>): void {
    const m = /^("[^"]*"|'[^']*'|[^:]+?):(\s+(.*))?$/.exec(content);
    if (!m) throw new Error(`yaml: cannot read line ${i}: ${content}`);
    into[scalar(m[1]!) as string] = valueAfter(m[3] ?? "", indent);
  }

  function node(indent: number): Yaml {
    skipBlank();
    const first = lines[i]!;
    if (first.text.trimStart().startsWith("- ")) {
      const list: Yaml[] = [];
      while (i < lines.length) {
        skipBlank();
        if (
          i >= lines.length || lines[i]!.indent !== indent || !lines[i]!.text.trimStart().startsWith("- ")
        ) break;
        const content = lines[i]!.text.trimStart().slice(2);
        const itemIndent = indent + 2;
        i++;
        if (/^[^\s"'][^:]*:(\s|$)/.test(content) || /^"[^"]*":(\s|$)/.test(content)) {
          const item: Record<string, Yaml> = {};
          mappingEntry(uncomment(content), itemIndent, item);
          while (true) {
            skipBlank();
            if (i >= lines.length || lines[i]!.indent !== itemIndent) break;
            const line = lines[i++]!;
            mappingEntry(uncomment(line.text.trimStart()), itemIndent, item);
          }
          list.push(item);
        } else list.push(scalar(uncomment(content)));
      }
      return list;
    }
    const map: Record<string, Yaml> = {};
    while (true) {
      skipBlank();
      if (i >= lines.length || lines[i]!.indent !== indent) break;
      const line = lines[i++]!;
      mappingEntry(uncomment(line.text.trimStart()), indent, map);
    }
    return map;
  }

  return node(0);
}
