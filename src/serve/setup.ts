/**
 * Assembles the tool set both transports serve: verdict_recall over the Recaller, and the
 * compaction tools over src/judge. Inputs are plain values (the CLI layer derives them from its
 * plan), so tests can build the same set around a fake Recaller.
 */
import type { CredentialRule } from "../record/secrets.ts";
import type { JudgeConfig } from "../config/config.ts";
import { openRecaller, type Recaller, type RecallerInput } from "../lookup/recall.ts";
import type { CallLog } from "./call_log.ts";
import { compactionTools } from "./compaction_tools.ts";
import { CONTRACT, type Contract, contractTool } from "./contract.ts";
import { recallHandler } from "./recall_tool.ts";
import { createToolSet, type ToolSet } from "./tools.ts";

export interface ToolSetup {
  readonly transport: "stdio" | "http";
  readonly recordsPath: string;
  /** Real paths under which quotes may be re-read from their source files. */
  readonly quoteRoots: readonly string[];
  /** Real paths transcripts may be read from (the compaction tools). */
  readonly transcriptRoots: readonly string[];
  readonly entitiesPath: string | null;
  /** The credential rules in force: nothing a tool returns or logs may match one. */
  readonly credentialRules: readonly CredentialRule[];
  readonly judge: JudgeConfig;
  /** The caller's project when the server can know it (stdio: the client's working directory). */
  readonly project: string | null;
  /** A pinned clock (ms), or null for the real one. */
  readonly asOfMs: number | null;
  readonly callLog: CallLog;
  /** Diagnostics (stderr). */
  readonly log: (line: string) => void;
  /** Defaults to src/lookup/recall.ts openRecaller; tests pass a fake. */
  readonly openRecaller?: (input: RecallerInput) => Recaller;
  readonly contract?: Contract;
}

/** Default `top` of a tool: its schema's `default`, else `fallback`. */
function schemaDefault(contract: Contract, tool: string, prop: string, fallback: number): number {
  const props = contractTool(contract, tool)?.inputSchema.properties as Record<string, { default?: unknown }>;
  const d = props?.[prop]?.default;
  return typeof d === "number" ? d : fallback;
}

/**
 * A Recaller opened on first use and kept, called by one caller at a time; when opening fails,
 * the call reports the error and the next call tries again (the records file may appear once
 * `collect` has run).
 */
function lazyRecaller(open: () => Recaller): Recaller {
  let recaller: Recaller | null = null;
  // One look-up at a time: ranking is synchronous work on this thread anyway, and a Recaller
  // that (re)loads its corpus must not have a second call load or close it meanwhile.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    recall(query, options) {
      const run = queue.then(() => {
        recaller ??= open();
        return recaller.recall(query, options);
      });
      queue = run.catch(() => {});
      return run;
    },
    close() {
      recaller?.close();
      recaller = null;
    },
  };
}

/** The served tools, and what to close when the server stops. */
export interface ServedTools {
  readonly tools: ToolSet;
  /** Releases the Recaller's open files (after the last call). */
  close(): void;
}

export function buildToolSet(setup: ToolSetup): ServedTools {
  const contract = setup.contract ?? CONTRACT;
  const open = setup.openRecaller ?? openRecaller;
  const recaller = lazyRecaller(() =>
    open({
      recordsPath: setup.recordsPath,
      quoteRoots: setup.quoteRoots,
      entitiesPath: setup.entitiesPath,
      credentialRules: setup.credentialRules,
    })
  );
  const compaction = compactionTools(
    { config: setup.judge, credentialRules: setup.credentialRules, transcriptRoots: setup.transcriptRoots },
    contract.results.context_verdict,
  );
  const asOf = setup.asOfMs;
  const tools = createToolSet({
    contract,
    transport: setup.transport,
    log: setup.callLog,
    now: () => Date.now(),
    handlers: {
      verdict_recall: recallHandler({
        recaller,
        format: contract.results.verdict_recall,
        defaultTop: schemaDefault(contract, "verdict_recall", "top", 5),
        asOfMs: asOf === null ? () => Date.now() : () => asOf,
        project: setup.project,
      }),
      ...compaction.handlers,
    },
    guards: compaction.guards,
    onError: (tool, err) => setup.log(`${tool}: ${err instanceof Error ? err.message : String(err)}`),
  });
  return { tools, close: () => recaller.close() };
}
