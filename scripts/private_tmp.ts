/**
 * Runs a command with a temp folder of its own and removes that folder when the command ends:
 * `deno run --allow-all scripts/private_tmp.ts <command> [args…]`.
 *
 * Why: the test suite makes a temp HOME, repository or archive for nearly every test (about
 * 1,500 folders a run, some of them hundreds of MB: agent CLIs' caches, scale archives), and a
 * test that fails or is interrupted cannot be trusted to remove its own. With TMPDIR (which
 * `Deno.makeTempDir`, Node and git all honour) pointing at one folder per run, every one of them
 * goes at the end, passed or failed, and two runs side by side never share a temp folder.
 * The command's exit code is this process's; Ctrl-C reaches the command (same process group),
 * and this process waits for it to end before cleaning up.
 */

/** Prefix of the per-run folder, so a folder left by a killed run is recognisable. */
const RUN_FOLDER_PREFIX = "verdict-run-";

function usage(): never {
  console.error(
    "Cannot run: no command given.\n" +
      "Usage: deno run --allow-all scripts/private_tmp.ts <command> [args…]\n" +
      "Runs <command> with TMPDIR set to a new folder, removed when it ends.",
  );
  Deno.exit(2);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === "--help" || command === "-h") usage();
  const folder = await Deno.makeTempDir({ prefix: RUN_FOLDER_PREFIX });
  // The command and this process get SIGINT together from the terminal; this one only waits.
  const ignore = () => {};
  Deno.addSignalListener("SIGINT", ignore);
  try {
    const child = new Deno.Command(command, {
      args,
      // VERDICT_WARM=off: a test run starts no warm helper unless a test asks for one.
      env: { TMPDIR: folder, TMP: folder, TEMP: folder, VERDICT_WARM: "off" },
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const status = await child.status;
    return status.signal ? 128 + signalNumber(status.signal) : status.code;
  } finally {
    Deno.removeSignalListener("SIGINT", ignore);
    await Deno.remove(folder, { recursive: true }).catch((error) => {
      console.error(`Cannot remove the run's temp folder "${folder}": ${error}`);
    });
  }
}

/** The conventional shell exit code part for the signals a test run ends by. */
function signalNumber(signal: Deno.Signal): number {
  const numbers: Partial<Record<Deno.Signal, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return numbers[signal] ?? 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
