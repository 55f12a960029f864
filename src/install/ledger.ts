/**
 * What install created in each host file, so that uninstall gives back the file it found: the
 * containers install added for its entries (a person's own stay, even when uninstall leaves them
 * empty), whether the file was missing or blank (it goes back to that), and whether its last line
 * ended with a line break. One JSON file in verdict's state folder, keyed by the host file's real
 * path, replaced whole; an entry goes with the uninstall that used it. An install older than the
 * ledger left none: uninstall then removes every container it empties, as it always did.
 */
import { ALWAYS_PRUNE, type EditResult, type MayPrune } from "../hostfile/errors.ts";

export const LEDGER_FILE = "install-ledger.json";

export interface LedgerEntry {
  /** The file before the first install that changed it. */
  readonly before: "absent" | "blank" | "present";
  /** Its text when it was blank (whitespace only). */
  readonly blank?: string;
  /** Did its text end with a line break (a missing or empty file counts as ending)? */
  readonly finalNewline: boolean;
  /** The containers install created (EditResult.created). */
  readonly containers: readonly string[];
}

export type Ledger = Map<string, LedgerEntry>;

function isEntry(v: unknown): v is LedgerEntry {
  if (typeof v !== "object" || v === null) return false;
  const e = v as Record<string, unknown>;
  return ["absent", "blank", "present"].includes(e.before as string) &&
    typeof e.finalNewline === "boolean" &&
    Array.isArray(e.containers) && e.containers.every((c) => typeof c === "string") &&
    (e.blank === undefined || (typeof e.blank === "string" && e.blank.trim() === ""));
}

/**
 * The ledger in `text` (null: no ledger yet). An entry that is not of the ledger's shape is
 * dropped: its file is then uninstalled the way an older install's is, never refused.
 */
export function parseLedger(text: string | null): Ledger {
  const out: Ledger = new Map();
  if (text === null) return out;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return out;
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return out;
  for (const [path, entry] of Object.entries(raw)) {
    if (isEntry(entry)) out.set(path, entry);
  }
  return out;
}

export function formatLedger(ledger: Ledger): string {
  const sorted = [...ledger].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(sorted), null, 2) + "\n";
}

/** The entry after an install that changed a file (`before`: its text, null when missing). */
export function entryAfterInstall(
  previous: LedgerEntry | undefined,
  before: string | null,
  result: EditResult,
): LedgerEntry {
  const created = result.created ?? [];
  if (previous) {
    return { ...previous, containers: [...new Set([...previous.containers, ...created])].sort() };
  }
  const blank = before !== null && before.trim() === "";
  return {
    before: before === null ? "absent" : blank ? "blank" : "present",
    ...(blank && before !== "" ? { blank: before } : {}),
    finalNewline: before === null || before === "" || before.endsWith("\n"),
    containers: [...new Set(created)].sort(),
  };
}

/** What uninstall may prune in a file with this entry (none: an older install's file). */
export function pruningFor(entry: LedgerEntry | undefined): MayPrune {
  if (!entry) return ALWAYS_PRUNE;
  const created = new Set(entry.containers);
  return (container) => created.has(container);
}

const EMPTY_DOCUMENT = /^\s*(\{\s*\})?\s*$/;

/**
 * An uninstall's result brought back to the file install found: a file it created and left empty
 * is deleted, a blank one gets its blank text back, a person's own file is never deleted, and a
 * last line that had no line break loses the one install gave it.
 */
export function restoredByLedger(entry: LedgerEntry | undefined, result: EditResult): EditResult {
  if (!entry || result.changes.length === 0) return result;
  if (result.remove && entry.before === "absent") return result;
  const empty = EMPTY_DOCUMENT.test(result.text);
  if (empty && entry.before === "absent") return { ...result, remove: true };
  if (empty && entry.before === "blank") return { ...result, text: entry.blank ?? "", remove: false };
  let text = result.text;
  if (!entry.finalNewline) text = text.replace(/\r?\n$/, "");
  return { ...result, text, remove: false };
}
