/**
 * build: a session → its snapshot. From a summary given as JSON (validated), or from a Claude
 * Code transcript plus its working tree: the transcript's facts (transcript.ts), what real git
 * reports changed or untracked in the session's cwd, and the files the session wrote outside any
 * repository. Risk hints are derived from those facts and the counts; they are never counted.
 */
import { type CredentialRule, withoutCredential } from "../record/secrets.ts";
import { InputError } from "../errors.ts";
import { readToEnd } from "../fsutil/bytes.ts";
import type { JudgeConfig } from "../config/config.ts";
import { dirname, isWithin, normalizePath } from "../config/paths.ts";
import { containedRealPath } from "../sandbox/contain.ts";
import { assertNoForbiddenKeys } from "./forbidden.ts";
import { gitStatus, type RepoLookup, repoOf } from "./git_status.ts";
import { makeSnapshot, type Snapshot } from "./snapshot.ts";
import { COUNTED_FIELDS, type CountedField, parseSummary, type Summary } from "./summary.ts";
import { extractTranscript, type Sourced, type TranscriptFacts } from "./transcript.ts";

/** What a snapshot is built from: a summary object, or a transcript (and optionally its cwd). */
export type BuildInput =
  | { readonly summary: unknown }
  | {
    readonly transcript_path: string;
    readonly cwd?: string | null;
    /** Re-frames another agent's transcript as Claude Code's, line for line (AgentKit.judgeTranscript). */
    readonly reframe?: ((text: string) => string) | null;
  };

export interface BuildOptions {
  readonly config: Pick<JudgeConfig, "state_char_budget">;
  /**
   * The credential rules in force: an item text (a decision prompt, a todo, a question) that
   * matches one becomes the placeholder before the summary is made, so neither the snapshot,
   * nor the handoff, nor anything the model is given back holds it. It still counts.
   */
  readonly credentialRules: readonly CredentialRule[];
  /**
   * When given, a transcript path must resolve (symlinks followed) under one of these real
   * directories, else the build is refused. The MCP tools pass the transcript roots; the CLI,
   * whose Deno permissions already name the file, passes null.
   */
  readonly transcriptRoots?: readonly string[] | null;
}

/** Where each counted item came from, aligned with the summary's lists (for the handoff). */
export type Sources = { readonly [K in CountedField]: readonly string[] };

export interface BuildResult {
  readonly snapshot: Snapshot;
  readonly sources: Sources;
}

/** Builds a snapshot; throws InputError (exit 3) or StateBudgetError (exit 2). */
export async function buildSnapshot(input: BuildInput, options: BuildOptions): Promise<BuildResult> {
  if ("summary" in input) {
    // Checked (forbidden keys first) with paths relative to the summary itself.
    const summary = parseSummary(input.summary);
    const sources = Object.fromEntries(
      COUNTED_FIELDS.map((f) => [f, summary[f].map(() => "summary given as JSON")]),
    ) as unknown as Sources;
    return { snapshot: await makeSnapshot(summary, options.config), sources };
  }
  assertNoForbiddenKeys(input, "build input");
  const path = await resolveTranscript(input.transcript_path, options.transcriptRoots ?? null);
  const text = await readTranscript(path);
  const facts = extractTranscript(
    input.reframe ? input.reframe(text) : text,
    (t) => withoutCredential(t, options.credentialRules),
  );
  const session = facts.session ?? stem(path);
  const built = await summaryFromFacts(facts, session, input.cwd ?? null);
  return { snapshot: await makeSnapshot(built.summary, options.config), sources: built.sources };
}

/**
 * Largest transcript read: the whole file is parsed in memory, in the time a hook has. A real
 * session is a few megabytes; a quarter gigabyte is not one a compaction hook can judge.
 */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024;

/**
 * A transcript's text: a regular file only (a FIFO would block, a device never end), at most
 * MAX_TRANSCRIPT_BYTES however it grows while being read, and valid UTF-8.
 */
export async function readTranscript(path: string): Promise<string> {
  const hint = "give the path of a session's .jsonl transcript";
  let file: Deno.FsFile | null = null;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) {
      throw new InputError(`refusing to read transcript "${path}": it is not a regular file`, hint);
    }
    const tooBig = () =>
      new InputError(
        `refusing to read transcript "${path}": it is larger than ${MAX_TRANSCRIPT_BYTES / 1024 / 1024} MiB`,
        hint,
      );
    if (info.size > MAX_TRANSCRIPT_BYTES) throw tooBig();
    file = await Deno.open(path, { read: true });
    // The file opened may not be the one stat saw.
    if (!(await file.stat()).isFile) {
      throw new InputError(`refusing to read transcript "${path}": it is not a regular file`, hint);
    }
    const bytes = await readToEnd(file, MAX_TRANSCRIPT_BYTES);
    if (bytes === null) throw tooBig();
    return new TextDecoder().decode(bytes);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new InputError(`Cannot read transcript "${path}": no such file`);
    }
    throw err;
  } finally {
    file?.close();
  }
}

