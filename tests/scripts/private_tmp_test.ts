/**
 * The test tasks run under scripts/private_tmp.ts: the command sees TMPDIR as a new folder of
 * its own, everything made there is gone when it ends (passed, failed or killed by a signal),
 * and its exit code is passed on.
 */
import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };

const SCRIPT = new URL("../../scripts/private_tmp.ts", import.meta.url).pathname;

/** Runs the script over `sh -c <shell>` with TMPDIR=`parent`; returns its exit code and output. */
async function run(parent: string, shell: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", SCRIPT, "sh", "-c", shell],
    env: { TMPDIR: parent },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

Deno.test("the command's temp folder is new, inside the caller's TMPDIR, and removed when it fails", async () => {
  const parent = await Deno.makeTempDir({ prefix: "verdict-private-tmp-" });
  try {
    const r = await run(
      parent,
      'd=$(mktemp -d) && mkdir -p "$d/a/b" && echo x > "$d/a/b/f" && echo "$TMPDIR" && exit 3',
    );
    assert.equal(r.code, 3, r.stderr);
    const seen = r.stdout.trim();
    assert.ok(seen.startsWith(`${parent}/verdict-run-`), `TMPDIR was ${seen}`);
    assert.deepEqual(await entries(parent), [], "the run's folder and what was made in it are removed");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("a command killed by a signal leaves no temp folder and is reported as 128 + the signal", async () => {
  const parent = await Deno.makeTempDir({ prefix: "verdict-private-tmp-" });
  try {
    const r = await run(parent, 'touch "$TMPDIR/left" && kill -TERM $$');
    assert.equal(r.code, 128 + 15, r.stderr);
    assert.deepEqual(await entries(parent), []);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("without a command it says what to run and exits non-zero, making nothing", async () => {
  const parent = await Deno.makeTempDir({ prefix: "verdict-private-tmp-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", SCRIPT],
      env: { TMPDIR: parent },
    }).output();
    assert.equal(out.code, 2);
    assert.match(new TextDecoder().decode(out.stderr), /Cannot run: no command given\.\nUsage: /);
    assert.deepEqual(await entries(parent), []);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("every test task runs under the private temp folder; the README's test command leaves the real agent CLIs out", () => {
  const tasks = denoJson.tasks as Record<string, string>;
  // A newcomer's `deno task test` needs no network beyond the Deno dependencies: no agent CLI
  // is installed by it (those are `deno task test:clients`).
  assert.match(tasks.test ?? "", / --ignore=tests\/clients\/ tests\/$/);
  for (const name of ["test", "test:clients", "test:real"]) {
    assert.match(tasks[name] ?? "", /^deno run --allow-all scripts\/private_tmp\.ts deno (test|run) /, name);
  }
});
