/**
 * Errors that carry their exit status. Stage code throws these (or plain errors); only the CLI
 * layer turns them into a message and a code. The table is in README.md, "Exit status".
 */

export const EXIT = {
  /** Success; for judge/verify: no lost case was let through. */
  ok: 0,
  /** A finding: verify let a lost case through as safe_to_compact; doctor found a broken part. */
  finding: 1,
  /** The compaction state exceeded its character budget (a configuration problem, not a verdict). */
  overBudget: 2,
  /** Usage, configuration or input error: nothing was written. */
  usage: 3,
  /** The environment failed us: a file could not be read or written, a permission was refused. */
  runtime: 4,
  /** Stopped by SIGINT before it finished (128 + 2, the shell's convention). */
  sigint: 130,
  /** Stopped by SIGTERM before it finished (128 + 15). */
  sigterm: 143,
} as const;

/** The exit code of a run a signal stopped. */
export function signalExit(signal: Deno.Signal): ExitCode {
  return signal === "SIGINT" ? EXIT.sigint : EXIT.sigterm;
}

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Base class: a message for the person, an optional hint line with the way out, and a code. */
export class VerdictError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  /** Lines printed between the message and the hint (one problem each, when there are several). */
  readonly details: readonly string[];
  constructor(message: string, exitCode: ExitCode, hint?: string, details: readonly string[] = []) {
    super(message);
    this.name = "VerdictError";
    this.exitCode = exitCode;
    this.hint = hint;
    this.details = details;
  }
}

/** Bad command line. */
export class UsageError extends VerdictError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint);
    this.name = "UsageError";
  }
}

/** Bad configuration file or configuration value. */
export class ConfigError extends VerdictError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint);
    this.name = "ConfigError";
  }
}

/** Bad input data (a snapshot, a corpus, a records file that is not ours). */
export class InputError extends VerdictError {
  constructor(message: string, hint?: string, details: readonly string[] = []) {
    super(message, EXIT.usage, hint, details);
    this.name = "InputError";
  }
}

/**
 * A run stopped by SIGINT or SIGTERM (the reason stopSignal aborts with). Whatever it had not
 * written yet is not written: every file verdict keeps is replaced by rename, never in place.
 */
export class InterruptedError extends VerdictError {
  constructor(signal: Deno.Signal) {
    super(`stopped by ${signal} before finishing; nothing was half-written`, signalExit(signal));
    this.name = "InterruptedError";
  }
}

/** Maps any thrown value to an exit code and the lines to print on stderr. */
export function describeError(err: unknown): { code: ExitCode; lines: string[] } {
  // The reader went away (`verdict export | head -1`): what it wanted it got; end quietly, as
  // cat and grep do.
  if (isBrokenPipe(err)) return { code: EXIT.ok, lines: [] };
  if (err instanceof VerdictError) {
    const lines = [`verdict: ${err.message}`, ...err.details];
    if (err.hint) lines.push(`hint: ${err.hint}`);
    return { code: err.exitCode, lines };
  }
  if (err instanceof Deno.errors.NotCapable) {
    return {
      code: EXIT.runtime,
      lines: [
        `verdict: refusing to go on: ${err.message}`,
        "hint: this command runs with the least permissions it needs; the path is outside its roots",
      ],
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: EXIT.runtime, lines: [`verdict: ${message}`] };
}

/** Is `err` a write to a pipe whose reader has closed it? */
export function isBrokenPipe(err: unknown): boolean {
  return err instanceof Deno.errors.BrokenPipe ||
    (err instanceof Error && /Broken pipe \(os error 32\)/.test(err.message));
}
