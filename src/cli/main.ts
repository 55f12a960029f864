/**
 * The launcher: argv and environment in, exit code out. It parses the command line against the
 * command table (./commands.ts), loads the config, resolves the roots (./roots.ts, Worker
 * commands only), and runs the command as its row says: in-process, or in a Worker under its
 * row's permission rule (./run_confined.ts). Nothing here prints except help and error reports.
 */
import denoJson from "../../deno.json" with { type: "json" };
import { parseArgs } from "../plan/args.ts";
import { buildPlan } from "../plan/build_plan.ts";
import { COMMANDS, type CommandSpec, findCommand, GROUPS } from "./commands.ts";
import { describeError, EXIT, UsageError } from "../errors.ts";
import { processIO, readStdinCapped } from "../plan/io.ts";
import type { Env } from "../config/paths.ts";
import { HINT_MAX_STDIN } from "../hint/hook_limits.ts";
import type { CommandPlan } from "../plan/plan.ts";

export const VERSION: string = denoJson.version;

export async function main(argv: readonly string[], env: Env, cwd: string): Promise<number> {
  const io = processIO();
  try {
    return await dispatch(argv, env, cwd);
  } catch (err) {
    // A hook never fails loudly: a broken config or install must not block or mark a prompt.
    // `verdict hook` with no sub-command (or an unknown one) is a person typing, not an agent.
    if (argv[0] === "hook" && findCommand(`hook ${argv[1]}`)) return EXIT.ok;
    const { code, lines } = describeError(err);
    if (lines.length > 0) await io.stderr(lines.join("\n") + "\n");
    return code;
  }
}

function resolveCommand(argv: readonly string[]): { spec: CommandSpec; rest: string[] } {
  const first = argv[0]!;
  let name = first;
  let rest = argv.slice(1);
  if (GROUPS.has(first)) {
    const sub = argv[1];
    const subs = COMMANDS.filter((c) => c.name.startsWith(first + " ")).map((c) => c.name.split(" ")[1]);
    if (!sub || sub.startsWith("-")) {
      throw new UsageError(
        `"verdict ${first}" needs a sub-command: ${subs.join(", ")}`,
        `run "verdict ${first} ${subs[0]} --help"`,
      );
    }
    name = `${first} ${sub}`;
    rest = argv.slice(2);
  }
  const spec = findCommand(name);
  if (!spec) {
    throw new UsageError(`Unknown command "${name}"`, 'run "verdict --help" for the list of commands');
  }
  return { spec, rest };
}

async function dispatch(argv: readonly string[], env: Env, cwd: string): Promise<number> {
  const io = processIO();
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    const topic = argv[0] === "help" ? argv.slice(1) : [];
    if (topic.length > 0) {
      const { spec } = resolveCommand(topic);
      await io.stdout((await import("./help.ts")).commandHelp(spec));
    } else await io.stdout((await import("./help.ts")).mainHelp(VERSION));
    return EXIT.ok;
  }
  if (argv[0] === "--version") argv = ["version"];
  const { spec, rest } = resolveCommand(argv);
  if (rest.includes("--help") || rest.includes("-h")) {
    await io.stdout((await import("./help.ts")).commandHelp(spec));
    return EXIT.ok;
  }
  const args = parseArgs(rest, spec.options, spec.name);
  if (spec.sandbox === "none" || spec.sandbox === "revoke") {
    // A revoke-mode command opens its files from the plan, then revokes every permission itself;
    // one with `launch` pins its plan and starts its own Worker.
    const mod = await spec.load();
    const plan = await buildPlan(spec, args, env, cwd, null);
    return mod.launch ? await mod.launch(plan, io, confinedRun) : await mod.run(plan, io);
  }
  let stdin: Uint8Array | null = null;
  if (spec.stdinInPlan) {
    stdin = await readStdinCapped(HINT_MAX_STDIN, true);
    if (stdin === null) stdin = new Uint8Array();
  }
  const plan = await buildPlan(spec, args, env, cwd, stdin);
  await spec.prepare?.(plan);
  const as = spec.runsAs?.(args) ?? spec.name;
  const asSpec = findCommand(as);
  if (!asSpec) throw new UsageError(`Unknown command "${as}" for --as`, 'try "--as collect"');
  if (asSpec.sandbox === "revoke") {
    // Probing a revoke-mode command (hint): drop every permission exactly as it does, then try.
    const mod = await spec.load();
    const { revokeAll } = await import("../sandbox/revoke.ts");
    await revokeAll();
    return await mod.run(plan, io);
  }
  const { runConfined } = await import("./run_confined.ts");
  const code = await runConfined(plan, as);
  return spec.exitsZero ? EXIT.ok : code;
}

/** The confined run a self-narrowing command gets, loaded when it asks for it. */
async function confinedRun(plan: CommandPlan): Promise<number> {
  const { runConfined } = await import("./run_confined.ts");
  return await runConfined(plan);
}

export { buildPlan } from "../plan/build_plan.ts";
