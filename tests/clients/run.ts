/**
 * `deno task test:clients [--latest] [--keep] [-- <deno test options>]`: the client tests
 * (tests/clients/) against the pinned agent CLIs, or with `--latest` against the newest
 * versions the registry has, then one line per agent version saying what passed and which
 * tests that version broke. CI runs the pinned versions (.ci/run, after `deno task test`).
 *
 *   deno task test:clients                 # pinned versions (what CI runs)
 *   deno task test:clients --latest        # newest versions; says which version broke what
 *   deno task test:clients --keep          # keep each temp HOME and project (paths printed)
 *   deno task test:clients -- --filter Codex
 */
import { lockFlags, verdictRunFlags } from "../../src/task_flags.ts";
import { latestVersion } from "./harness/install_cli.ts";
import { type ClientId, CLIENTS, VERSIONS_ENV } from "./harness/versions.ts";
import { taskArgs } from "../../scripts/task_args.ts";

export interface CaseResult {
  readonly name: string;
  readonly file: string;
  readonly outcome: "passed" | "failed" | "skipped";
  /** The failure's first line, for failed cases. */
  readonly message: string;
}

function unescapeXml(s: string): string {
  return s.replace(/&#x([0-9a-fA-F]+);/g, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#([0-9]+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

/** The test cases of a Deno JUnit report. */
export function parseJunit(xml: string): CaseResult[] {
  const out: CaseResult[] = [];
  const testcase = /<testcase name="([^"]*)" classname="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const m of xml.matchAll(testcase)) {
    const body = m[4] ?? "";
    const failure = /<failure message="([^"]*)"/.exec(body);
    out.push({
      name: unescapeXml(m[1]!),
      file: unescapeXml(m[2]!),
      outcome: failure ? "failed" : /<skipped\s*\/>/.test(body) ? "skipped" : "passed",
      message: failure ? unescapeXml(failure[1]!).split("\n")[0]! : "",
    });
  }
  return out;
}

/**
 * One block per agent version: "<Label> <version>: N passed, N failed", and for each failure
 * its test name, file and first message line. Test names start with "<Label> <version>:".
 */
export function summarize(
  cases: readonly CaseResult[],
  versions: Readonly<Record<ClientId, string>>,
  latest: boolean,
): string {
  const lines: string[] = [];
  for (const id of Object.keys(CLIENTS) as ClientId[]) {
    const spec = CLIENTS[id];
    const prefix = `${spec.label} ${versions[id]}:`;
    const mine = cases.filter((c) => c.name.startsWith(prefix));
    const failed = mine.filter((c) => c.outcome === "failed");
    const passed = mine.filter((c) => c.outcome === "passed").length;
    const pin = versions[id] === spec.pinned ? "pinned" : `CI pins ${spec.pinned}`;
    if (mine.length === 0) {
      lines.push(`${spec.label} ${versions[id]} (${pin}): no test ran`);
      continue;
    }
    lines.push(`${spec.label} ${versions[id]} (${pin}): ${passed} passed, ${failed.length} failed`);
    for (const f of failed) {
      const verb = latest && versions[id] !== spec.pinned ? "broke" : "failed";
      lines.push(`  ${verb}: ${f.name.slice(prefix.length).trim()} (${f.file})`);
      if (f.message) lines.push(`    ${f.message}`);
    }
  }
  const other = cases.filter((c) =>
    c.outcome === "failed" &&
    !(Object.keys(CLIENTS) as ClientId[]).some((id) =>
      c.name.startsWith(`${CLIENTS[id].label} ${versions[id]}:`)
    )
  );
  for (const f of other) lines.push(`failed: ${f.name} (${f.file})`);
  return lines.join("\n");
}

/**
 * Runs this checkout's verdict once, as the verdict task does, so every package its lock names is in Deno's cache before an
 * agent runs a hook: a first run on an empty cache downloads them all (about 10 s here), longer
 * than the agents let a hook take, and a hook they cut off never finishes the download.
 */
async function cacheVerdictPackages(): Promise<boolean> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...verdictRunFlags(), new URL("../../main.ts", import.meta.url).pathname, "--version"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (out.success) return true;
  console.error(
    `Cannot run the client tests: this checkout's verdict did not start (main.ts --version):\n${
      new TextDecoder().decode(out.stderr)
    }hint: run \`deno install --lock=deno.lock --frozen --entrypoint main.ts\` and try again`,
  );
  return false;
}

async function main(args: readonly string[]): Promise<number> {
  const split = args.indexOf("--");
  const own = split === -1 ? args : args.slice(0, split);
  const passOn = split === -1 ? [] : args.slice(split + 1);
  const latest = own.includes("--latest");
  const versions = {} as Record<ClientId, string>;
  for (const id of Object.keys(CLIENTS) as ClientId[]) {
    versions[id] = latest ? await latestVersion(CLIENTS[id].pkg) : CLIENTS[id].pinned;
  }
  const list = (Object.keys(CLIENTS) as ClientId[]).map((id) => `${CLIENTS[id].pkg}@${versions[id]}`);
  console.error(
    `client tests against ${list.join(", ")}${latest ? " (newest on the registry)" : " (pinned)"}`,
  );

  if (!(await cacheVerdictPackages())) return 1;

  const junit = await Deno.makeTempFile({ prefix: "verdict-client-tests-", suffix: ".xml" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "test",
        ...lockFlags(),
        "--allow-all",
        "--unstable-worker-options",
        "--no-prompt",
        `--junit-path=${junit}`,
        ...passOn,
        new URL(".", import.meta.url).pathname,
      ],
      env: {
        [VERSIONS_ENV]: JSON.stringify(versions),
        ...(own.includes("--keep") ? { VERDICT_TEST_KEEP: "1" } : {}),
      },
      stdin: "null",
    }).spawn();
    const status = await child.status;
    let cases: CaseResult[] = [];
    try {
      cases = parseJunit(await Deno.readTextFile(junit));
    } catch {
      // no report: deno test failed before running anything (its own output says why)
    }
    console.log(`\n${summarize(cases, versions, latest)}`);
    return status.code;
  } finally {
    await Deno.remove(junit).catch(() => {});
  }
}

if (import.meta.main) {
  taskArgs("test:clients", import.meta.url, Deno.args, { switches: ["--latest", "--keep"], passOn: true });
  Deno.exit(await main(Deno.args));
}
