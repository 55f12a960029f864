/**
 * The verdict task's V8 flags (src/task_flags.ts, v8HeapFlags) reach V8 as spelled and bound
 * the young generation, in every way verdict is started: the task's flags, the compiled binary's
 * baked-in flags and the commands install writes for a `deno run` user. A flag V8 does not know
 * makes Deno refuse to start, so a typo fails here and not in a user's collect.
 */
import assert from "node:assert/strict";
import { compileArgs, TARGETS } from "../../scripts/compile.ts";
import { v8HeapFlags, verdictRunFlags } from "../../src/task_flags.ts";
import { selfCommand } from "../../src/hostfile/binary.ts";

const PROBE = new URL("./_heap_probe.ts", import.meta.url).pathname;
/**
 * Twice the two semi-spaces of `--max-semi-space-size` MiB: idle, the probe's new space is 6–8 MiB
 * under the flags, but a loaded machine has shown 10.7 MB (V8 holds pages of a scavenge still in
 * progress); under Deno's defaults it is 32–64 MiB, so the cap still tells the two apart.
 */
const YOUNG_LIMIT_BYTES = 2 * (2 * 4 * 1024 * 1024);

async function newSpaceBytes(flags: readonly string[]): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, PROBE],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return (JSON.parse(new TextDecoder().decode(out.stdout)) as { newSpaceBytes: number }).newSpaceBytes;
}

Deno.test("the verdict task's V8 flags are accepted by V8 and cap its young generation; without them it grows past the cap", async () => {
  const flags = verdictRunFlags().filter((f) => f.startsWith("--v8-flags="));
  assert.deepEqual(flags, [`--v8-flags=${v8HeapFlags()}`]);
  assert.match(v8HeapFlags(), /^--max-semi-space-size=4,--heap-growing-percent=50$/);
  const capped = await newSpaceBytes(flags);
  assert.ok(capped > 0 && capped <= YOUNG_LIMIT_BYTES, `new space ${capped} bytes under the task's flags`);
  // The same allocations under Deno's defaults: the cap is what made the difference.
  const free = await newSpaceBytes([]);
  assert.ok(free > YOUNG_LIMIT_BYTES, `new space ${free} bytes under Deno's defaults`);
});

Deno.test("a V8 flag V8 does not know stops Deno before the program runs (a misspelt cap cannot pass unseen)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--v8-flags=--max-semi-space-sise=4", PROBE],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.notEqual(out.code, 0);
  assert.equal(new TextDecoder().decode(out.stdout), "");
});

Deno.test("the compiled binary bakes the V8 flags in, and install's commands for a deno run user carry them", () => {
  const flag = `--v8-flags=${v8HeapFlags()}`;
  for (const target of TARGETS) {
    const args = compileArgs(target);
    assert.equal(args.filter((a) => a === flag).length, 1, target.name);
    assert.ok(args.indexOf(flag) < args.indexOf("main.ts"), `${target.name}: before the entry`);
  }
  const command = selfCommand("/usr/bin/deno", "/src/verdict/main.ts", verdictRunFlags());
  assert.ok(command.includes(flag), command.join(" "));
  assert.ok(command.indexOf(flag) < command.indexOf("/src/verdict/main.ts"));
});

Deno.test("the launcher install writes for a deno run user passes the same V8 flags", async () => {
  const { wiredBinary } = await import("../../src/cli/wired_bin.ts");
  const wired = wiredBinary("/usr/bin/deno", {}, "/", "/home/u");
  assert.equal(wired.bin, "/home/u/.local/share/verdict/bin/verdict");
  const text = (await wired.launcher?.text()) ?? "";
  assert.ok(text.includes(`--v8-flags=${v8HeapFlags()}`), text);
  assert.ok(text.indexOf("--v8-flags=") < text.indexOf("/main.ts"), "before the entry");
});
