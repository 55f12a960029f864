/**
 * .ci/run runs exactly the README's test command and the real agent CLIs' client tests, and ends
 * with one plain "N passed, N failed" summing both, non-zero on any failure. Run here with a
 * stand-in `deno` (and `tmux`) on PATH that prints what each task would: nothing is installed
 * and no test runs.
 */
import assert from "node:assert/strict";

const REPO = new URL("../../", import.meta.url).pathname;

/** The README's two commands, from its first code block. */
function readmeCommands(): string[] {
  const readme = Deno.readTextFileSync(`${REPO}README.md`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
  return block.trim().split("\n").map((l) => l.replace(/#.*$/, "").trim());
}

async function ciWith(testOut: string, testCode: number, clientsOut: string, clientsCode: number) {
  const dir = await Deno.makeTempDir({ prefix: "verdict-ci-" });
  const log = `${dir}/calls.log`;
  await Deno.writeTextFile(
    `${dir}/deno`,
    [
      "#!/bin/sh",
      `echo "$*" >> '${log}'`,
      'case "$*" in',
      '  "--version") echo "deno 2.9.6";;',
      `  "task test") printf '%s\\n' '${testOut}'; exit ${testCode};;`,
      `  "task test:clients") printf '%s\\n' '${clientsOut}'; exit ${clientsCode};;`,
      "esac",
      "exit 0",
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  await Deno.writeTextFile(`${dir}/tmux`, "#!/bin/sh\necho tmux 3.4\n", { mode: 0o755 });
  const out = await new Deno.Command("bash", {
    args: [`${REPO}.ci/run`],
    env: { PATH: `${dir}:/usr/bin:/bin`, HOME: dir },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const calls = (await Deno.readTextFile(log)).trim().split("\n");
  await Deno.remove(dir, { recursive: true });
  const lines = new TextDecoder().decode(out.stdout).trimEnd().split("\n");
  return { code: out.code, last: lines.at(-1), calls };
}

Deno.test(".ci/run runs the README's test command and the client tests, and sums both in one last line", async () => {
  const [demo, test] = readmeCommands();
  assert.equal(demo, "deno task demo");
  assert.equal(test, "deno task test");
  const green = await ciWith(
    "ok | 700 passed (3 steps) | 0 failed (9m)",
    0,
    "ok | 40 passed | 0 failed (11m)\nClaude Code 2.1.328 (pinned): 8 passed, 0 failed",
    0,
  );
  assert.deepEqual([green.code, green.last], [0, "740 passed, 0 failed"]);
  assert.deepEqual(green.calls.filter((c) => c.startsWith("task test")), ["task test", "task test:clients"]);
  const red = await ciWith("ok | 700 passed | 0 failed (9m)", 0, "FAILED | 38 passed | 2 failed (11m)", 1);
  assert.deepEqual([red.code, red.last], [1, "738 passed, 2 failed"]);
  const none = await ciWith("error: Module not found", 1, "ok | 40 passed | 0 failed (11m)", 0);
  assert.deepEqual([none.code, none.last], [1, "40 passed, 1 failed"]);
});
