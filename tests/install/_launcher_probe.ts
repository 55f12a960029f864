/**
 * Run as its own process with the verdict task's flags: launches `sandbox-probe --as collect`
 * in its Worker exactly as the launcher does, then prints (on stderr, as JSON) the launcher's
 * own permission states before and after.
 */
import { buildPlan } from "../../src/cli/main.ts";
import { findCommand } from "../../src/cli/commands.ts";
import { parseArgs } from "../../src/plan/args.ts";
import { runConfined } from "../../src/cli/run_confined.ts";

const spec = findCommand("sandbox-probe")!;
const args = parseArgs(["--as", "collect", "--read", "/etc/hostname"], spec.options, spec.name);
const plan = await buildPlan(spec, args, Deno.env.toObject(), Deno.cwd(), null);
const names = ["read", "write", "net", "run", "env", "sys", "ffi"] as const;
const states = () =>
  Object.fromEntries(names.map((name) => [name, Deno.permissions.querySync({ name }).state]));
const before = states();
const code = await runConfined(plan, "collect");
console.error(JSON.stringify({ code, before, after: states() }));
