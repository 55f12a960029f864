/**
 * The Git source: commit messages of every local branch and tag of each configured work tree,
 * and tags whose name holds a calendar date (release-2026-03-01, v20260301 …), which mark when
 * something shipped.
 *
 * One `git log` per repository reads every commit (NUL-separated fields, so 100k commits parse
 * in one pass); one `git for-each-ref` reads the tags. Incremental: the state keeps each
 * repository's HEAD and a digest of its branch and tag refs; when both are unchanged nothing is
 * read and the repository is left out of `replaced`.
 */
import { execGit, GitError, gitRepoInfo, runGit, runGitText } from "./git_run.ts";
import { compareRecords, fnv1a64, recordId, toRfc3339, type VerdictRecord } from "../record/record.ts";
import {
  emptyStats,
  type ProblemReporter,
  sinceCovers,
  type SourceResult,
  type SourceStats,
} from "../record/source.ts";

export const GIT_STATE_VERSION = 1;

export interface GitRepoState {
  /** HEAD commit, or null for a repository with no commits yet. */
  readonly head: string | null;
  /** Digest of every branch and tag ref (name and target). */
  readonly refs: string;
  /** The --since cutoff its records were collected under (null: none). */
  readonly since: string | null;
}

export interface GitState {
  readonly version: typeof GIT_STATE_VERSION;
  /** Repository top level (real path) → what it looked like when its records were made. */
  readonly repos: Readonly<Record<string, GitRepoState>>;
}

export interface GitInput {
  /** Git work trees, real paths (a subdirectory stands for its whole repository). */
  readonly repos: readonly string[];
  readonly previous: GitState | null;
  /** The run's --since cutoff: a repository read under a later one is read again. */
  readonly since: string | null;
  readonly report: ProblemReporter;
  readonly signal?: AbortSignal;
}

/** Checks a state read from disk; anything unexpected gives null (a full collect). */
export function parseGitState(value: unknown): GitState | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v.version !== GIT_STATE_VERSION || typeof v.repos !== "object" || v.repos === null) return null;
  const repos: Record<string, GitRepoState> = {};
  for (const [top, r] of Object.entries(v.repos as Record<string, unknown>)) {
    if (typeof r !== "object" || r === null) return null;
    const s = r as Record<string, unknown>;
    if (!(s.head === null || typeof s.head === "string") || typeof s.refs !== "string") return null;
    // A state from before cutoffs were kept names none: `since` undefined is not trusted.
    if (!(s.since === null || typeof s.since === "string")) continue;
    repos[top] = { head: s.head, refs: s.refs, since: s.since };
  }
  return { version: GIT_STATE_VERSION, repos };
}

/** Years a date in a tag name may have: earlier or later "dates" are build numbers or noise. */
const MIN_TAG_YEAR = 1970;
const MAX_TAG_YEAR = 2099;

/**
 * Four-digit year, month, day, with one separator (-, ., _ or /) used twice or none at all, and
 * no digit directly before or after (so 12-digit build numbers and `v1.2.3` never match).
 */
const DATE_IN_NAME = /(?<!\d)(\d{4})([-._/]?)(\d{2})\2(\d{2})(?!\d)/g;

