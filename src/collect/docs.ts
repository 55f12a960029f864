/**
 * The Documents source: Markdown files under each doc root, and the memory files agents keep
 * beside their sessions (Claude Code's `<projects>/<project>/memory/*.md`; each agent's lister is
 * in its folder, src/agents/<id>/), split into sections (one record each).
 *
 * Safety: the walker never follows links, and every file goes through containedRealPath before
 * it is read, so a file that resolves outside the roots is reported and never opened; the
 * resolved path is what gets read.
 *
 * Time: a file git has committed and that is unchanged since HEAD gets its last commit's author
 * time (mtime is meaningless after a clone or checkout); any other file gets its mtime (a local
 * edit is newer than every commit). Git is asked once per repository for all its files, and
 * only about its object database: nothing we run makes git look at the work tree, where a
 * repository's filters and hooks could start programs.
 *
 * Incremental: the state keeps each file's size, mtime and record time, and each repository's
 * HEAD. A file whose three facts are unchanged is not read again and is left out of `replaced`,
 * so the collector keeps its old records. When HEAD moved forward, only the new commits are
 * looked at.
 */
import type { DirLister, MemoryFile } from "../agents/agent.ts";
import { createHash } from "node:crypto";
import { isWithin } from "../config/paths.ts";
import { walkFiles } from "../fsutil/walk.ts";
import { containedRealPath } from "../sandbox/contain.ts";
import { execGit, GitError, gitRepoInfo, runGit } from "./git_run.ts";
import { MAX_DOC_BYTES, screenedChunks } from "./markdown.ts";
import { recordId, toRfc3339, type VerdictRecord } from "../record/record.ts";
import type { CredentialRule } from "../record/secrets.ts";
import {
  emptyStats,
  type ProblemReporter,
  sinceCovers,
  type SourceResult,
  type SourceStats,
} from "../record/source.ts";
import { type FileIdentity, identityOf, sameIdentity } from "../fsutil/identity.ts";

export { MAX_DOC_BYTES } from "./markdown.ts";

export const DOCS_STATE_VERSION = 1;

export interface DocFileState extends FileIdentity {
  /** The time given to the file's records (RFC 3339). */
  readonly time: string;
  /** True when `time` is the file's last commit time, false when it is its mtime. */
  readonly fromGit: boolean;
  /** The --since cutoff its records were collected under (null: none). */
  readonly since: string | null;
  /** SHA-256 of the bytes its records were made from. */
  readonly digest: string;
}

export interface DocsState {
  readonly version: typeof DOCS_STATE_VERSION;
  /** Real path → what the file looked like when its records were made. */
  readonly files: Readonly<Record<string, DocFileState>>;
  /** Repository top level → HEAD commit (null: no commits yet) at the last run. */
  readonly repos: Readonly<Record<string, string | null>>;
}

export interface DocsInput {
  /** Doc roots, real paths. */
  readonly docRoots: readonly string[];
  /** Agents' memory folders: only the files each lister names are read. */
  readonly memory: readonly MemoryRoot[];
  /**
   * The credential rules: every chunk a credential touches is dropped here, where the whole
   * section is seen (the collector's per-record check sees one chunk at a time).
   */
  readonly credentialRules: readonly CredentialRule[];
  readonly previous: DocsState | null;
  /** The run's --since cutoff: a file read under a later one is read again. */
  readonly since: string | null;
  readonly report: ProblemReporter;
  readonly signal?: AbortSignal;
  /** The wall clock (ms), read right after each stat (src/fsutil/identity.ts); default Date.now. */
  readonly now?: () => number;
}

/** An agent's memory files under one of its roots (src/agents/agent.ts, MemoryFiles). */
export interface MemoryRoot {
  /** Real path; every file must resolve under it. */
  readonly root: string;
  readonly find: (root: string, list: DirLister) => Promise<MemoryFile[]>;
}

