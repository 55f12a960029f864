/**
 * The transcript source: finds Claude Code sessions, Claude's prompt history and Codex rollouts
 * under their roots, and feeds each file's new lines to its parser. Per-file state (size, mtime,
 * offset, line number, a fingerprint of the file's head, the parser's carry) makes a re-collect
 * read only what a file gained; a file that shrank or whose head changed is re-read whole.
 */
import { basename, isWithin } from "../config/paths.ts";
import { walkFiles } from "../fsutil/walk.ts";
import { containedRealPath } from "../sandbox/contain.ts";
import { createClaudeParser } from "./claude.ts";
import { createHistoryParser } from "./claude_history.ts";
import { createCodexParser } from "./codex.ts";
import type { LineParser, ParserOptions } from "./line_parser.ts";
import { readLines } from "./lines.ts";
import { fnv1a64, type VerdictRecord } from "./record.ts";
import { emptyStats, type ProblemReporter, type SourceResult } from "./source.ts";

export type TranscriptKind = "claude" | "history" | "codex";

export interface TranscriptFileState {
  readonly kind: TranscriptKind;
  readonly size: number;
  readonly mtimeMs: number;
  readonly offset: number;
  readonly lineNo: number;
  /** Fingerprint of the first `headLength` bytes: a replaced file is noticed even if it grew. */
  readonly head: string;
  readonly headLength: number;
  readonly carry: unknown;
}

export type TranscriptState = Record<string, TranscriptFileState>;

export interface TranscriptInput {
  readonly claudeProjects: string | null;
  readonly claudeHistory: string | null;
  readonly codexSessions: readonly string[];
  readonly includeHeadless: boolean;
  readonly previous: TranscriptState | null;
  readonly report: ProblemReporter;
  /** Progress callback: bytes read so far. */
  readonly onBytes?: (bytes: number) => void;
}

const HEAD_BYTES = 1024;

interface Candidate {
  readonly path: string;
  readonly kind: TranscriptKind;
  readonly roots: readonly string[];
}

/** Lists the transcript files to consider, sorted, each with the roots it must stay under. */
export async function findTranscripts(input: TranscriptInput): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const onError = (path: string, err: Error) => input.report(path, `cannot list: ${err.message}`);
  if (input.claudeProjects) {
    const root = input.claudeProjects;
    for await (
      const path of walkFiles(root, {
        // Main transcripts only: <root>/<project>/<session>.jsonl. Subagent files live deeper
        // (<session>/subagents/agent-*.jsonl) or are named agent-*.jsonl.
        accept: (p, name) =>
          name.endsWith(".jsonl") && !name.startsWith("agent-") && depthBelow(p, root) === 2,
        skipDir: (p) => depthBelow(p, root) >= 2,
        onError,
      })
    ) out.push({ path, kind: "claude", roots: [root] });
  }
  if (input.claudeHistory) {
    out.push({ path: input.claudeHistory, kind: "history", roots: [input.claudeHistory] });
  }
  for (const root of input.codexSessions) {
    for await (
      const path of walkFiles(root, { accept: (_p, name) => name.endsWith(".jsonl"), onError })
    ) out.push({ path, kind: "codex", roots: [root] });
  }
  return out;
}

function depthBelow(path: string, root: string): number {
  if (!isWithin(path, root) || path === root) return 0;
  return path.slice(root.length + 1).split("/").length;
}

function createParser(kind: TranscriptKind, opts: ParserOptions, carry: unknown): LineParser<unknown> {
  // The carry was written by the same parser kind (the state records the kind).
  switch (kind) {
    case "claude":
      return createClaudeParser(opts, carry as Parameters<typeof createClaudeParser>[1]);
    case "history":
      return createHistoryParser(opts, carry as Parameters<typeof createHistoryParser>[1]);
    case "codex":
      return createCodexParser(opts, carry as Parameters<typeof createCodexParser>[1]);
  }
}

async function headFingerprint(path: string, length: number): Promise<string> {
  if (length === 0) return "";
  const file = await Deno.open(path, { read: true });
  try {
    const buf = new Uint8Array(length);
    let off = 0;
    while (off < buf.length) {
      const n = await file.read(buf.subarray(off));
      if (n === null) break;
      off += n;
    }
    let s = "";
    for (let i = 0; i < off; i++) s += String.fromCharCode(buf[i]!);
    return fnv1a64(s);
  } finally {
    file.close();
  }
}

/** Reads new transcript lines and returns the records they yield. */
export async function collectTranscripts(input: TranscriptInput): Promise<SourceResult<TranscriptState>> {
  const stats = emptyStats();
  const replaced = new Map<string, VerdictRecord[]>();
  const appended: VerdictRecord[] = [];
  const state: Record<string, TranscriptFileState> = {};
  const previous = input.previous ?? {};
  let totalBytes = 0;

  for (const cand of await findTranscripts(input)) {
    const real = await containedRealPath(cand.path, cand.roots);
    if (real === null) {
      input.report(cand.path, "skipped: resolves outside the transcript roots");
      stats.filesUnreadable++;
      continue;
    }
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(real);
    } catch (err) {
      input.report(real, `cannot read: ${(err as Error).message}`);
      stats.filesUnreadable++;
      continue;
    }
    const mtimeMs = info.mtime?.getTime() ?? 0;
    const prev = previous[real];
    if (prev && prev.kind === cand.kind && prev.size === info.size && prev.mtimeMs === mtimeMs) {
      state[real] = prev;
      continue;
    }
    try {
      const headLength = Math.min(HEAD_BYTES, info.size);
      const head = await headFingerprint(real, headLength);
      // Resume only when the file did not shrink below what we read and still starts the same.
      const resumable = prev !== undefined && prev.kind === cand.kind && info.size >= prev.offset &&
        info.size >= prev.headLength &&
        (prev.headLength === headLength
          ? prev.head === head
          : prev.head === await headFingerprint(real, prev.headLength));
      const startOffset = resumable ? prev.offset : 0;
      const startLine = resumable ? prev.lineNo : 0;
      const parser = createParser(
        cand.kind,
        { file: real, includeHeadless: input.includeHeadless },
        resumable ? prev.carry : null,
      );
      const result = await readLines(
        real,
        startOffset,
        startLine,
        (text, lineNo) => parser.line(text, lineNo),
      );
      totalBytes += result.bytes;
      input.onBytes?.(totalBytes);
      stats.filesRead++;
      stats.linesSkipped += parser.malformed + result.oversized;
      const records = parser.drain();
      if (resumable) appended.push(...records);
      else replaced.set(real, records);
      state[real] = {
        kind: cand.kind,
        size: info.size,
        mtimeMs,
        offset: result.offset,
        lineNo: result.lineNo,
        head,
        headLength,
        carry: parser.carry(),
      };
    } catch (err) {
      input.report(real, `cannot read: ${(err as Error).message}`);
      stats.filesUnreadable++;
      if (prev) state[real] = prev;
    }
  }
  return { replaced, appended, state, stats };
}

/** Is this record from Claude's prompt history (deduplicated against transcripts)? */
export function isHistoryRecord(r: VerdictRecord): boolean {
  return r.origin === "claude" && basename(r.source_file) === "history.jsonl";
}
