/**
 * `deno task compile [--dry-run] [--target NAME]...`: builds the verdict binary for each target
 * into dist/ with `deno compile`.
 *
 * Baked into every binary:
 * - the permission and unstable flags of the `verdict` task in deno.json (the single source,
 *   read through src/task_flags.ts): the broad base each command narrows itself from;
 * - src/cli/worker.ts (the Worker entry), named with --include because `new Worker(new URL(...))`
 *   is not a static import, and src/cli/main.ts (the launcher), which main.ts imports through a
 *   variable (the command table's loaders are literal dynamic imports, so every command comes
 *   with it);
 * - the MCP contract and deno.json's version, which are JSON imports: the binary reads neither
 *   contract/ nor deno.json at run time. The npm packages are pinned by deno.lock, which the
 *   verdict task's flags name (`--lock=… --frozen`: deno.json names no lock, see task_flags.ts).
 *
 * `deno compile` downloads the runtime (denort) of each target; where that is not possible,
 * DENORT_BIN names a local one, which can only serve the host's own target: with DENORT_BIN set
 * and no --target, only the host target is built.
 */
import { MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";
import { taskArgs } from "./task_args.ts";

export interface Target {
  /** Short name used with --target and in the output file name. */
  readonly name: string;
  /** deno compile --target triple. */
  readonly triple: string;
  /** Output file, relative to the repository. */
  readonly output: string;
}

export const TARGETS: readonly Target[] = [
  { name: "linux-x64", triple: "x86_64-unknown-linux-gnu", output: "dist/verdict-linux-x64" },
  { name: "linux-arm64", triple: "aarch64-unknown-linux-gnu", output: "dist/verdict-linux-arm64" },
  { name: "macos-x64", triple: "x86_64-apple-darwin", output: "dist/verdict-macos-x64" },
  { name: "macos-arm64", triple: "aarch64-apple-darwin", output: "dist/verdict-macos-arm64" },
  { name: "windows-x64", triple: "x86_64-pc-windows-msvc", output: "dist/verdict-windows-x64.exe" },
];

/**
 * Modules loaded in ways deno compile cannot see, relative to the repository: the Worker entry,
 * the launcher and root resolution (main.ts and build_plan.ts name them through variables, so that
 * the per-prompt hook does not read their graphs).
 */
export const INCLUDES: readonly string[] = [
  "src/cli/worker.ts",
  "src/cli/main.ts",
  "src/plan/roots.ts",
  "src/hint/hook_entry.ts",
  "src/warm/start.ts",
];

/** The `deno compile` arguments for one target (pure). */
export function compileArgs(target: Target, runFlags: readonly string[] = verdictRunFlags()): string[] {
  return [
    "compile",
    "--config",
    "deno.json",
    ...runFlags,
    ...INCLUDES.flatMap((path) => ["--include", path]),
    "--target",
    target.triple,
    "--output",
    target.output,
    "main.ts",
  ];
}

/** The target of the machine running this script, if it is one we build. */
export function hostTarget(os: string, arch: string): Target | undefined {
  const name = `${os === "darwin" ? "macos" : os}-${arch === "aarch64" ? "arm64" : "x64"}`;
  return TARGETS.find((t) => t.name === name);
}

/** Which targets to build: those named, else all (only the host's when DENORT_BIN is set). */
export function selectTargets(
  named: readonly string[],
  denortBin: string | undefined,
  host: Target | undefined,
): Target[] {
  if (named.length > 0) {
    return named.map((n) => {
      const t = TARGETS.find((x) => x.name === n);
      if (!t) throw new Error(`Unknown target "${n}": use one of ${TARGETS.map((x) => x.name).join(", ")}`);
      return t;
    });
  }
  if (denortBin) {
    if (!host) throw new Error("DENORT_BIN is set but this machine is not one of the build targets");
    return [host];
  }
  return [...TARGETS];
}

function shellWord(w: string): string {
  return /^[A-Za-z0-9_./:=,@+-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`;
}

async function main(argv: string[]): Promise<number> {
  const dryRun = argv.includes("--dry-run");
  const named: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    // taskArgs (below) has refused anything but --dry-run and --target NAME.
    if (argv[i] === "--target") named.push(argv[++i] ?? "");
  }
  const denortBin = Deno.env.get("DENORT_BIN") || undefined;
  const targets = selectTargets(named, denortBin, hostTarget(Deno.build.os, Deno.build.arch));
  const repo = new URL(".", `file://${MAIN_TS}`).pathname;
  if (denortBin) console.error(`compile: using DENORT_BIN=${denortBin}`);
  for (const target of targets) {
    const args = compileArgs(target);
    console.log(["deno", ...args].map(shellWord).join(" "));
    if (dryRun) continue;
    const status = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: repo,
      stdout: "inherit",
      stderr: "inherit",
    })
      .spawn().status;
    if (!status.success) {
      console.error(`compile: ${target.name} failed (exit ${status.code})`);
      return 1;
    }
  }
  return 0;
}

if (import.meta.main) {
  taskArgs("compile", import.meta.url, Deno.args, { values: ["--target"], switches: ["--dry-run"] });
  Deno.exit(await main(Deno.args));
}
