/**
 * Forbidden shapes (gate G3: no slot for a selection). The compaction verdict is one answer about
 * a whole session; it never says which parts of a context matter. A per-block screener was built
 * and measured before this tool existed, and it failed both ways in the same run: the block
 * holding the actual fix was judged droppable (confidence 0.323) while a nursery rhyme was judged
 * worth keeping (0.691). So any payload that could carry a per-block selection is refused.
 *
 * `assertNoForbiddenKeys` walks a JSON value (objects, and objects inside arrays, at any depth)
 * and throws on the first key in FORBIDDEN_KEYS, naming its JSON path. It never strips: stripping
 * would return a plausible verdict while hiding that something upstream produces the shape.
 *
 * Matching is case-insensitive and ignores "_", "-" and spaces: `perBlock`, `per_block`,
 * `PER-BLOCK` and `Per Block` are one key. A looser match can only refuse more, never let a
 * selection through under a spelling variant.
 */
import { InputError } from "../errors.ts";

/**
 * The 35 key names that would express a per-block (per-message, per-span…) selection. Grouped by
 * what each would let a payload say; none of them is a key of any shape verdict defines.
 */
export const FORBIDDEN_KEYS: readonly string[] = Object.freeze([
  // A verdict per unit of context instead of one per session.
  "perBlock", // a map block → verdict: the measured screener's exact output shape
  "perMessage", // the same at message granularity
  "perTurn", // the same at turn granularity
  "perChunk", // the same at chunk granularity
  "perSpan", // the same over character or line spans
  // Addressing a unit of context: a key naming blocks is a selection waiting to happen.
  "block", // one block, by content or id
  "blocks", // a list of blocks to be judged one by one
  "blockId", // a pointer to one block
  "blockIds", // a list of block pointers: the selection itself
  "messageIds", // a list of message pointers
  "turnIds", // a list of turn pointers
  "spans", // ranges of the context
  "segments", // the context cut into parts
  "chunks", // the context cut into parts, another spelling
  "ranges", // line or offset ranges of the context
  // The keep side of a selection.
  "keep", // "keep these"
  "keepIds", // the ids to keep
  "retain", // "retain these"
  "pin", // "pin these so compaction cannot drop them"
  "worthKeeping", // the screener's judgement of a nursery rhyme (0.691)
  "mustKeep", // a stronger keep list
  // The drop side of a selection.
  "drop", // "drop these"
  "dropIds", // the ids to drop
  "droppable", // the screener's judgement of the block holding the fix (0.323)
  "prune", // "prune these"
  "discard", // "discard these"
  "evict", // "evict these from the context"
  "omit", // "omit these from the summary"
  "removable", // parts judged safe to remove
  "compactable", // parts judged safe to compact away
  // A selection by any other name.
  "selection", // the result of picking parts
  "selected", // the parts picked
  "pick", // "pick these"
  // Per-part scores: a ranking of parts is a selection with the threshold left to the caller.
  "importance", // an importance score per part
  "salience", // a salience score per part
]);

/** The citation every refusal carries (seed README, "The question, and the question this tool refuses"). */
export const PER_BLOCK_MEASUREMENT =
  "per-block judging was measured to fail: the block holding the actual fix was judged droppable " +
  "at 0.323 while a nursery rhyme was judged worth keeping at 0.691";

/** Folds a key for comparison: lower case, without "_", "-" or spaces. */
export function foldKey(key: string): string {
  return key.toLowerCase().replace(/[_\- ]/g, "");
}

const FOLDED = new Map(FORBIDDEN_KEYS.map((k) => [foldKey(k), k]));

/** The forbidden key `key` matches (in its canonical spelling), or null. */
export function forbiddenKeyFor(key: string): string | null {
  return FOLDED.get(foldKey(key)) ?? null;
}

/** Thrown when a payload holds a forbidden key. Exit 3 (input error) at the CLI. */
export class ForbiddenKeyError extends InputError {
  /** JSON path of the offending key, e.g. `$.outer.inner[0].perBlock`. */
  readonly path: string;
  /** The key as it was written in the payload. */
  readonly key: string;
  constructor(what: string, path: string, key: string, canonical: string) {
    const spelled = key === canonical ? "" : ` (matches "${canonical}")`;
    super(
      `refusing ${what}: it holds the key "${key}" at ${path}${spelled}, a per-block selection; ${PER_BLOCK_MEASUREMENT}`,
      "ask one question about the whole session (safe_to_compact, wait or preserve_first); nothing is stripped",
    );
    this.name = "ForbiddenKeyError";
    this.path = path;
    this.key = key;
  }
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends a key to a JSON path: `.name` when it is an identifier, else `["…"]`. */
export function childPath(path: string, key: string): string {
  return IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Throws ForbiddenKeyError when `value` holds a forbidden key at any depth. `what` names the
 * payload in the message ("summary", "service answer", "tool input"…); `root` is its JSON path.
 * An object's own keys are all checked before anything they hold, so of two offending keys the
 * outer one is named.
 */
export function assertNoForbiddenKeys(value: unknown, what: string, root = "$"): void {
  // Iterative, so a deeply nested payload cannot overflow the stack.
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    const children: Array<[unknown, string]> = [];
    if (Array.isArray(v)) {
      v.forEach((item, i) => children.push([item, `${path}[${i}]`]));
    } else {
      for (const [key, item] of Object.entries(v as Record<string, unknown>)) {
        const canonical = forbiddenKeyFor(key);
        const here = childPath(path, key);
        if (canonical !== null) throw new ForbiddenKeyError(what, here, key, canonical);
        children.push([item, here]);
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}
