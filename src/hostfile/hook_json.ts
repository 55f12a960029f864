/**
 * Hook groups in a JSON settings file, in the shape Claude Code introduced and Codex, Gemini CLI
 * and Qwen Code share (`{"hooks": {"<Event>": [{"matcher"?, "hooks": [{"type": "command",
 * "command", "timeout", …}]}]}}`), and the pure edits that add and remove verdict's entries (text
 * in, text out; see json_edit.ts for what is preserved). Each agent passes the list of hooks it
 * wires (its HookSpec[], src/agents/<id>/hooks.ts), in its own units and keys.
 *
 * An entry install writes runs the binary by absolute path when it has one, carries the
 * VERDICT_* paths set at install time, names the agent when it is not Claude Code (the hook
 * commands print that agent's output shape), exits 0 silently when the binary is gone (a broken
 * install never blocks a prompt), and ends with INSTALL_MARKER, which is how uninstall knows it:
 *
 *   test -x '/opt/verdict/verdict' && exec '/opt/verdict/verdict' hook user-prompt --agent gemini; exit 0 # added by verdict install
 *
 * Hooks that run verdict but were wired by hand (no marker) are left alone by both commands.
 */
import {
  appendItem,
  insertMember,
  type JsonArrayNode,
  type JsonNode,
  type JsonObjectNode,
  member,
  nodeValue,
  removeItem,
  removeMember,
  replaceNode,
} from "./json_edit.ts";
import { isAbsoluteProgram } from "./binary.ts";
import { shellQuote } from "./shell.ts";
import { ALWAYS_PRUNE, type EditResult, HostFileError, type MayPrune } from "./errors.ts";
import type { HookFinding } from "./checks.ts";
import { objectMember, rootObject } from "./host_json.ts";
import { isDeepStrictEqual } from "node:util";

/** verdict's hook entry commands (`verdict hook <sub>`). */
export type HookSub = "user-prompt" | "pre-compact" | "session-start";
const HOOK_SUBS: readonly HookSub[] = ["user-prompt", "pre-compact", "session-start"];

export interface HookSpec {
  /** The host's event name (the key under "hooks": "UserPromptSubmit", "BeforeAgent"). */
  readonly event: string;
  readonly sub: HookSub;
  /** Only for events that fire for several sources ("compact"); null for none. */
  readonly matcher: string | null;
  /** How long the host waits, in the host's unit (Claude Code: seconds; Gemini CLI: ms). */
  readonly timeout: number;
  readonly statusMessage: string | null;
  /** The handler's `name` and `description` (Gemini CLI lists and disables hooks by name). */
  readonly name?: string;
  readonly description?: string;
  /**
   * The `--agent` the command passes, so the hook prints that agent's output shape; absent for
   * Claude Code (the hook commands' default).
   */
  readonly agent?: string;
}

/** Ends every hook command install writes. */
export const INSTALL_MARKER = "# added by verdict install";

export function hookLabel(spec: HookSpec): string {
  return spec.matcher ? `${spec.event}(${spec.matcher})` : spec.event;
}

/** The shell command of one hook entry. */
export function hookCommand(
  bin: string,
  env: Readonly<Record<string, string>>,
  sub: HookSub,
  agent: string | null = null,
): string {
  const prog = shellQuote(bin);
  const guard = isAbsoluteProgram(bin) ? `test -x ${prog}` : `command -v ${prog} >/dev/null`;
  const assigns = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)} `).join("");
  const who = agent === null ? "" : ` --agent ${agent}`;
  return `${guard} && ${assigns}exec ${prog} hook ${sub}${who}; exit 0 ${INSTALL_MARKER}`;
}

export function hookHandler(spec: HookSpec, bin: string, env: Readonly<Record<string, string>>) {
  return {
    type: "command",
    command: hookCommand(bin, env, spec.sub, spec.agent ?? null),
    timeout: spec.timeout,
    ...(spec.statusMessage ? { statusMessage: spec.statusMessage } : {}),
    ...(spec.name ? { name: spec.name } : {}),
    ...(spec.description ? { description: spec.description } : {}),
  };
}

export function hookGroup(spec: HookSpec, bin: string, env: Readonly<Record<string, string>>) {
  return {
    ...(spec.matcher ? { matcher: spec.matcher } : {}),
    hooks: [hookHandler(spec, bin, env)],
  };
}

export function commandOf(handler: unknown): string | null {
  if (typeof handler !== "object" || handler === null) return null;
  const c = (handler as Record<string, unknown>).command;
  return typeof c === "string" ? c : null;
}

/** The sub-command an installed entry runs: ` hook <sub>[ --agent <id>]; exit 0 `. */
const INSTALLED_SUB = / hook ([a-z-]+)(?: --agent [a-z0-9-]+)?; exit 0 /;

/** Did install write this handler (for `sub`, or for any of verdict's hooks when omitted)? */
export function isOurHandler(handler: unknown, sub?: HookSub): boolean {
  const c = commandOf(handler);
  if (c === null || !c.endsWith(INSTALL_MARKER)) return false;
  const m = INSTALLED_SUB.exec(c);
  if (m === null || !HOOK_SUBS.includes(m[1] as HookSub)) return false;
  return sub === undefined || m[1] === sub;
}

/** A handler that runs verdict's hook `sub` but that install did not write. */
export function isHandWiredHandler(handler: unknown, sub: HookSub): boolean {
  const c = commandOf(handler);
  if (c === null || isOurHandler(handler)) return false;
  const direct = new RegExp(`(^|[\\s/'"\\\\])verdict(\\.exe)?['"]?\\s+hook\\s+${sub}(\\s|;|$)`);
  const shim = new RegExp(`verdict-hook\\.sh['"]?\\s+${sub}(\\s|;|$)`);
  return direct.test(c) || shim.test(c);
}

/** The program an installed hook command runs (unquoted), or null. */
export function installedHookProgram(command: string): string | null {
  const m = /exec ('(?:[^']|'\\'')*'|\S+) hook /.exec(command);
  if (!m) return null;
  const word = m[1]!;
  return word.startsWith("'") ? word.slice(1, -1).replaceAll(`'\\''`, "'") : word;
}

