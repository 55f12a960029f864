/**
 * Install from a `deno run` start (no compiled binary, no VERDICT_BIN): the entries run the
 * launcher install writes under verdict's data folder, by absolute path, so an agent whose PATH
 * has no verdict (a desktop launcher's) still runs it; uninstall knows both those entries and
 * the bare `verdict` ones older installs wrote.
 */
import assert from "node:assert/strict";
import { copyTree, GENEROUS_HOOK_DEADLINE_MS, runCli, tempHome } from "../cli_helper.ts";
import { hookCommand } from "../../src/agents/claude/hooks.ts";
import { LAUNCHER_MARKER, launcherPath, launcherScript, writeLauncher } from "../../src/install/launcher.ts";

const AS_OF = "2026-03-05T00:00:00Z";

Deno.test("launcherScript quotes every word, carries DENO_DIR and turns Deno's update check off; writeLauncher never replaces another file", async () => {
  const text = launcherScript({
    deno: "/opt/deno dir/deno",
    runFlags: ["--quiet", "--lock=/src/it's/deno.lock"],
    denoConfig: "/src/deno.json",
    main: "/src/main.ts",
    denoDir: "/cache/deno",
  });
  assert.equal(
    text,
    [
      "#!/bin/sh",
      LAUNCHER_MARKER,
      "DENO_DIR=/cache/deno",
      "export DENO_DIR",
      "DENO_NO_UPDATE_CHECK=1",
      "export DENO_NO_UPDATE_CHECK",
      "DENO_NO_PROMPT=1",
      "export DENO_NO_PROMPT",
      "OTEL_DENO=false",
      "export OTEL_DENO",
      `exec '/opt/deno dir/deno' run --quiet '--lock=/src/it'\\''s/deno.lock' '--config=/src/deno.json' /src/main.ts "$@"`,
      "",
    ].join("\n"),
  );
  assert.equal(launcherPath({ XDG_DATA_HOME: "/x/data" }, "/h"), "/x/data/verdict/bin/verdict");
  assert.equal(launcherPath({}, "/h"), "/h/.local/share/verdict/bin/verdict");
  const home = await tempHome();
  const path = `${home}/bin/verdict`;
  assert.equal(await writeLauncher(path, text), "created");
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o755);
  assert.equal(await writeLauncher(path, text), "unchanged");
  assert.equal(await writeLauncher(path, text.replace("/src/main.ts", "/new/main.ts")), "updated");
  await Deno.writeTextFile(path, "#!/bin/sh\necho mine\n");
  await assert.rejects(() => writeLauncher(path, text), /was not written by verdict install/);
  assert.equal(await Deno.readTextFile(path), "#!/bin/sh\necho mine\n");
});

Deno.test("install from deno run wires its launcher by absolute path; the hook answers with PATH=/usr/bin:/bin from a folder with its own deno.json", async () => {
  const home = await tempHome();
  const examples = new URL("../../examples/", import.meta.url).pathname;
  await copyTree(`${examples}claude`, `${home}/.claude`);
  const base = { HOME: home, VERDICT_ASOF: AS_OF };
  assert.equal((await runCli(["collect"], { env: base })).code, 0);
  const r = await runCli(["install", "--claude"], { env: base });
  assert.equal(r.code, 0, r.stderr);
  const launcher = `${home}/.local/share/verdict/bin/verdict`;
  assert.match(r.stdout, new RegExp(`^verdict install: the entries run ${launcher}$`, "m"));
  assert.match(r.stdout, /^ {2}launcher created: it runs this checkout/m);
  const settings = JSON.parse(await Deno.readTextFile(`${home}/.claude/settings.json`));
  const command: string = settings.hooks.UserPromptSubmit[0].hooks[0].command;
  assert.equal(command, hookCommand(launcher, {}, "user-prompt"));
  const claudeJson = JSON.parse(await Deno.readTextFile(`${home}/.claude.json`));
  assert.deepEqual(claudeJson.mcpServers.verdict, {
    type: "stdio",
    command: launcher,
    args: ["mcp"],
    env: {},
  });
  // A project of the person's own, with a deno.json verdict must not read.
  const project = `${home}/project`;
  await Deno.mkdir(project);
  await Deno.writeTextFile(`${project}/deno.json`, "{ this is not json");
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", command],
    cwd: project,
    env: {
      HOME: home,
      PATH: "/usr/bin:/bin",
      VERDICT_ASOF: AS_OF,
      VERDICT_SEEN: "",
      VERDICT_WARM: "off",
      VERDICT_HOOK_DEADLINE_MS: GENEROUS_HOOK_DEADLINE_MS,
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify({
    session_id: "s1",
    cwd: "/home/dev/shop",
    hook_event_name: "UserPromptSubmit",
    prompt: "let us switch the orders db to MySQL and drop the pg_dump backups",
  })));
  await w.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(new TextDecoder().decode(out.stdout), /hookSpecificOutput.*pg_dump/);
  // A second install changes nothing, the launcher included.
  const again = await runCli(["install", "--claude"], { env: base });
  assert.match(again.stdout, /^ {2}launcher unchanged/m);
  assert.match(again.stdout, /nothing to do: verdict is already installed/);
});

