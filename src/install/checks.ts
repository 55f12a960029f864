/**
 * What a doctor check returns, and the helpers every check uses (the shared checks in doctor.ts
 * and each agent's own, src/agents/<id>/doctor.ts). Checks never throw: a problem is a finding.
 */
import { JsoncSyntaxError } from "../config/jsonc.ts";
import { HostFileError } from "./errors.ts";

export type CheckStatus = "ok" | "warn" | "fail" | "skip";

export interface Check {
  readonly id: string;
  readonly status: CheckStatus;
  readonly message: string;
  /** What to do about it (null when nothing needs doing). */
  readonly fix: string | null;
}

export const check = (
  id: string,
  status: CheckStatus,
  message: string,
  fix: string | null = null,
): Check => ({
  id,
  status,
  message,
  fix,
});

/** The file's text, or null when it does not exist. */
export async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** Why a path cannot be used, in words. */
export function reason(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "does not exist";
  if (err instanceof Deno.errors.PermissionDenied) return "is not readable (permission denied)";
  return (err as Error).message;
}

/** A host file's parse problem as a failed check. */
export function parseFailure(id: string, path: string, err: unknown): Check {
  if (err instanceof JsoncSyntaxError) {
    return check(
      id,
      "fail",
      `Cannot parse "${path}": ${err.message}`,
      `fix ${path}:${err.line}:${err.column}`,
    );
  }
  if (err instanceof HostFileError) return check(id, "fail", err.message, err.hint);
  return check(id, "fail", `Cannot read "${path}": ${reason(err)}`, `make ${path} readable`);
}