/** Where a handler sits: its event, group and position. */
export interface Located {
  readonly event: string;
  readonly eventArr: JsonArrayNode;
  readonly group: JsonObjectNode;
  readonly groupIndex: number;
  readonly handlers: JsonArrayNode;
  readonly handlerIndex: number;
  readonly handler: JsonNode;
}

/** Every handler under hooks.<event>[].hooks[], with where it sits. */
export function handlersIn(hooksObj: JsonObjectNode, event?: string): Located[] {
  const out: Located[] = [];
  for (const m of hooksObj.members) {
    if (event !== undefined && m.key !== event) continue;
    if (m.value.kind !== "array") continue;
    m.value.items.forEach((group, groupIndex) => {
      if (group.kind !== "object") return;
      const hs = member(group, "hooks")?.value;
      if (!hs || hs.kind !== "array") return;
      hs.items.forEach((handler, handlerIndex) =>
        out.push({
          event: m.key,
          eventArr: m.value as JsonArrayNode,
          group,
          groupIndex,
          handlers: hs,
          handlerIndex,
          handler,
        })
      );
    });
  }
  return out;
}

export function hooksObject(root: JsonObjectNode, path: string): JsonObjectNode | null {
  return objectMember(root, "hooks", path, '{"<Event>": [ ... ]}');
}

/** Adds (or brings up to date) the table's hooks. `text` is "" for a missing file. */
export function installJsonHooks(
  specs: readonly HookSpec[],
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  let out = text.trim() === "" ? "{}\n" : text;
  const changes: string[] = [];
  const notes: string[] = [];
  const created: string[] = [];
  for (const spec of specs) {
    const label = hookLabel(spec);
    const group = hookGroup(spec, bin, env);
    const handler = hookHandler(spec, bin, env);
    const root = rootObject(out, path);
    const hooks = hooksObject(root, path);
    if (!hooks) {
      out = insertMember(out, root, "hooks", { [spec.event]: [group] });
      changes.push(`${label} hook added`);
      created.push("hooks", `hooks.${spec.event}`);
      continue;
    }
    const ev = member(hooks, spec.event);
    if (!ev) {
      out = insertMember(out, hooks, spec.event, [group]);
      changes.push(`${label} hook added`);
      created.push(`hooks.${spec.event}`);
      continue;
    }
    if (ev.value.kind !== "array") {
      throw new HostFileError(
        `refusing to edit "${path}": hooks.${spec.event} is not a list`,
        `fix hooks.${spec.event} by hand (a list of {"matcher", "hooks"} groups); nothing was changed`,
      );
    }
    const all = handlersIn(hooks, spec.event);
    const ours = all.filter((h) => isOurHandler(nodeValue(h.handler), spec.sub));
    const first = ours[0];
    if (first) {
      const groupIsOurs = handlersOnlyOurs(first.handlers);
      const current = nodeValue(groupIsOurs ? first.group : first.handler);
      const wanted = groupIsOurs ? group : handler;
      if (!isDeepStrictEqual(current, wanted)) {
        out = replaceNode(out, groupIsOurs ? first.group : first.handler, wanted);
        changes.push(`${label} hook updated`);
      }
      if (ours.length > 1) {
        // Duplicates of our own entry: keep the first, drop the rest (one at a time, re-parsed).
        out = removeDuplicates(out, path, spec);
        changes.push(`${label} duplicate hook removed`);
      }
      continue;
    }
    if (all.some((h) => isHandWiredHandler(nodeValue(h.handler), spec.sub))) {
      notes.push(`${label}: a verdict hook wired by hand is already there; left as is`);
      continue;
    }
    out = appendItem(out, ev.value, group);
    changes.push(`${label} hook added`);
  }
  return {
    text: changes.length === 0 ? text : out,
    changes,
    notes,
    ...(created.length > 0 ? { created } : {}),
  };
}

