/**
 * A newcomer's first run: `deno task demo` on a machine whose Deno cache is empty prints the
 * demo and nothing else (no `Download …` lines: deno.json names no lock file, so `deno task`
 * installs nothing up front, and the demo's own runs are quiet), and the conformance suite's
 * packages are not among what it fetches (they have a lock file of their own).
 */
import assert from "node:assert/strict";

const REPO = new URL("../../", import.meta.url).pathname;

/** The package (or scope) folders of a Deno npm cache, whatever the registry's folder is named. */
async function npmPackages(npmDir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const registry of Deno.readDir(npmDir)) {
    if (!registry.isDirectory) continue;
    for await (const pkg of Deno.readDir(`${npmDir}/${registry.name}`)) out.push(pkg.name);
  }
  return out.sort();
}

Deno.test("deno task demo on an empty Deno cache prints the demo, with no Download lines", async () => {
  const denoDir = await Deno.makeTempDir({ prefix: "verdict-demo-cache-" });
  const home = await Deno.makeTempDir({ prefix: "verdict-demo-home-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "demo"],
      cwd: REPO,
      // The rest of the environment is kept: the machine's TLS settings are how it reaches the registry.
      env: { HOME: home, DENO_DIR: denoDir, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    assert.doesNotMatch(text, /Download/, "a Download line reached the demo's output");
    assert.match(text, /^demo: no Claude Code or Codex history here; using the bundled examples/m);
    assert.match(text, /^collect: \d+ new/m);
    assert.match(text, /^1\. \d{4}-\d{2}-\d{2} /m, "the look-up printed no result");
    // It fetched verdict's own packages only: not the conformance suite's.
    const fetched = await npmPackages(`${denoDir}/npm`);
    assert.ok(
      fetched.includes("@modelcontextprotocol"),
      `verdict's own packages were not fetched: ${fetched}`,
    );
    assert.ok(!fetched.includes("@octokit"), "the conformance suite's dependencies were fetched");
  } finally {
    await Deno.remove(denoDir, { recursive: true }).catch(() => {});
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
});
