/**
 * The warm helper end to end: a real `verdict warm serve`, the real per-prompt hook (main.ts) as
 * its client, real files in a temp HOME, real collects. What the helper answers must be what the
 * in-process hook prints, byte for byte; whatever goes wrong, the hook still answers in-process.
 */
import assert from "node:assert/strict";
import { runCli } from "../cli_helper.ts";
import { claudePrompt } from "../collect/_claude_lines.ts";
import { WARM_CLIENT_MODULES } from "../cli/commands_test.ts";
import {
  addressOf,
  alive,
  answered,
  CASES,
  claudeJson,
  CONTRADICTION,
  exists,
  folderOf,
  frame,
  OFF,
  ON,
  portOf,
  raw,
  removeWorld,
  startHelper,
  until,
  warmWorld,
} from "./_warm.ts";
import { HINT_MAX_STDIN } from "../../src/hint/hook_limits.ts";
import { WARM_MAX_HEADER_BYTES } from "../../src/warm/wire.ts";

Deno.test("the warm helper's answers are the in-process hook's, byte for byte: fired and silent prompts, several dialects, the cooldown", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  try {
    let expectServed = 0;
    let fired = 0;
    for (const [i, c] of CASES.entries()) {
      // Twice in one session each: the second run shows the cooldown ledger's effect.
      for (const round of [1, 2]) {
        const cold = await runCli(["hook", "user-prompt", ...c.argv], {
          env: { ...env, ...OFF },
          stdin: c.stdin(`cold-${i}`),
        });
        const warm = await runCli(["hook", "user-prompt", ...c.argv], {
          env: { ...env, ...ON },
          stdin: c.stdin(`warm-${i}`),
        });
        expectServed++;
        assert.deepEqual(
          [warm.code, warm.stdout, warm.stderr],
          [cold.code, cold.stdout, cold.stderr],
          `${c.name}, ${round}`,
        );
        assert.equal(await answered(env), expectServed, `${c.name}, ${round}: answered by the helper`);
        if (cold.stdout !== "") fired++;
      }
    }
    assert.ok(fired >= 4, `some prompts fire (${fired})`);
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("a collect between two prompts is seen by the helper's next answer", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  const prompt = "should the billing export job keep writing CSV files or move to parquet?";
  try {
    const before = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...ON },
      stdin: claudeJson(prompt, "w-1", "/p"),
    });
    assert.deepEqual([before.code, before.stdout], [0, ""], "nothing to recall yet");
    const dir = `${env.HOME}/.claude/projects/-p`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/s-billing.jsonl`,
      claudePrompt(1, "We decided: the billing export job writes parquet files, never CSV.", "s-billing") +
        "\n",
    );
    const collect = await runCli(["collect"], { env });
    assert.equal(collect.code, 0, collect.stderr);
    const warm = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...ON },
      stdin: claudeJson(prompt, "w-2", "/p"),
    });
    const cold = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...OFF },
      stdin: claudeJson(prompt, "c-2", "/p"),
    });
    assert.match(warm.stdout, /billing export job writes parquet/, "the new record is quoted");
    assert.equal(warm.stdout, cold.stdout);
    assert.equal(await answered(env), 2, "both warm prompts were the helper's");
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("a hook that finds no helper answers in-process and starts one, detached; the next prompt is the helper's; warm stop ends it", async () => {
  const env = await warmWorld();
  let pid = 0;
  try {
    const first = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...ON },
      stdin: claudeJson(CONTRADICTION, "a"),
    });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /\[verdict recall\]/, "the first prompt is answered in-process");
    await until(async () => (await answered(env)) >= 0, 30_000, "the started helper to listen");
    const status = await runCli(["warm", "status"], { env });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^verdict warm: running, pid (\d+), since .*, 0 prompt\(s\) answered\n/);
    assert.match(status.stdout, /build: this build/);
    pid = Number(/pid (\d+)/.exec(status.stdout)![1]);
    const second = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...ON },
      stdin: claudeJson(CONTRADICTION, "b"),
    });
    assert.equal(second.stdout, first.stdout);
    assert.equal(await answered(env), 1);
    const stop = await runCli(["warm", "stop"], { env });
    assert.match(stop.stdout, /^verdict warm: stopped the helper/);
    await until(async () => !(await alive(pid)), 10_000, "the helper to exit");
    assert.ok(!(await exists(addressOf(env))), "it removes its address file");
    const none = await runCli(["warm", "status"], { env });
    assert.deepEqual([none.code, none.stdout.startsWith("verdict warm: no helper running")], [1, true]);
  } finally {
    if (pid && await alive(pid)) Deno.kill(pid, "SIGKILL");
    await removeWorld(env);
  }
});

Deno.test("VERDICT_WARM=off and warm_helper: false start no helper; a running helper told off by the config ends", async () => {
  const env = await warmWorld();
  try {
    const off = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...OFF },
      stdin: claudeJson(CONTRADICTION, "a"),
    });
    assert.match(off.stdout, /\[verdict recall\]/);
    assert.ok(!(await exists(folderOf(env))), "VERDICT_WARM=off: no helper folder, no helper");
    const helper = await startHelper(env);
    await Deno.writeTextFile(
      `${env.HOME}/.config/verdict/config.json`,
      JSON.stringify({ warm_helper: false }),
    );
    const told = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...ON },
      stdin: claudeJson(CONTRADICTION, "b"),
    });
    assert.equal(told.stdout, off.stdout, "answered in-process");
    const out = await helper.output;
    assert.match(new TextDecoder().decode(out.stderr), /ended \(the config turns the helper off\)/);
    await Deno.remove(`${env.HOME}/.local/state/verdict/warm/starting`).catch(() => {});
    const again = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...ON },
      stdin: claudeJson(CONTRADICTION, "c"),
    });
    assert.equal(again.stdout, off.stdout, `${again.stdout}\n---\n${off.stdout}\n---\n${told.stdout}`);
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(!(await exists(addressOf(env))), "warm_helper: false: no helper is started");
  } finally {
    await removeWorld(env);
  }
});

Deno.test("a prompt the helper answers reads only main.ts and the client's modules", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  try {
    // Debug logging slows the client itself: on a loaded machine it can miss the helper's wait
    // and answer in-process, which reads other modules. The property is about a prompt the
    // helper answered, so up to three prompts are sent until one is.
    let r = { code: -1, stdout: "", stderr: "" };
    for (let attempt = 1; attempt <= 3 && await answered(env) === 0; attempt++) {
      r = await runCli(["hook", "user-prompt"], {
        env: { ...env, ...ON, DENO_LOG: "debug" },
        stdin: claudeJson(CONTRADICTION, `m${attempt}`),
      });
    }
    assert.equal(await answered(env), 1, "the helper answered one of three prompts");
    assert.match(r.stdout, /\[verdict recall\]/);
    const root = new URL("../../", import.meta.url).href;
    const fetched = [...r.stderr.matchAll(/fetch_no_follow - specifier: (file:\S+)/g)]
      .filter((m) => m[1]!.startsWith(root)).map((m) => m[1]!.slice(root.length));
    assert.deepEqual([...new Set(fetched)].sort(), ["main.ts", ...WARM_CLIENT_MODULES].sort());
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("the helper refuses malformed, oversized, foreign-argv and other-roots requests and keeps answering", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  const good = new TextEncoder().encode(claudeJson(CONTRADICTION, "g"));
  try {
    const refusals: [string, Promise<{ header: Record<string, unknown> } | null>][] = [
      [
        "a header that is not JSON",
        raw(addressOf(env), Uint8Array.from([0, 0, 0, 5, 123, 123, 123, 123, 123])),
      ],
      ["a header over the limit", raw(addressOf(env), Uint8Array.from([0, 0x10, 0, 0]))],
      ["no bodyBytes", raw(addressOf(env), Uint8Array.from([0, 0, 0, 2, 123, 125]))],
      ["a body over the hook's stdin limit", frame(env, { bodyBytes: HINT_MAX_STDIN + 1 })],
      ["another command", frame(env, { argv: ["export"] }, good)],
      [
        "an option the hook entry does not take",
        frame(env, { argv: ["hook", "user-prompt", "--records", "/etc/passwd"] }, good),
      ],
      ["records elsewhere", frame(env, { env: { HOME: env.HOME, VERDICT_RECORDS: "/etc/passwd" } }, good)],
      ["another home", frame(env, { env: { HOME: "/root" } }, good)],
      ["a ledger elsewhere", frame(env, { env: { HOME: env.HOME, VERDICT_SEEN: "/tmp/x" } }, good)],
      ["an unknown variable", frame(env, { env: { HOME: env.HOME, LD_PRELOAD: "/x.so" } }, good)],
      ["a relative cwd", frame(env, { cwd: "." }, good)],
      ["another protocol", frame(env, { protocol: 99 }, good)],
    ];
    assert.ok(WARM_MAX_HEADER_BYTES < 0x100000);
    for (const [what, answer] of refusals) {
      const a = await answer;
      assert.ok(a !== null, `${what}: answered with a refusal`);
      assert.equal(typeof a.header.refused, "string", `${what}: refused (${JSON.stringify(a.header)})`);
      assert.equal(a.header.code, undefined, what);
    }
    assert.equal(await answered(env), 0, "no refused request ran the hook");
    const ok = await frame(env, { env: { HOME: env.HOME, VERDICT_SEEN: "" } }, good);
    assert.equal(ok?.header.code, 0);
    assert.match(ok!.body, /\[verdict recall\]/, "and it still answers a good request");
    // A connection that never sends its request is closed; the helper goes on.
    const idle = await Deno.connect({ hostname: "127.0.0.1", port: portOf(env)! });
    const ended = await idle.read(new Uint8Array(16)).catch(() => null);
    assert.equal(ended, null, "closed without an answer");
    idle.close();
    assert.equal(await answered(env), 1);
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("a client of another build gets no answer and the helper ends; the hook answers in-process", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  try {
    const a = await frame(
      env,
      { build: "v1|another-verdict|1:2|file:///x/main.ts|3:4" },
      new TextEncoder().encode(claudeJson(CONTRADICTION, "x")),
    );
    assert.equal(a?.header.refused, "another build");
    assert.equal(a?.header.code, undefined);
    assert.equal(a?.body, "", "no hint for another build");
    const out = await helper.output;
    assert.match(new TextDecoder().decode(out.stderr), /ended \(a client of another build\)/);
  } finally {
    await removeWorld(env);
  }
});

Deno.test("the helper's answer keeps the hook's deadline, counted from the client's start", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  const stdin = new TextEncoder().encode(claudeJson(CONTRADICTION, "d"));
  const hook = { env: { HOME: env.HOME, VERDICT_SEEN: "" } };
  try {
    const inTime = await frame(env, { ...hook, elapsedMs: 10 }, stdin);
    assert.match(inTime!.body, /\[verdict recall\]/);
    const late = await frame(env, { ...hook, elapsedMs: 1000 }, stdin);
    assert.deepEqual([late?.header.code, late?.body], [0, ""], "past the deadline: silent, exit 0");
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("an unsafe helper folder (open to others, a symlink) is refused by both sides and never chmod-ed; the hook answers in-process", async () => {
  for (const kind of ["open", "symlink"] as const) {
    const env = await warmWorld({}, true);
    const folder = folderOf(env);
    assert.equal(addressOf(env), `${folder}/helper.addr`, "the address file is in the world's folder");
    try {
      await Deno.mkdir(`${env.HOME}/.local/state/verdict`, { recursive: true });
      if (kind === "open") {
        await Deno.mkdir(folder);
        await Deno.chmod(folder, 0o755);
      } else {
        await Deno.mkdir(`${env.HOME}/elsewhere`, { mode: 0o700 });
        await Deno.symlink(`${env.HOME}/elsewhere`, folder);
      }
      const serve = await runCli(["warm", "serve"], { env: { ...env, VERDICT_WARM_LOG: "1" } });
      assert.equal(serve.code, 0);
      assert.match(serve.stderr, /is not private: it(?: is a symbolic link|s mode is 755, not 700)/, kind);
      // A cold in-process hook on a loaded machine can pass its 400 ms deadline and print
      // nothing; the hint is what is compared, so each side gets up to three prompts to print it.
      const hinted = async (on: boolean, session: string) => {
        let r = { code: -1, stdout: "", stderr: "" };
        for (let attempt = 1; attempt <= 3 && r.stdout === ""; attempt++) {
          r = await runCli(["hook", "user-prompt"], {
            env: { ...env, ...(on ? ON : OFF) },
            stdin: claudeJson(CONTRADICTION, `${session}${attempt}`),
          });
        }
        return r;
      };
      const cold = await hinted(false, "c");
      assert.match(cold.stdout, /\[verdict recall\]/, `${kind}: the in-process hint`);
      const warm = await hinted(true, "w");
      assert.equal(warm.stdout, cold.stdout, kind);
      await new Promise((r) => setTimeout(r, 1000));
      assert.ok(!(await exists(`${folder}/helper.addr`)), `${kind}: no helper listens there`);
      const st = await Deno.lstat(folder);
      if (kind === "open") assert.equal(st.mode! & 0o777, 0o755, "the folder's mode is left as it was");
      else assert.ok(st.isSymlink, "the link is left as it was");
      const status = await runCli(["warm", "status"], { env });
      assert.equal(status.code, 4);
      assert.match(status.stderr, /^Cannot ask the warm helper ".*": its folder is unsafe: /);
      assert.match(status.stderr, /\nhint: /);
    } finally {
      await removeWorld(env);
    }
  }
});

Deno.test("a stdin over the hook's limit is not sent to the helper: silent, exit 0, as in-process", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  try {
    const big = claudeJson("x".repeat(HINT_MAX_STDIN + 10), "big");
    const warm = await runCli(["hook", "user-prompt"], { env: { ...env, ...ON }, stdin: big });
    const cold = await runCli(["hook", "user-prompt"], { env: { ...env, ...OFF }, stdin: big });
    assert.deepEqual([warm.code, warm.stdout], [0, ""]);
    assert.deepEqual([cold.code, cold.stdout], [0, ""]);
    assert.equal(await answered(env), 0);
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("the helper ends when its address file or its folder is removed, leaving no process", async () => {
  for (const remove of ["address", "folder"] as const) {
    const env = await warmWorld();
    const helper = await startHelper(env);
    try {
      const pid = helper.child.pid;
      await Deno.remove(remove === "address" ? addressOf(env) : folderOf(env), { recursive: true });
      const out = await helper.output;
      assert.match(
        new TextDecoder().decode(out.stderr),
        /ended \(its address file or folder is gone\)/,
        remove,
      );
      assert.ok(!(await alive(pid)), remove);
    } finally {
      await removeWorld(env);
    }
  }
});

Deno.test("a mute, a retraction or a forget between two prompts is seen by the helper's next answer", async () => {
  const env = await warmWorld();
  const helper = await startHelper(env);
  const ask = async (session: string, warm: boolean) =>
    await runCli(["hook", "user-prompt"], {
      env: { ...env, ...(warm ? ON : OFF) },
      stdin: claudeJson(CONTRADICTION, session),
    });
  try {
    const first = await ask("m-1", true);
    assert.match(first.stdout, /We decided: the orders service uses PostgreSQL/);
    let n = 1;
    for (
      const [change, gone] of [
        [["mute", "pa51b3f56d1285bda"], /We decided: the orders service uses PostgreSQL/],
        [["retract", "n33d05dc6634d01ba"], /no longer holds/],
        [["forget", "pa51b3f56d1285bda"], /We decided: the orders service uses PostgreSQL/],
      ] as const
    ) {
      const r = await runCli([...change], { env });
      assert.equal(r.code, 0, r.stderr);
      const warm = await ask(`m-${++n}`, true);
      const cold = await ask(`c-${n}`, false);
      assert.equal(warm.stdout, cold.stdout, `${change[0]}: the helper answers as the in-process hook`);
      if (change[0] === "retract") assert.match(warm.stdout, gone, "the retraction is said");
      else assert.doesNotMatch(warm.stdout, gone, `${change[0]}: the record is no longer quoted`);
    }
    assert.equal(await answered(env), n, "every warm prompt was the helper's");
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});
