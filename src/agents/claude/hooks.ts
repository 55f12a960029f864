/**
 * The three Claude Code hooks verdict wires into settings.json. The edits themselves are the
 * shared settings-file hook edits (src/install/settings_hooks.ts, where the installed command
 * and its marker are described); this is Claude Code's table and its names for them.
 */
import type { EditResult } from "../../install/errors.ts";
import {
  type HookStatus,
  type HookTable,
  installSettingsHooks,
  settingsHookStatus,
  uninstallSettingsHooks,
} from "../../install/settings_hooks.ts";

export {
  hookCommand,
  hookLabel,
  type HookSpec,
  type HookStatus,
  type HookSub,
  INSTALL_MARKER,
  installedHookProgram,
  isHandWiredHandler,
  isOurHandler,
} from "../../install/settings_hooks.ts";

/** Seconds Claude Code waits. The hint gives up on its own after 400 ms; 5 s is the backstop. */
const HINT_TIMEOUT_S = 5;
/** The compaction verdict runs git and reads the transcript: 30 s before Claude Code gives up. */
const PRE_COMPACT_TIMEOUT_S = 30;
/** The handoff is one small file read. */
const SESSION_START_TIMEOUT_S = 10;

export const HOOKS: HookTable["specs"] = [
  { event: "UserPromptSubmit", sub: "user-prompt", matcher: null, fields: { timeout: HINT_TIMEOUT_S } },
  {
    event: "PreCompact",
    sub: "pre-compact",
    matcher: null,
    fields: { timeout: PRE_COMPACT_TIMEOUT_S, statusMessage: "verdict: checking for unlanded work" },
  },
  // SessionStart fires for several sources; only "compact" needs the handoff.
  {
    event: "SessionStart",
    sub: "session-start",
    matcher: "compact",
    fields: { timeout: SESSION_START_TIMEOUT_S },
  },
];

/** Claude Code is the hook commands' default agent: its commands name none. */
export const CLAUDE_HOOKS: HookTable = { specs: HOOKS, agent: null };

/** Adds (or brings up to date) verdict's three hooks. `text` is "" for a missing file. */
export function installHooks(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return installSettingsHooks(CLAUDE_HOOKS, text, path, bin, env);
}

/** Removes every hook install wrote, and nothing else. */
export function uninstallHooks(text: string, path: string): EditResult {
  return uninstallSettingsHooks(CLAUDE_HOOKS, text, path);
}

export function hookStatus(text: string, path: string): HookStatus[] {
  return settingsHookStatus(CLAUDE_HOOKS, text, path);
}
