/**
 * The hook's trouble ledger: what the per-prompt hook could not do (answer within its deadline,
 * find an archive, read its config, get an answer from the warm helper), counted so a failure
 * that must never block a prompt is still seen. doctor and `warm status` report the last day's
 * counts, and once a day at most the hook's own output says, in one line, that verdict is not
 * working and which command says why.
 *
 * One small append-only JSONL file in verdict's state folder (`hook-trouble.jsonl`), each line
 * {"t": ms, "k": kind}. Lines are appended through a handle opened before the hook drops its
 * permissions, one write each (O_APPEND: concurrent hooks never interleave within a line). It
 * stays bounded: opened past MAX_BYTES, it is first rewritten to the last day's newest lines,
 * through a temp file renamed over it, so a reader sees the old file or the new one.
 *
 * Also here: the doctor's probe. `verdict doctor` runs each installed hook command with a prompt
 * of this exact form; the hook answers it at once, in the agent's output shape, so doctor knows
 * the command it ran reached this verdict.
 */
import { joinPath } from "../config/paths.ts";
import { readToEndSync, writeAllSync } from "../fsutil/bytes.ts";

export type TroubleKind = "late" | "no-archive" | "config" | "refused";
type LineKind = TroubleKind | "told";

export const TROUBLE_KINDS: readonly TroubleKind[] = ["late", "no-archive", "config", "refused"];

/** The ledger file under a state folder. */
export function troublePath(stateDir: string): string {
  return joinPath(stateDir, "hook-trouble.jsonl");
}

/** The temp file a rewrite goes through. */
export function troubleTempPath(ledger: string): string {
  return ledger + ".tmp";
}

/** The window doctor and the notice look back over, and the notice's least interval. */
export const TROUBLE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Past this size the ledger is rewritten to the window's newest lines when it is opened. */
export const TROUBLE_MAX_BYTES = 16 * 1024;
/** Lines kept by that rewrite (a line is some 30 bytes). */
export const TROUBLE_KEEP_LINES = 256;

/** Counts of each kind within the window, and when the notice was last shown (null: not in it). */
export interface TroubleSummary {
  readonly counts: Readonly<Record<TroubleKind, number>>;
  readonly toldAt: number | null;
}

interface Line {
  readonly t: number;
  readonly k: LineKind;
}

/** A line as the ledger writes it; anything else goes through JSON.parse. */
const LINE = /^\{"t":(\d+),"k":"([a-z-]+)"\}$/;

function isKind(k: string): k is LineKind {
  return k === "told" || (TROUBLE_KINDS as readonly string[]).includes(k);
}

function parseLines(text: string): Line[] {
  const out: Line[] = [];
  for (const raw of text.split("\n")) {
    if (!raw) continue;
    // A regular expression, not JSON.parse, for the lines written here: the hook reads up to a
    // few hundred of them on every prompt of a bad day.
    const m = LINE.exec(raw);
    if (m) {
      if (isKind(m[2]!)) out.push({ t: Number(m[1]), k: m[2]! as LineKind });
      continue;
    }
    try {
      const v = JSON.parse(raw) as { t?: unknown; k?: unknown };
      if (typeof v.t === "number" && typeof v.k === "string" && isKind(v.k)) out.push({ t: v.t, k: v.k });
    } catch {
      // A torn or damaged line forgets one count.
    }
  }
  return out;
}

/** The window's summary of a ledger's text (pure). */
export function summarize(text: string, now: number): TroubleSummary {
  const counts: Record<TroubleKind, number> = { late: 0, "no-archive": 0, config: 0, refused: 0 };
  let toldAt: number | null = null;
  for (const line of parseLines(text)) {
    if (line.t > now || now - line.t > TROUBLE_WINDOW_MS) continue;
    if (line.k === "told") toldAt = Math.max(toldAt ?? 0, line.t);
    else counts[line.k]++;
  }
  return { counts, toldAt };
}

export function troubleTotal(s: TroubleSummary): number {
  return TROUBLE_KINDS.reduce((n, k) => n + s.counts[k], 0);
}

const PHRASES: Readonly<Record<TroubleKind, string>> = {
  late: "answered late (past the hook's deadline, so no hint)",
  "no-archive": "answered without an archive",
  config: "answered without a config that loads",
  refused: "refused by the warm helper",
};

/** "12 prompts answered late … and 3 prompts answered without an archive in the last day", or null. */
export function describeTrouble(s: TroubleSummary): string | null {
  const parts = TROUBLE_KINDS.filter((k) => s.counts[k] > 0).map((k) =>
    `${s.counts[k]} prompt${s.counts[k] === 1 ? "" : "s"} ${PHRASES[k]}`
  );
  if (parts.length === 0) return null;
  return `${parts.join(", ")} in the last day`;
}

/**
 * Prompts gone without their hint in the window before the hook says so: one late answer in a
 * moment of load is not verdict "not working", three in a day is worth a line.
 */
