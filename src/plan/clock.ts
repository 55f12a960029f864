/**
 * The pinned clock. `--as-of` (or $VERDICT_ASOF) is an RFC 3339 time, "now", or the path of a
 * file holding one. Tests pin it so output is byte-identical across runs.
 */
import { UsageError } from "../errors.ts";

const RFC3339 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Parses an RFC 3339 time (or a bare date, read as midnight UTC) to ISO form, or null. */
export function parseTime(text: string): string | null {
  const t = text.trim();
  if (!RFC3339.test(t)) return null;
  const ms = Date.parse(t.length === 10 ? `${t}T00:00:00Z` : t);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** Resolves the as-of value: the option wins over the environment; null when neither is set. */
export async function resolveAsOf(
  option: string | undefined,
  envValue: string | undefined,
): Promise<string | null> {
  const raw = option ?? (envValue ? envValue : undefined);
  if (raw === undefined) return null;
  const from = option !== undefined ? "--as-of" : "VERDICT_ASOF";
  // "now": the clock as this run starts (so `query --as-of now` needs no time written out).
  if (raw.trim() === "now") return new Date().toISOString();
  const direct = parseTime(raw);
  if (direct) return direct;
  let text: string;
  try {
    text = await Deno.readTextFile(raw);
  } catch {
    throw new UsageError(
      `${from} "${raw}" is neither an RFC 3339 time nor a readable file`,
      "write it like 2026-11-29T12:00:00Z, or name a file that holds such a time",
    );
  }
  const fromFile = parseTime(text);
  if (!fromFile) {
    throw new UsageError(
      `${from} file "${raw}" does not hold an RFC 3339 time`,
      "the file should contain one time, like 2026-11-29T12:00:00Z",
    );
  }
  return fromFile;
}

/** Milliseconds since the epoch for the plan's clock. */
export function nowMs(asOf: string | null): number {
  return asOf ? Date.parse(asOf) : Date.now();
}
