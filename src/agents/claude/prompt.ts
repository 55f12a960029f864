/**
 * Is this Claude Code transcript entry a prompt the person typed? A structural check of ONE
 * parsed JSONL entry (FORMATS.md §1.5), never a guess from the wording alone.
 *
 * Policies (each one is a rule below; the README lists them):
 * 1. Only `type:"user"` entries. Not typed: `isSidechain` (subagent traffic), `isMeta` (expanded
 *    command bodies, caveats, attached documents), `toolUseResult` or any `tool_result` block
 *    (tool output, AskUserQuestion answers, interrupts inside tool results), `isCompactSummary`
 *    (compaction summaries), and `origin` present with `origin.kind !== "human"` (2.1.x relayed
 *    text: peer, channel, coordinator, task-notification, auto-continuation, unclassified). An
 *    entry without `origin` (all versions before 2.1, and some later ones) falls through to the
 *    text rules below.
 * 2. Text = string content, or the `text` blocks joined with "\n" (image blocks are ignored, so an
 *    image-only prompt has no text and yields nothing). Text blocks the VS Code extension adds
 *    beside a typed prompt (`<ide_opened_file>`, `<ide_selection>`) are dropped before joining.
 * 3. Text whose start (after leading whitespace) is in NOT_TYPED_PREFIXES is machine-made.
 * 4. Slash commands: the wrapper (`<command-name>` / `<command-message>`) is machine-made, but the
 *    text inside `<command-args>` was typed. A wrapper with non-empty args yields the line as the
 *    person typed it, "/name args" (the same text `~/.claude/history.jsonl` stores, so the two
 *    dedupe by text); empty args yield nothing.
 * 5. Text containing VERDICT_HINT_MARKER is our own injected hint, never indexed.
 * 6. Headless sessions count only with `includeHeadless`: 2.1.x `entrypoint` starting "sdk-" or
 *    "local-agent" (any other value, e.g. "cli", "claude-vscode", "claude-desktop*", or none, is
 *    interactive). Before 2.1 there is no entrypoint: a version in [1.0.117, 2.1) whose prompt is
 *    a block ARRAY without `thinkingMetadata` is program-driven. Checked against the real samples:
 *    interactive prompts of that era carry `thinkingMetadata` (obra-large, obra-long, jnarowski
 *    two/four/five) or are plain strings (jnarowski-full-session, 2.0.14, typed through a remote
 *    client, has neither), while the summarizer call in obra-short (2.0.9) is an array without it.
 */
import { VERDICT_HINT_MARKER } from "../../record/line_parser.ts";

/**
 * Text starts (after leading whitespace) that mark a user-role entry as machine-made.
 * Extend here when a new injected shape turns up; every reader (transcripts, history, the
 * compaction judge) uses this one table.
 */
export const NOT_TYPED_PREFIXES: readonly string[] = [
  "<command-name>", // slash-command wrapper (2.0.x order); args are rescued first, see policy 4
  "<command-message>", // slash-command wrapper (1.0.x order)
  "<local-command-stdout>", // output of /clear, /context and the like
  "<local-command-stderr>",
  "<local-command-caveat>", // 2.1.x caveat before local-command output
  "Caveat: The messages below were generated", // older caveat text
  "<bash-input>", // "!" bash mode
  "<bash-stdout>",
  "<bash-stderr>",
  "<task-notification>", // background task / agent completion
  "<system-reminder>",
  "<user-prompt-submit-hook>", // old form of hook output
  "[Request interrupted by user", // interrupt markers (both forms)
  "This session is being continued from a previous conversation", // compaction summary
  "<channel ", // MCP channel messages
];

/** Starts of the slash-command wrapper, whose `<command-args>` may hold typed text. */
const COMMAND_WRAPPER_PREFIXES: readonly string[] = ["<command-name>", "<command-message>"];

/**
 * Text blocks the IDE extension sends next to the typed text in the same entry (inferred from the
 * VS Code extension's shape; no real sample). They describe the editor, not the request.
 */
const IDE_CONTEXT_BLOCK_PREFIXES: readonly string[] = ["<ide_opened_file>", "<ide_selection>"];

/** Entrypoint prefixes of sessions nobody typed into (2.1.x): `claude -p`, SDKs, local agents. */
const HEADLESS_ENTRYPOINT_PREFIXES: readonly string[] = ["sdk-", "local-agent"];

