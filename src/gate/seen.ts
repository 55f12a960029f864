/**
 * The cooldown ledger: records already shown in a session are not shown again in it. One
 * append-only JSONL file (`--seen FILE`, else $VERDICT_SEEN; an empty value disables it; else
 * one file per session under the state folder). Each line: {"time", "session", "id"}.
 *
 * The ledger is opened (read + append) before the hint path drops its permissions, so the
 * append later goes through the open handle.
 */
import { joinPath } from "../config/paths.ts";
import { fnv1a64 } from "../collect/record.ts";
import { readToEnd } from "../fsutil/bytes.ts";

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

/** Opens (creating) the ledger and reads the ids shown in `session`. */
export async function openLedger(path: string | null, session: string | null): Promise<Ledger> {
  if (path === null) return NO_LEDGER;
  const dir = path.slice(0, path.lastIndexOf("/"));
  if (dir) await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = await Deno.open(path, { read: true, append: true, create: true, mode: 0o600 });
  const shown = new Set<string>();
  const text = new TextDecoder().decode((await readToEnd(file))!);
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
    async record(ids, time) {
      if (ids.length === 0) return;
      const lines = ids.map((id) => JSON.stringify({ time, session, id }) + "\n").join("");
      try {
        await file.write(encoder.encode(lines));
      } catch {
        // The hint was shown; only the cooldown is lost.
      }
    },
    close: () => file.close(),
  };
}
