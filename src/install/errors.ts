/**
 * Why install cannot touch a host file: it does not parse (with line and column), or it holds
 * something verdict did not write where verdict would write. Nothing has been changed when one
 * of these is thrown; the CLI maps both to exit 3.
 */
import { InputError } from "../errors.ts";

export class HostFileError extends InputError {
  constructor(message: string, hint: string) {
    super(message, hint);
    this.name = "HostFileError";
  }
}

/** The result of planning one file's edit: the new text and what changed, in words. */
export interface EditResult {
  readonly text: string;
  /** One phrase per change ("UserPromptSubmit hook added"). Empty when nothing changes. */
  readonly changes: readonly string[];
  /** Things left alone on purpose, worth telling the person. */
  readonly notes: readonly string[];
  /** The file is verdict's alone (a plugin it wrote): uninstall deletes it rather than writing it. */
  readonly remove?: boolean;
}

/**
 * Two edits of one host file applied in turn (Gemini CLI's and Qwen Code's settings.json hold both
 * the hooks and the MCP server), as one result: one diff, one backup. Unchanged, it is `original`.
 */
export function chainEdits(
  original: string,
  first: EditResult,
  second: (text: string) => EditResult,
): EditResult {
  const next = second(first.text);
  const changes = [...first.changes, ...next.changes];
  return {
    text: changes.length === 0 ? original : next.text,
    changes,
    notes: [...first.notes, ...next.notes],
  };
}
