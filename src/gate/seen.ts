/**
 * The cooldown ledger: records already shown in a session are not shown again in it. One
 * append-only JSONL file (`--seen FILE`, else $VERDICT_SEEN; an empty value disables it; else
 * one file per session under the state folder). Each line: {"time", "session", "id"}.
 *
 * The ledger is opened (read + append) before the hint path drops its permissions, so the
 * append later goes through the open handle.
 */
import { joinPath } from "../config/paths.ts";
import { fnv1a64 } from "../record/record.ts";
import { readToEndSync, writeAllSync } from "../fsutil/bytes.ts";

export interface LedgerChoice {
  /** The ledger file, or null when the cooldown is disabled. */
  readonly path: string | null;
  readonly why: string;
}

/** A session id as a file name: kept when it is plain, hashed otherwise. */
export function sessionFileName(session: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(session) ? session : `s-${fnv1a64(session)}`;
}

export function chooseLedger(input: {
  readonly seenOption: string | undefined;
  readonly envValue: string | undefined;
  readonly stateDir: string;
  readonly session: string | null;
}): LedgerChoice {
  if (input.seenOption !== undefined) {
    return input.seenOption === ""
      ? { path: null, why: "--seen is empty: cooldown disabled" }
      : { path: input.seenOption, why: "--seen" };
  }
  if (input.envValue !== undefined) {
    return input.envValue === ""
      ? { path: null, why: "VERDICT_SEEN is empty: cooldown disabled" }
      : { path: input.envValue, why: "VERDICT_SEEN" };
  }
  const name = sessionFileName(input.session ?? "no-session");
  return { path: joinPath(input.stateDir, "seen", `${name}.jsonl`), why: "per-session ledger" };
}

export interface Ledger {
  /** Ids already shown in this session. */
  readonly shown: ReadonlySet<string>;
  /** Appends the ids as shown now; never throws (a ledger write must not break a prompt). */
  record(ids: readonly string[], time: string): Promise<void>;
  close(): void;
}

const NO_LEDGER: Ledger = { shown: new Set(), record: async () => {}, close: () => {} };

/**
 * Opens (creating) the ledger and reads the ids shown in `session`. Synchronous file calls: a
 * prompt opens, reads and appends to one small file, and each async call goes through Deno's
 * blocking thread pool (~50-100 µs each in the warm helper, against ~10 µs;
 * docs/notes/2026-11-hook-startup-rounds.md).
 */
export function openLedger(path: string | null, session: string | null): Promise<Ledger> {
  try {
    return Promise.resolve(path === null ? NO_LEDGER : openLedgerFile(path, session));
  } catch (err) {
    return Promise.reject(err);
  }
}

function openLedgerFile(path: string, session: string | null): Ledger {
  const file = openCreating(path);
  const shown = new Set<string>();
  let text: string;
  try {
    text = new TextDecoder().decode(readToEndSync(file));
  } catch (err) {
    file.close();
    throw err;
  }
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const v = JSON.parse(line) as { session?: unknown; id?: unknown };
      if (typeof v.id === "string" && (v.session ?? null) === session) shown.add(v.id);
    } catch {
      // A damaged line only forgets one cooldown.
    }
  }
  const encoder = new TextEncoder();
  return {
    shown,
    record(ids, time) {
      if (ids.length === 0) return Promise.resolve();
      const lines = ids.map((id) => JSON.stringify({ time, session, id }) + "\n").join("");
      try {
        writeAllSync(file, encoder.encode(lines));
      } catch {
        // The hint was shown; only the cooldown is lost.
      }
      return Promise.resolve();
    },
    close: () => file.close(),
  };
}

/**
 * The ledger file, opened for read and append (created 0600). Its folder (0700) is made only when
 * the open finds it missing: once made, every later prompt skips a call that would do nothing.
 */
function openCreating(path: string): Deno.FsFile {
  const options = { read: true, append: true, create: true, mode: 0o600 } as const;
  try {
    return Deno.openSync(path, options);
  } catch (err) {
    const dir = path.slice(0, path.lastIndexOf("/"));
    if (!(err instanceof Deno.errors.NotFound) || !dir) throw err;
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return Deno.openSync(path, options);
  }
}