/** Checks a state read from disk; anything unexpected gives null (a full collect). */
export function parseDocsState(value: unknown): DocsState | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v.version !== DOCS_STATE_VERSION) return null;
  if (typeof v.files !== "object" || v.files === null || typeof v.repos !== "object" || v.repos === null) {
    return null;
  }
  const files: Record<string, DocFileState> = {};
  for (const [path, f] of Object.entries(v.files as Record<string, unknown>)) {
    if (typeof f !== "object" || f === null) return null;
    const s = f as Record<string, unknown>;
    const numOrNull = (x: unknown): x is number | null => x === null || typeof x === "number";
    if (
      typeof s.size !== "number" || typeof s.mtimeMs !== "number" || typeof s.time !== "string" ||
      typeof s.fromGit !== "boolean"
    ) return null;
    // An entry without identity or cutoff (an older state) is forgotten: that file is read again.
    if (!numOrNull(s.ctimeMs) || !numOrNull(s.dev) || !numOrNull(s.ino) || typeof s.racy !== "boolean") {
      continue;
    }
    if (!(s.since === null || typeof s.since === "string") || typeof s.digest !== "string") continue;
    files[path] = {
      size: s.size,
      mtimeMs: s.mtimeMs,
      ctimeMs: s.ctimeMs,
      dev: s.dev,
      ino: s.ino,
      racy: s.racy,
      time: s.time,
      fromGit: s.fromGit,
      since: s.since,
      digest: s.digest,
    };
  }
  const repos: Record<string, string | null> = {};
  for (const [top, head] of Object.entries(v.repos as Record<string, unknown>)) {
    if (head !== null && typeof head !== "string") return null;
    repos[top] = head;
  }
  return { version: DOCS_STATE_VERSION, files, repos };
}

/** Is `name` a Markdown file name (.md or .markdown, any case)? */
export function isMarkdownName(name: string): boolean {
  return /\.(md|markdown)$/i.test(name) && !name.startsWith(".");
}

