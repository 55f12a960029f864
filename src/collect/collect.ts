/**
 * `collect` as a library function: read every source under its roots, merge into the archive,
 * drop credentials, write the records file atomically, then the index and the per-file state.
 *
 * Incremental: when no source reports anything new and the filter rules are unchanged, nothing
 * is read beyond directory listings and stats, and nothing is written.
 */
import type { Agent } from "../agents/agent.ts";
import { LOADED_AGENTS } from "../agents/loaded.ts";
import { EXIT, VerdictError } from "../errors.ts";
import type { Roots } from "../config/roots.ts";
import type { Config } from "../config/config.ts";
import { derivedPaths } from "../config/paths.ts";
import { writeFileAtomic, writeTextFileAtomic } from "../fsutil/atomic.ts";
import { collectDocs, type DocsState, type MemoryRoot } from "./docs.ts";
import { collectGit, type GitState } from "./git.ts";
import { takeCollectLock } from "./lock.ts";
import { mergeRecords } from "./merge.ts";
import { asRecord, RECORD_KINDS, type RecordKind, recordLine, type VerdictRecord } from "./record.ts";
import {
  compileCredentialRules,
  CREDENTIAL_PLACEHOLDER,
  type CredentialRule,
  credentialRulesDigest,
  findCredential,
  holdsCredential,
} from "./secrets.ts";
import type { ProblemReporter, SourceResult } from "./source.ts";
import { collectTranscripts, type TranscriptState } from "./transcripts.ts";

/** Bumped when the state's meaning changes; an older state is ignored (full re-read). */
export const COLLECT_STATE_VERSION = 1;

export interface CollectState {
  readonly version: number;
  /** Digest of the credential rules (built-in and configured) in force when the archive was last written. */
  readonly rulesDigest: string;
  /** The records file as this run left it (an edited or missing archive forces a full re-read). */
  readonly recordsSize: number;
  readonly recordsMtimeMs: number;
  /** Counts of the archive as written, so a no-op run can report them without reading it. */
  readonly byKind: Readonly<Record<RecordKind, number>>;
  readonly transcripts: TranscriptState;
  readonly docs: DocsState | null;
  readonly git: GitState | null;
}

export interface CollectInput {
  readonly roots: Roots;
  readonly recordsPath: string;
  readonly config: Config;
  /** Records older than this (RFC 3339) are not collected. */
  readonly since: string | null;
  /** Ignore the incremental state and re-read every file. */
  readonly full: boolean;
  readonly report: ProblemReporter;
  readonly onProgress?: (bytesRead: number) => void;
  /** Builds the search index beside the records (injected so collect does not import rank). */
  readonly buildIndex?: (records: readonly VerdictRecord[], recordsPath: string) => Promise<void>;
  /** The agents whose sessions to read (default: every registered one). */
  readonly agents?: readonly Agent[];
  /** Aborted (SIGINT/SIGTERM): the run stops, writing nothing, with the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface CollectSummary {
  readonly total: number;
  readonly byKind: Readonly<Record<RecordKind, number>>;
  readonly added: number;
  readonly filesRead: number;
  readonly filesUnreadable: number;
  readonly linesSkipped: number;
  readonly secretsDropped: number;
  /** False when nothing was new and the archive was left untouched. */
  readonly written: boolean;
}

