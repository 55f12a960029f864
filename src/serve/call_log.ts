/**
 * The call log ($VERDICT_CALL_LOG): one JSON line appended per tool call, for the user's own
 * audit. A line holds the time, the transport, the tool, the query's length, the result count,
 * the outcome and the duration; never the query text itself unless the user opts in
 * ($VERDICT_CALL_LOG_QUERIES=1), and even then not a query holding a credential (it is logged
 * as the placeholder). Lines are written whole, one write each, in call order.
 */
import { type CredentialRule, withoutCredential } from "../record/secrets.ts";

export type CallOutcome = "ok" | "no_match" | "invalid" | "error";

export interface CallLogEntry {
  /** RFC 3339 UTC time the call started. */
  readonly time: string;
  readonly transport: "stdio" | "http";
  readonly tool: string;
  /** Length of the query in characters (look-up tools), else null. */
  readonly query_chars: number | null;
  readonly results: number;
  readonly outcome: CallOutcome;
  readonly duration_ms: number;
  /** The query text, only with the opt-in. */
  readonly query?: string;
}

export interface CallLog {
  append(entry: CallLogEntry): void;
  /** Waits for pending lines and closes the file. */
  close(): Promise<void>;
}

/** A log that keeps nothing (no $VERDICT_CALL_LOG). */
export const NO_CALL_LOG: CallLog = { append: () => {}, close: () => Promise.resolve() };

/**
 * Serialises an entry with a fixed key order; the query only when `withQuery`, screened by
 * `rules` (a query matching one is written as the placeholder).
 */
export function callLogLine(
  entry: CallLogEntry,
  withQuery: boolean,
  rules: readonly CredentialRule[],
): string {
  const { query, ...rest } = entry;
  const out: Record<string, unknown> = {
    time: rest.time,
    transport: rest.transport,
    tool: rest.tool,
    query_chars: rest.query_chars,
    results: rest.results,
    outcome: rest.outcome,
    duration_ms: Math.round(rest.duration_ms * 1000) / 1000,
  };
  if (withQuery && query !== undefined) out.query = withoutCredential(query, rules);
  return JSON.stringify(out) + "\n";
}

/**
 * Opens `path` for appending (created with mode 0600). A failed write is reported through
 * `onError` once per failure and never fails the call it describes.
 */
export async function openCallLog(
  path: string,
  options: {
    readonly withQueries: boolean;
    readonly credentialRules: readonly CredentialRule[];
    readonly onError: (message: string) => void;
  },
): Promise<CallLog> {
  const file = await Deno.open(path, { append: true, create: true, mode: 0o600 });
  const encoder = new TextEncoder();
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  return {
    append(entry) {
      if (closed) return;
      const bytes = encoder.encode(callLogLine(entry, options.withQueries, options.credentialRules));
      chain = chain.then(async () => {
        try {
          let off = 0;
          while (off < bytes.length) off += await file.write(bytes.subarray(off));
        } catch (err) {
          options.onError(`Cannot append to the call log "${path}": ${(err as Error).message}`);
        }
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await chain;
      file.close();
    },
  };
}
