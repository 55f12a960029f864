/**
 * Text-preserving edits of a JSON (or JSONC) document: parse it into a tree that remembers where
 * every value starts and ends, then splice new text in or cut old text out. Everything outside
 * the edited span stays byte for byte as it was: key order, comments, indentation, line endings.
 *
 * New entries follow the container's layout: one per line at its entries' indentation, or compact
 * JSON on the same line when the container is written on one line; in a document written wholly
 * on one line (`{"a":1,"b":{}}`) every new entry is compact JSON, so it stays on one line.
 *
 * Inserting a member or an item and removing it again are exact inverses, so an uninstall gives
 * back the original bytes when nothing else changed in between. The document is validated with
 * our JSONC parser first (src/config/jsonc.ts), so syntax errors carry its line and column.
 */
import { parseJsonc } from "../config/jsonc.ts";

export type JsonNode = JsonObjectNode | JsonArrayNode | JsonScalarNode;

export interface JsonMember {
  readonly key: string;
  /** Offset of the key's opening quote. */
  readonly keyStart: number;
  readonly value: JsonNode;
}

export interface JsonObjectNode {
  readonly kind: "object";
  readonly start: number;
  /** Offset just past the closing brace. */
  readonly end: number;
  readonly members: readonly JsonMember[];
}

export interface JsonArrayNode {
  readonly kind: "array";
  readonly start: number;
  readonly end: number;
  readonly items: readonly JsonNode[];
}

export interface JsonScalarNode {
  readonly kind: "scalar";
  readonly start: number;
  readonly end: number;
  readonly value: string | number | boolean | null;
}

/** Parses `text` (JSONC) into a tree with offsets; throws JsoncSyntaxError when it is malformed. */
export function parseTree(text: string): JsonNode {
  parseJsonc(text);
  const scanner = new TreeScanner(text);
  scanner.skip();
  return scanner.node();
}

/** The plain JSON value of a node. */
export function nodeValue(node: JsonNode): unknown {
  switch (node.kind) {
    case "scalar":
      return node.value;
    case "array":
      return node.items.map(nodeValue);
    case "object": {
      const out: Record<string, unknown> = {};
      for (const m of node.members) out[m.key] = nodeValue(m.value);
      return out;
    }
  }
}

export function member(node: JsonObjectNode, key: string): JsonMember | undefined {
  return node.members.find((m) => m.key === key);
}

/** The document's layout: indentation unit and line ending, learnt from its text. */
export interface Layout {
  readonly unit: string;
  readonly nl: string;
  /** Written wholly on one line, with something in it: new entries are compact JSON. */
  readonly oneLine: boolean;
}

export function layoutOf(text: string): Layout {
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  const m = /\n([ \t]+)\S/.exec(text);
  const body = text.trim();
  return { unit: m ? m[1]! : "  ", nl, oneLine: !body.includes("\n") && !/^\{\s*\}$/.test(body) };
}

