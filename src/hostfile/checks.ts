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

/** One of the hooks an agent's doctor check looks for, as its host file holds it. */
export interface HookFinding {
  /** How messages name it ("SessionStart(compact)", "userPromptSubmitted"). */
  readonly label: string;
  readonly state: "installed" | "hand-wired" | "missing";
  /** The program an installed entry runs. */
  readonly program: string | null;
}

/** The first thing every agent's hook check says: a failure naming the hooks `file` lacks, else null. */
export function missingHooks(hooks: readonly HookFinding[], file: string, fix: string): Check | null {
  const missing = hooks.filter((h) => h.state === "missing");
  if (missing.length === 0) return null;
  return check("hooks", "fail", `not registered in ${file}: ${missing.map((h) => h.label).join(", ")}`, fix);
}

/** A warning when installed hooks run another program than this verdict (`bin`), else null. */
export function hooksRunElsewhere(hooks: readonly HookFinding[], bin: string, fix: string): Check | null {
  const elsewhere = hooks.find((h) => h.program !== null && h.program !== bin);
  if (!elsewhere) return null;
  return check(
    "hooks",
    "warn",
    `the hooks run ${elsewhere.program}, but this verdict is ${bin}`,
    `${fix} to point them here`,
  );
}

/** The hooks found, for an ok line: "UserPromptSubmit, PreCompact (wired by hand)". */
export function hookList(hooks: readonly HookFinding[]): string {
  return hooks.map((h) => h.label + (h.state === "hand-wired" ? " (wired by hand)" : "")).join(", ");
}
