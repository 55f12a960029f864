/** `verdict collect`: runs the collector and reports one summary line on stderr. */
import { collect, type CollectSummary } from "../../collect/collect.ts";
import { booleanOption, stringOption } from "../../plan/args.ts";
import { parseTime } from "../../plan/clock.ts";
import { EXIT, UsageError } from "../../errors.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { stopSignal } from "../../sandbox/stop.ts";
import { storePaths } from "../../store/paths.ts";
import { LOADED_AGENTS } from "../../agents/loaded.ts";
import { mainSessionRoot } from "../../agents/locate.ts";

/** Problems listed one by one before the rest are only counted. */
const MAX_LISTED_PROBLEMS = 20;

/** Seconds between progress redraws on a terminal. */
const PROGRESS_INTERVAL_MS = 200;

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const sinceRaw = stringOption(plan.args, "since");
  const since = sinceRaw === undefined ? null : parseTime(sinceRaw);
  if (sinceRaw !== undefined && since === null) {
    throw new UsageError(
      `--since "${sinceRaw}" is not a date`,
      "write it as 2026-01-01 or 2026-01-01T00:00:00Z",
    );
  }
  if (plan.args.positionals.length > 0) {
    throw new UsageError(
      `"verdict collect" takes no arguments, got "${plan.args.positionals[0]}"`,
      "use --doc-root DIR or --git-repo DIR to add sources",
    );
  }
  const quiet = booleanOption(plan.args, "quiet");
  // Said even under --quiet: a scheduled collect's log is where a config typo shows.
  for (const u of plan.roots.unusable ?? []) {
    await io.stderr(
      `collect: warning: ${u.path} (in "${u.key}" of ${plan.paths.config}) ${u.why}; fix or remove it there\n`,
    );
  }
  const progress = !quiet && io.stderrIsTerminal;
  let problems = 0;
  let lastDraw = 0;
  const pending: Promise<void>[] = [];
  const summary = await collect({
    roots: plan.roots,
    recordsPath: plan.paths.records,
    config: plan.config,
    since,
    full: booleanOption(plan.args, "full"),
    report: (path, message) => {
      problems++;
      if (!quiet && problems <= MAX_LISTED_PROBLEMS) {
        pending.push(io.stderr(`${progress ? "\r\x1b[K" : ""}collect: ${path}: ${message}\n`));
      }
    },
    ...(progress
      ? {
        onProgress: (bytes: number) => {
          const now = performance.now();
          if (now - lastDraw < PROGRESS_INTERVAL_MS) return;
          lastDraw = now;
          pending.push(io.stderr(`\r\x1b[Kcollect: reading transcripts… ${formatBytes(bytes)}`));
        },
      }
      : {}),
    signal: stopSignal.signal,
    ...(plan.env.VERDICT_DEBUG_MEMORY ? { trace: memoryTrace(io, pending) } : {}),
  });
  await Promise.all(pending);
  if (progress) await io.stderr("\r\x1b[K");
  if (problems > MAX_LISTED_PROBLEMS && !quiet) {
    await io.stderr(`collect: ${problems - MAX_LISTED_PROBLEMS} more problem(s) not listed\n`);
  }
  const store = storePaths(plan.paths.records).db;
  if (summary.migrated && !quiet) {
    const m = summary.migrated;
    await io.stderr(
      `collect: migrated ${m.records} records from ${m.keptAs.slice(0, -".migrated".length)} into ${store}` +
        `${m.state ? "" : " (its collector state did not match it: every source was re-read)"}; ` +
        `the old file is kept as ${m.keptAs}\n`,
    );
  }
  if (!quiet) await io.stderr(summaryLine(summary, store) + "\n");
  const r = plan.roots;
  const noSources = r.sessions.length === 0 && r.docs.length === 0 && r.gitRepos.length === 0;
  if (noSources && !quiet) {
    const at = { env: plan.env, home: plan.paths.home, cwd: plan.cwd };
    const missing = LOADED_AGENTS.map((a) => `no ${mainSessionRoot(a, at)}, `).join("");
    await io.stderr(
      `collect: found nothing to read: ${missing}` +
        "and no doc_roots or git_repos\nhint: add --doc-root DIR or --git-repo DIR, or try `deno task demo` on the bundled examples\n",
    );
  }
  return EXIT.ok;
}

export function summaryLine(s: CollectSummary, recordsPath: string): string {
  const kinds = Object.entries(s.byKind).map(([k, n]) => `${k} ${n}`).join(", ");
  const head = s.written ? `${s.added} new, ${s.total} records` : `nothing new, ${s.total} records`;
  const extra = [
    `${s.filesRead} file(s) read`,
    ...(s.filesUnreadable ? [`${s.filesUnreadable} unreadable`] : []),
    ...(s.linesSkipped ? [`${s.linesSkipped} line(s) skipped`] : []),
    ...(s.secretsDropped ? [`${s.secretsDropped} dropped as credentials`] : []),
  ];
  return `collect: ${head} (${kinds}); ${extra.join(", ")} → ${recordsPath}`;
}

function formatBytes(n: number): string {
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

/**
 * `VERDICT_DEBUG_MEMORY=1 verdict collect`: prints the process's memory use at the end of each
 * stage (resident set, V8 heap, buffers outside it), to find which stage holds what.
 */
function memoryTrace(io: CommandIO, pending: Promise<void>[]): (stage: string) => void {
  const t0 = performance.now();
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  return (stage) => {
    const m = Deno.memoryUsage();
    const s = ((performance.now() - t0) / 1000).toFixed(3);
    pending.push(
      io.stderr(
        `collect: memory at ${s} s, ${stage}: rss ${mb(m.rss)}, heap ${mb(m.heapUsed)} of ${
          mb(m.heapTotal)
        }, ` +
          `external ${mb(m.external)}\n`,
      ),
    );
  };
}