/** The calendar date held in a tag name, as "YYYY-MM-DD", or null when it holds none. Pure. */
export function dateInTagName(name: string): string | null {
  for (const m of name.matchAll(DATE_IN_NAME)) {
    const year = Number(m[1]);
    const month = Number(m[3]);
    const day = Number(m[4]);
    if (isCalendarDate(year, month, day)) {
      return `${m[1]}-${m[3]}-${m[4]}`;
    }
  }
  return null;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < MIN_TAG_YEAR || year > MAX_TAG_YEAR || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one (UTC, so no time zone enters).
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export async function collectGit(input: GitInput): Promise<SourceResult<GitState>> {
  const stats = emptyStats();
  const previous = input.previous ? parseGitState(input.previous) : null;
  const options = input.signal ? { signal: input.signal } : {};
  const replaced = new Map<string, readonly VerdictRecord[]>();
  const next: Record<string, GitRepoState> = {};
  for (const dir of [...new Set(input.repos)].sort()) {
    let top: string;
    let head: string | null;
    try {
      ({ top, head } = await gitRepoInfo(dir, options));
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
      stats.filesUnreadable++;
      if (err.failure === "not-a-repository") input.report(dir, "Skipping: not a git work tree");
      else input.report(dir, `Skipping: ${err.message}`);
      if (err.failure === "missing" || err.failure === "not-permitted") break;
      continue;
    }
    if (top in next) continue;
    try {
      const refsText = await runGitText(
        top,
        ["for-each-ref", "--format=%(refname)%00%(objectname)", "refs/heads", "refs/tags"],
        options,
      );
      const state: GitRepoState = { head, refs: fnv1a64(refsText), since: input.since };
      const prev = previous?.repos[top];
      if (
        prev && prev.head === state.head && prev.refs === state.refs && sinceCovers(prev.since, input.since)
      ) {
        next[top] = prev;
        continue;
      }
      const hasBranches = refsText.split("\n").some((l) => l.startsWith("refs/heads/"));
      const records = [
        ...(head !== null || hasBranches ? await commitRecords(top, head, stats, options) : []),
        ...await tagRecords(top, stats, input.report, options),
      ].sort(compareRecords);
      stats.filesRead++;
      replaced.set(top, records);
      next[top] = state;
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
      stats.filesUnreadable++;
      input.report(top, `Skipping: ${err.message}`);
    }
  }
  const repos: Record<string, GitRepoState> = {};
  for (const top of Object.keys(next).sort()) repos[top] = next[top] as GitRepoState;
  return {
    replaced: new Map([...replaced].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    appended: [],
    state: { version: GIT_STATE_VERSION, repos },
    stats,
  };
}

/** Fields of one commit in the log format below, in order. */
const COMMIT_FORMAT = "--format=%H%x00%at%x00%s%x00%b%x00";

async function commitRecords(
  top: string,
  head: string | null,
  stats: SourceStats,
  options: { signal?: AbortSignal },
): Promise<VerdictRecord[]> {
  const args = ["log", "--no-color", COMMIT_FORMAT, "--branches", "--tags", ...(head ? [head] : []), "--"];
  const out = new TextDecoder().decode(await runGit(top, args, options));
  const skipped = { count: 0 };
  const records = parseCommitLog(out, skipped).map((c): VerdictRecord => ({
    id: recordId("commit", `${top}:${c.hash}`),
    kind: "commit",
    origin: "git",
    text: c.text,
    time: c.time,
    project: top,
    session: null,
    source_file: top,
    source_line: 0,
    commit: c.hash,
  }));
  stats.linesSkipped += skipped.count;
  return records;
}

export interface ParsedCommit {
  readonly hash: string;
  /** Author date, RFC 3339 UTC. */
  readonly time: string;
  /** Subject, a blank line, body; trimmed. */
  readonly text: string;
}

/**
 * Parses `git log --format=%H%x00%at%x00%s%x00%b%x00`: each commit is four NUL-terminated fields
 * and a newline. Commit messages cannot hold NUL, so "\0\n" only ever ends a commit. Pure.
 * A commit whose author time is no usable time (a corrupt `99999999999999`) is left out and
 * counted in `skipped.count`.
 */
export function parseCommitLog(output: string, skipped: { count: number } = { count: 0 }): ParsedCommit[] {
  const commits: ParsedCommit[] = [];
  for (const entry of output.split("\0\n")) {
    const [hash, seconds, subject, body] = entry.split("\0");
    if (!hash || !/^[0-9a-f]{40,64}$/.test(hash)) continue;
    const text = `${subject ?? ""}\n\n${body ?? ""}`.trim();
    if (text === "") continue;
    const time = seconds !== undefined && /^\d+$/.test(seconds) ? toRfc3339(Number(seconds) * 1000) : null;
    if (time === null) {
      skipped.count++;
      continue;
    }
    commits.push({ hash, time, text });
  }
  return commits;
}

/**
 * For each tag: name, its own type and target, the type and target one level down (an annotated
 * tag's object), tagger date, the author date of the object (a lightweight tag's commit) and of
 * the annotated tag's commit, and the annotation message.
 */
const TAG_FORMAT = "--format=" + [
  "%(refname)",
  "%(objecttype)",
  "%(objectname)",
  "%(*objecttype)",
  "%(*objectname)",
  "%(taggerdate:unix)",
  "%(authordate:unix)",
  "%(*authordate:unix)",
  "%(contents:subject)",
  "%(contents:body)",
].join("%00") + "%00";

export interface ParsedTag {
  readonly name: string;
  /** The commit the tag points at (peeled), or null when it is not a commit one level down. */
  readonly commit: string | null;
  /** True when the tag points at another tag, whose commit must be looked up. */
  readonly nested: boolean;
  /** Tagger date for annotated tags, else the commit's author date; ms, or null. */
  readonly timeMs: number | null;
  /** Annotation message (subject, blank line, body), "" for a lightweight tag. */
  readonly message: string;
}

/** Parses `git for-each-ref` output in TAG_FORMAT. Pure. */
export function parseTagRefs(output: string): ParsedTag[] {
  const tags: ParsedTag[] = [];
  for (const raw of output.split("\0\n")) {
    const entry = raw.startsWith("\n") ? raw.slice(1) : raw;
    const f = entry.split("\0");
    const refname = f[0] ?? "";
    if (!refname.startsWith("refs/tags/")) continue;
    const [type, target, peeledType, peeled, taggerAt, authorAt, peeledAuthorAt, subject, body] = f.slice(1);
    const seconds = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) * 1000 : null);
    const annotated = type === "tag";
    tags.push({
      name: refname.slice("refs/tags/".length),
      commit: annotated
        ? (peeledType === "commit" ? peeled ?? null : null)
        : (type === "commit" ? target ?? null : null),
      nested: annotated && peeledType === "tag",
      timeMs: annotated ? seconds(taggerAt) ?? seconds(peeledAuthorAt) : seconds(authorAt),
      message: annotated ? `${subject ?? ""}\n\n${body ?? ""}`.trim() : "",
    });
  }
  return tags;
}