export const TROUBLE_NOTICE_MIN = 3;

/** The one line the hook shows when there was trouble and it has not said so in the window. */
export function troubleNotice(s: TroubleSummary, now: number): string | null {
  const what = describeTrouble(s);
  if (what === null || troubleTotal(s) < TROUBLE_NOTICE_MIN) return null;
  if (s.toldAt !== null && now - s.toldAt < TROUBLE_WINDOW_MS) return null;
  return `verdict is not working as it should: ${what}; run "verdict doctor" to see why`;
}

/** The ledger as the hook holds it: read once, appended to through its open handle. */
export interface TroubleLedger {
  readonly summary: TroubleSummary;
  /** Appends one line; never throws (counting must not break a prompt). */
  record(kind: LineKind, now: number): void;
  close(): void;
}

export const NO_TROUBLE_LEDGER: TroubleLedger = {
  summary: { counts: { late: 0, "no-archive": 0, config: 0, refused: 0 }, toldAt: null },
  record: () => {},
  close: () => {},
};

/**
 * Opens (creating) the ledger under `stateDir`, rewriting it first when it has grown past
 * TROUBLE_MAX_BYTES. Synchronous calls, as the cooldown ledger's (src/gate/seen.ts): a few
 * microseconds each where an async call goes through Deno's blocking thread pool. Throws when
 * the file cannot be opened; callers fall back to NO_TROUBLE_LEDGER.
 */
export function openTroubleLedger(stateDir: string, now: number): TroubleLedger {
  const path = troublePath(stateDir);
  let file = openAppending(path);
  let text: string;
  try {
    text = new TextDecoder().decode(readToEndSync(file));
    if (text.length > TROUBLE_MAX_BYTES) {
      file.close();
      text = rewriteRecent(path, text, now);
      file = openAppending(path);
    }
  } catch (err) {
    file.close();
    throw err;
  }
  const encoder = new TextEncoder();
  const handle = file;
  return {
    summary: summarize(text, now),
    record(kind, at) {
      try {
        writeAllSync(handle, encoder.encode(JSON.stringify({ t: at, k: kind }) + "\n"));
      } catch {
        // Only the count is lost.
      }
    },
    close: () => handle.close(),
  };
}

/** Opens the ledger, appends one line and closes it; never throws. For the paths with no handle yet. */
export function recordTrouble(stateDir: string, kind: TroubleKind, now: number): void {
  try {
    const ledger = openTroubleLedger(stateDir, now);
    ledger.record(kind, now);
    ledger.close();
  } catch {
    // Counting must never break a prompt.
  }
}

/** Reads the window's summary (doctor, `warm status`); null when there is no ledger. */
export function readTroubleSummary(stateDir: string, now: number): TroubleSummary | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(troublePath(stateDir));
  } catch {
    return null;
  }
  return summarize(text, now);
}

/** Keeps the window's newest lines, written through a temp file renamed over the ledger. */
function rewriteRecent(path: string, text: string, now: number): string {
  const kept = parseLines(text)
    .filter((l) => l.t <= now && now - l.t <= TROUBLE_WINDOW_MS)
    .slice(-TROUBLE_KEEP_LINES)
    .map((l) => JSON.stringify({ t: l.t, k: l.k }) + "\n")
    .join("");
  // The fixed temp name the warm helper's write grant names (two rewrites at once lose lines at
  // worst: a torn line is skipped when read).
  const tmp = troubleTempPath(path);
  Deno.writeTextFileSync(tmp, kept, { mode: 0o600 });
  try {
    Deno.renameSync(tmp, path);
  } catch (err) {
    try {
      Deno.removeSync(tmp);
    } catch { /* already gone */ }
    throw err;
  }
  return kept;
}

/** The ledger file, opened for read and append (created 0600, its folder 0700 when missing). */
function openAppending(path: string): Deno.FsFile {
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

/**
 * Moves the hook's 400 ms deadline (src/hint/run.ts hookDeadlineMs, whole milliseconds, 1 to
 * 60000): for a machine slow enough to miss it on most prompts (this ledger counts each miss),
 * for doctor's probe run, and for tests that run the real hook on a loaded machine.
 */
export const HOOK_DEADLINE_ENV = "VERDICT_HOOK_DEADLINE_MS";

// ---- the doctor's probe

const PROBE_PREFIX = "verdict doctor probe ";
const PROBE = /^verdict doctor probe ([0-9a-f]{16})$/;

/** The prompt doctor sends through an installed hook command. */
export function probePrompt(nonce: string): string {
  return PROBE_PREFIX + nonce;
}

/** The nonce of a probe prompt, or null for any other prompt. */
export function probeNonce(prompt: string): string | null {
  return PROBE.exec(prompt)?.[1] ?? null;
}

/** What the hook answers a probe with: text doctor finds again in the hook's output. */
export function probeAnswer(nonce: string): string {
  return `verdict doctor: probe ${nonce} answered`;
}