function handlersOnlyOurs(handlers: JsonArrayNode): boolean {
  return handlers.items.every((h) => isOurHandler(nodeValue(h)));
}

function removeDuplicates(text: string, path: string, spec: HookSpec): string {
  let out = text;
  for (;;) {
    const hooks = hooksObject(rootObject(out, path), path)!;
    const ours = handlersIn(hooks, spec.event).filter((h) => isOurHandler(nodeValue(h.handler), spec.sub));
    const extra = ours[1];
    if (!extra) return out;
    out = removeLocated(out, rootObject(out, path), hooks, extra, ALWAYS_PRUNE);
  }
}

/**
 * Removes one handler; a group it leaves empty goes with it (install writes whole groups), and so
 * do an event list or a hooks object it leaves empty when `mayPrune` says install created them.
 */
function removeLocated(
  text: string,
  root: JsonObjectNode,
  hooks: JsonObjectNode,
  at: Located,
  mayPrune: MayPrune,
): string {
  if (at.handlers.items.length > 1) return removeItem(text, at.handlers, at.handlerIndex);
  if (at.eventArr.items.length > 1 || !mayPrune(`hooks.${at.event}`)) {
    return removeItem(text, at.eventArr, at.groupIndex);
  }
  if (hooks.members.length > 1 || !mayPrune("hooks")) return removeMember(text, hooks, at.event);
  return removeMember(text, root, "hooks");
}

/** The label of an installed handler found under `event`: its spec's, else "<event> (<sub>)". */
function foundLabel(specs: readonly HookSpec[], event: string, handler: unknown): string {
  const spec = specs.find((s) => s.event === event && isOurHandler(handler, s.sub));
  if (spec) return hookLabel(spec);
  const sub = INSTALLED_SUB.exec(commandOf(handler) ?? "")?.[1] ?? "hook";
  return `${event} (${sub})`;
}

/** Removes every hook install wrote (under any event), and nothing else. */
export function uninstallJsonHooks(
  specs: readonly HookSpec[],
  text: string,
  path: string,
  mayPrune: MayPrune = ALWAYS_PRUNE,
): EditResult {
  if (text.trim() === "") return { text, changes: [], notes: [] };
  let out = text;
  const changes: string[] = [];
  for (;;) {
    const root = rootObject(out, path);
    const hooks = hooksObject(root, path);
    if (!hooks) break;
    const found = handlersIn(hooks).find((h) => isOurHandler(nodeValue(h.handler)));
    if (!found) break;
    changes.push(`${foundLabel(specs, found.event, nodeValue(found.handler))} hook removed`);
    out = removeLocated(out, root, hooks, found, mayPrune);
  }
  const notes: string[] = [];
  const hooks = hooksObject(rootObject(out, path), path);
  if (hooks) {
    for (const spec of specs) {
      if (handlersIn(hooks, spec.event).some((h) => isHandWiredHandler(nodeValue(h.handler), spec.sub))) {
        notes.push(`${hookLabel(spec)}: a verdict hook wired by hand is left as is`);
      }
    }
  }
  return { text: out, changes, notes };
}

/** Which of the table's hooks a settings file runs, ours or wired by hand, and with which program. */
export interface HookStatus extends HookFinding {
  readonly spec: HookSpec;
}

export function jsonHookStatus(specs: readonly HookSpec[], text: string, path: string): HookStatus[] {
  const root = text.trim() === "" ? null : rootObject(text, path);
  const hooks = root ? hooksObject(root, path) : null;
  return specs.map((spec) => {
    const hs = hooks ? handlersIn(hooks, spec.event).map((h) => nodeValue(h.handler)) : [];
    const ours = hs.find((h) => isOurHandler(h, spec.sub));
    const label = hookLabel(spec);
    if (ours) return { spec, label, state: "installed", program: installedHookProgram(commandOf(ours)!) };
    if (hs.some((h) => isHandWiredHandler(h, spec.sub))) {
      return { spec, label, state: "hand-wired", program: null };
    }
    return { spec, label, state: "missing", program: null };
  });
}
