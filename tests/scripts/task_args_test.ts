import assert from "node:assert/strict";
import { checkTaskArgs, headerDoc, TaskArgsError } from "../../scripts/task_args.ts";
import denoJson from "../../deno.json" with { type: "json" };

Deno.test("headerDoc: a block comment's text without its stars; // lines; nothing when the file opens with code", () => {
  assert.equal(
    headerDoc("/**\n * `deno task x`: does x.\n *\n * Flags: --y.\n */\nimport {} from './a.ts';\n"),
    "`deno task x`: does x.\n\nFlags: --y.",
  );
  assert.equal(
    headerDoc("#!/usr/bin/env -S deno run\n// first\n// second\n\nconst a = 1;\n"),
    "first\nsecond",
  );
  assert.equal(headerDoc("const a = 1; // not a header\n"), "");
  assert.equal(headerDoc("/* never closed"), "");
});

Deno.test("checkTaskArgs: --help or -h anywhere asks for help; known flags and values run", () => {
  const flags = { values: ["--records"], switches: ["--json"], optional: ["--second"] };
  assert.equal(checkTaskArgs("t", ["--records", "5", "--help"], flags), "help");
  assert.equal(checkTaskArgs("t", ["-h"], flags), "help");
  assert.equal(checkTaskArgs("t", [], flags), "run");
  assert.equal(checkTaskArgs("t", ["--records", "5", "--json"], flags), "run");
  assert.equal(checkTaskArgs("t", ["--records", "-3"], flags), "run", "a negative number is a value");
  assert.equal(checkTaskArgs("t", ["--second", "all", "--json"], flags), "run");
  assert.equal(checkTaskArgs("t", ["--json", "--second"], flags), "run", "an optional value may be left out");
});

Deno.test("checkTaskArgs: an unknown flag is refused by name, with what the task takes", () => {
  const flags = { values: ["--records"], switches: ["--json"] };
  assert.throws(
    () => checkTaskArgs("bench:x", ["--record", "5"], flags),
    (err: unknown) =>
      err instanceof TaskArgsError && err.message.includes("bench:x: unknown flag --record") &&
      err.message.includes("--json, --records VALUE") && err.message.includes("--help"),
  );
  // A switch given a value, and a stray word, are refused too.
  assert.throws(
    () => checkTaskArgs("t", ["--json=yes"], flags),
    (e: unknown) => e instanceof TaskArgsError && e.message.includes("unknown flag --json=yes"),
  );
  assert.throws(
    () => checkTaskArgs("t", ["200000"], flags),
    (e: unknown) => e instanceof TaskArgsError && e.message.includes('unexpected argument "200000"'),
  );
});

Deno.test("checkTaskArgs: a value joined by = is refused with the form the tasks read", () => {
  const flags = { values: ["--records"], optional: ["--second"] };
  assert.throws(
    () => checkTaskArgs("t", ["--records=5"], flags),
    (e: unknown) => e instanceof TaskArgsError && e.message.includes("write --records 5, not --records=5"),
  );
  assert.throws(() => checkTaskArgs("t", ["--second=all"], flags), TaskArgsError);
});

Deno.test("checkTaskArgs: a flag missing its value is refused, not read as the next flag", () => {
  const flags = { values: ["--records", "--rounds"] };
  assert.throws(
    () => checkTaskArgs("t", ["--records"], flags),
    (e: unknown) => e instanceof TaskArgsError && e.message.includes("--records needs a value"),
  );
  assert.throws(
    () => checkTaskArgs("t", ["--records", "--rounds", "3"], flags),
    (e: unknown) => e instanceof TaskArgsError && e.message.includes("--records needs"),
  );
});

