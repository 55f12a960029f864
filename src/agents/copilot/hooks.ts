/**
 * The Copilot CLI hook verdict wires into `<folder>/settings.json` (1.0.x), and the pure edits
 * that add and remove it. Copilot's shape differs from Claude Code's: camelCase events, and each
 * event holds its handlers directly, `{"hooks": {"userPromptSubmitted": [{"type": "command",
 * "bash": "…", "timeoutSec": 5}]}}` (no matcher groups); the command is the one every agent's
 * hook runs (src/hostfile/hook_json.ts `hookCommand`, with `--agent copilot`), so install and
 * uninstall know it by the same marker.
 *
 * Only userPromptSubmitted. Copilot's preCompact is advisory (seen with 1.0.102: neither its
 * additionalContext nor a `decision: "block"` changes the compaction), and no event follows a
 * compaction to give a handoff back (sessionStart's sources are startup, resume and new), so a
 * compaction verdict has nowhere to go (README, Supported agents).
 */
import {
  appendItem,
  insertMember,
  type JsonArrayNode,
  type JsonObjectNode,
  member,
  nodeValue,
  removeItem,
  removeMember,
  replaceNode,
} from "../../hostfile/json_edit.ts";
import { ALWAYS_PRUNE, type EditResult, HostFileError, type MayPrune } from "../../hostfile/errors.ts";
import {
  hookCommand,
  type HookSub,
  installedHookProgram,
  isHandWiredHandler,
  isOurHandler,
} from "../../hostfile/hook_json.ts";
import type { HookFinding } from "../../hostfile/checks.ts";
import { objectMember, rootObject } from "../../hostfile/host_json.ts";
import { isDeepStrictEqual } from "node:util";

export interface CopilotHookSpec {
  /** Copilot's event name (camelCase). */
  readonly event: string;
  readonly sub: HookSub;
  /** Seconds Copilot waits (`timeoutSec`). */
  readonly timeoutSec: number;
}

/** The hint gives up on its own after 400 ms; Copilot waits at most this long. */
const HINT_TIMEOUT_SEC = 5;

export const COPILOT_HOOKS: readonly CopilotHookSpec[] = [
  { event: "userPromptSubmitted", sub: "user-prompt", timeoutSec: HINT_TIMEOUT_SEC },
];

export function copilotHandler(spec: CopilotHookSpec, bin: string, env: Readonly<Record<string, string>>) {
  return { type: "command", bash: hookCommand(bin, env, spec.sub, "copilot"), timeoutSec: spec.timeoutSec };
}

/** The handler as the shared checks read it (`bash` is Copilot's `command`). */
function asShared(handler: unknown): unknown {
  if (typeof handler !== "object" || handler === null || Array.isArray(handler)) return handler;
  const bash = (handler as Record<string, unknown>).bash;
  return typeof bash === "string" ? { command: bash } : {};
}

export function isOurCopilotHandler(handler: unknown, sub?: HookSub): boolean {
  return isOurHandler(asShared(handler), sub);
}

function hooksObject(root: JsonObjectNode, path: string): JsonObjectNode | null {
  return objectMember(root, "hooks", path, '{"<event>": [ {"type": "command", "bash": ...} ]}');
}

interface At {
  readonly event: string;
  readonly list: JsonArrayNode;
  readonly index: number;
  readonly value: unknown;
}

/** Every handler under hooks.<event>[] (events that are not lists are skipped). */
function handlersIn(hooks: JsonObjectNode, event?: string): At[] {
  const out: At[] = [];
  for (const m of hooks.members) {
    if ((event !== undefined && m.key !== event) || m.value.kind !== "array") continue;
    const list = m.value;
    list.items.forEach((item, index) => out.push({ event: m.key, list, index, value: nodeValue(item) }));
  }
  return out;
}

