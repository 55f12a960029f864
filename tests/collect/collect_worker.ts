/// <reference lib="deno.worker" />
/**
 * Test worker: runs collectDocs or collectGit under whatever permissions the test gave this
 * Worker, and replies with the result in structured-clone form. It also tries a direct read of
 * `probe` and an env lookup, so the test can show the sandbox is really narrowed.
 */
import { compileCredentialRules } from "../../src/record/secrets.ts";
import { collectDocs, type DocsState } from "../../src/collect/docs.ts";
import { claudeMemory } from "./_memory.ts";
import { collectGit, type GitState } from "../../src/collect/git.ts";
import type { VerdictRecord } from "../../src/record/record.ts";
import type { SourceStats } from "../../src/record/source.ts";

export type WorkerJob =
  | {
    readonly source: "docs";
    readonly docRoots: string[];
    readonly claudeProjects: string | null;
    readonly previous: DocsState | null;
    readonly probe: string;
  }
  | {
    readonly source: "git";
    readonly repos: string[];
    readonly previous: GitState | null;
    readonly probe: string;
  };

export interface WorkerAnswer {
  readonly error: string | null;
  readonly replaced: [string, readonly VerdictRecord[]][];
  readonly state: DocsState | GitState | null;
  readonly stats: SourceStats | null;
  readonly problems: { path: string; message: string }[];
  /** Outcome of reading `probe` directly: "read" or the error's class name. */
  readonly probeRead: string;
  /** Outcome of reading HOME from the environment: "read" or the error's class name. */
  readonly envRead: string;
}

function attempt(fn: () => unknown): string {
  try {
    fn();
    return "read";
  } catch (err) {
    return (err as Error).name;
  }
}

self.onmessage = async (e: MessageEvent<WorkerJob>) => {
  const job = e.data;
  const problems: { path: string; message: string }[] = [];
  const report = (path: string, message: string) => problems.push({ path, message });
  const probeRead = attempt(() => Deno.readTextFileSync(job.probe));
  const envRead = attempt(() => Deno.env.get("HOME"));
  try {
    const result = job.source === "docs"
      ? await collectDocs({
        docRoots: job.docRoots,
        memory: claudeMemory(job.claudeProjects),
        previous: job.previous,
        since: null,
        report,
        credentialRules: compileCredentialRules([]),
      })
      : await collectGit({ repos: job.repos, previous: job.previous, since: null, report });
    self.postMessage(
      {
        error: null,
        replaced: [...result.replaced],
        state: result.state,
        stats: result.stats,
        problems,
        probeRead,
        envRead,
      } satisfies WorkerAnswer,
    );
  } catch (err) {
    self.postMessage(
      {
        error: String((err as Error).stack ?? err),
        replaced: [],
        state: null,
        stats: null,
        problems,
        probeRead,
        envRead,
      } satisfies WorkerAnswer,
    );
  }
};