/** Leading whitespace of the line holding offset `pos`. */
function lineIndent(text: string, pos: number): string {
  const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** Is `pos` the first non-blank character of its line? */
function startsLine(text: string, pos: number): boolean {
  const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  return /^[ \t]*$/.test(text.slice(lineStart, pos));
}

/** `value` as indented JSON whose continuation lines start with `indent`. */
export function formatValue(value: unknown, indent: string, layout: Layout): string {
  if (layout.oneLine) return JSON.stringify(value);
  return JSON.stringify(value, null, layout.unit).split("\n").join(layout.nl + indent);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** Indentation for a new entry of a container: that of its entries, else one unit deeper. */
function entryIndent(
  text: string,
  container: JsonNode,
  firstEntryStart: number | null,
  layout: Layout,
): string {
  if (firstEntryStart !== null && startsLine(text, firstEntryStart)) return lineIndent(text, firstEntryStart);
  return lineIndent(text, container.start) + layout.unit;
}

/** Adds `"key": value` as the last member of `obj`. */
export function insertMember(text: string, obj: JsonObjectNode, key: string, value: unknown): string {
  const layout = layoutOf(text);
  const first = obj.members[0];
  const last = obj.members[obj.members.length - 1];
  if (first && last && !startsLine(text, first.keyStart)) {
    // A one-line object stays on one line: compact JSON, no new line breaks.
    return splice(text, last.value.end, last.value.end, `,${JSON.stringify(key)}:${JSON.stringify(value)}`);
  }
  if (!last && layout.oneLine) {
    return splice(text, obj.start, obj.end, `{${JSON.stringify(key)}:${JSON.stringify(value)}}`);
  }
  const indent = entryIndent(text, obj, first ? first.keyStart : null, layout);
  const entry = `${JSON.stringify(key)}: ${formatValue(value, indent, layout)}`;
  if (last) return splice(text, last.value.end, last.value.end, `,${layout.nl}${indent}${entry}`);
  const outer = lineIndent(text, obj.start);
  return splice(text, obj.start, obj.end, `{${layout.nl}${indent}${entry}${layout.nl}${outer}}`);
}

/** Adds `value` as the last item of `arr`. */
export function appendItem(text: string, arr: JsonArrayNode, value: unknown): string {
  const layout = layoutOf(text);
  const first = arr.items[0];
  const last = arr.items[arr.items.length - 1];
  if (first && last && !startsLine(text, first.start)) {
    return splice(text, last.end, last.end, `,${JSON.stringify(value)}`);
  }
  if (!last && layout.oneLine) return splice(text, arr.start, arr.end, `[${JSON.stringify(value)}]`);
  const indent = entryIndent(text, arr, first ? first.start : null, layout);
  const entry = formatValue(value, indent, layout);
  if (last) return splice(text, last.end, last.end, `,${layout.nl}${indent}${entry}`);
  const outer = lineIndent(text, arr.start);
  return splice(text, arr.start, arr.end, `[${layout.nl}${indent}${entry}${layout.nl}${outer}]`);
}

/** Replaces the value `node` with `value`, indented like the line it sits on. */
export function replaceNode(text: string, node: JsonNode, value: unknown): string {
  const layout = layoutOf(text);
  return splice(text, node.start, node.end, formatValue(value, lineIndent(text, node.start), layout));
}

/**
 * Removes the entry spanning [starts[i], ends[i]) of a container with `count` entries: with the
 * separator before it (the exact inverse of an append), or after it when it is the first.
 */
function removeEntry(
  text: string,
  container: JsonNode,
  starts: readonly number[],
  ends: readonly number[],
  i: number,
  empty: string,
): string {
  if (starts.length === 1) return splice(text, container.start, container.end, empty);
  if (i > 0) return splice(text, ends[i - 1]!, ends[i]!, "");
  return splice(text, starts[0]!, starts[1]!, "");
}

export function removeMember(text: string, obj: JsonObjectNode, key: string): string {
  const i = obj.members.findIndex((m) => m.key === key);
  if (i === -1) return text;
  return removeEntry(
    text,
    obj,
    obj.members.map((m) => m.keyStart),
    obj.members.map((m) => m.value.end),
    i,
    "{}",
  );
}

export function removeItem(text: string, arr: JsonArrayNode, i: number): string {
  return removeEntry(text, arr, arr.items.map((n) => n.start), arr.items.map((n) => n.end), i, "[]");
}

/** Builds the tree of an already validated document. */
class TreeScanner {
  pos = 0;
  constructor(private readonly text: string) {
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  skip(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.pos++;
      else if (c === "/" && t[this.pos + 1] === "/") {
        const nl = t.indexOf("\n", this.pos);
        this.pos = nl === -1 ? t.length : nl;
      } else if (c === "/" && t[this.pos + 1] === "*") {
        this.pos = t.indexOf("*/", this.pos + 2) + 2;
      } else break;
    }
  }

  node(): JsonNode {
    const c = this.text[this.pos];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    const start = this.pos;
    if (c === '"') return { kind: "scalar", start, end: this.stringEnd(), value: this.stringAt(start) };
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return { kind: "scalar", start, end: this.pos, value };
      }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 64))!;
    this.pos += m[0].length;
    return { kind: "scalar", start, end: this.pos, value: Number(m[0]) };
  }

  private stringEnd(): number {
    this.pos++;
    while (this.text[this.pos] !== '"') this.pos += this.text[this.pos] === "\\" ? 2 : 1;
    this.pos++;
    return this.pos;
  }

  private stringAt(start: number): string {
    return JSON.parse(this.text.slice(start, this.pos)) as string;
  }

  private object(): JsonObjectNode {
    const start = this.pos++;
    const members: JsonMember[] = [];
    this.skip();
    while (this.text[this.pos] !== "}") {
      const keyStart = this.pos;
      this.stringEnd();
      const key = this.stringAt(keyStart);
      this.skip();
      this.pos++; // ':'
      this.skip();
      members.push({ key, keyStart, value: this.node() });
      this.skip();
      if (this.text[this.pos] === ",") {
        this.pos++;
        this.skip();
      }
    }
    this.pos++;
    return { kind: "object", start, end: this.pos, members };
  }

  private array(): JsonArrayNode {
    const start = this.pos++;
    const items: JsonNode[] = [];
    this.skip();
    while (this.text[this.pos] !== "]") {
      items.push(this.node());
      this.skip();
      if (this.text[this.pos] === ",") {
        this.pos++;
        this.skip();
      }
    }
    this.pos++;
    return { kind: "array", start, end: this.pos, items };
  }
}
