/**
 * What the gate's rule tests share: earlier prompts as records, a filler archive of everyday
 * requests, and the hook's own decision (hintFor) over them at a fixed clock.
 */
import type { VerdictRecord } from "../../src/record/record.ts";
import type { GateVerdict } from "../../src/gate/gate.ts";
import { hintFor, HOOK_TOP } from "../../src/gate/hint.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";

export const NOW = Date.parse("2026-03-01T00:00:00.000Z");

/** Everyday requests that decide nothing, for an archive around the record a test is about. */
export const FILLER: readonly string[] = [
  "fix the failing test in the cart module",
  "add a loading spinner to the checkout page",
  "rename the helper to formatPrice",
  "why is the login form slow on mobile",
  "write docs for the search endpoint",
  "bump the eslint config and fix the warnings",
  "refactor the invoice mailer into two functions",
  "the dark mode toggle flickers on reload",
];

/** The n-th earlier prompt, in a session of its own (id r0007 for n = 7 unless given). */
export function promptRecord(
  n: number,
  text: string,
  over: Partial<Omit<VerdictRecord, "text">> = {},
): VerdictRecord {
  return {
    id: over.id ?? `r${String(n).padStart(4, "0")}`,
    kind: over.kind ?? "prompt",
    origin: "claude",
    text,
    time: over.time ?? "2026-02-20T10:00:00.000Z",
    project: "/work/shop",
    session: `old-${n}`,
    source_file: "/tmp/x.jsonl",
    source_line: n,
    commit: null,
  };
}

/** The hook's decision for `prompt` over `records`, in a live session of its own. */
export function hintOver(records: readonly VerdictRecord[], prompt: string): GateVerdict {
  return hintFor(buildMemoryIndex(records), {
    prompt,
    session: "live",
    cwd: "/work/shop",
    nowMs: NOW,
    shown: new Set(),
    entities: [],
    personas: [],
    top: HOOK_TOP,
    textOf: (doc) => records[doc]!.text,
  }).verdict;
}

/** The verdict's rule and every candidate's check, for an assertion's message. */
export const why = (v: GateVerdict): string =>
  `${v.rule}: ${v.detail} | ${v.checks.map((c) => `${c.rule}: ${c.detail}`).join(" | ")}`;
