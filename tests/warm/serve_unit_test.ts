/**
 * The warm helper's pieces in-process: the idle exit, the command that starts it, the switch
 * and the folder check.
 */
import assert from "node:assert/strict";
import { serveWarm } from "../../src/warm/serve.ts";
import { helperCommand } from "../../src/warm/start.ts";
import { warmOffByEnv } from "../../src/warm/client.ts";
import { ensurePrivateFolder, privateFolderProblem } from "../../src/warm/folder.ts";
import { buildIdentity, warmFolderOf } from "../../src/warm/wire.ts";
import { WARM_ADDRESS } from "../../src/warm/handshake.ts";
import { tempHome } from "../cli_helper.ts";

Deno.test("the helper ends by itself after its idle period, and removes its address file", async () => {
  const home = await tempHome();
  try {
    let address = "";
    const t0 = performance.now();
    const why = await serveWarm({
      env: { HOME: home },
      cwd: home,
      build: buildIdentity(Deno.execPath()),
      idleMs: 200,
      onListening: (_port, file) => address = file,
    });
    assert.equal(why, "idle");
    assert.ok(performance.now() - t0 >= 200, "not before its idle period");
    assert.equal(address, `${home}/.local/state/verdict/warm/${WARM_ADDRESS}`);
    assert.equal(
      await Deno.lstat(address).then(() => true, () => false),
      false,
      "its address file is removed",
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a second helper for the same folder leaves it to the one that listens (its lock)", async () => {
  const home = await tempHome();
  try {
    const stop = new AbortController();
    let listening: () => void = () => {};
    const ready = new Promise<void>((r) => listening = r);
    const first = serveWarm({
      env: { HOME: home },
      cwd: home,
      build: "b",
      signal: stop.signal,
      onListening: () => listening(),
    });
    await ready;
    assert.equal(
      await serveWarm({ env: { HOME: home }, cwd: home, build: "b" }),
      "another helper is listening",
    );
    stop.abort();
    assert.equal(await first, "stopped by a signal");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("helperCommand(): the compiled binary runs itself; under deno run, deno with the verdict task's flags and main.ts", () => {
  assert.deepEqual(helperCommand("/home/u/.local/bin/verdict", "/src/main.ts", () => ["--x"]), [
    "/home/u/.local/bin/verdict",
    "warm",
    "serve",
  ]);
  assert.deepEqual(helperCommand("/usr/bin/deno", "/src/main.ts", () => ["--allow-read", "--no-prompt"]), [
    "/usr/bin/deno",
    "run",
    "--allow-read",
    "--no-prompt",
    "/src/main.ts",
    "warm",
    "serve",
  ]);
});

Deno.test("VERDICT_WARM: off, 0, false or no (any case) turn the helper off; anything else leaves it on", () => {
  for (const v of ["off", "OFF", " 0", "false", "No"]) {
    assert.equal(warmOffByEnv({ VERDICT_WARM: v }), true, v);
  }
  for (const v of [undefined, "", "on", "1", "yes"]) {
    assert.equal(warmOffByEnv({ VERDICT_WARM: v }), false, String(v));
  }
});

Deno.test({
  name: "the folder check: made 0700 when missing; one open to group or others is refused and left as it is",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const home = await tempHome();
    try {
      const made = `${home}/state/warm`;
      assert.equal(ensurePrivateFolder(made), null);
      assert.equal((await Deno.lstat(made)).mode! & 0o777, 0o700);
      const open = `${home}/open`;
      await Deno.mkdir(open);
      await Deno.chmod(open, 0o750);
      assert.match(ensurePrivateFolder(open)!, /^its mode is 750, not 700/);
      assert.equal((await Deno.lstat(open)).mode! & 0o777, 0o750, "never chmod-ed");
      await Deno.writeTextFile(`${home}/file`, "");
      assert.equal(privateFolderProblem(`${home}/file`), "it is not a directory");
      assert.equal(privateFolderProblem(`${home}/none`), "it does not exist");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "the folder check refuses a folder another user owns, mode 0700 or not, and leaves its owner as it is",
  // Only root can give a folder to another user here.
  ignore: Deno.build.os === "windows" || Deno.uid() !== 0,
  fn: async () => {
    const home = await tempHome();
    try {
      const theirs = `${home}/theirs`;
      await Deno.mkdir(theirs, { mode: 0o700 });
      await Deno.chown(theirs, 54321, 54321);
      assert.equal(ensurePrivateFolder(theirs), "it is owned by uid 54321, not by this user");
      assert.equal((await Deno.lstat(theirs)).uid, 54321);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test("the helper's folder is under its state folder however long that path is (no socket path limit)", () => {
  assert.equal(warmFolderOf("/home/u/.local/state/verdict"), "/home/u/.local/state/verdict/warm");
  const deep = `/home/u/${"d".repeat(200)}/state`;
  assert.equal(warmFolderOf(deep), `${deep}/warm`);
});
