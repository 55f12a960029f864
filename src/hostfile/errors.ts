/**
 * Why install cannot touch a host file: it does not parse (with line and column), or it holds
 * something verdict did not write where verdict would write. Nothing has been changed when one
 * of these is thrown; the CLI maps both to exit 3.
 */
import { InputError } from "../errors.ts";

export class HostFileError extends InputError {
  constructor(message: string, hint: string, details: readonly string[] = []) {
    super(message, hint, details);
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
  /**
   * The containers (dotted JSON paths: "hooks", "hooks.UserPromptSubmit", "mcpServers") install
   * created for its entries; install remembers them (src/install/ledger.ts) so uninstall removes
   * exactly those and keeps a person's own, even when they are left empty.
   */
  readonly created?: readonly string[];
}

/**
 * Whether uninstall may delete a container it leaves empty: only one install created. An install
 * older than the ledger left no record, so then any emptied container goes (ALWAYS_PRUNE).
 */
export type MayPrune = (container: string) => boolean;

export const ALWAYS_PRUNE: MayPrune = () => true;

/**
 * Several refusals of one file, found at once (chainEdits: each of its edits refused), so that
 * install reports them together rather than one run at a time. It is a HostFileError (the
 * first refusal's message and hint) for a caller that handles one.
 */
export class HostFileRefusals extends HostFileError {
  readonly refusals: readonly HostFileError[];
  constructor(refusals: readonly [HostFileError, ...HostFileError[]]) {
    super(refusals[0].message, refusals[0].hint ?? "");
    this.name = "HostFileRefusals";
    this.refusals = refusals;
  }
}

/** The refusals a thrown value holds (none when it is another error). */
export function refusalsOf(err: unknown): HostFileError[] {
  if (err instanceof HostFileRefusals) return [...err.refusals];
  if (err instanceof HostFileError) return [err];
  return [];
}

/**
 * Two edits of one host file applied in turn (Gemini CLI's and Qwen Code's settings.json hold both
 * the hooks and the MCP server), as one result: one diff, one backup. Unchanged, it is `original`.
 * When the first is refused, the second is still tried on the original text, so that a file
 * wrong in both places is refused for both at once (HostFileRefusals).
 */
export function chainEdits(
  original: string,
  firstEdit: () => EditResult,
  second: (text: string) => EditResult,
): EditResult {
  let first: EditResult;
  try {
    first = firstEdit();
  } catch (err) {
    const refused = refusalsOf(err);
    if (refused.length === 0) throw err;
    let also: HostFileError[] = [];
    try {
      second(original);
    } catch (more) {
      // The same refusal twice (a top level that is no object) is said once.
      also = refusalsOf(more).filter((m) => !refused.some((r) => r.message === m.message));
    }
    throw also.length === 0 ? err : new HostFileRefusals([refused[0]!, ...refused.slice(1), ...also]);
  }
  const next = second(first.text);
  const changes = [...first.changes, ...next.changes];
  return {
    text: changes.length === 0 ? original : next.text,
    changes,
    notes: [...first.notes, ...next.notes],
    ...(first.created || next.created ? { created: [...first.created ?? [], ...next.created ?? []] } : {}),
  };
}
