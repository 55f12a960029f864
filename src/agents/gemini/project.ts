/**
 * What a Gemini CLI project folder (`~/.gemini/tmp/<project id>/`) says about the chats under
 * it: the project's path (`.project_root`, one line) and the lines typed into the terminal UI
 * (`logs.json`, a JSON array of `{sessionId, messageId, type:"user", message, timestamp}`,
 * slash commands included; `gemini -p` writes none). The chat parser (chat.ts) gets them as its
 * context. Pure but for the `read` it is handed.
 */
import type { SideFileReader } from "../agent.ts";
import { NO_TYPED_LINES, type TypedLines } from "./chat.ts";

export const PROJECT_ROOT_FILE = ".project_root";
export const TYPED_LOG_FILE = "logs.json";

/** The project folder a chat file belongs to: `<root>/<id>/chats/<file>` → `<root>/<id>`. */
export function projectFolderOf(path: string): string {
  const parts = path.split("/");
  return parts.slice(0, -2).join("/");
}

export async function loadTypedLines(folder: string, read: SideFileReader): Promise<TypedLines> {
  const root = await read(`${folder}/${PROJECT_ROOT_FILE}`);
  const logs = await read(`${folder}/${TYPED_LOG_FILE}`);
  const project = root?.trim() ?? "";
  if (logs === null) return { ...NO_TYPED_LINES, project: project.startsWith("/") ? project : "" };
  return { project: project.startsWith("/") ? project : "", typed: parseTypedLog(logs) };
}

/** session id → trimmed typed lines, from logs.json text (entries of other shapes are skipped). */
export function parseTypedLog(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return out;
  }
  if (!Array.isArray(value)) return out;
  for (const e of value) {
    if (typeof e !== "object" || e === null) continue;
    const { sessionId, type, message } = e as Record<string, unknown>;
    if (typeof sessionId !== "string" || type !== "user" || typeof message !== "string") continue;
    let set = out.get(sessionId);
    if (!set) out.set(sessionId, set = new Set());
    set.add(message.trim());
  }
  return out;
}