Deno.test("uninstall removes entries running a bare verdict (older installs) as well as the launcher's", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.claude`);
  const bare = (sub: "user-prompt" | "pre-compact") => ({
    type: "command",
    command: hookCommand("verdict", {}, sub),
    timeout: 5,
  });
  await Deno.writeTextFile(
    `${home}/.claude/settings.json`,
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [bare("user-prompt")] }] } }, null, 2) + "\n",
  );
  await Deno.writeTextFile(
    `${home}/.claude.json`,
    JSON.stringify({ mcpServers: { verdict: { type: "stdio", command: "verdict", args: ["mcp"] } } }) + "\n",
  );
  assert.match(hookCommand("verdict", {}, "user-prompt"), /^command -v verdict /);
  const un = await runCli(["uninstall", "--claude"], { env: { HOME: home } });
  assert.equal(un.code, 0, un.stderr);
  assert.doesNotMatch(await Deno.readTextFile(`${home}/.claude/settings.json`), /verdict/);
  assert.doesNotMatch(await Deno.readTextFile(`${home}/.claude.json`), /verdict/);
  // Installed again from source: absolute entries, which uninstall removes the same way.
  assert.equal((await runCli(["install", "--claude"], { env: { HOME: home } })).code, 0);
  assert.match(
    await Deno.readTextFile(`${home}/.claude/settings.json`),
    /\/\.local\/share\/verdict\/bin\/verdict/,
  );
  assert.equal((await runCli(["uninstall", "--claude"], { env: { HOME: home } })).code, 0);
  assert.doesNotMatch(await Deno.readTextFile(`${home}/.claude/settings.json`), /verdict/);
  assert.doesNotMatch(await Deno.readTextFile(`${home}/.claude.json`), /verdict/);
});

Deno.test({
  name:
    "the launcher names the Deno cache install's deno used, so an agent without DENO_DIR or XDG_CACHE_HOME reads the same packages",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const { denoCacheDir, wiredBinary } = await import("../../src/cli/wired_bin.ts");
    const home = await tempHome();
    assert.equal(
      await denoCacheDir(Deno.execPath(), { HOME: home, XDG_CACHE_HOME: `${home}/cache` }),
      `${home}/cache/deno`,
    );
    assert.equal(await denoCacheDir(Deno.execPath(), { HOME: home, DENO_DIR: `${home}/d` }), `${home}/d`);
    const wired = wiredBinary(Deno.execPath(), { HOME: home, XDG_CACHE_HOME: `${home}/cache` }, "/", home);
    assert.match(
      await wired.launcher!.text(),
      new RegExp(`^DENO_DIR=${home}/cache/deno\nexport DENO_DIR$`, "m"),
    );
  },
});
