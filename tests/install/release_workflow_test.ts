/**
 * The release workflow's shape, read with a minimal YAML reader: it runs on version tags, checks
 * the tag against deno.json, runs the CI tests, compiles every target the compile script knows,
 * smoke-tests the native binary on the examples, and publishes the binaries with SHA-256 sums.
 */
import assert from "node:assert/strict";
import { parseYaml, type Yaml } from "./_yaml.ts";
import { TARGETS } from "../../scripts/compile.ts";

type Step = {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
};

const text = await Deno.readTextFile(new URL("../../.github/workflows/release.yml", import.meta.url));
const wf = parseYaml(text) as Record<string, Yaml>;
const jobs = wf.jobs as Record<string, { "runs-on": string; steps: Step[] }>;
const steps = Object.values(jobs).flatMap((j) => j.steps);
const runs = (re: RegExp) => steps.filter((s) => typeof s.run === "string" && re.test(s.run));
const index = (s: Step) => steps.indexOf(s);

Deno.test("release: runs on v* tags only, with write access to contents for the release", () => {
  assert.deepEqual(wf.on, { push: { tags: ["v*"] } });
  assert.deepEqual(wf.permissions, { contents: "write" });
  assert.equal(Object.values(jobs)[0]!["runs-on"], "ubuntu-latest");
});

Deno.test("release: installs the pinned Deno, checks the tag against deno.json first, then runs .ci/run", () => {
  const setup = steps.find((s) => s.uses?.startsWith("denoland/setup-deno@"));
  assert.equal(setup?.with?.["deno-version"], "v2.9.6");
  const [tag] = runs(/deno\.json/);
  assert.ok(tag, "a step reads the version from deno.json");
  assert.match(tag.run!, /"\$GITHUB_REF_NAME" != "v\$version"/);
  assert.match(tag.run!, /exit 1/);
  const [ci] = runs(/^\.ci\/run\s*$/);
  assert.ok(ci, "the tests run exactly as CI runs them");
  assert.ok(index(tag) < index(ci));
});

Deno.test("release: compiles with the compile task and checks that every target's binary exists", () => {
  const [compile] = runs(/^deno task compile\s*$/);
  assert.ok(compile);
  const [built] = runs(/test -s "dist\/\$f"/);
  assert.ok(built && index(compile) < index(built));
  for (const t of TARGETS) assert.ok(built.run!.includes(t.output.replace("dist/", "")), t.output);
});

Deno.test("release: smoke-tests the native binary on examples/: version, collect, recall, the sandbox, MCP", () => {
  const smoke = steps.find((s) => s.env?.CLAUDE_CONFIG_DIR !== undefined)!;
  assert.deepEqual(smoke.env, {
    CLAUDE_CONFIG_DIR: "examples/claude",
    CODEX_HOME: "examples/codex",
    VERDICT_CONFIG: "examples/config.example.jsonc",
    VERDICT_RECORDS: "${{ runner.temp }}/r.jsonl",
    VERDICT_STATE: "${{ runner.temp }}/state",
  });
  const native = TARGETS.find((t) => t.name === "linux-x64")!.output;
  assert.ok(smoke.run!.includes(`bin=./${native}`));
  for (
    const re of [
      /\$bin version\)" = "verdict \$\{GITHUB_REF_NAME#v\}"/,
      /\$bin collect/,
      /\$bin recall "/,
      /sandbox-probe --as collect/,
    ]
  ) {
    assert.match(smoke.run!, re);
  }
  const away = runs(/"\$bin" mcp/)[0]!;
  assert.match(away.run!, /tools\/list/);
  assert.match(away.run!, /"\$bin" recall/);
});

Deno.test("release: SHA-256 sums of every binary, published with them after the smoke tests", () => {
  const [sums] = runs(/sha256sum verdict-\* > SHA256SUMS/);
  assert.ok(sums);
  const [publish] = runs(/gh release create/);
  assert.ok(publish);
  assert.match(publish.run!, /dist\/verdict-\* dist\/SHA256SUMS/);
  const smokeLast = Math.max(...runs(/\$bin|"\$bin"/).map(index));
  assert.ok(smokeLast < index(sums) && index(sums) < index(publish));
});
