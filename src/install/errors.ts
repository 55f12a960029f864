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
