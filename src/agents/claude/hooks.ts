/**
 * The three Claude Code hooks verdict wires into settings.json. The edits themselves are the
 * shared settings-file hook edits (src/hostfile/hook_json.ts, where the installed command
 * and its marker are described); this is Claude Code's table and its names for them.
 */
import type { EditResult, MayPrune } from "../../hostfile/errors.ts";
import {
  type HookSpec,
  type HookStatus,
  installJsonHooks,
  jsonHookStatus,
  uninstallJsonHooks,
} from "../../hostfile/hook_json.ts";

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
} from "../../hostfile/hook_json.ts";

/** Seconds Claude Code waits. The hint gives up on its own after 400 ms; 5 s is the backstop. */
const HINT_TIMEOUT_S = 5;
/** The compaction verdict runs git and reads the transcript: 30 s before Claude Code gives up. */
const PRE_COMPACT_TIMEOUT_S = 30;
/** The handoff is one small file read. */
const SESSION_START_TIMEOUT_S = 10;

/** Claude Code is the hook commands' default agent: its commands name none. */
export const HOOKS: readonly HookSpec[] = [
  {
    event: "UserPromptSubmit",
    sub: "user-prompt",
    matcher: null,
    timeout: HINT_TIMEOUT_S,
    statusMessage: null,
  },
  {
    event: "PreCompact",
    sub: "pre-compact",
    matcher: null,
    timeout: PRE_COMPACT_TIMEOUT_S,
    statusMessage: "verdict: checking for unlanded work",
  },
  // SessionStart fires for several sources; only "compact" needs the handoff.
  {
    event: "SessionStart",
    sub: "session-start",
    matcher: "compact",
    timeout: SESSION_START_TIMEOUT_S,
    statusMessage: null,
  },
];

/** Adds (or brings up to date) verdict's three hooks. `text` is "" for a missing file. */
export function installHooks(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return installJsonHooks(HOOKS, text, path, bin, env);
}

/** Removes every hook install wrote, and nothing else. */
export function uninstallHooks(text: string, path: string, mayPrune?: MayPrune): EditResult {
  return uninstallJsonHooks(HOOKS, text, path, mayPrune);
}

export function hookStatus(text: string, path: string): HookStatus[] {
  return jsonHookStatus(HOOKS, text, path);
}
