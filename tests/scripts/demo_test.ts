/**
 * A newcomer's first run: `deno task demo` on a machine whose Deno cache is empty prints the
 * demo and nothing else (no `Download …` lines: deno.json names no lock file, so `deno task`
 * installs nothing up front, and the demo's own runs are quiet), and the conformance suite's
 * packages are not among what it fetches (they have a lock file of their own).
 */
import assert from "node:assert/strict";
import { GEMINI_SAMPLES } from "../agents/gemini/samples.ts";

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
    assert.match(
      text,
      /^demo: no Claude Code, Codex, .* or Cline CLI history here; using the bundled examples/m,
    );
    assert.match(text, /^collect: \d+ new/m);
    // The look-up is built from a decision the archive holds, not a canned question.
    assert.match(text, /^demo: a recent decision in the archive \(\d{4}-\d{2}-\d{2}, (prompt|note)\): "/m);
    assert.match(text, /^demo: looking it up as a new prompt about it would: "/m);
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

Deno.test("deno task demo with only Gemini CLI sessions here collects them, not the examples", async () => {
  const missing = GEMINI_SAMPLES.missing();
  if (missing !== null) return console.log(`skipped: ${missing}`);
  const home = await Deno.makeTempDir({ prefix: "verdict-demo-home-" });
  try {
    const laid = await GEMINI_SAMPLES.layOut(home);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "demo"],
      cwd: REPO,
      env: { HOME: home, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    assert.match(text, /^demo: collecting your Gemini CLI history into the default archive$/m);
    // What it reads, said before the collect starts.
    assert.match(text, /^demo: {3}Gemini CLI: .*\/\.gemini\/tmp \(\d+ session files?\)$/m);
    assert.doesNotMatch(text, /bundled examples/);
    // Every typed prompt of the samples, and nothing from examples/ (no Claude Code or Codex there).
    laid.close();
    const n = laid.records.length;
    assert.ok(n > 0);
    assert.match(
      text,
      new RegExp(`^collect: ${n} new, ${n} records`, "m"),
    );
    assert.ok(await Deno.stat(`${home}/.local/share/verdict/records.db`), "the default archive");
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
});

Deno.test("the demo's look-up names the things of the decision it found, as a new prompt would", async () => {
  const { promptAbout } = await import("../../scripts/demo.ts");
  assert.equal(
    promptAbout("We decided: the orders service uses PostgreSQL, not MySQL."),
    "decided orders service PostgreSQL MySQL",
  );
  assert.equal(
    promptAbout("决定：订单金额一律用整数分存储，不要用浮点数。"),
    "决定：订单金额一律用整数分存储，不要用浮点数。",
  );
});