/** The containment check for transcript paths named by a caller (MCP tools). */
export async function resolveTranscript(path: string, roots: readonly string[] | null): Promise<string> {
  if (typeof path !== "string" || path === "") throw new InputError("Cannot read transcript: no path given");
  if (roots === null) return path;
  const real = await containedRealPath(path, roots);
  if (real === null) {
    throw new InputError(
      `refusing to read transcript "${path}": it does not resolve to a file under the transcript roots`,
      `transcripts are read only from ${
        roots.length > 0 ? roots.join(", ") : "the transcript roots (none exist)"
      }`,
    );
  }
  return real;
}

function stem(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return base.endsWith(".jsonl") ? base.slice(0, -6) : base;
}

/**
 * Turns transcript facts into a summary: git status of `cwd` (default: the transcript's cwd),
 * files written outside the cwd's repository, and the derived risk hints. I/O: git only (and a
 * stat of written files, which a narrowed sandbox may refuse: then the file counts).
 */
export async function summaryFromFacts(
  facts: TranscriptFacts,
  session: string,
  cwdOverride: string | null,
): Promise<{ summary: Summary; sources: Sources }> {
  const hints: string[] = [];
  const uncommitted: Sourced[] = [];
  const cwd = cwdOverride ?? facts.cwd;
  let cwdRoot: string | null = null;
  if (cwd === null) {
    hints.push("the transcript names no working directory: git status was not checked");
  } else {
    const status = await gitStatus(cwd);
    switch (status.kind) {
      case "ok":
        cwdRoot = normalizePath(status.root);
        for (const entry of status.entries) {
          uncommitted.push({ text: entry, source: `git status, ${status.root}` });
        }
        break;
      case "not_repo":
        hints.push(`not a git repository: ${cwd}`);
        break;
      case "missing_dir":
        hints.push(`working directory not found: ${cwd}`);
        break;
      case "failed":
        hints.push(`git status failed in ${cwd}: ${status.message}`);
        break;
    }
  }

  const lookups = new Map<string, Promise<RepoLookup>>();
  const lookup = (dir: string) => {
    let p = lookups.get(dir);
    if (!p) lookups.set(dir, p = repoOf(dir));
    return p;
  };
  let gone = 0;
  for (const file of facts.written) {
    const path = file.text.startsWith("/")
      ? normalizePath(file.text)
      : cwd
      ? normalizePath(`${cwd}/${file.text}`)
      : null;
    if (path === null) continue;
    if (cwdRoot !== null && isWithin(path, cwdRoot)) continue; // git status of the cwd covers it
    const repo = await lookup(dirname(path));
    if (repo.kind === "repo") {
      if (cwdRoot !== null && normalizePath(repo.root) === cwdRoot) continue;
      const st = await gitStatus(repo.root, [path]);
      if (st.kind === "ok") {
        for (const entry of st.entries) {
          uncommitted.push({ text: `${entry} (in ${repo.root})`, source: file.source });
        }
      }
    } else if (repo.kind === "missing_dir") {
      gone++;
    } else if (await stillThere(path)) {
      uncommitted.push({ text: `${path} (written outside any repository)`, source: file.source });
    } else gone++;
  }
  if (gone > 0) hints.push(`${gone} file(s) the session wrote are no longer on disk`);

  const items = {
    todos: facts.todos,
    uncommitted: dedupe(uncommitted),
    questions: facts.questions,
    decisions: facts.decisions,
    next_steps: facts.nextSteps,
  };
  if (facts.interrupted) hints.push("the session ended with an interrupt by the user");
  if (facts.endedMidTurn) hints.push("the transcript ended mid-turn: the last step has no reply or result");
  if (facts.compactions > 0) {
    hints.push(
      `the transcript was compacted ${facts.compactions} time(s) before: earlier work may live only in a summary`,
    );
  }
  if (facts.malformedLines > 0) hints.push(`${facts.malformedLines} malformed transcript line(s) skipped`);
  hints.push(...countHints(items));
  const summary: Summary = {
    session,
    todos: items.todos.map((i) => i.text),
    uncommitted: items.uncommitted.map((i) => i.text),
    questions: items.questions.map((i) => i.text),
    decisions: items.decisions.map((i) => i.text),
    next_steps: items.next_steps.map((i) => i.text),
    risk_hints: hints,
  };
  const sources = Object.fromEntries(
    COUNTED_FIELDS.map((f) => [f, items[f].map((i) => i.source)]),
  ) as unknown as Sources;
  return { summary, sources };
}

/** Hints derived from which fields hold items. */
function countHints(items: Record<CountedField, readonly Sourced[]>): string[] {
  const hints: string[] = [];
  const nonEmpty = COUNTED_FIELDS.filter((f) => items[f].length > 0);
  if (nonEmpty.length === 1 && nonEmpty[0] === "decisions") {
    hints.push(
      "only decisions are unlanded: they exist nowhere durable until written to an instruction file or commit",
    );
  }
  if (items.questions.length > 0) {
    hints.push("a question to the user is still open: its answer is not in the record yet");
  }
  return hints;
}

function dedupe(items: readonly Sourced[]): Sourced[] {
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.text) ? false : (seen.add(i.text), true)));
}

/** Does the file exist? Unknown (the sandbox refuses the stat) counts as yes: the safe direction. */
async function stillThere(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (err) {
    return !(err instanceof Deno.errors.NotFound);
  }
}