/** Directories never descended into: hidden ones (.git, .cache …) and dependency trees. */
export function isSkippedDir(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

/** Pathspecs that limit git to Markdown files (matched anywhere in the tree, any case). */
const MARKDOWN_PATHSPECS: readonly string[] = [":(icase)*.md", ":(icase)*.markdown"];

interface Candidate {
  /** The path as walked (under a root, lexically). */
  readonly path: string;
  /** The project of the file's records when no repository contains it. */
  readonly project: string;
}

interface DocFile extends FileIdentity {
  readonly real: string;
  readonly project: string;
}

interface Found {
  readonly candidates: Candidate[];
  /** Directories holding a `.git` entry: repositories (or submodules) under the roots. */
  readonly gitDirs: Set<string>;
}

export async function collectDocs(input: DocsInput): Promise<SourceResult<DocsState>> {
  const stats = emptyStats();
  const docRoots = [...new Set(input.docRoots)].sort();
  const containRoots = [...docRoots, ...input.memory.map((m) => m.root)];
  const found = await findCandidates(docRoots, input.memory, input.report);

  const files = await resolveFiles(
    found.candidates,
    containRoots,
    input.report,
    stats,
    input.now ?? Date.now,
  );
  const probeDirs = new Set([...found.gitDirs, ...docRoots]);
  for (const { root } of input.memory) {
    if (files.some((f) => isWithin(f.real, root))) probeDirs.add(root);
  }
  const repos = await probeRepos([...probeDirs].sort(), input.report, input.signal);

  // The state comes from disk: a shape we do not recognise means a full collect, not a crash.
  const previous = input.previous ? parseDocsState(input.previous) : null;
  const replaced = new Map<string, readonly VerdictRecord[]>();
  const nextFiles: Record<string, DocFileState> = {};
  for (const [top, group] of groupByRepo(files, [...repos.keys()])) {
    const head = top === null ? null : repos.get(top) ?? null;
    let times = new Map<string, number>();
    if (top !== null) {
      const answer = await repoTimes(top, head, group, previous, input.signal);
      if (answer instanceof GitError) {
        input.report(top, `${answer.message}; document times fall back to file modification times`);
        // Forget the repository so the next run asks git again.
        repos.delete(top);
      } else {
        times = answer;
      }
    }
    for (const file of group) {
      // A commit time git reports that is no usable time falls back to the file's own.
      const gitTime = toRfc3339(times.get(file.real));
      const time = gitTime ?? toRfc3339(file.mtimeMs) ?? new Date(0).toISOString();
      const fromGit = gitTime !== null;
      const prev = previous?.files[file.real];
      const { real: _real, project: _project, ...identity } = file;
      const facts = { ...identity, time, fromGit, since: input.since };
      if (prev && sameIdentity(prev, file) && prev.time === time && sinceCovers(prev.since, input.since)) {
        nextFiles[file.real] = prev;
        continue;
      }
      const doc = await readDoc(file, input.report, stats);
      if (doc === null) continue;
      // The bytes, times and cutoff it was collected under, unchanged (a touch, a racy look):
      // its records stand as they are.
      if (prev && prev.digest === doc.digest && prev.time === time && sinceCovers(prev.since, input.since)) {
        nextFiles[file.real] = { ...facts, digest: doc.digest };
        continue;
      }
      stats.filesRead++;
      const project = top ?? file.project;
      const records = docRecords(file.real, doc.text, time, project, input.credentialRules);
      stats.secretsDropped += records.dropped;
      replaced.set(file.real, records.records);
      nextFiles[file.real] = { ...facts, digest: doc.digest };
    }
  }
  const nextRepos: Record<string, string | null> = {};
  for (const [top, head] of [...repos].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    nextRepos[top] = head;
  }
  return {
    replaced: new Map([...replaced].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    appended: [],
    state: { version: DOCS_STATE_VERSION, files: sortedRecord(nextFiles), repos: nextRepos },
    stats,
  };
}

/**
 * The records of one document: one per section chunk that touches no credential (the others
 * are counted in `dropped`), ids stable while the file is unchanged.
 */
export function docRecords(
  real: string,
  text: string,
  time: string,
  project: string,
  rules: readonly CredentialRule[],
): { records: VerdictRecord[]; dropped: number } {
  const all = screenedChunks(text, rules);
  // The ordinal counts every chunk, kept or not, so a dropped one never shifts the others' ids.
  const records = all.kept.map(({ ordinal, chunk }): VerdictRecord => ({
    id: recordId("doc", `${real}#${ordinal}`),
    kind: "doc",
    origin: "doc",
    text: chunk.text,
    time,
    project,
    session: null,
    source_file: real,
    source_line: chunk.startLine,
    commit: null,
  }));
  return { records, dropped: all.dropped };
}

async function findCandidates(
  docRoots: readonly string[],
  memory: readonly MemoryRoot[],
  report: ProblemReporter,
): Promise<Found> {
  const candidates: Candidate[] = [];
  const gitDirs = new Set<string>();
  const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";
  for (const root of docRoots) {
    const walk = walkFiles(root, {
      accept: (path, name) => {
        // A `.git` file marks a worktree or submodule checkout.
        if (name === ".git") gitDirs.add(parentOf(path));
        return isMarkdownName(name);
      },
      skipDir: (path, name) => {
        if (name === ".git") gitDirs.add(parentOf(path));
        return isSkippedDir(name);
      },
      onError: (path, err) => report(path, `Cannot list directory: ${err.message}`),
    });
    for await (const path of walk) candidates.push({ path, project: root });
  }
  const list: DirLister = (dir, type, only) =>
    only === undefined ? listEntries(dir, type, report) : Promise.resolve(entryIf(dir, type, only, report));
  for (const m of memory) candidates.push(...await m.find(m.root, list));
  return { candidates, gitDirs };
}

/** Names of the plain directories or files in `dir` (links excluded), sorted. */
function listEntries(dir: string, type: "dir" | "file", report: ProblemReporter): Promise<string[]> {
  const names: string[] = [];
  try {
    // Synchronous: an agent's memory lister lists a folder per project on every collect, and an
    // async listing costs a dispatch per entry.
    for (const e of Deno.readDirSync(dir)) {
      if (e.isSymlink) continue;
      if (type === "dir" ? e.isDirectory && !e.name.startsWith(".") : e.isFile) names.push(e.name);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) {
      report(dir, `Cannot list directory: ${(err as Error).message}`);
    }
  }
  return Promise.resolve(names.sort());
}

/** `[name]` when `dir/name` is a plain directory or file of `type` (a link is not), else `[]`. */
function entryIf(dir: string, type: "dir" | "file", name: string, report: ProblemReporter): string[] {
  const path = `${dir}/${name}`;
  try {
    const info = Deno.lstatSync(path);
    return (type === "dir" ? info.isDirectory && !name.startsWith(".") : info.isFile) ? [name] : [];
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) report(path, `Cannot look at it: ${(err as Error).message}`);
    return [];
  }
}

/** Resolves and stats each candidate; a path resolving outside the roots is reported, not kept. */
async function resolveFiles(
  candidates: readonly Candidate[],
  roots: readonly string[],
  report: ProblemReporter,
  stats: SourceStats,
  now: () => number,
): Promise<DocFile[]> {
  const files = new Map<string, DocFile>();
  for (const c of candidates) {
    const real = await containedRealPath(c.path, roots);
    if (real === null) {
      stats.filesUnreadable++;
      report(c.path, "Refusing to read: it vanished or resolves outside the configured roots");
      continue;
    }
    if (files.has(real)) continue;
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(real);
    } catch (err) {
      stats.filesUnreadable++;
      report(real, `Cannot read: ${(err as Error).message}`);
      continue;
    }
    if (!info.isFile) {
      // Opening a FIFO blocks until a writer comes; a device may never end.
      stats.filesUnreadable++;
      report(real, "Skipping: not a regular file");
      continue;
    }
    files.set(real, { real, project: c.project, ...identityOf(info, now()) });
  }
  return [...files.values()].sort((a, b) => (a.real < b.real ? -1 : a.real > b.real ? 1 : 0));
}

