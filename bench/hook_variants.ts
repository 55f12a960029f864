/**
 * For bench:scale: two other ways to start the per-prompt hook, each built into a private temp
 * folder at the start of the run, so the table can say what they would cost:
 *   - bundled: the hook's entry as one module (`deno bundle`), run by `deno run` with verdict's
 *     flags: how much of the hook is `deno run` reading 50-odd files. Not shipped (a generated
 *     copy of the hint path would have to be regenerated with every change to it).
 *   - compiled: the shipped form (`deno compile`, as `deno task compile` builds it for this
 *     machine) against a compiled hello-world: the user's ratio. `deno compile` needs Deno's
 *     runtime for the target (downloaded, or named by DENORT_BIN); where it cannot get one, or
 *     what it builds does not run as a program, the row is skipped with the reason printed.
 * Nothing built here is kept: the folder is removed at the end of the run.
 */
import { compileArgs, hostTarget } from "../scripts/compile.ts";
import { binaryLikeRunFlags } from "../src/task_flags.ts";

export interface Variant {
  /** The hook's argv up to `hook user-prompt`, without them. */
  readonly hook: readonly string[];
  /** What the hook is compared with, started the same way. */
  readonly hello: readonly string[] | null;
}

/** Bounds one build (a compile that hangs on a download must not hold the bench). */
const BUILD_TIMEOUT_MS = 180_000;

const REPO = new URL("../", import.meta.url).pathname;

interface Built {
  readonly ok: boolean;
  readonly why: string;
}

async function build(args: readonly string[], env: Record<string, string> = {}): Promise<Built> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...args],
    cwd: REPO,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), BUILD_TIMEOUT_MS);
  try {
    const out = await child.output();
    const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    const plain = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
    // deno's error line, then its first two causes ("Setting up base binary", then why).
    const error = plain.find((l) => /^error:/i.test(l)) ?? plain.at(-1) ?? `exit ${out.code}`;
    const causes = plain.flatMap((l) => /^\d+: (.*)$/.exec(l)?.[1] ?? []).slice(0, 2);
    return { ok: out.success, why: out.success ? "" : [error, ...causes].join(": ") };
  } finally {
    clearTimeout(timer);
  }
}

/** The hook's entry as one bundled module in `dir`, started as the other hook rows (binaryLikeRunFlags). */
export async function bundledHook(dir: string): Promise<Variant | string> {
  const entry = `${dir}/hook_bundle_entry.ts`;
  const src = new URL("../src/cli/", import.meta.url).href;
  await Deno.writeTextFile(
    entry,
    [
      `import { hookArgs } from "${src}hook_argv.ts";`,
      `import { runUserPromptHook } from "${src}hook_entry.ts";`,
      "const hook = hookArgs(Deno.args);",
      "Deno.exit(hook ? await runUserPromptHook(hook, Deno.env.toObject(), Deno.cwd()) : 3);",
      "",
    ].join("\n"),
  );
  const out = `${dir}/hook.bundle.js`;
  const built = await build(["bundle", "--quiet", "--platform", "deno", "--output", out, entry]);
  if (!built.ok) return `deno bundle failed: ${built.why}`;
  const hook = [Deno.execPath(), "run", ...binaryLikeRunFlags(), out];
  // The hook is silent on every failure; an argv the hook's entry does not take exits 3 once every
  // module of the bundle has loaded (a bundle that cannot load exits 1).
  const probe = await new Deno.Command(hook[0]!, {
    args: hook.slice(1),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (probe.code !== 3) {
    return `the bundled hook does not load: exit ${probe.code}: ${
      new TextDecoder().decode(probe.stderr).trim()
    }`;
  }
  return { hook, hello: null };
}

/**
 * The compiled verdict and a compiled hello-world in `dir`, or why they cannot be had here. The
 * hello-world is built first: a machine without the runtime fails it in a second.
 */
export async function compiledHook(dir: string, helloSource: string): Promise<Variant | string> {
  const host = hostTarget(Deno.build.os, Deno.build.arch);
  if (host === undefined) return `no compile target for ${Deno.build.os}-${Deno.build.arch}`;
  const exe = Deno.build.os === "windows" ? ".exe" : "";
  const hello = `${dir}/hello${exe}`;
  const denort = Deno.env.get("DENORT_BIN");
  const runtime = denort ? ` (DENORT_BIN=${denort})` : "";
  const built = await build(["compile", "--quiet", "--target", host.triple, "--output", hello, helloSource]);
  if (!built.ok) return `deno compile cannot build a hello-world here${runtime}: ${built.why}`;
  // A runtime that is not denort (the full deno CLI named by DENORT_BIN) builds a file that
  // behaves as the deno CLI, not as the program.
  const probe = await new Deno.Command(hello, { stdout: "piped", stderr: "null", stdin: "null" }).output();
  const said = new TextDecoder().decode(probe.stdout).trim().split("\n")[0] ?? "";
  if (!probe.success || said !== "hi") {
    return `the compiled hello-world does not run as a program${runtime}: exit ${probe.code}, printed "${said}"`;
  }
  const verdict = `${dir}/verdict${exe}`;
  // As `deno task compile` builds it (the verdict task's flags, the includes), from the repository.
  const compiled = await build(compileArgs({ ...host, output: verdict }));
  if (!compiled.ok) return `deno compile of verdict failed${runtime}: ${compiled.why}`;
  const version = await new Deno.Command(verdict, { args: ["--version"], stdout: "piped", stderr: "piped" })
    .output();
  if (!version.success) {
    return `the compiled verdict does not run: exit ${version.code}: ${
      new TextDecoder().decode(version.stderr).trim()
    }`;
  }
  return { hook: [verdict], hello: [hello] };
}