export async function collect(input: CollectInput): Promise<CollectSummary> {
  // Compile first: an invalid rule fails the run before anything is read or written.
  const rules = compileCredentialRules(input.config.credential_patterns);
  // Built-in rules count too: an upgrade that adds one re-screens the archive on the next run.
  const rulesDigest = credentialRulesDigest(input.config.credential_patterns);
  const paths = derivedPaths(input.recordsPath);
  const release = await takeCollectLock(paths.lock, input.recordsPath);
  try {
    const records = await statOrNull(input.recordsPath);
    let previous = input.full ? null : await loadState(paths.collectState);
    // If the archive is gone or was changed behind our back, re-read everything (and merge
    // with whatever the archive holds) so nothing consumed earlier is lost.
    if (
      previous && (!records || records.size !== previous.recordsSize ||
        (records.mtime?.getTime() ?? 0) !== previous.recordsMtimeMs)
    ) previous = null;

    const agents = input.agents ?? LOADED_AGENTS;
    const transcripts = await collectTranscripts({
      roots: input.roots.sessions,
      readers: new Map(agents.flatMap((a) => a.sessions.map((r) => [r.kind, r] as const))),
      includeHeadless: input.config.include_headless,
      previous: previous?.transcripts ?? null,
      since: input.since,
      report: input.report,
      ...(input.onProgress ? { onBytes: input.onProgress } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const docs = await collectDocs({
      docRoots: input.roots.docs,
      credentialRules: rules,
      memory: memoryRoots(agents, input.roots),
      previous: previous?.docs ?? null,
      since: input.since,
      report: input.report,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const git = await collectGit({
      repos: input.roots.gitRepos,
      previous: previous?.git ?? null,
      since: input.since,
      report: input.report,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    // Stopped while reading (SIGINT/SIGTERM): nothing is written; the reason names the signal.
    if (input.signal?.aborted) throw input.signal.reason;
    const results: SourceResult<unknown>[] = [transcripts, docs, git];
    const filesRead = results.reduce((n, r) => n + r.stats.filesRead, 0);
    const filesUnreadable = results.reduce((n, r) => n + r.stats.filesUnreadable, 0);
    const linesSkipped = results.reduce((n, r) => n + r.stats.linesSkipped, 0);
    const transcriptState = redactCarries(transcripts.state, rules);

    const nothingNew = previous !== null && previous.rulesDigest === rulesDigest &&
      results.every((r) => r.replaced.size === 0 && r.appended.length === 0);
    if (nothingNew && records) {
      const state: CollectState = {
        ...previous!,
        transcripts: transcriptState,
        docs: docs.state,
        git: git.state,
      };
      if (JSON.stringify(state) !== JSON.stringify(previous)) {
        await writeTextFileAtomic(paths.collectState, JSON.stringify(state));
      }
      return {
        total: Object.values(previous!.byKind).reduce((a, b) => a + b, 0),
        byKind: previous!.byKind,
        added: 0,
        filesRead,
        filesUnreadable,
        linesSkipped,
        secretsDropped: 0,
        written: false,
      };
    }

    const archived = records ? await readArchive(input.recordsPath, input.report) : [];
    // The archive was screened with the rules of the run that wrote it; screen it again only
    // when they may differ (a changed rule list, or no trustworthy state saying which they were).
    const rescreen = previous === null || previous.rulesDigest !== rulesDigest;
    const old = rescreen ? archived.filter((r) => !hasCredential(r, rules)) : archived;
    const fresh = filterResults(results, rules, input.since);
    const merged = mergeRecords(old, fresh.results, agents.flatMap((a) => (a.repeats ? [a.repeats] : [])));
    const sourceDrops = results.reduce((n, r) => n + r.stats.secretsDropped, 0);
    const secretsDropped = fresh.dropped + sourceDrops + (archived.length - old.length);

    await writeFileAtomic(input.recordsPath, lines(merged.records));
    const after = await Deno.stat(input.recordsPath);
    if (input.buildIndex) await input.buildIndex(merged.records, input.recordsPath);
    const state: CollectState = {
      version: COLLECT_STATE_VERSION,
      rulesDigest,
      recordsSize: after.size,
      recordsMtimeMs: after.mtime?.getTime() ?? 0,
      byKind: kindCounts(merged.records),
      transcripts: transcriptState,
      docs: docs.state,
      git: git.state,
    };
    await writeTextFileAtomic(paths.collectState, JSON.stringify(state));
    return {
      total: merged.records.length,
      byKind: kindCounts(merged.records),
      added: merged.added,
      filesRead,
      filesUnreadable,
      linesSkipped,
      secretsDropped,
      written: true,
    };
  } finally {
    release();
  }
}

/** Each agent's memory lister, once per root of the reader its memory files sit under. */
function memoryRoots(agents: readonly Agent[], roots: Roots): MemoryRoot[] {
  const out: MemoryRoot[] = [];
  for (const agent of agents) {
    const memory = agent.memory;
    if (!memory) continue;
    for (const root of roots.sessions) {
      if (root.agent === agent.id && root.kind === memory.under) {
        out.push({ root: root.path, find: memory.find });
      }
    }
  }
  return out;
}

function* lines(records: readonly VerdictRecord[]): Generator<string> {
  // Batch lines so the writer sees few large chunks.
  let batch = "";
  for (const r of records) {
    batch += recordLine(r) + "\n";
    if (batch.length > 1 << 20) {
      yield batch;
      batch = "";
    }
  }
  if (batch) yield batch;
}

function hasCredential(r: VerdictRecord, rules: readonly CredentialRule[]): boolean {
  return holdsCredential(r.text, rules);
}

/** Drops credential-bearing and too-old records from this run's results; counts the drops. */
function filterResults(
  results: readonly SourceResult<unknown>[],
  rules: readonly CredentialRule[],
  since: string | null,
): { results: SourceResult<unknown>[]; dropped: number } {
  let dropped = 0;
  const keep = (recs: readonly VerdictRecord[]) =>
    recs.filter((r) => {
      if (hasCredential(r, rules)) {
        dropped++;
        return false;
      }
      return since === null || r.time >= since;
    });
  const out = results.map((r) => ({
    ...r,
    replaced: new Map([...r.replaced].map(([file, recs]) => [file, keep(recs)] as const)),
    appended: keep(r.appended),
  }));
  return { results: out, dropped };
}

/**
 * Parser carries may hold text still waiting for its tool result (a memory write). Any string
 * in a carry that matches a credential rule is replaced before the state is written, so no
 * secret reaches the state file; a record later built from it carries the placeholder and is
 * dropped like the original would have been.
 */
export function redactCarries(state: TranscriptState, rules: readonly CredentialRule[]): TranscriptState {
  const redact = (v: unknown): unknown => {
    if (typeof v === "string") return findCredential(v, rules) ? CREDENTIAL_PLACEHOLDER : v;
    if (Array.isArray(v)) return v.map(redact);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redact(x)]));
    }
    return v;
  };
  const out: Record<string, TranscriptState[string]> = {};
  for (const [file, s] of Object.entries(state)) out[file] = { ...s, carry: redact(s.carry) };
  return out;
}

function kindCounts(records: readonly VerdictRecord[]): Record<RecordKind, number> {
  const byKind = Object.fromEntries(RECORD_KINDS.map((k) => [k, 0])) as Record<RecordKind, number>;
  for (const r of records) byKind[r.kind]++;
  return byKind;
}

/** Reads the archive; a line that is not a record is reported and left out of the merge. */
export async function readArchive(path: string, report: ProblemReporter): Promise<VerdictRecord[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  const out: VerdictRecord[] = [];
  let lineNo = 0;
  let bad = 0;
  for (const line of text.split("\n")) {
    lineNo++;
    if (line === "") continue;
    let rec: VerdictRecord | null = null;
    try {
      rec = asRecord(JSON.parse(line));
    } catch {
      rec = null;
    }
    if (rec) out.push(rec);
    else bad++;
  }
  if (bad > 0 && out.length === 0) {
    throw new VerdictError(
      `Refusing to overwrite "${path}": none of its ${bad} lines is a verdict record`,
      EXIT.usage,
      "point --out at another file, or move this one away",
    );
  }
  if (bad > 0) report(path, `${bad} line(s) are not records and were left out`);
  return out;
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

async function loadState(path: string): Promise<CollectState | null> {
  try {
    const s = JSON.parse(await Deno.readTextFile(path)) as CollectState;
    return s && s.version === COLLECT_STATE_VERSION && typeof s.transcripts === "object" &&
        typeof s.byKind === "object"
      ? s
      : null;
  } catch {
    // Missing or unreadable state only costs a full re-read.
    return null;
  }
}
