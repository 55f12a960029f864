/**
 * The agents verdict reads and wires into: one row each. collect, install, uninstall, doctor,
 * the permission plan and the help text iterate over this table, so adding an agent is its
 * folder (`src/agents/<id>/mod.ts` exporting `kit`, see agent.ts), one row here and its loader
 * in loaded.ts; the tests in tests/agents/registry_test.ts fail while any part of it is missing.
 *
 * A row holds no code and names no folder (loaded.ts loads them): the launcher's command table,
 * the record checker and the per-prompt hook import this file, and a dynamic import written
 * here would have `deno run` read that folder's whole module graph before every hook starts.
 */
import type { AgentEntry, HookDialect } from "./agent.ts";
import { type RecordOrigin, SOURCE_ORIGINS } from "../record/record.ts";

export const AGENTS: readonly AgentEntry[] = [
  {
    id: "claude",
    label: "Claude Code",
    wires: "hooks and MCP server",
    readsHelp: "typed prompts and memory-file writes from Claude Code (~/.claude/projects, " +
      "~/.claude/history.jsonl) and its memory files (~/.claude/projects/*/memory/*.md)",
    installHelp: "the UserPromptSubmit, PreCompact and SessionStart(compact) hooks in settings.json " +
      "($CLAUDE_CONFIG_DIR, else ~/.claude), and mcpServers.verdict (user scope) in ~/.claude.json " +
      "($CLAUDE_CONFIG_DIR/.claude.json when that is set).",
    checksHelp: "its three hooks are in settings.json and run this verdict",
    hookDialect: () => import("./claude/hook_dialect.ts"),
  },
  {
    id: "codex",
    label: "Codex",
    wires: "hooks and MCP server",
    readsHelp: "typed input and AGENTS.md writes from Codex TUI sessions (~/.codex/sessions)",
    installHelp: "the UserPromptSubmit, PreCompact and SessionStart(compact) hooks in hooks.json, and a " +
      "delimited block in config.toml holding [mcp_servers.verdict] and the [hooks.state] entries by " +
      "which Codex trusts those hooks (both in $CODEX_HOME, else ~/.codex). Codex runs no hook it has " +
      "not been told to trust.",
    checksHelp: "its three hooks are in hooks.json, run this verdict, are trusted in config.toml and " +
      "not turned off",
    hookDialect: () => import("./codex/hook_dialect.ts"),
  },
  {
    id: "gemini",
    label: "Gemini CLI",
    wires: "hooks and MCP server",
    readsHelp: "typed prompts and memory-file writes from Gemini CLI terminal sessions " +
      "(~/.gemini/tmp/*/chats, with each project's logs.json)",
    installHelp: "the BeforeAgent hook and mcpServers.verdict in settings.json " +
      "($GEMINI_CLI_HOME/.gemini, else ~/.gemini).",
    checksHelp: "its BeforeAgent hook is in settings.json, runs this verdict and is not turned off " +
      "(hooksConfig), and mcp.allowed / mcp.excluded let the MCP server start",
    hookDialect: () => import("./gemini/hook_dialect.ts"),
  },
  {
    id: "opencode",
    label: "OpenCode",
    wires: "hint plugin and MCP server",
    readsHelp: "typed prompts and AGENTS.md writes from OpenCode's SQLite store " +
      "(~/.local/share/opencode/opencode.db, with its write-ahead log; read without writing or locking it)",
    installHelp: "a hint plugin ~/.config/opencode/plugin/verdict.js (chat.message; uninstall deletes it) " +
      "and mcp.verdict in ~/.config/opencode/opencode.json ($XDG_CONFIG_HOME/opencode when that is set).",
    checksHelp: "its hint plugin is verdict's and runs this verdict",
    // The plugin sends Claude's hook JSON and adds the context as a synthetic part itself.
    hookDialect: () => import("./opencode/hook_dialect.ts"),
  },
  {
    id: "qwen",
    label: "Qwen Code",
    wires: "hooks and MCP server",
    readsHelp: "typed prompts and memory-file writes from Qwen Code (~/.qwen/projects/*/chats, " +
      "$QWEN_RUNTIME_DIR when set) and its memory files (~/.qwen/projects/*/memory/*.md)",
    installHelp: "the UserPromptSubmit, PreCompact and SessionStart(compact) hooks and mcpServers.verdict " +
      "in settings.json ($QWEN_HOME, else ~/.qwen).",
    checksHelp: "its three hooks are in settings.json, run this verdict and are not turned off " +
      "(disableAllHooks, tools.executionSandbox), and mcp.allowed / mcp.excluded let the MCP server start",
    hookDialect: () => import("./qwen/hook_dialect.ts"),
  },
  {
    id: "copilot",
    label: "Copilot CLI",
    wires: "hook and MCP server",
    readsHelp: "typed prompts and memory-file writes from GitHub Copilot CLI sessions " +
      "(~/.copilot/session-state/*/events.jsonl)",
    installHelp: "the userPromptSubmitted hook in settings.json and mcpServers.verdict in mcp-config.json " +
      "($COPILOT_HOME, else ~/.copilot).",
    checksHelp: "its userPromptSubmitted hook is in settings.json, runs this verdict and is not turned " +
      "off (disableAllHooks), with how many folders its trust list holds",
    hookDialect: () => import("./copilot/hook_dialect.ts"),
  },
  {
    id: "pi",
    label: "pi",
    wires: "extension (hint and compaction verdict)",
    readsHelp: "typed prompts and memory-file writes from pi sessions (~/.pi/agent/sessions; " +
      "`pi -p` runs only with include_headless, told apart by verdict's extension)",
    installHelp: "a TypeScript extension extensions/verdict.ts in $PI_CODING_AGENT_DIR, else ~/.pi/agent " +
      "(the hint before pi starts on a prompt, the compaction verdict and its handoff; uninstall deletes " +
      "it). No MCP server: pi has no MCP support.",
    checksHelp: "its extension is verdict's, runs this verdict and is not excluded in settings.json",
    noMcp: "pi has no MCP support, by design",
    hookDialect: () => import("./pi/hook_dialect.ts"),
  },
  {
    id: "cline",
    label: "Cline CLI",
    wires: "hint plugin and MCP server",
    readsHelp: "typed prompts and .clinerules / AGENTS.md writes from Cline CLI sessions " +
      '(~/.cline/data/sessions/*/*.messages.json, each read whole; `cline "<prompt>"` runs only with ' +
      "include_headless, told apart by the session's meta file)",
    installHelp: "a hint plugin plugins/verdict.js in $CLINE_DIR, else ~/.cline (it runs before each " +
      "prompt; uninstall deletes it), and mcpServers.verdict in data/settings/cline_mcp_settings.json " +
      "there ($CLINE_DATA_DIR moves data/). No compaction verdict: Cline runs no hook before a compaction.",
    checksHelp: "its hint plugin is verdict's and runs this verdict",
    hookDialect: () => import("./cline/hook_dialect.ts"),
  },
];

