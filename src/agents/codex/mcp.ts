/**
 * verdict's entries in Codex's config.toml, without a TOML library: install appends one clearly
 * delimited block (after a blank line) and uninstall cuts exactly that out again; no other byte
 * is touched. The block holds the MCP server and, for each hook of verdict's that hooks.json
 * (planned first in the same job) holds, the trust Codex requires before it runs a hook
 * (trust.ts), recorded the way Codex records it when a person trusts a hook in its /hooks view:
 *
 *   # >>> verdict: added by "verdict install"; "verdict uninstall" removes this block >>>
 *   [mcp_servers.verdict]
 *   command = "/opt/verdict/verdict"
 *   args = ["mcp"]
 *
 *   [hooks.state."/home/u/.codex/hooks.json:user_prompt_submit:0:0"]
 *   trusted_hash = "sha256:…"
 *   # <<< verdict <<<
 *
 * Trust is recorded only for the exact handler install wrote (its hash covers the command), so
 * no other hook, and no later edit of ours, is trusted by it.
 *
 * A `verdict` server defined anywhere else in the file (a [mcp_servers.verdict] table, a dotted
 * key, an entry of an [mcp_servers] table or inline table) was not written by us: install refuses
 * and uninstall leaves it. A hook state Codex already keeps for one of our keys outside the block
 * is left to Codex (a second table for the key would break the file); install says so when it
 * does not trust our hook as written.
 */
import type { McpState } from "../../hostfile/mcp_servers.ts";
import type { PlannedFiles } from "../agent.ts";
import { type EditResult, HostFileError } from "../../hostfile/errors.ts";
import { tomlString } from "../../hostfile/shell.ts";
import { topLevelLines } from "../../hostfile/toml_lines.ts";
import { isExactlyOurs, type TrustWanted, wantedTrust } from "./hooks.ts";
import { hooksStateIsInline, readHookStates } from "./trust.ts";

/** The role of the hooks.json host file (mod.ts), whose planned text says what to trust. */
export const HOOKS_ROLE = "codex-hooks";

export const BLOCK_BEGIN =
  '# >>> verdict: added by "verdict install"; "verdict uninstall" removes this block >>>';
export const BLOCK_END = "# <<< verdict <<<";

