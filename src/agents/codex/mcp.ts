/**
 * verdict's MCP server in Codex's config.toml, without a TOML library: install appends one
 * clearly delimited block (after a blank line) and uninstall cuts exactly that out again; no
 * other byte is touched.
 *
 *   # >>> verdict: added by "verdict install"; "verdict uninstall" removes this block >>>
 *   [mcp_servers.verdict]
 *   command = "/opt/verdict/verdict"
 *   args = ["mcp"]
 *   # <<< verdict <<<
 *
 * A `verdict` server defined anywhere else in the file (a [mcp_servers.verdict] table, a dotted
 * key, an entry of an [mcp_servers] table or inline table) was not written by us: install refuses
 * and uninstall leaves it.
 */
import { type EditResult, HostFileError } from "../../install/errors.ts";
import { tomlString } from "../../install/shell.ts";

export const BLOCK_BEGIN =
  '# >>> verdict: added by "verdict install"; "verdict uninstall" removes this block >>>';
export const BLOCK_END = "# <<< verdict <<<";

/** The block install writes (lines joined with `nl`, ending with one). */
export function codexBlock(bin: string, env: Readonly<Record<string, string>>, nl = "\n"): string {
  const lines = [BLOCK_BEGIN, "[mcp_servers.verdict]", `command = ${tomlString(bin)}`, 'args = ["mcp"]'];
  const entries = Object.entries(env);
  if (entries.length > 0) {
    lines.push(`env = { ${entries.map(([k, v]) => `${k} = ${tomlString(v)}`).join(", ")} }`);
  }
  lines.push(BLOCK_END);
  return lines.join(nl) + nl;
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Where our block is: from its first line's start to just past its last line's newline. */
export function findBlock(text: string, path: string): Span | null {
  const begin = lineAt(text, BLOCK_BEGIN);
  if (begin === -1) return null;
  if (lineAt(text, BLOCK_BEGIN, begin + 1) !== -1) {
    throw new HostFileError(
      `Cannot edit "${path}": it holds two verdict blocks`,
      'delete one of the blocks between the "# >>> verdict" and "# <<< verdict <<<" lines by hand',
    );
  }
  const endLine = lineAt(text, BLOCK_END, begin);
  if (endLine === -1) {
    throw new HostFileError(
      `Cannot edit "${path}": the verdict block has no end line ("${BLOCK_END}")`,
      "restore the end line below the block, or delete the block by hand; nothing was changed",
    );
  }
  const nl = text.indexOf("\n", endLine);
  return { start: begin, end: nl === -1 ? text.length : nl + 1 };
}

/** Offset of a line equal to `line` (ignoring a trailing \r), at or after `from`; -1 if none. */
function lineAt(text: string, line: string, from = 0): number {
  let pos = from === 0 ? 0 : text.indexOf("\n", from - 1) + 1;
  if (from !== 0 && pos === 0) return -1;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    if (text.slice(pos, end).replace(/\r$/, "") === line) return pos;
    if (nl === -1) break;
    pos = nl + 1;
  }
  return -1;
}

const KEY = String.raw`(?:verdict|"verdict"|'verdict')`;
const TABLE_HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;

/**
 * The 1-based line of a verdict server definition outside our block, or of an inline
 * `mcp_servers = {…}` table (which a new table cannot extend), or null.
 */
export function foreignDefinition(text: string, block: Span | null): { line: number; what: string } | null {
  const lines = text.split("\n");
  let offset = 0;
  let table = "";
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, "");
    const inBlock = block !== null && offset >= block.start && offset < block.end;
    offset += lines[i]!.length + 1;
    if (inBlock) continue;
    const header = TABLE_HEADER.exec(raw);
    if (header) {
      table = header[1]!.replace(/\s*\.\s*/g, ".");
      if (new RegExp(`^mcp_servers\\.${KEY}(\\.|$)`).test(table)) {
        return { line: i + 1, what: `a [${table}] table` };
      }
      continue;
    }
    if (table === "" && /^\s*mcp_servers\s*=/.test(raw)) {
      return { line: i + 1, what: "an inline mcp_servers table" };
    }
    if (table === "" && new RegExp(`^\\s*mcp_servers\\s*\\.\\s*${KEY}\\s*[.=]`).test(raw)) {
      return { line: i + 1, what: "a mcp_servers.verdict key" };
    }
    if (table === "mcp_servers" && new RegExp(`^\\s*${KEY}\\s*[.=]`).test(raw)) {
      return { line: i + 1, what: "a verdict entry of [mcp_servers]" };
    }
  }
  return null;
}

/** Adds (or brings up to date) our block. `text` is "" for a missing file. */
export function installCodex(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  const block = findBlock(text, path);
  const foreign = foreignDefinition(text, block);
  if (foreign) {
    throw new HostFileError(
      `refusing to edit "${path}": line ${foreign.line} holds ${foreign.what} that "verdict install" did not write`,
      "remove or rename that definition by hand, or skip Codex with --claude; nothing was changed",
    );
  }
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  const wanted = codexBlock(bin, env, nl);
  if (block) {
    if (text.slice(block.start, block.end) === wanted) return { text, changes: [], notes: [] };
    const out = text.slice(0, block.start) + wanted + text.slice(block.end);
    return { text: out, changes: ["[mcp_servers.verdict] updated"], notes: [] };
  }
  // A blank line before the block (uninstall takes it away with the block).
  const sep = text === "" ? "" : text.endsWith("\n") ? nl : nl + nl;
  return { text: text + sep + wanted, changes: ["[mcp_servers.verdict] added"], notes: [] };
}

/** Removes our block (and nothing else). */
export function uninstallCodex(text: string, path: string): EditResult {
  const block = findBlock(text, path);
  const notes = foreignDefinition(text, block)
    ? ["a verdict MCP server not written by verdict install is left as is"]
    : [];
  if (!block) return { text, changes: [], notes };
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  const before = text.slice(0, block.start);
  const start = before.endsWith(nl + nl) ? block.start - nl.length : block.start;
  return {
    text: text.slice(0, start) + text.slice(block.end),
    changes: ["[mcp_servers.verdict] removed"],
    notes,
  };
}

/** Is verdict registered: by our block ("ours"), by someone else ("other"), or not (null)? */
export function codexMcpState(text: string, path: string): "ours" | "other" | null {
  const block = findBlock(text, path);
  if (block) return "ours";
  const foreign = foreignDefinition(text, null);
  return foreign && foreign.what !== "an inline mcp_servers table" ? "other" : null;
}
