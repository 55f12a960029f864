/**
 * The tool set: the contract's tools, each bound to a handler. A tool is served when, and only
 * when, the contract lists it and a handler exists (start-up fails otherwise), so adding a tool
 * is one contract entry plus one handler. Every call is validated against the contract's input
 * schema before its handler runs, timed, and written to the call log.
 */
import type { CallLog, CallOutcome } from "./call_log.ts";
import type { Contract, ContractTool } from "./contract.ts";
import { formatError, formatInvalidArguments } from "./format.ts";
import { validate } from "./validate.ts";

/** What a handler answers. */
export interface ToolReply {
  readonly text: string;
  readonly isError: boolean;
  /** How many results the reply holds (hits; 1 for a verdict), for the call log. */
  readonly results: number;
  readonly outcome: CallOutcome;
  /** The query of a look-up tool: its length is logged, its text only on the user's opt-in. */
  readonly query?: string;
}

/** A tool's implementation; `args` already conforms to the tool's input schema. */
export type ToolHandler = (args: Readonly<Record<string, unknown>>) => Promise<ToolReply>;

/** The answer to a tools/call. */
export interface ToolResult {
  readonly text: string;
  readonly isError: boolean;
}

export class UnknownToolError extends Error {
  readonly tool: string;
  constructor(tool: string) {
    super(`Unknown tool: ${tool}`);
    this.name = "UnknownToolError";
    this.tool = tool;
  }
}

export interface ToolSet {
  readonly contract: Contract;
  /** The tools/list answer: the contract's tools, verbatim. */
  readonly tools: readonly ContractTool[];
  /** Runs one call; throws UnknownToolError for a tool the contract does not list. */
  call(name: string, args: unknown): Promise<ToolResult>;
  /** Resolves once no call is running. */
  idle(): Promise<void>;
}

export interface ToolSetOptions {
  readonly contract: Contract;
  readonly handlers: Readonly<Record<string, ToolHandler>>;
  /**
   * Checks run on a tool's raw arguments before schema validation; a throw refuses the call with
   * its own message (the compaction tools name a forbidden key's JSON path this way).
   */
  readonly guards?: Readonly<Record<string, (args: unknown) => void>>;
  readonly log: CallLog;
  readonly transport: "stdio" | "http";
  /** Wall clock for the log's time field (ms since the epoch). */
  readonly now: () => number;
  /** Reports a failed call on stderr (never on the protocol stream). */
  readonly onError?: (tool: string, err: unknown) => void;
}

/** The hint line an error carries (VerdictError, ServeRefusal), or null. */
function hintOf(err: unknown): string | null {
  const hint = typeof err === "object" && err !== null ? (err as { hint?: unknown }).hint : undefined;
  return typeof hint === "string" && hint !== "" ? hint : null;
}

/** The `query` argument of a call, when it has a string one (for the call log). */
function queryOf(args: unknown): { query?: string } {
  if (typeof args !== "object" || args === null) return {};
  const q = (args as { query?: unknown }).query;
  return typeof q === "string" ? { query: q } : {};
}

/** Binds the contract's tools to `handlers`; throws when one has no partner. */
export function createToolSet(options: ToolSetOptions): ToolSet {
  const { contract, handlers, log } = options;
  const listed = new Set(contract.tools.map((t) => t.name));
  const missing = [...listed].filter((n) => !Object.hasOwn(handlers, n));
  const extra = Object.keys(handlers).filter((n) => !listed.has(n));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      ...(missing.length ? [`no handler for ${missing.join(", ")}`] : []),
      ...(extra.length ? [`not in the contract: ${extra.join(", ")}`] : []),
    ];
    throw new Error(`Cannot serve the MCP contract: ${parts.join("; ")}`);
  }
  const byName = new Map(contract.tools.map((t) => [t.name, t]));
  const running = new Set<Promise<unknown>>();

  async function run(tool: ContractTool, args: unknown): Promise<ToolReply> {
    const value = args === undefined ? {} : args;
    const guard = options.guards?.[tool.name];
    if (guard) {
      try {
        guard(value);
      } catch (err) {
        return failed(err, "invalid", value);
      }
    }
    const problems = validate(tool.inputSchema, value);
    if (problems.length > 0) {
      return {
        text: formatInvalidArguments(tool.name, problems, contract.results),
        isError: true,
        results: 0,
        outcome: "invalid",
        ...queryOf(value),
      };
    }
    try {
      return await handlers[tool.name]!(value as Record<string, unknown>);
    } catch (err) {
      options.onError?.(tool.name, err);
      return failed(err, "error", value);
    }
  }

  function failed(err: unknown, outcome: CallOutcome, args: unknown): ToolReply {
    return {
      text: formatError(err instanceof Error ? err.message : String(err), hintOf(err), contract.results),
      isError: true,
      results: 0,
      outcome,
      ...queryOf(args),
    };
  }

  return {
    contract,
    tools: contract.tools,
    async call(name, args) {
      const tool = byName.get(name);
      if (!tool) throw new UnknownToolError(name);
      const startedAt = options.now();
      const t0 = performance.now();
      const pending = run(tool, args);
      running.add(pending);
      let reply: ToolReply;
      try {
        reply = await pending;
      } finally {
        running.delete(pending);
      }
      log.append({
        time: new Date(startedAt).toISOString(),
        transport: options.transport,
        tool: name,
        query_chars: reply.query === undefined ? null : Array.from(reply.query).length,
        results: reply.results,
        outcome: reply.outcome,
        duration_ms: performance.now() - t0,
        ...(reply.query === undefined ? {} : { query: reply.query }),
      });
      return { text: reply.text, isError: reply.isError };
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