/** Every agent id: the `origin` values of agent records. */
export const AGENT_IDS: readonly string[] = AGENTS.map((a) => a.id);

/** Every origin a record may have: an agent's id, or a source of its own (docs, git). */
export const RECORD_ORIGINS: readonly RecordOrigin[] = [...AGENT_IDS, ...SOURCE_ORIGINS];

export function findAgentEntry(id: string): AgentEntry | undefined {
  return AGENTS.find((a) => a.id === id);
}

/** The agent whose hook dialect a hook entry uses when its command line names none. */
export const DEFAULT_HOOK_AGENT = "claude";

/**
 * The hook dialect of the agent a hook command names with `--agent` (Claude Code's when it names
 * none), or null for an id no agent has, or an agent verdict wires no hook into.
 */
export async function hookDialectOf(id: string | undefined): Promise<HookDialect | null> {
  const key = id ?? DEFAULT_HOOK_AGENT;
  const known = loadedDialects.get(key);
  if (known !== undefined) return known;
  const load = findAgentEntry(key)?.hookDialect;
  const dialect = load ? (await load()).dialect : null;
  loadedDialects.set(key, dialect);
  return dialect;
}

/**
 * Dialects already loaded, by agent id: the warm helper asks for one at every prompt, and even a
 * loaded module's import() costs a few event-loop turns (~15 µs a prompt there).
 */
const loadedDialects = new Map<string, HookDialect | null>();

/** "A", "A and B", "A, B and C". */
export function andList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "A", "A or B", "A, B or C". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** "A", "neither A nor B", "none of A, B or C". */
export function noneOfList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  if (items.length === 2) return `neither ${items[0]} nor ${items[1]}`;
  return `none of ${orList(items)}`;
}
