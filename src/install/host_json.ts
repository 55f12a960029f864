/**
 * The two checks every edit of a host's JSON settings starts with: the file is one object, and
 * the member we edit (hooks, mcpServers) is an object. Refusals leave the file untouched.
 */
import { HostFileError } from "./errors.ts";
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
