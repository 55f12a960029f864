/**
 * A small strict argument parser. `node:util` parseArgs would cost ~25 ms of Node-compat start-up
 * on the hint path, so the CLI parses its own flags: long options only (`--name value`,
 * `--name=value`), booleans, repeatable strings, positionals, and `--` to end options.
 */
import { UsageError } from "../errors.ts";

export type OptionKind = "string" | "boolean" | "strings";

export interface OptionSpec {
  readonly kind: OptionKind;
  /** Shown in help, e.g. "FILE". */
  readonly value?: string;
  readonly description: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export type ParsedOptions = Record<string, string | boolean | string[] | undefined>;

export interface ParsedArgs {
  readonly options: ParsedOptions;
  readonly positionals: string[];
}

/** Parses `argv` against `specs`; throws UsageError naming the bad flag and the help command. */
export function parseArgs(argv: readonly string[], specs: OptionSpecs, command: string): ParsedArgs {
  const options: ParsedOptions = {};
  const positionals: string[] = [];
  const helpHint = `run "verdict ${command} --help" for the options it takes`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "-") {
      if (arg.startsWith("-") && arg !== "-") {
        throw new UsageError(`Unknown option "${arg}" for "verdict ${command}"`, helpHint);
      }
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec) throw new UsageError(`Unknown option "--${name}" for "verdict ${command}"`, helpHint);
    if (spec.kind === "boolean") {
      if (eq !== -1) {
        throw new UsageError(`Option "--${name}" takes no value`, helpHint);
      }
      options[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || (value.startsWith("--") && value.length > 2)) {
        throw new UsageError(
          `Option "--${name}" needs a value (${spec.value ?? "VALUE"})`,
          helpHint,
        );
      }
      i++;
    }
    if (spec.kind === "strings") {
      const list = (options[name] as string[] | undefined) ?? [];
      list.push(value);
      options[name] = list;
    } else {
      if (options[name] !== undefined) {
        throw new UsageError(`Option "--${name}" was given twice`, helpHint);
      }
      options[name] = value;
    }
  }
  return { options, positionals };
}

/** Reads a string option, or undefined. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.options[name];
  return typeof v === "string" ? v : undefined;
}

export function booleanOption(args: ParsedArgs, name: string): boolean {
  return args.options[name] === true;
}

export function stringsOption(args: ParsedArgs, name: string): string[] {
  const v = args.options[name];
  return Array.isArray(v) ? v : [];
}

/** Parses a positive integer option within [min, max]; throws UsageError otherwise. */
export function intOption(
  args: ParsedArgs,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) {
    throw new UsageError(`Option "--${name}" must be a whole number, got "${raw}"`);
  }
  const n = Number(raw);
  if (n < min || n > max) {
    throw new UsageError(`Option "--${name}" must be between ${min} and ${max}, got ${n}`);
  }
  return n;
}
