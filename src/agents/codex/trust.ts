/**
 * Codex's hook trust gate, as Codex 0.169 itself keeps it. A hook from a user-level hooks.json
 * runs only when config.toml holds, for its key, the hash of the hook as Codex normalizes it;
 * otherwise Codex skips it without a word. (Seen with the real binary: `codex exec` runs no
 * untrusted hook; the TUI asks "Hooks need review" and `/hooks` trusts them.)
 *
 *   [hooks.state."<path of hooks.json>:<event_snake>:<group index>:<handler index>"]
 *   trusted_hash = "sha256:<hex>"
 *
 * The hash (checked against Codex's own `hooks/list` answer for seven variations, and by the
 * client tests against the real binary): sha256 of the compact JSON, keys sorted at every level,
 * of `{event_name, matcher?, hooks: [{type: "command", command, timeout, async, statusMessage?}]}`
 * where `timeout` defaults to 600 (at least 1), `async` to false, absent values are left out, and
 * the matcher is dropped for events that take none (MATCHERLESS_EVENTS). Where the hook sits
 * (the key) and what it runs (the hash) both count: an edit of either un-trusts it.
 *
 * Pure: text in, values out (the hash uses node:crypto's synchronous sha256).
 */
import { topLevelLines } from "../../hostfile/toml_lines.ts";
import { createHash } from "node:crypto";

/** Codex ignores a matcher on these events (its hash drops it too; seen: same hash with and without). */
export const MATCHERLESS_EVENTS: readonly string[] = ["UserPromptSubmit", "Stop", "Interrupt"];

/** Codex's default hook timeout in seconds, used in the hash when a handler names none. */
export const DEFAULT_TIMEOUT_SEC = 600;

/** "UserPromptSubmit" → "user_prompt_submit" (Codex's event key label). */
export function eventKeyLabel(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase();
}

/** The key of a hook's `[hooks.state."…"]` table. */
export function hookStateKey(sourcePath: string, event: string, group: number, handler: number): string {
  return `${sourcePath}:${eventKeyLabel(event)}:${group}:${handler}`;
}

/** A command handler as hooks.json holds it (only the fields the hash reads). */
export interface CommandHandler {
  readonly command: string;
  readonly timeout?: number;
  readonly async?: boolean;
  readonly statusMessage?: string;
}

/** JSON with object keys sorted at every level and no spaces (serde_json's compact output). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The `trusted_hash` Codex expects for a command hook of `event` in a group with `matcher`. */
export function hookTrustHash(event: string, matcher: string | null, handler: CommandHandler): string {
  const timeout = Math.max(1, Math.trunc(handler.timeout ?? DEFAULT_TIMEOUT_SEC));
  const identity = {
    event_name: eventKeyLabel(event),
    matcher: MATCHERLESS_EVENTS.includes(event) || matcher === null ? undefined : matcher,
    hooks: [{
      type: "command",
      command: handler.command,
      timeout,
      async: handler.async ?? false,
      statusMessage: handler.statusMessage,
    }],
  };
  return `sha256:${createHash("sha256").update(canonicalJson(identity)).digest("hex")}`;
}

/** What config.toml says about one hook key. */
export interface HookState {
  readonly trustedHash: string | null;
  /** `enabled = false` turns a hook off whatever its trust. */
  readonly enabled: boolean | null;
  /** 1-based line of the table header. */
  readonly line: number;
}

const STATE_HEADER = /^\s*\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]\s*(#.*)?$/;
const ANY_HEADER = /^\s*\[/;
const STRING_VALUE = /^\s*(trusted_hash|enabled)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|true|false)\s*(#.*)?$/;

/** The value of a TOML basic or literal string token. */
function tomlStringValue(token: string): string {
  if (token.startsWith("'")) return token.slice(1, -1);
  const json = token.replace(/\\U([0-9A-Fa-f]{8})/g, (_, h) => String.fromCodePoint(parseInt(h, 16)));
  try {
    return JSON.parse(json);
  } catch {
    return token.slice(1, -1); // an escape JSON lacks (TOML 1.1's \e, \xHH): compare it as written
  }
}

/**
 * The `[hooks.state."<key>"]` tables of a config.toml, by key: the form Codex writes. Other
 * spellings (an inline `state = {…}` table, dotted keys) are not read; `hooksStateIsInline`
 * tells when one is there, so a caller can say it could not look.
 */
export function readHookStates(configText: string): Map<string, HookState> {
  const out = new Map<string, HookState>();
  let current: { key: string; line: number; trustedHash: string | null; enabled: boolean | null } | null =
    null;
  const flush = () => {
    if (current) {
      out.set(current.key, {
        trustedHash: current.trustedHash,
        enabled: current.enabled,
        line: current.line,
      });
    }
    current = null;
  };
  for (const { text: line, index: i } of topLevelLines(configText)) {
    const header = STATE_HEADER.exec(line);
    if (header) {
      flush();
      current = { key: tomlStringValue(header[1]!), line: i + 1, trustedHash: null, enabled: null };
      continue;
    }
    if (ANY_HEADER.test(line)) {
      flush();
      continue;
    }
    const value = current ? STRING_VALUE.exec(line) : null;
    if (value && current) {
      const token = value[2]!;
      if (value[1] === "trusted_hash" && token !== "true" && token !== "false") {
        current.trustedHash = tomlStringValue(token);
      } else if (value[1] === "enabled") current.enabled = token === "true";
    }
  }
  flush();
  return out;
}

/**
 * Is the hook state written in a form readHookStates does not read (and a `[hooks.state."…"]`
 * table could not be added to without breaking the file)? An inline `hooks = {…}`, a
 * `state = …` key in `[hooks]`, or a dotted `hooks.state… =` key.
 */
export function hooksStateIsInline(configText: string): boolean {
  let table = "";
  for (const { text: line } of topLevelLines(configText)) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      table = header[1]!.replace(/\s*\.\s*/g, ".");
      continue;
    }
    if (table === "" && /^\s*hooks\s*(=|\.\s*state\s*[.=])/.test(line)) return true;
    if (table === "hooks" && /^\s*state\s*[.=]/.test(line)) return true;
  }
  return false;
}