/**
 * Top level → HEAD of each repository containing a probed directory. A directory outside any
 * repository is normal; git missing or refused is reported once and leaves every time to mtime.
 */
async function probeRepos(
  dirs: readonly string[],
  report: ProblemReporter,
  signal: AbortSignal | undefined,
): Promise<Map<string, string | null>> {
  const repos = new Map<string, string | null>();
  for (const dir of dirs) {
    try {
      const info = await gitRepoInfo(dir, signal ? { signal } : {});
      repos.set(info.top, info.head);
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
      if (err.failure === "not-a-repository") continue;
      if (err.failure === "missing" || err.failure === "not-permitted") {
        report(dir, `${err.message}; document times fall back to file modification times`);
        break;
      }
      report(dir, err.message);
    }
  }
  return repos;
}

/** Files grouped by the deepest repository containing them (null: in no repository). */
function groupByRepo(files: readonly DocFile[], tops: readonly string[]): Map<string | null, DocFile[]> {
  const deepestFirst = [...tops].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const groups = new Map<string | null, DocFile[]>();
  for (const file of files) {
    const top = deepestFirst.find((t) => isWithin(file.real, t) && file.real !== t) ?? null;
    const group = groups.get(top);
    if (group) group.push(file);
    else groups.set(top, [file]);
  }
  return groups;
}

/**
 * Last commit (author) time in ms of each file of `group` that HEAD holds unchanged, or the git
 * failure that prevented finding them. Looks at no history when HEAD and the files are as last
 * time, at the new commits only when HEAD moved forward, and at the whole history only for
 * files it has no earlier answer for.
 */
async function repoTimes(
  top: string,
  head: string | null,
  group: readonly DocFile[],
  previous: DocsState | null,
  signal: AbortSignal | undefined,
): Promise<Map<string, number> | GitError> {
  const times = new Map<string, number>();
  if (head === null) return times;
  const prevHead = previous?.repos[top];
  const unchanged = prevHead === head && group.every((f) => {
    const p = previous?.files[f.real];
    return p !== undefined && sameIdentity(p, f);
  });
  if (unchanged) {
    for (const f of group) {
      const p = previous?.files[f.real];
      if (p?.fromGit) times.set(f.real, Date.parse(p.time));
    }
    return times;
  }
  const options = signal ? { signal } : {};
  try {
    const blobs = parseLsTree(
      new TextDecoder().decode(await runGit(top, ["ls-tree", "-r", "-z", "--full-tree", head], options)),
    );
    const prefix = top === "/" ? "/" : top + "/";
    /** Relative path → real path, for files whose content is HEAD's. */
    const targets = new Map<string, string>();
    for (const f of group) {
      const rel = f.real.slice(prefix.length);
      const blob = blobs.get(rel);
      if (blob !== undefined && f.size <= MAX_DOC_BYTES && await sameContent(f.real, blob)) {
        targets.set(rel, f.real);
      }
    }
    if (targets.size === 0) return times;

    const pending = new Map(targets);
    const assign = (found: Map<string, number>) => {
      for (const [rel, ms] of found) {
        const real = pending.get(rel);
        if (real === undefined) continue;
        times.set(real, ms);
        pending.delete(rel);
      }
    };
    if (typeof prevHead === "string") {
      let historyKept = prevHead === head;
      if (!historyKept && await isAncestor(top, prevHead, head, options)) {
        historyKept = true;
        assign(await lastCommitTimes(top, `${prevHead}..${head}`, new Set(pending.keys()), options));
      }
      if (historyKept) {
        // A file no new commit touched has the last commit time it had at prevHead.
        for (const [rel, real] of [...pending]) {
          const p = previous?.files[real];
          if (p?.fromGit) {
            times.set(real, Date.parse(p.time));
            pending.delete(rel);
          }
        }
      }
    }
    if (pending.size > 0) assign(await lastCommitTimes(top, head, new Set(pending.keys()), options));
  } catch (err) {
    if (err instanceof GitError) return err;
    throw err;
  }
  return times;
}

async function isAncestor(
  top: string,
  older: string,
  newer: string,
  options: { signal?: AbortSignal },
): Promise<boolean> {
  // Exit 0: ancestor; 1: not; anything else (commit gone after a rewrite and gc): treat as not.
  const result = await execGit(top, ["merge-base", "--is-ancestor", older, newer], options);
  return result.code === 0;
}

