/**
 * The two checks every edit of a host's JSON settings starts with: the file is one object, and
 * the member we edit (hooks, mcpServers) is an object. Refusals leave the file untouched.
 */
import { type EditResult, HostFileError } from "./errors.ts";
import { type JsonObjectNode, member, parseTree } from "./json_edit.ts";

/** The file's top-level object; HostFileError when the top level is anything else. */
export function rootObject(text: string, path: string): JsonObjectNode {
  const root = parseTree(text);
  if (root.kind !== "object") {
    throw new HostFileError(
      `Cannot edit "${path}": the top level is not a JSON object`,
      "fix the file by hand (it should hold one object), then run the command again; nothing was changed",
    );
  }
  return root;
}

/** The object member `key` of `root`, null when absent; HostFileError when it is not an object. */
export function objectMember(
  root: JsonObjectNode,
  key: string,
  path: string,
  shape: string,
): JsonObjectNode | null {
  const m = member(root, key);
  if (!m) return null;
  if (m.value.kind !== "object") {
    throw new HostFileError(
      `refusing to edit "${path}": "${key}" is not an object`,
      `fix "${key}" by hand (${shape}), then run the command again; nothing was changed`,
    );
  }
  return m.value;
}

/**
 * An uninstall's result, marked for deletion when it changed a file that is left holding nothing
 * (no text, or an empty object): for files install may have created and the agent reads the same
 * when missing (Codex's hooks.json, Copilot CLI's mcp-config.json).
 */
export function removedWhenEmpty(result: EditResult): EditResult {
  const empty = result.changes.length > 0 && /^\s*(\{\s*\})?\s*$/.test(result.text);
  return empty ? { ...result, remove: true } : result;
}