export function installCopilotHooks(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  let out = text.trim() === "" ? "{}\n" : text;
  const changes: string[] = [];
  const notes: string[] = [];
  const created: string[] = [];
  for (const spec of COPILOT_HOOKS) {
    const handler = copilotHandler(spec, bin, env);
    const root = rootObject(out, path);
    const hooks = hooksObject(root, path);
    if (!hooks) {
      out = insertMember(out, root, "hooks", { [spec.event]: [handler] });
      changes.push(`${spec.event} hook added`);
      created.push("hooks", `hooks.${spec.event}`);
      continue;
    }
    const ev = member(hooks, spec.event);
    if (!ev) {
      out = insertMember(out, hooks, spec.event, [handler]);
      changes.push(`${spec.event} hook added`);
      created.push(`hooks.${spec.event}`);
      continue;
    }
    if (ev.value.kind !== "array") {
      throw new HostFileError(
        `refusing to edit "${path}": hooks.${spec.event} is not a list`,
        `fix hooks.${spec.event} by hand (a list of {"type": "command", "bash": …} handlers); nothing was changed`,
      );
    }
    const all = handlersIn(hooks, spec.event);
    const ours = all.filter((h) => isOurCopilotHandler(h.value, spec.sub));
    if (ours.length > 0) {
      if (!isDeepStrictEqual(ours[0]!.value, handler)) {
        out = replaceNode(out, ev.value.items[ours[0]!.index]!, handler);
        changes.push(`${spec.event} hook updated`);
      }
      if (ours.length > 1) {
        // Duplicates of our own entry: keep the first, drop the rest (last first, indexes stay put).
        for (const extra of ours.slice(1).reverse()) {
          const list = member(hooksObject(rootObject(out, path), path)!, spec.event)!.value as JsonArrayNode;
          out = removeItem(out, list, extra.index);
        }
        changes.push(`${spec.event} duplicate hook removed`);
      }
      continue;
    }
    if (all.some((h) => isHandWiredHandler(asShared(h.value), spec.sub))) {
      notes.push(`${spec.event}: a verdict hook wired by hand is already there; left as is`);
      continue;
    }
    out = appendItem(out, ev.value, handler);
    changes.push(`${spec.event} hook added`);
  }
  return {
    text: changes.length === 0 ? text : out,
    changes,
    notes,
    ...(created.length > 0 ? { created } : {}),
  };
}

/**
 * Removes every hook install wrote (an event list or hooks object it leaves empty goes too, when
 * install created it).
 */
export function uninstallCopilotHooks(
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
    const found = handlersIn(hooks).find((h) => isOurCopilotHandler(h.value));
    if (!found) break;
    changes.push(`${found.event} hook removed`);
    if (found.list.items.length > 1 || !mayPrune(`hooks.${found.event}`)) {
      out = removeItem(out, found.list, found.index);
    } else if (hooks.members.length > 1 || !mayPrune("hooks")) out = removeMember(out, hooks, found.event);
    else out = removeMember(out, root, "hooks");
  }
  const notes: string[] = [];
  const hooks = hooksObject(rootObject(out, path), path);
  for (const spec of COPILOT_HOOKS) {
    if (hooks && handlersIn(hooks, spec.event).some((h) => isHandWiredHandler(asShared(h.value), spec.sub))) {
      notes.push(`${spec.event}: a verdict hook wired by hand is left as is`);
    }
  }
  return { text: out, changes, notes };
}

export interface CopilotHookStatus extends HookFinding {
  readonly spec: CopilotHookSpec;
}

export function copilotHookStatus(text: string, path: string): CopilotHookStatus[] {
  const root = text.trim() === "" ? null : rootObject(text, path);
  const hooks = root ? hooksObject(root, path) : null;
  return COPILOT_HOOKS.map((spec) => {
    const hs = hooks ? handlersIn(hooks, spec.event).map((h) => h.value) : [];
    const ours = hs.find((h) => isOurCopilotHandler(h, spec.sub));
    const label = spec.event;
    if (ours) {
      return {
        spec,
        label,
        state: "installed",
        program: installedHookProgram(String((ours as { bash: string }).bash)),
      };
    }
    if (hs.some((h) => isHandWiredHandler(asShared(h), spec.sub))) {
      return { spec, label, state: "hand-wired", program: null };
    }
    return { spec, label, state: "missing", program: null };
  });
}