/**
 * Newest-first walk of `range` limited to Markdown paths: the first commit that names a wanted
 * path is its last change. Merges list no files here, so the change is found on the branch side.
 */
async function lastCommitTimes(
  top: string,
  range: string,
  wanted: ReadonlySet<string>,
  options: { signal?: AbortSignal },
): Promise<Map<string, number>> {
  const out = await runGit(
    top,
    [
      "log",
      "-z",
      "--name-only",
      "--no-renames",
      "--no-color",
      "--format=%x01%at",
      range,
      "--",
      ...MARKDOWN_PATHSPECS,
    ],
    options,
  );
  return parseNameLog(new TextDecoder().decode(out), wanted);
}

/**
 * Parses `git log -z --name-only --format=%x01%at`: "\x01<seconds>\0\n<path>\0<path>\0…" per
 * commit, newest first. Returns path → ms of the newest commit naming it (wanted paths only).
 */
export function parseNameLog(output: string, wanted: ReadonlySet<string>): Map<string, number> {
  const times = new Map<string, number>();
  let current: number | null = null;
  for (const raw of output.split("\0")) {
    const token = raw.startsWith("\n") ? raw.slice(1) : raw;
    if (token.startsWith("\x01")) {
      const seconds = Number(token.slice(1));
      current = Number.isFinite(seconds) ? seconds * 1000 : null;
    } else if (token !== "" && current !== null && wanted.has(token) && !times.has(token)) {
      times.set(token, current);
    }
  }
  return times;
}

/**
 * Parses `git ls-tree -r -z`: "<mode> <type> <hash>\t<path>\0" per entry. Returns path → blob
 * hash for blobs (gitlinks and symlinks are not documents). Pure.
 */
export function parseLsTree(output: string): Map<string, string> {
  const blobs = new Map<string, string>();
  for (const entry of output.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const [mode, type, hash] = entry.slice(0, tab).split(" ");
    if (type === "blob" && mode !== "120000" && hash) blobs.set(entry.slice(tab + 1), hash);
  }
  return blobs;
}

/**
 * Does the file hold exactly the blob `hash`? Hashed here, the way git names blobs, rather than
 * asked of `git diff`: comparing the work tree makes git run the repository's configured clean
 * filters and fsmonitor hook, i.e. programs a cloned repository chooses. A file git would
 * convert (line endings, filters) counts as changed and falls back to its mtime.
 */
async function sameContent(real: string, hash: string): Promise<boolean> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(real);
  } catch {
    return false; // readDoc reports it when it tries.
  }
  return (await gitBlobHash(bytes, hash.length === 64 ? "SHA-256" : "SHA-1")) === hash;
}

/** Git's object name of a blob: the hash of "blob <size>\0" followed by the bytes. */
export async function gitBlobHash(
  bytes: Uint8Array,
  algorithm: "SHA-1" | "SHA-256" = "SHA-1",
): Promise<string> {
  const header = new TextEncoder().encode(`blob ${bytes.length}\0`);
  const data = new Uint8Array(header.length + bytes.length);
  data.set(header);
  data.set(bytes, header.length);
  const digest = new Uint8Array(await crypto.subtle.digest(algorithm, data));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The file's text, or null (counted and reported) when it cannot be used. */
async function readDoc(
  file: DocFile,
  report: ProblemReporter,
  stats: SourceStats,
): Promise<{ text: string; digest: string } | null> {
  const tooLarge = (size: number) => {
    stats.filesUnreadable++;
    report(file.real, `Skipping: ${size} bytes is more than ${MAX_DOC_BYTES} for a document`);
    return null;
  };
  if (file.size > MAX_DOC_BYTES) return tooLarge(file.size);
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file.real);
  } catch (err) {
    stats.filesUnreadable++;
    report(file.real, `Cannot read: ${(err as Error).message}`);
    return null;
  }
  // It may have grown since it was listed.
  if (bytes.length > MAX_DOC_BYTES) return tooLarge(bytes.length);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    stats.filesUnreadable++;
    report(file.real, "Skipping: not UTF-8 text");
    return null;
  }
  if (text.includes("\0")) {
    stats.filesUnreadable++;
    report(file.real, "Skipping: binary content (NUL bytes)");
    return null;
  }
  return { text, digest: createHash("sha256").update(bytes).digest("hex") };
}

function sortedRecord<T>(obj: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(obj).sort()) out[key] = obj[key] as T;
  return out;
}