Deno.test("checkTaskArgs: plain words up to the count given; after `--` nothing is read when passed on", () => {
  assert.equal(checkTaskArgs("t", ["20000", "500"], { positionals: 2 }), "run");
  assert.throws(
    () => checkTaskArgs("t", ["1", "2", "3"], { positionals: 2 }),
    (e: unknown) => e instanceof TaskArgsError && e.message.includes('"3"'),
  );
  assert.equal(
    checkTaskArgs("t", ["--keep", "--", "--filter", "Codex"], { switches: ["--keep"], passOn: true }),
    "run",
  );
  assert.throws(() => checkTaskArgs("t", ["--", "--filter"], { switches: ["--keep"] }), TaskArgsError);
});

/** The deno.json tasks that run one of the project's own task files with `deno run`. */
function taskFiles(): { task: string; file: string }[] {
  const out: { task: string; file: string }[] = [];
  for (const [task, command] of Object.entries(denoJson.tasks as Record<string, string>)) {
    const words = command.split(/\s+/);
    if (words[0] !== "deno" || words[1] !== "run" || words.includes("scripts/private_tmp.ts")) continue;
    const file = words.find((w) => /^(?:bench|scripts|tests)\/.+\.ts$/.test(w));
    // The conformance run passes its flags on to the suite it runs; the demo's words are its query
    // (its own test below).
    if (file === undefined || task === "demo" || task === "conformance") continue;
    out.push({ task, file });
  }
  return out;
}

Deno.test("every measuring task answers --help with its own description and refuses an unknown flag before it starts", async () => {
  const tasks = taskFiles();
  for (
    const must of ["eval:replay", "eval:sweep", "bench:gate", "bench:hint", "bench:cjk", "floors", "compile"]
  ) {
    assert.ok(tasks.some((t) => t.task === must), `${must} is among the tasks checked`);
  }
  const root = new URL("../../", import.meta.url).pathname;
  for (const { task, file } of tasks) {
    const run = (arg: string) =>
      new Deno.Command("deno", {
        args: ["task", "-q", task, arg],
        cwd: root,
        stdout: "piped",
        stderr: "piped",
        stdin: "null",
      }).output();
    const help = await run("--help");
    const out = new TextDecoder().decode(help.stdout);
    assert.equal(help.code, 0, `${task} --help exits 0: ${new TextDecoder().decode(help.stderr)}`);
    const doc = headerDoc(await Deno.readTextFile(`${root}${file}`));
    assert.ok(doc !== "", `${file} opens with a description`);
    assert.ok(
      out.trim() === doc || out.includes(file),
      `${task} --help prints ${file}'s description (or where it is): ${out.slice(0, 200)}`,
    );
    const bad = await run("--no-such-flag");
    const err = new TextDecoder().decode(bad.stderr);
    assert.equal(bad.code, 2, `${task} --no-such-flag exits 2: ${err}`);
    assert.match(err, new RegExp(`${task.replace(":", "\\:")}: unknown flag --no-such-flag`));
    assert.equal(new TextDecoder().decode(bad.stdout), "", `${task} does no work on a flag it does not know`);
  }
});

Deno.test("the demo's words are its query: only a first --help asks for help", async () => {
  assert.equal(checkTaskArgs("demo", ["--help"], { freeText: true }), "help");
  assert.equal(checkTaskArgs("demo", ["-h"], { freeText: true }), "help");
  assert.equal(checkTaskArgs("demo", ["never", "use", "--force", "-h"], { freeText: true }), "run");
  assert.equal(checkTaskArgs("demo", ["--force", "pushes"], { freeText: true }), "run");
  const root = new URL("../../", import.meta.url).pathname;
  const help = await new Deno.Command("deno", {
    args: ["task", "-q", "demo", "--help"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  assert.equal(help.code, 0, new TextDecoder().decode(help.stderr));
  const doc = headerDoc(await Deno.readTextFile(`${root}scripts/demo.ts`));
  assert.equal(
    new TextDecoder().decode(help.stdout).trim(),
    doc,
    "demo --help prints its description and collects nothing",
  );
  assert.equal(new TextDecoder().decode(help.stderr), "", "no collect ran");
});
