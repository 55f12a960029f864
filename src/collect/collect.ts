/**
 * `collect` as a library function: read every source under its roots, drop credentials, and
 * merge into the archive store (src/store/), whose index is kept up to date in the same
 * transaction. A kill at any moment leaves the archive as the last collect committed it.
 *
 * Incremental: a source file read before is read from where the last run stopped; a run that
 * finds nothing new writes only the collector's state (and nothing when that did not change).
 * An archive an older verdict wrote (records.jsonl) is migrated first (src/collect/migrate.ts).
 */
import type { Agent } from "../agents/agent.ts";
import { LOADED_AGENTS } from "../agents/loaded.ts";
import type { Roots } from "../config/roots.ts";
import type { Config } from "../config/config.ts";
import { Archive, META } from "../store/archive.ts";
import { migrateLegacy, type MigrationResult } from "./migrate.ts";
import { storePaths } from "../store/paths.ts";
import { loadSources, saveSources } from "./saved_state.ts";
import { sweepSegments } from "../store/sweep.ts";
import { ArchiveUpdate, type StageTrace } from "../store/update.ts";
import { collectDocs, type MemoryRoot } from "./docs.ts";
import { collectGit } from "./git.ts";
import { readRemembered, rememberedDigest, rememberedRecords } from "./remembered.ts";
import { takeCollectLock } from "./lock.ts";
import { overCap, type RecordKind, type VerdictRecord } from "../record/record.ts";
import {
  compileCredentialRules,
  CREDENTIAL_PLACEHOLDER,
  type CredentialRule,
  credentialRulesDigest,
  findCredential,
  holdsCredential,
} from "../record/secrets.ts";
import type { ProblemReporter } from "../record/source.ts";
import {
  collectTranscripts,
  type SavedTranscripts,
  type TranscriptFileState,
  type TranscriptState,
} from "./transcripts.ts";

export interface CollectInput {
  readonly roots: Roots;
  /** The archive's path (src/store/paths.ts: a `.jsonl` name means the store beside it). */
  readonly recordsPath: string;
  readonly config: Config;
  /** Records older than this (RFC 3339) are not collected. */
  readonly since: string | null;
  /** Ignore the incremental state and re-read every file. */
  readonly full: boolean;
  readonly report: ProblemReporter;
  readonly onProgress?: (bytesRead: number) => void;
  /** The agents whose sessions to read (default: every registered one). */
  readonly agents?: readonly Agent[];
  /** Aborted (SIGINT/SIGTERM): the run stops, committing nothing, with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Told each stage as it ends (a debugging aid: the CLI prints memory use under VERDICT_DEBUG_MEMORY). */
  readonly trace?: StageTrace;
}

export interface CollectSummary {
  readonly total: number;
  readonly byKind: Readonly<Record<RecordKind, number>>;
  readonly added: number;
  readonly filesRead: number;
  readonly filesUnreadable: number;
  readonly linesSkipped: number;
  readonly secretsDropped: number;
  /** False when nothing was new and the records were left untouched. */
  readonly written: boolean;
  /** Set when this run migrated an archive an older verdict wrote. */
  readonly migrated: MigrationResult | null;
}

export async function collect(input: CollectInput): Promise<CollectSummary> {
  // Compile first: an invalid rule fails the run before anything is read or written.
  const rules = compileCredentialRules(input.config.credential_patterns);
  // Built-in rules count too: an upgrade that adds one re-screens the archive on the next run.
  const rulesDigest = credentialRulesDigest(input.config.credential_patterns);
  const paths = storePaths(input.recordsPath);
  await Deno.mkdir(paths.segments, { recursive: true, mode: 0o700 });
  const release = await takeCollectLock(paths.lock, paths.db);
  let archive: Archive | null = null;
  try {
    archive = Archive.openForUpdate(paths);
    // Files a crashed run left, and segments merged away by an earlier run.
    await sweepSegments(archive);
    const agents = input.agents ?? LOADED_AGENTS;
    const repeats = agents.flatMap((a) => (a.repeats ? [a.repeats] : []));
    const migrated = await migrateLegacy(archive, repeats, input.report);
    const rulesChanged = archive.meta(META.rules) !== rulesDigest;

    const trace = input.trace ?? (() => {});
    trace("archive opened");
    // Segments this run makes are numbered from here (the next commit names the survivors).
    const firstNewSegment = archive.metaNumber(META.nextSeg, 1);
    const update = new ArchiveUpdate(archive, repeats, undefined, trace);
    try {
      const read = await readSources(input, archive, agents, update, rules, rulesChanged);
      trace("sources read, their state saved");
      let dropped = read.dropped;
      if (rulesChanged) dropped += update.dropWhere((r) => hasCredential(r, rules));
      if (read.anything || rulesChanged) update.apply();
      update.updateLexicon();
      await update.index();
      archive.setMeta(META.rules, rulesDigest);
      if (input.signal?.aborted) throw input.signal.reason;
      const summary = update.commit();
      // The segments this run made and merged away (a first collect of 10^6 records writes 50 of
      // 13 MB and merges them into one) go now: left for the next collect, their removal was most
      // of its time (0.2 s of a one-prompt collect, freeing 680 MB of cached pages).
      if (!update.scrub) await sweepSegments(archive, firstNewSegment);
      if (update.scrub) {
        // Removed text must not linger: the segments that indexed it go now, not at the next run.
        await sweepSegments(archive);
        if (!archive.truncateLog()) {
          input.report(
            paths.db,
            "a reader kept the log from being emptied; the removed text leaves it at the next collect",
          );
        }
      }
      return {
        total: summary.total,
        byKind: summary.byKind,
        added: summary.added,
        filesRead: read.filesRead,
        filesUnreadable: read.filesUnreadable,
        linesSkipped: read.linesSkipped,
        secretsDropped: dropped,
        written: read.anything || rulesChanged || migrated !== null || summary.rebuilt,
        migrated,
      };
    } catch (err) {
      update.rollback();
      throw err;
    }
  } finally {
    archive?.close();
    release();
  }
}

