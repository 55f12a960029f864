/**
 * Every Deno process verdict starts runs with Deno's update check and prompts off: under `deno
 * run`, Deno would otherwise ask its release server whether a newer Deno exists, a connection
 * outside every permission (issue 26). Held for the warm helper a hook starts (observed: a proxy
 * the hook's environment names receives nothing from it) and for doctor's probe (its environment).
 */
import assert from "node:assert/strict";
import { CHILD_DENO_ENV } from "../../src/hostfile/binary.ts";
import { probeEnv } from "../../src/install/doctor.ts";
import { helperEnv } from "../../src/warm/start.ts";
import { denoDir, runCli } from "../cli_helper.ts";
import { answered, removeWorld, until, warmWorld } from "./_warm.ts";

Deno.test("the environment of a helper a hook starts, and of doctor's probe, turns Deno's update check and prompts off", () => {
  const agent = {
    HOME: "/home/u",
    PATH: "/bin",
    HTTPS_PROXY: "http://127.0.0.1:3128",
    DENO_NO_PROMPT: "",
    OTEL_DENO: "true",
  };
  for (const env of [helperEnv(agent, "/"), probeEnv(agent)]) {
    assert.equal(env.DENO_NO_UPDATE_CHECK, "1");
    assert.equal(env.DENO_NO_PROMPT, "1");
    assert.equal(env.OTEL_DENO, "false");
    assert.equal(env.HOME, "/home/u");
  }
  assert.deepEqual(Object.keys(CHILD_DENO_ENV).sort(), [
    "DENO_NO_PROMPT",
    "DENO_NO_UPDATE_CHECK",
    "OTEL_DENO",
  ]);
});

/** Starts a helper through start.ts's startHelper with exactly `env` as the hook's environment. */
const STARTER = `
import { startHelper } from ${JSON.stringify(new URL("../../src/warm/start.ts", import.meta.url).href)};
const [stateDir, env] = Deno.args;
console.log(startHelper(stateDir, JSON.parse(env)) ? "started" : "not started");
`;

/**
 * A Deno cache that shares the test's modules and packages but has never recorded an update
 * check (no latest.txt), so a Deno started on it would check now.
 */
async function freshDenoDir(under: string): Promise<string> {
  const dir = `${under}/deno-cache`;
  await Deno.mkdir(dir);
  for await (const e of Deno.readDir(denoDir())) {
    if (e.isDirectory) await Deno.symlink(`${denoDir()}/${e.name}`, `${dir}/${e.name}`);
  }
  return dir;
}

Deno.test("a helper a hook starts under deno run never asks Deno's release server (a proxy the hook names gets nothing)", async () => {
  const env = await warmWorld({}, true);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const proxy = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  const heads: string[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        const buf = new Uint8Array(4096);
        const n = await conn.read(buf).catch(() => null);
        heads.push(new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\r\n")[0] ?? "");
        conn.close();
      }
    } catch { /* closed */ }
  })();
  const script = `${env.HOME}/starter.ts`;
  await Deno.writeTextFile(script, STARTER);
  const hookEnv = {
    HOME: env.HOME!,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR: await freshDenoDir(env.HOME!),
    HTTPS_PROXY: proxy,
    https_proxy: proxy,
    HTTP_PROXY: proxy,
    ALL_PROXY: proxy,
  };
  try {
    const started = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--allow-all",
        script,
        `${env.HOME}/.local/state/verdict`,
        JSON.stringify(hookEnv),
      ],
      // The starter itself is the test's process, not one verdict starts: its own check is off.
      env: { PATH: hookEnv.PATH, DENO_DIR: denoDir(), DENO_NO_UPDATE_CHECK: "1" },
      clearEnv: true,
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert.equal(new TextDecoder().decode(started.stdout).trim(), "started");
    await until(async () => (await answered(env)) >= 0, 60_000, "the started helper to listen");
    // Deno starts its check as the process starts, in the background: give it ample time.
    await new Promise((r) => setTimeout(r, 3000));
    assert.deepEqual(heads, [], "the proxy the hook's environment names received nothing");
  } finally {
    await runCli(["warm", "stop"], { env: { ...env, DENO_NO_UPDATE_CHECK: "1" } });
    listener.close();
    await accepting;
    await removeWorld(env);
  }
});