/** Versions whose interactive prompts carry `thinkingMetadata` (FORMATS.md §1.6). */
const THINKING_METADATA_FROM: readonly number[] = [1, 0, 117];
/** From 2.1 on, `entrypoint` says how the session started, so the heuristic is not needed. */
const ENTRYPOINT_FROM: readonly number[] = [2, 1, 0];

export interface TypedPromptOptions {
  /** Also accept prompts of headless/SDK/program-driven sessions. */
  readonly includeHeadless: boolean;
}

/** The typed text (trimmed) of a Claude Code transcript entry, or null when nobody typed it. */
export function typedPromptText(entry: unknown, opts: TypedPromptOptions): string | null {
  if (!isObject(entry) || entry.type !== "user") return null;
  if (entry.isSidechain === true || entry.isMeta === true || entry.isCompactSummary === true) return null;
  if (entry.toolUseResult !== undefined) return null;
  if (isObject(entry.origin) && entry.origin.kind !== "human") return null;
  const content = isObject(entry.message) ? entry.message.content : undefined;
  if (Array.isArray(content) && content.some((b) => isObject(b) && b.type === "tool_result")) return null;
  const raw = contentText(content);
  if (raw === null) return null;
  const text = typedText(raw);
  if (text === null) return null;
  if (!opts.includeHeadless && isHeadlessEntry(entry, content)) return null;
  return text;
}

/**
 * Applies the text rules (command args, deny-list, hint marker) to a candidate text; returns the
 * typed text, trimmed, or null. Shared with the history reader after its own slash handling.
 */
export function typedText(raw: string): string | null {
  const start = raw.trimStart();
  let text: string;
  if (COMMAND_WRAPPER_PREFIXES.some((p) => start.startsWith(p))) {
    const typed = slashCommandText(start);
    if (typed === null) return null;
    text = typed;
  } else {
    if (hasNotTypedPrefix(start)) return null;
    text = start.trimEnd();
  }
  if (text === "" || text.includes(VERDICT_HINT_MARKER)) return null;
  return text;
}

/** True when the text (leading whitespace ignored) starts with a NOT_TYPED_PREFIXES entry. */
export function hasNotTypedPrefix(text: string): boolean {
  const start = text.trimStart();
  return NOT_TYPED_PREFIXES.some((p) => start.startsWith(p));
}

/**
 * "/name args" from a slash-command wrapper, or null when its args are empty. The name keeps
 * its leading "/" so the text reads as typed and matches the history file's `display`.
 */
export function slashCommandText(wrapper: string): string | null {
  const args = tagText(wrapper, "command-args")?.trim() ?? "";
  if (args === "") return null;
  const name = tagText(wrapper, "command-name")?.trim() ?? "";
  if (name === "") return args;
  return `${name.startsWith("/") ? name : `/${name}`} ${args}`;
}

/** Whether the entry comes from a session nobody typed into (see policy 6). */
export function isHeadlessEntry(entry: Readonly<Record<string, unknown>>, content: unknown): boolean {
  const entrypoint = entry.entrypoint;
  if (typeof entrypoint === "string") {
    return HEADLESS_ENTRYPOINT_PREFIXES.some((p) => entrypoint.startsWith(p));
  }
  const version = parseVersion(entry.version);
  if (version === null) return false;
  const inThinkingEra = compareVersions(version, THINKING_METADATA_FROM) >= 0 &&
    compareVersions(version, ENTRYPOINT_FROM) < 0;
  return inThinkingEra && entry.thinkingMetadata === undefined && Array.isArray(content);
}

/** String content, or the text blocks joined with "\n"; null when there is no text at all. */
function contentText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block) || block.type !== "text" || typeof block.text !== "string") continue;
    const start = block.text.trimStart();
    if (IDE_CONTEXT_BLOCK_PREFIXES.some((p) => start.startsWith(p))) continue;
    parts.push(block.text);
  }
  return parts.length === 0 ? null : parts.join("\n");
}

/** The inner text of the first `<tag>…</tag>`, or null. */
function tagText(text: string, tag: string): string | null {
  const open = `<${tag}>`;
  const from = text.indexOf(open);
  if (from === -1) return null;
  const to = text.indexOf(`</${tag}>`, from + open.length);
  return to === -1 ? null : text.slice(from + open.length, to);
}

/** "2.0.14" → [2, 0, 14]; anything else (absent, "[trimmed]") → null. */
export function parseVersion(value: unknown): number[] | null {
  if (typeof value !== "string") return null;
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(value);
  if (m === null) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * src/agents/json.ts's isObject, kept here: this module is on the per-prompt hint path (the hint
 * reads the prompt with these rules), which counts its modules (tests/cli/commands_test.ts).
 */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