/** What reading the sources found, once their records are staged and their state saved. */
interface SourcesRead {
  /** Anything to merge: a record, or a file read from its start. */
  readonly anything: boolean;
  readonly dropped: number;
  readonly filesRead: number;
  readonly filesUnreadable: number;
  readonly linesSkipped: number;
}

/**
 * Reads every source, staging its records into `update`, and saves the collector's state (in
 * the update's transaction). Apart so that the state of every file (10,000 of them for a million
 * records) is garbage before the index is built, not live through it.
 */
async function readSources(
  input: CollectInput,
  archive: Archive,
  agents: readonly Agent[],
  update: ArchiveUpdate,
  rules: readonly CredentialRule[],
  rulesChanged: boolean,
): Promise<SourcesRead> {
  const trace = input.trace ?? (() => {});
  const previous = input.full ? null : loadSources(archive);
  trace("sources' state loaded");
  let dropped = 0;
  let oversized = 0;
  let anything = false;
  // Every record of every reader passes here, so the one size cap and the screen hold for all.
  const stage = (file: string, replaced: boolean, records: readonly VerdictRecord[]) => {
    const kept = records.filter((r) => {
      if (overCap(r)) {
        oversized++;
        return false;
      }
      if (hasCredential(r, rules)) {
        dropped++;
        return false;
      }
      return input.since === null || r.time >= input.since;
    });
    if (replaced || kept.length > 0) anything = true;
    update.stage(file, replaced, kept);
  };
  const transcripts = await collectTranscripts({
    roots: input.roots.sessions,
    readers: new Map(agents.flatMap((a) => a.sessions.map((r) => [r.kind, r] as const))),
    includeHeadless: input.config.include_headless,
    previous: previous?.transcripts ?? null,
    since: input.since,
    report: input.report,
    onFile: stage,
    ...(input.onProgress ? { onBytes: input.onProgress } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  trace("transcripts read");
  const docs = await collectDocs({
    docRoots: input.roots.docs,
    credentialRules: rules,
    memory: memoryRoots(agents, input.roots),
    previous: previous?.docs ?? null,
    since: input.since,
    report: input.report,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  trace("docs read");
  const git = await collectGit({
    repos: input.roots.gitRepos,
    previous: previous?.git ?? null,
    since: input.since,
    report: input.report,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  // Decisions added by hand: read again whenever the file changed (or on --full), like a doc.
  const rememberedFile = storePaths(input.recordsPath).remembered;
  const remembered = await readRemembered(rememberedFile);
  if (remembered !== null) {
    const digest = rememberedDigest(remembered);
    if (input.full || archive.meta(META.remembered) !== digest) {
      stage(rememberedFile, true, rememberedRecords(rememberedFile, remembered));
      archive.setMeta(META.remembered, digest);
    }
  }
  // Stopped while reading (SIGINT/SIGTERM): nothing is committed; the reason names the signal.
  if (input.signal?.aborted) throw input.signal.reason;
  for (const r of [docs, git]) {
    for (const [file, records] of r.replaced) stage(file, true, records);
    if (r.appended.length > 0) stage("", false, r.appended);
  }
  const results = [transcripts, docs, git];
  trace("git read");
  // New credential rules screen every saved carry again, also of the files found as they were.
  const states: TranscriptState = { ...transcripts.state };
  if (rulesChanged && previous !== null) {
    for (const file of transcripts.kept) {
      states[file] = previous.transcripts.state(file) as TranscriptFileState;
    }
  }
  saveSources(
    archive,
    previous,
    {
      transcripts: redactCarries(states, rules, rulesChanged ? null : previous?.transcripts ?? null),
      docs: docs.state,
      git: git.state,
    },
    rulesChanged ? new Set() : transcripts.kept,
  );
  return {
    anything,
    dropped: dropped + results.reduce((n, r) => n + r.stats.secretsDropped, 0),
    filesRead: results.reduce((n, r) => n + r.stats.filesRead, 0),
    filesUnreadable: results.reduce((n, r) => n + r.stats.filesUnreadable, 0),
    linesSkipped: oversized + results.reduce((n, r) => n + r.stats.linesSkipped, 0),
  };
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

function hasCredential(r: VerdictRecord, rules: readonly CredentialRule[]): boolean {
  return holdsCredential(r.text, rules);
}

/**
 * Parser carries may hold text still waiting for its tool result (a memory write). Any string
 * in a carry that matches a credential rule is replaced before the state is written, so no
 * secret reaches the state file; a record later built from it carries the placeholder and is
 * dropped like the original would have been. States found in `screened` (the very objects
 * loaded, saved under the same rules) are kept as they are.
 */
export function redactCarries(
  state: TranscriptState,
  rules: readonly CredentialRule[],
  screened: SavedTranscripts | null = null,
): TranscriptState {
  const redact = (v: unknown): unknown => {
    if (typeof v === "string") return findCredential(v, rules) ? CREDENTIAL_PLACEHOLDER : v;
    if (Array.isArray(v)) return v.map(redact);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redact(x)]));
    }
    return v;
  };
  const out: Record<string, TranscriptState[string]> = {};
  for (const [file, s] of Object.entries(state)) {
    // A state kept as loaded was screened when it was saved, under the same rules.
    out[file] = screened !== null && screened.state(file) === s ? s : { ...s, carry: redact(s.carry) };
  }
  return out;
}