async function tagRecords(
  top: string,
  stats: SourceStats,
  report: ProblemReporter,
  options: { signal?: AbortSignal },
): Promise<VerdictRecord[]> {
  const out = await runGitText(top, ["for-each-ref", TAG_FORMAT, "refs/tags"], options);
  const records: VerdictRecord[] = [];
  for (const tag of parseTagRefs(out)) {
    if (dateInTagName(tag.name) === null) continue;
    let commit = tag.commit;
    let timeMs = tag.timeMs;
    if (tag.nested) {
      // A tag of a tag (rare): ask git for the commit at the end of the chain.
      const r = await execGit(
        top,
        ["rev-parse", "-q", "--verify", `refs/tags/${tag.name}^{commit}`],
        options,
      );
      commit = r.code === 0 ? new TextDecoder().decode(r.stdout).trim() || null : null;
    }
    if (commit === null) {
      // Tags of trees or blobs name no change anyone made.
      stats.linesSkipped++;
      continue;
    }
    if (timeMs === null) {
      const r = await execGit(top, ["log", "-1", "--format=%at", commit, "--"], options);
      const s = new TextDecoder().decode(r.stdout).trim();
      timeMs = r.code === 0 && /^\d+$/.test(s) ? Number(s) * 1000 : null;
    }
    const time = timeMs === null ? null : toRfc3339(timeMs);
    if (time === null) {
      stats.linesSkipped++;
      report(top, `Skipping tag "${tag.name}": no date found for it`);
      continue;
    }
    records.push({
      id: recordId("tag", `${top}:${tag.name}`),
      kind: "tag",
      origin: "git",
      text: tag.message === "" ? tag.name : `${tag.name}\n\n${tag.message}`,
      time,
      project: top,
      session: null,
      source_file: top,
      source_line: 0,
      commit,
    });
  }
  return records;
}
