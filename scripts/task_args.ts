/**
 * The command line of the developer tasks (`deno task eval:*`, `bench:*`, `test:clients`…):
 * `--help` (or `-h`) prints the task's own header comment, which is where each task says what it
 * does and which flags it takes, and exits; a flag the task does not know, or a flag without its
 * value, is refused by name before any work starts. A task measures for minutes: a mistyped flag
 * must not be a silent default.
 */

/** The flags a task takes. */
export interface TaskFlags {
  /** Flags followed by a value (`--records 2000`). */
  readonly values?: readonly string[];
  /** Flags on their own (`--json`). */
  readonly switches?: readonly string[];
  /** Flags that take a value when a word follows them, and stand alone before a flag or at the end. */
  readonly optional?: readonly string[];
  /** How many plain words (not flags) the task takes; none unless said. */
  readonly positionals?: number;
  /** Whether everything after a bare `--` is passed on unread (`test:clients -- --filter Codex`). */
  readonly passOn?: boolean;
  /**
   * Whether the task's words are free text (the demo's query): only a first word of --help or -h
   * asks for help, and nothing else is read.
   */
  readonly freeText?: boolean;
}

/** A command line the task cannot run: the message says what was wrong and what to do. */
export class TaskArgsError extends Error {}

/**
 * The leading comment of a module's source, without its comment marks: the first block comment
 * (a JSDoc block) or the first run of `//` lines. Empty when the module starts without one.
 */
export function headerDoc(source: string): string {
  const text = source.replace(/^\uFEFF/, "").replace(/^#![^\n]*\n/, "").trimStart();
  if (text.startsWith("/*")) {
    const end = text.indexOf("*/");
    if (end < 0) return "";
    return text.slice(2, end).replace(/^\*/, "").split("\n")
      .map((line) => line.replace(/^\s*\* ?/, "").replace(/\s+$/, ""))
      .join("\n").trim();
  }
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*\/\/ ?(.*)$/.exec(line);
    if (m === null) break;
    lines.push(m[1]!.replace(/\s+$/, ""));
  }
  return lines.join("\n").trim();
}

/**
 * Whether the command line asks for help; throws TaskArgsError for an unknown flag, a flag
 * missing its value, or a plain word too many. `task` names the task in the messages.
 */
export function checkTaskArgs(task: string, args: readonly string[], flags: TaskFlags): "help" | "run" {
  const values = new Set(flags.values ?? []);
  const switches = new Set(flags.switches ?? []);
  const optional = new Set(flags.optional ?? []);
  const allowed = () =>
    [...values].map((f) => `${f} VALUE`).concat([...switches], [...optional].map((f) => `${f} [VALUE]`))
      .sort().join(", ") || "none";
  if (flags.freeText) return args[0] === "--help" || args[0] === "-h" ? "help" : "run";
  let plain = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--help" || a === "-h") return "help";
    if (a === "--" && flags.passOn) break;
    if (a.startsWith("-") && !/^-\d/.test(a)) {
      // The tasks read a flag's value as the next word: `--records=5` would be a silent default.
      const eq = a.indexOf("=");
      if (eq > 0 && (values.has(a.slice(0, eq)) || optional.has(a.slice(0, eq)))) {
        throw new TaskArgsError(`${task}: write ${a.slice(0, eq)} ${a.slice(eq + 1)}, not ${a}`);
      }
      if (values.has(a)) {
        const v = args[i + 1];
        if (v === undefined || (v.startsWith("-") && !/^-\d/.test(v))) {
          throw new TaskArgsError(`${task}: ${a} needs a value (run with --help to see what it takes)`);
        }
        i++;
        continue;
      }
      if (switches.has(a)) continue;
      if (optional.has(a)) {
        const v = args[i + 1];
        if (v !== undefined && !v.startsWith("-")) i++;
        continue;
      }
      throw new TaskArgsError(
        `${task}: unknown flag ${a} (it takes: ${allowed()}; run with --help to see what each does)`,
      );
    }
    plain++;
    if (plain > (flags.positionals ?? 0)) {
      throw new TaskArgsError(
        `${task}: unexpected argument "${a}" (it takes ${
          flags.positionals ?? 0
        } plain argument(s); flags: ${allowed()}; run with --help)`,
      );
    }
  }
  return "run";
}

/**
 * A task's first step: on `--help` prints its header comment (read from `moduleUrl`, the task's
 * own file) and exits 0; on a command line it cannot run prints why and exits 2; otherwise
 * returns and the task runs.
 */
export function taskArgs(task: string, moduleUrl: string, args: readonly string[], flags: TaskFlags): void {
  let verdict: "help" | "run";
  try {
    verdict = checkTaskArgs(task, args, flags);
  } catch (err) {
    if (!(err instanceof TaskArgsError)) throw err;
    console.error(err.message);
    Deno.exit(2);
  }
  if (verdict === "run") return;
  const path = new URL(moduleUrl).pathname;
  // A task run without read access (bench:cjk reads no file) still says where its description is.
  const readable = Deno.permissions.querySync({ name: "read", path }).state === "granted";
  const doc = readable ? headerDoc(Deno.readTextFileSync(path)) : "";
  console.log(
    doc === ""
      ? `${task}: what it does and the flags it takes are in the comment at the top of ${path}`
      : doc,
  );
  Deno.exit(0);
}
