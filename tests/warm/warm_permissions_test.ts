/**
 * What the warm helper may do: its row's permission set (pure), and, from a running helper,
 * that Deno holds it to that set and that it listens on no TCP port.
 */
import assert from "node:assert/strict";
import { buildPlan } from "../../src/plan/build_plan.ts";
import { parseArgs } from "../../src/plan/args.ts";
import { COMMANDS, findCommand, permissionsFor } from "../../src/cli/commands.ts";
import { workerPermissions } from "../../src/sandbox/permissions.ts";
import { warmSocketOf } from "../../src/warm/wire.ts";
import { tempHome } from "../cli_helper.ts";
import { frame, removeWorld, startHelper, warmWorld } from "./_warm.ts";

async function planFor(command: string, home: string, config?: string) {
  const spec = findCommand(command)!;
  return await buildPlan(
    spec,
    parseArgs([], spec.options, command),
    { HOME: home, ...(config ? { VERDICT_CONFIG: config } : {}) },
    home,
    null,
  );
}

Deno.test("permission table: warm serve writes only the ledgers and its folder, reaches only its own socket, runs nothing", async () => {
  const home = await tempHome();
  try {
    const config = `${home}/c.json`;
    await Deno.writeTextFile(config, JSON.stringify({ entities: `${home}/entities.tsv` }));
    const p = permissionsFor("warm serve", await planFor("warm serve", home, config));
    const state = `${home}/.local/state/verdict`;
    const where = warmSocketOf(state, Deno.uid());
    const folders = [...new Set([`${state}/warm`, where.folder])];
    // The hook's trouble ledger and the temp file it is rewritten through (src/gate/health.ts).
    const trouble = [`${state}/hook-trouble.jsonl`, `${state}/hook-trouble.jsonl.tmp`];
    assert.deepEqual([...p.write].sort(), [`${state}/seen`, ...trouble, ...folders].sort());
    assert.deepEqual(p.net, [`unix:${where.socket}`]);
    assert.deepEqual(p.run, []);
    assert.deepEqual(p.sys, ["uid"]);
    // Reads: the config, the archive's files, the entity list, the ledgers, its folder, and the
    // two files of its build identity; nothing else of the home.
    for (const r of p.read) {
      assert.ok(
        r === config || r === `${home}/entities.tsv` ||
          r.startsWith(`${home}/.local/share/verdict/records.`) ||
          r === `${state}/seen` || trouble.includes(r) || folders.includes(r) || r === Deno.execPath() ||
          r.endsWith("/main.ts"),
        `unexpected read grant ${r}`,
      );
    }
    const worker = workerPermissions(p);
    assert.deepEqual([worker.env, worker.ffi, worker.run], [false, false, false]);
    for (const cmd of ["warm status", "warm stop"]) {
      const q = permissionsFor(cmd, await planFor(cmd, home));
      assert.deepEqual(
        [q.write, q.net, q.run],
        [folders, [`unix:${where.socket}`], []],
        cmd,
      );
    }
    // No other command's set names a Unix socket or a non-loopback host.
    for (const spec of COMMANDS) {
      if (spec.name.startsWith("warm ") || spec.sandbox !== "worker") continue;
      const nets = permissionsFor(
        spec.name,
        await planFor(spec.name, home).catch(() => null) ?? await planFor("export", home),
      ).net;
      for (const n of nets) {
        assert.match(n, /^(127\.0\.0\.1|\[::1\]|localhost):\d+$/, `${spec.name}: ${n}`);
      }
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

/** The inodes of the sockets a process holds open (Linux: /proc/PID/fd). */
async function socketInodes(pid: number): Promise<Set<string>> {
  const out = new Set<string>();
  for await (const e of Deno.readDir(`/proc/${pid}/fd`)) {
    const target = await Deno.readLink(`/proc/${pid}/fd/${e.name}`).catch(() => "");
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) out.add(m[1]!);
  }
  return out;
}

/** Inodes of every TCP socket on the machine (Linux: /proc/net/tcp and tcp6). */
async function tcpInodes(): Promise<Set<string>> {
  const out = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await Deno.readTextFile(table).catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9) out.add(cols[9]!);
    }
  }
  return out;
}

Deno.test({
  name: "a running helper holds no TCP socket, and Deno refuses it a read outside its roots",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const env = await warmWorld();
    const helper = await startHelper(env);
    try {
      const mine = await socketInodes(helper.child.pid);
      assert.ok(mine.size >= 1, "it holds its Unix socket");
      const tcp = await tcpInodes();
      assert.deepEqual([...mine].filter((i) => tcp.has(i)), [], "no TCP socket");
      // A request naming another home: the config read there is Deno's to refuse.
      const other = await tempHome();
      try {
        await Deno.mkdir(`${other}/.config/verdict`, { recursive: true });
        await Deno.writeTextFile(`${other}/.config/verdict/config.json`, "{}");
        const a = await frame(env, { env: { HOME: other } }, new TextEncoder().encode("{}"));
        assert.equal(a?.header.refused, "paths outside the helper's roots");
      } finally {
        await Deno.remove(other, { recursive: true });
      }
    } finally {
      await helper.stop();
      await removeWorld(env);
    }
  },
});