/** The block install writes (lines joined with `nl`, ending with one). */
export function codexBlock(
  bin: string,
  env: Readonly<Record<string, string>>,
  nl = "\n",
  trust: readonly TrustWanted[] = [],
): string {
  const lines = [BLOCK_BEGIN, "[mcp_servers.verdict]", `command = ${tomlString(bin)}`, 'args = ["mcp"]'];
  const entries = Object.entries(env);
  if (entries.length > 0) {
    lines.push(`env = { ${entries.map(([k, v]) => `${k} = ${tomlString(v)}`).join(", ")} }`);
  }
  for (const t of trust) {
    lines.push("", `[hooks.state.${tomlString(t.key)}]`, `trusted_hash = ${tomlString(t.hash)}`);
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
 * `mcp_servers = {…}` table (which a new table cannot extend), or null. Only lines at the
 * document's top level count: the same text inside a multi-line string or array is a value.
 */
export function foreignDefinition(text: string, block: Span | null): { line: number; what: string } | null {
  let table = "";
  for (const { text: raw, index: i, offset } of topLevelLines(text)) {
    const inBlock = block !== null && offset >= block.start && offset < block.end;
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

/**
 * Which hooks the block trusts: each one hooks.json holds that `accept` picks (exactly what
 * install wrote), except those Codex already keeps a state for outside the block (with a note
 * when that state does not trust the hook as written); none when the file keeps hook state in a
 * form we cannot extend (with a note saying how to trust them in Codex).
 */
function trustToRecord(
  text: string,
  block: Span | null,
  planned: PlannedFiles,
  accept: (handler: unknown) => boolean,
): { trust: TrustWanted[]; notes: string[] } {
  const hooks = planned.get(HOOKS_ROLE);
  const wanted = hooks ? wantedTrust(hooks.text, hooks.path, hooks.agentPath, accept) : [];
  if (wanted.length === 0) return { trust: [], notes: [] };
  const outside = block ? text.slice(0, block.start) + text.slice(block.end) : text;
  const how = 'trust it in Codex: type /hooks, select it, press "t"';
  if (hooksStateIsInline(outside)) {
    return {
      trust: [],
      notes: [
        `hook trust not recorded: this file keeps hook state inline, which verdict does not edit; ${how}`,
      ],
    };
  }
  const states = readHookStates(outside);
  const trust: TrustWanted[] = [];
  const notes: string[] = [];
  for (const w of wanted) {
    const state = states.get(w.key);
    if (!state) {
      trust.push(w);
    } else if (state.enabled === false) {
      notes.push(
        `${w.label} hook: Codex has it turned off (line ${state.line}); turn it on in Codex with /hooks`,
      );
    } else if (state.trustedHash !== w.hash) {
      notes.push(`${w.label} hook: line ${state.line} trusts another version of it; ${how}`);
    }
  }
  return { trust, notes };
}

/** Adds (or brings up to date) our block. `text` is "" for a missing file. */
export function installCodex(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
  planned: PlannedFiles = new Map(),
): EditResult {
  const block = findBlock(text, path);
  const foreign = foreignDefinition(text, block);
  if (foreign) {
    throw new HostFileError(
      `refusing to edit "${path}": line ${foreign.line} holds ${foreign.what} that "verdict install" did not write`,
      "remove or rename that definition by hand",
    );
  }
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  const { trust, notes } = trustToRecord(text, block, planned, isExactlyOurs(bin, env));
  const wanted = codexBlock(bin, env, nl, trust);
  if (block) {
    const current = text.slice(block.start, block.end);
    if (current === wanted) return { text, changes: [], notes };
    const out = text.slice(0, block.start) + wanted + text.slice(block.end);
    return { text: out, changes: blockChanges(current, wanted), notes };
  }
  // A blank line before the block (uninstall takes it away with the block).
  const sep = text === "" ? "" : text.endsWith("\n") ? nl : nl + nl;
  const trusted = trust.map((t) => `${t.label} hook trusted`);
  return { text: text + sep + wanted, changes: ["[mcp_servers.verdict] added", ...trusted], notes };
}

/** The MCP lines of a block (up to its first hook state table) and its trust by key. */
function blockParts(block: string): { mcp: string; trust: Map<string, string | null> } {
  const cut = block.search(/\r?\n\r?\n\[hooks\.state\./);
  const trust = new Map([...readHookStates(block)].map(([k, v]) => [k, v.trustedHash]));
  return {
    mcp: cut === -1 ? block.slice(0, block.lastIndexOf(BLOCK_END)).trimEnd() : block.slice(0, cut),
    trust,
  };
}

/** What changed between two versions of our block, in words. */
function blockChanges(before: string, after: string): string[] {
  const a = blockParts(before);
  const b = blockParts(after);
  const changes: string[] = [];
  if (a.mcp !== b.mcp) changes.push("[mcp_servers.verdict] updated");
  for (const [key, hash] of b.trust) {
    const event = hookEventOfKey(key);
    if (!a.trust.has(key)) changes.push(`${event} hook trusted`);
    else if (a.trust.get(key) !== hash) changes.push(`${event} hook trust updated`);
  }
  for (const key of a.trust.keys()) if (!b.trust.has(key)) changes.push(`trust of ${key} removed`);
  return changes.length > 0 ? changes : ["verdict block rewritten"];
}

/** "…/hooks.json:user_prompt_submit:0:0" → "UserPromptSubmit". */
function hookEventOfKey(key: string): string {
  const label = key.split(":").slice(-3)[0] ?? key;
  return label.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
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
    changes: [
      "[mcp_servers.verdict] removed",
      ...(block && /\[hooks\.state\./.test(text.slice(block.start, block.end)) ? ["hook trust removed"] : []),
    ],
    notes,
  };
}

/** Is verdict registered: by our block ("ours"), by someone else ("other"), or not (null)? */
export function codexMcpState(text: string, path: string): McpState {
  const block = findBlock(text, path);
  if (block) return "ours";
  const foreign = foreignDefinition(text, null);
  return foreign && foreign.what !== "an inline mcp_servers table" ? "other" : null;
}
