/**
 * The compile task cannot run here (deno compile downloads its runtime), so its command lines
 * are inspected: the verdict task's permission flags, every target, the worker included.
 */
import assert from "node:assert/strict";
import { compileArgs, hostTarget, INCLUDES, selectTargets, TARGETS } from "../../scripts/compile.ts";
import { LOCK_FILE } from "../../src/task_flags.ts";
import { verdictRunFlags } from "../../src/task_flags.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { LOOPBACK_NAMES } from "../../src/config/config.ts";

Deno.test("compile: the five release targets, each with its own output under dist/", () => {
  assert.deepEqual(
    TARGETS.map((t) => [t.triple, t.output]),
    [
      ["x86_64-unknown-linux-gnu", "dist/verdict-linux-x64"],
      ["aarch64-unknown-linux-gnu", "dist/verdict-linux-arm64"],
      ["x86_64-apple-darwin", "dist/verdict-macos-x64"],
      ["aarch64-apple-darwin", "dist/verdict-macos-arm64"],
      ["x86_64-pc-windows-msvc", "dist/verdict-windows-x64.exe"],
    ],
  );
});

Deno.test("compile: every target bakes exactly the verdict task's permission, unstable and V8 flags", () => {
  // The lock flags (which packages) and --quiet are the compile's own, not baked-in run flags.
  const taskFlags = verdictRunFlags().filter((f) =>
    !f.startsWith("--lock=") && f !== "--frozen" && f !== "--quiet"
  );
  // The task is the single source; spot-check what it must hold.
  for (
    const flag of ["--no-prompt", "--allow-read", "--allow-write", "--allow-env", "--unstable-worker-options"]
  ) {
    assert.ok(taskFlags.includes(flag), flag);
  }
  // Net is loopback in the base grant itself: exactly the loopback names (the warm helper is on
  // 127.0.0.1 too). Every command narrows from it to its row's addresses
  // (tests/sandbox/sandbox_test.ts), the hint revokes it.
  const nets = taskFlags.filter((f) => f.startsWith("--allow-net"));
  assert.deepEqual(nets, ["--allow-net=127.0.0.1,localhost,[::1]"], "net: loopback only, one flag");
  assert.deepEqual(
    nets[0]!.slice("--allow-net=".length).split(",").map((h) => h.replace(/^\[(.*)\]$/, "$1")),
    [...LOOPBACK_NAMES],
    "the names src/config/config.ts (LOOPBACK_NAMES) holds a judge URL and serve's bind to",
  );
  // System information: the user's uid only (the warm helper's folder must be the user's own).
  assert.deepEqual(taskFlags.filter((f) => f.startsWith("--allow-sys")), ["--allow-sys=uid"]);
  assert.ok(taskFlags.some((f) => f === "--allow-run" || f.startsWith("--allow-run=")));
  for (const target of TARGETS) {
    const args = compileArgs(target);
    assert.equal(args[0], "compile");
    const flags = args.filter((a) =>
      a.startsWith("--allow-") || a === "--no-prompt" || a.startsWith("--unstable") ||
      a.startsWith("--v8-flags=")
    );
    assert.deepEqual(flags, taskFlags, target.name);
    assert.ok(!args.includes("-A") && !args.includes("--allow-all") && !args.includes("-P"), target.name);
  }
});

Deno.test("compile: the worker is included, the target and output are set, main.ts is the entry", () => {
  assert.ok(INCLUDES.includes("src/cli/worker.ts"));
  // main.ts imports the launcher through a variable (so the hook does not read its graph).
  assert.ok(INCLUDES.includes("src/cli/main.ts") && INCLUDES.includes("src/plan/roots.ts"));
  for (const target of TARGETS) {
    const args = compileArgs(target);
    const at = (flag: string) => args[args.indexOf(flag) + 1];
    assert.equal(at("--include"), "src/cli/worker.ts");
    assert.ok(args.join(" ").includes("--include src/cli/main.ts"), target.name);
    assert.equal(at("--target"), target.triple);
    assert.equal(at("--output"), target.output);
    assert.equal(at("--config"), "deno.json", "the compiler options come from deno.json");
    assert.ok(args.includes(`--lock=${LOCK_FILE}`), "the npm packages are the locked ones");
    assert.ok(args.includes("--frozen"), "the lock file is not updated by a release build");
    assert.ok(!args.includes("--no-config"));
    assert.equal(args[args.length - 1], "main.ts");
  }
});

Deno.test("compile: the deno.json task runs this script, and the version the binary prints is embedded", async () => {
  assert.equal(denoJson.tasks.compile, "deno run --allow-all scripts/compile.ts");
  // VERSION comes from a JSON import (embedded at compile time), never from reading deno.json.
  const main = await Deno.readTextFile(new URL("../../src/cli/main.ts", import.meta.url));
  assert.match(main, /import denoJson from "\.\.\/\.\.\/deno\.json" with \{ type: "json" \}/);
  for (const dir of ["src"]) {
    for await (const file of walk(new URL(`../../${dir}/`, import.meta.url).pathname)) {
      const text = await Deno.readTextFile(file);
      assert.doesNotMatch(
        text,
        /readTextFile\([^)]*(deno\.json|contract\/)/,
        `${file} reads a repo file at run time`,
      );
    }
  }
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) yield* walk(`${dir}${e.name}/`);
    else if (e.name.endsWith(".ts")) yield `${dir}${e.name}`;
  }
}

Deno.test("compile: DENORT_BIN (one local runtime) builds only the host target unless targets are named", () => {
  const host = hostTarget("linux", "x86_64");
  assert.equal(host?.name, "linux-x64");
  assert.equal(hostTarget("darwin", "aarch64")?.name, "macos-arm64");
  assert.deepEqual(selectTargets([], "/opt/denort", host), [host]);
  assert.deepEqual(selectTargets([], undefined, host), [...TARGETS]);
  assert.deepEqual(selectTargets(["windows-x64"], "/opt/denort", host).map((t) => t.name), ["windows-x64"]);
  assert.throws(() => selectTargets(["plan9-x64"], undefined, host), /Unknown target "plan9-x64"/);
});

Deno.test("compile --dry-run prints one deno compile command per target and builds nothing", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", new URL("../../scripts/compile.ts", import.meta.url).pathname, "--dry-run"],
    env: { DENORT_BIN: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  assert.equal(lines.length, TARGETS.length);
  for (const [i, t] of TARGETS.entries()) {
    assert.ok(lines[i]!.startsWith("deno compile "), lines[i]);
    assert.ok(lines[i]!.includes(`--target ${t.triple} --output ${t.output} main.ts`), lines[i]);
    assert.ok(lines[i]!.includes("--include src/cli/worker.ts"), lines[i]);
  }
});
