/**
 * The Codex hooks verdict wires into `<codex home>/hooks.json` (the same JSON shape as Claude
 * Code's settings, src/hostfile/hook_json.ts), and where Codex's trust gate looks for them.
 *
 * Claude Code's three: UserPromptSubmit (the hint), PreCompact (the compaction verdict, judged
 * from the rollout re-framed by judge_lines.ts) and SessionStart with matcher "compact" (the
 * handoff, after the compaction). Codex 0.169 fires PreCompact on `/compact` (trigger "manual")
 * and before an automatic compaction ("auto"), and SessionStart with source "compact" before the
 * next model request after either (seen with the real binary). Each command passes
 * `--agent codex`; timeouts are in seconds.
 */
import type { EditResult, MayPrune } from "../../hostfile/errors.ts";
import {
  commandOf,
  handlersIn,
  hookHandler,
  hooksObject,
  type HookSpec,
  type HookStatus,
  installJsonHooks,
  isHandWiredHandler,
  isOurHandler,
  jsonHookStatus,
  uninstallJsonHooks,
} from "../../hostfile/hook_json.ts";
import { nodeValue } from "../../hostfile/json_edit.ts";
import { removedWhenEmpty, rootObject } from "../../hostfile/host_json.ts";
import { hookStateKey, hookTrustHash } from "./trust.ts";
import { isDeepStrictEqual } from "node:util";

/** Seconds Codex waits. The hint gives up on its own after 400 ms; 5 s is the backstop. */
const HINT_TIMEOUT_S = 5;
/** Judging a session runs git and reads the rollout: as Claude Code's 30 s. */
const PRE_COMPACT_TIMEOUT_S = 30;
/** The handoff is one small file read. */
const SESSION_START_TIMEOUT_S = 10;

export const CODEX_HOOKS: readonly HookSpec[] = [
  {
    event: "UserPromptSubmit",
    sub: "user-prompt",
    matcher: null,
    timeout: HINT_TIMEOUT_S,
    statusMessage: null,
    agent: "codex",
  },
  {
    event: "PreCompact",
    sub: "pre-compact",
    matcher: null,
    timeout: PRE_COMPACT_TIMEOUT_S,
    statusMessage: "verdict: checking for unlanded work",
    agent: "codex",
  },
  // SessionStart fires for several sources; only "compact" needs the handoff (Codex matches the
  // matcher against the source: seen, the startup one did not run it).
  {
    event: "SessionStart",
    sub: "session-start",
    matcher: "compact",
    timeout: SESSION_START_TIMEOUT_S,
    statusMessage: null,
    agent: "codex",
  },
];

export function installCodexHooks(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return installJsonHooks(CODEX_HOOKS, text, path, bin, env);
}

/**
 * Removes verdict's hooks; a hooks.json left with nothing in it is deleted (Codex reads a missing
 * file the same way, and install may have created it).
 */
export function uninstallCodexHooks(text: string, path: string, mayPrune?: MayPrune): EditResult {
  return removedWhenEmpty(uninstallJsonHooks(CODEX_HOOKS, text, path, mayPrune));
}

export function codexHookStatus(text: string, path: string): HookStatus[] {
  return jsonHookStatus(CODEX_HOOKS, text, path);
}

/** One of verdict's hooks in hooks.json, with the trust Codex wants for it. */
export interface TrustWanted {
  /** The event ("UserPromptSubmit"), for messages. */
  readonly label: string;
  /** The `[hooks.state."…"]` key. */
  readonly key: string;
  /** The `trusted_hash` that trusts exactly this hook. */
  readonly hash: string;
}

function optionalString(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** Exactly the handlers install writes for `bin` and `env` (the only ones install trusts). */
export function isExactlyOurs(
  bin: string,
  env: Readonly<Record<string, string>>,
): (handler: unknown) => boolean {
  const ours = CODEX_HOOKS.map((spec) => hookHandler(spec, bin, env));
  return (handler) => ours.some((h) => isDeepStrictEqual(h, handler));
}

/** Any handler that runs one of verdict's hooks, written by install or by hand (what doctor checks). */
export function runsVerdict(handler: unknown): boolean {
  return isOurHandler(handler) || CODEX_HOOKS.some((s) => isHandWiredHandler(handler, s.sub));
}

/**
 * The handlers of a hooks.json text that `accept` picks, each with its trust key and hash.
 * `agentPath` is the path Codex names the file by (HostFile.agentPath in mod.ts).
 */
export function wantedTrust(
  hooksText: string,
  hooksPath: string,
  agentPath: string,
  accept: (handler: unknown) => boolean,
): TrustWanted[] {
  if (hooksText.trim() === "") return [];
  const hooks = hooksObject(rootObject(hooksText, hooksPath), hooksPath);
  if (!hooks) return [];
  const out: TrustWanted[] = [];
  for (const at of handlersIn(hooks)) {
    const handler = nodeValue(at.handler) as Record<string, unknown>;
    const command = commandOf(handler);
    if (command === null || !accept(handler)) continue;
    const group = nodeValue(at.group) as Record<string, unknown>;
    const matcher = typeof group.matcher === "string" ? group.matcher : null;
    out.push({
      label: at.event,
      key: hookStateKey(agentPath, at.event, at.groupIndex, at.handlerIndex),
      hash: hookTrustHash(at.event, matcher, {
        command,
        timeout: typeof handler.timeout === "number" ? handler.timeout : undefined,
        async: typeof handler.async === "boolean" ? handler.async : undefined,
        statusMessage: optionalString(handler.statusMessage),
      }),
    });
  }
  return out;
}
