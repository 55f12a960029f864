/**
 * The handoff: a Markdown file listing each unlanded item with its source, written (atomically)
 * by the PreCompact hook under the state directory, and given back to the model by the
 * SessionStart(compact) hook, so nothing recorded is lost across the compaction. Rendering is
 * pure and deterministic (same snapshot, sources and time → same bytes).
 *
 * The manual-block window: when the hook blocks a manual compaction, it records the time in
 * `compact-blocks.json`; a second manual request for the same session within
 * MANUAL_BLOCK_WINDOW_MS always passes, so the person can insist.
 */
import {
  CREDENTIAL_PLACEHOLDER,
  type CredentialRule,
  findCredential,
  withoutCredential,
} from "../record/secrets.ts";
import { joinPath } from "../config/paths.ts";
import { writeTextFileAtomic } from "../fsutil/atomic.ts";
import type { Sources } from "./build.ts";
import type { JudgeAnswer } from "./judge.ts";
import { oneLine } from "./render.ts";
import { describeCounts } from "./rules.ts";
import type { Snapshot } from "./snapshot.ts";
import { COUNTED_FIELDS, type CountedField } from "./summary.ts";

/** A second manual compaction within this window after a block always passes (2 minutes). */
export const MANUAL_BLOCK_WINDOW_MS = 120_000;

/** Entries older than this are dropped from the block ledger when it is rewritten (1 day). */
const LEDGER_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const ITEM_NAMES: Record<CountedField, string> = {
  todos: "todo",
  uncommitted: "uncommitted",
  questions: "question",
  decisions: "decision",
  next_steps: "next step",
};

/** A handoff larger than this is not one we wrote (items are clipped lines; 1 MiB is thousands). */
const MAX_HANDOFF_BYTES = 1024 * 1024;

/** The handoff file's first line, by which session-start recognises it. */
export const HANDOFF_TITLE = "# verdict handoff";

/** A session id made safe as a file name (anything but [A-Za-z0-9._-] becomes "_"). */
export function safeSessionName(session: string): string {
  const s = session.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_").slice(0, 128);
  return s === "" ? "_" : s;
}

export function handoffPath(stateDir: string, session: string): string {
  return joinPath(stateDir, "handoff", `${safeSessionName(session)}.md`);
}

/**
 * Renders the handoff Markdown. Pure. An item (from a transcript, or a summary given as JSON)
 * that holds a credential is written as the placeholder: the item still counts and keeps its
 * source, its text does not reach the file or, through SessionStart, the model.
 */
export function renderHandoff(
  snapshot: Snapshot,
  sources: Sources,
  answer: JudgeAnswer,
  time: string,
  rules: readonly CredentialRule[],
): string {
  const text = (s: string) => oneLine(withoutCredential(s, rules));
  const { summary } = snapshot;
  const lines = [
    HANDOFF_TITLE,
    "",
    `Session: ${oneLine(summary.session)}`,
    `Written: ${time} (before a context compaction)`,
    `Verdict: ${answer.verdict} (${answer.reason}): ${oneLine(answer.reasonText)}`,
    `Counts: ${describeCounts(answer.counts)}`,
    "",
    "## Unlanded items",
    "",
  ];
  let any = false;
  for (const field of COUNTED_FIELDS) {
    summary[field].forEach((item, i) => {
      any = true;
      const source = sources[field][i] ?? "unknown source";
      lines.push(`- ${ITEM_NAMES[field]} (${text(source)}): ${text(item)}`);
    });
  }
  if (!any) lines.push("- none");
  if (summary.risk_hints.length > 0) {
    lines.push("", "## Risk hints (not counted)", "");
    for (const hint of summary.risk_hints) lines.push(`- ${text(hint)}`);
  }
  lines.push("", `Digest: ${snapshot.digest}`);
  return lines.join("\n") + "\n";
}

/** Writes the handoff atomically (creating the folder); returns its path. */
export async function writeHandoff(stateDir: string, session: string, text: string): Promise<string> {
  const path = handoffPath(stateDir, session);
  await Deno.mkdir(joinPath(stateDir, "handoff"), { recursive: true, mode: 0o700 });
  await writeTextFileAtomic(path, text, 0o600);
  return path;
}

/** Removes a stale handoff (an earlier compaction's) when this one had nothing unlanded. */
export async function removeHandoff(stateDir: string, session: string): Promise<void> {
  await Deno.remove(handoffPath(stateDir, session)).catch(() => {});
}

/**
 * The handoff text for `session`, or null when there is none (or it is not ours). A line
 * holding a credential (a handoff written before a rule existed, or edited) is replaced: the
 * text goes back into the model's context.
 */
export async function readHandoff(
  stateDir: string,
  session: string,
  rules: readonly CredentialRule[],
): Promise<string | null> {
  let text: string;
  try {
    const path = handoffPath(stateDir, session);
    // A regular file of sane size only: anything else is not a handoff we wrote.
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > MAX_HANDOFF_BYTES) return null;
    text = await Deno.readTextFile(path);
  } catch {
    return null;
  }
  if (!text.startsWith(HANDOFF_TITLE)) return null;
  return text.split("\n").map((
    line,
  ) => (findCredential(line, rules) === null ? line : `- ${CREDENTIAL_PLACEHOLDER}`))
    .join("\n");
}

type Ledger = Record<string, number>;

function ledgerPath(stateDir: string): string {
  return joinPath(stateDir, "compact-blocks.json");
}

async function readLedger(stateDir: string): Promise<Ledger> {
  try {
    const v: unknown = JSON.parse(await Deno.readTextFile(ledgerPath(stateDir)));
    if (typeof v !== "object" || v === null || Array.isArray(v)) return {};
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).filter((e): e is [string, number] =>
        typeof e[1] === "number"
      ),
    );
  } catch {
    return {};
  }
}

/** Pure: should a manual request at `now` pass because one was blocked within the window? */
export function withinWindow(blockedAt: number | undefined, now: number): boolean {
  return blockedAt !== undefined && now >= blockedAt && now - blockedAt <= MANUAL_BLOCK_WINDOW_MS;
}

/**
 * Decides a manual compaction that the verdict would block: returns "pass" when the session was
 * blocked within the window (and forgets that block), else records the block and returns "block".
 */
export async function manualBlockDecision(
  stateDir: string,
  session: string,
  now: number,
): Promise<"block" | "pass"> {
  const ledger = await readLedger(stateDir);
  const kept: Ledger = {};
  for (const [k, t] of Object.entries(ledger)) if (now - t <= LEDGER_MAX_AGE_MS && now >= t) kept[k] = t;
  const decision = withinWindow(ledger[session], now) ? "pass" : "block";
  if (decision === "pass") delete kept[session];
  else kept[session] = now;
  await Deno.mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeTextFileAtomic(ledgerPath(stateDir), JSON.stringify(kept) + "\n", 0o600);
  return decision;
}
