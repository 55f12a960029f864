/**
 * `verdict compact build (--transcript FILE [--cwd DIR] | --summary FILE|-) [--json]`: prints the
 * snapshot (JSON with --json, else the state and its digest). Exit 2 when the state is over
 * judge.state_char_budget, 3 for bad input.
 */
import { compileCredentialRules } from "../../record/secrets.ts";
import { booleanOption, stringOption } from "../../plan/args.ts";
import { InputError, UsageError } from "../../errors.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { buildSnapshot } from "../../judge/build.ts";

/** Largest summary read from a file or stdin. */
const MAX_SUMMARY_BYTES = 16 * 1024 * 1024;

export async function readJsonInput(
  source: string | undefined,
  io: CommandIO,
  what: string,
  maxBytes: number,
): Promise<unknown> {
  let text: string;
  const name = source === undefined || source === "-" ? "stdin" : `"${source}"`;
  if (source === undefined || source === "-") {
    const bytes = await io.readStdin(maxBytes);
    if (bytes === null) throw new InputError(`Cannot read ${what} from stdin: longer than ${maxBytes} bytes`);
    text = new TextDecoder().decode(bytes);
  } else {
    try {
      text = await Deno.readTextFile(source);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) {
        throw new InputError(`Cannot read ${what} ${name}: no such file`);
      }
      throw err;
    }
  }
  if (text.trim() === "") throw new InputError(`Cannot read ${what} from ${name}: it is empty`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`Cannot parse ${what} from ${name}: ${(err as Error).message}`);
  }
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const transcript = stringOption(plan.args, "transcript");
  const summaryFile = stringOption(plan.args, "summary");
  const cwd = stringOption(plan.args, "cwd");
  const hint = 'run "verdict compact build --help" for the options it takes';
  if ((transcript === undefined) === (summaryFile === undefined)) {
    throw new UsageError('"verdict compact build" needs exactly one of --transcript and --summary', hint);
  }
  if (cwd !== undefined && transcript === undefined) {
    throw new UsageError("--cwd goes with --transcript only", hint);
  }
  if (plan.args.positionals.length > 0) {
    throw new UsageError(
      `Unexpected argument "${plan.args.positionals[0]}" for "verdict compact build"`,
      hint,
    );
  }
  const options = {
    config: plan.config.judge,
    credentialRules: compileCredentialRules(plan.config.credential_patterns),
  };
  const built = transcript !== undefined
    ? await buildSnapshot({ transcript_path: transcript, cwd: cwd ?? null }, options)
    : await buildSnapshot(
      { summary: await readJsonInput(summaryFile, io, "summary", MAX_SUMMARY_BYTES) },
      options,
    );
  const { snapshot } = built;
  if (booleanOption(plan.args, "json")) await io.stdout(JSON.stringify(snapshot) + "\n");
  else await io.stdout(`${snapshot.state}Digest: ${snapshot.digest}\n`);
  return 0;
}
