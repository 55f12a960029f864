/**
 * What the warm helper may do: its row's permission set (pure), and, from a running helper,
 * that Deno holds it to that set and that it listens on no TCP port.
 */
import assert from "node:assert/strict";
import { buildPlan } from "../../src/plan/build_plan.ts";
import { parseArgs } from "../../src/plan/args.ts";
import { COMMANDS, findCommand } from "../../src/cli/commands.ts";
import { permissionsFor } from "../../src/cli/grants.ts";
import { workerPermissions } from "../../src/sandbox/permissions.ts";
import { WARM_CLIENT_NET, WARM_LISTEN_NET } from "../../src/cli/grants.ts";
import { tempHome } from "../cli_helper.ts";
import { frame, portOf, removeWorld, startHelper, warmWorld } from "./_warm.ts";

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

Deno.test("permission table: warm serve writes only the ledgers and its folder, may only listen on a loopback port, runs nothing", async () => {
  const home = await tempHome();
  try {
    const config = `${home}/c.json`;
    await Deno.writeTextFile(config, JSON.stringify({ entities: `${home}/entities.tsv` }));
    const p = permissionsFor("warm serve", await planFor("warm serve", home, config));
    const state = `${home}/.local/state/verdict`;
    const folders = [`${state}/warm`];
    // The hook's trouble ledger and the temp file it is rewritten through (src/gate/health.ts).
    const trouble = [`${state}/hook-trouble.jsonl`, `${state}/hook-trouble.jsonl.tmp`];
    assert.deepEqual([...p.write].sort(), [`${state}/seen`, ...trouble, ...folders].sort());
    // Port 0: the system picks the port, and no other may be listened on or connected to.
    assert.deepEqual(p.net, ["127.0.0.1:0"]);
    assert.equal(WARM_LISTEN_NET, "127.0.0.1:0");
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
      assert.deepEqual([q.read.filter((r) => folders.includes(r)), q.write, q.net, q.run], [
        folders,
        [],
        [WARM_CLIENT_NET],
        [],
      ], cmd);
      assert.equal(WARM_CLIENT_NET, "127.0.0.1");
    }
    // No other command's set names a non-loopback host.
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

/** Every TCP socket on the machine by inode: its local address and state (Linux: /proc/net/tcp, tcp6). */
async function tcpSockets(): Promise<Map<string, { local: string; state: string }>> {
  const out = new Map<string, { local: string; state: string }>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await Deno.readTextFile(table).catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9) out.set(cols[9]!, { local: cols[1]!, state: cols[3]! });
    }
  }
  return out;
}

Deno.test({
  name:
    "a running helper listens on one TCP socket, on 127.0.0.1, and holds no net permission; Deno refuses it a read outside its roots",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const env = await warmWorld();
    const helper = await startHelper(env);
    try {
      const mine = await socketInodes(helper.child.pid);
      const tcp = await tcpSockets();
      const held = [...mine].filter((i) => tcp.has(i)).map((i) => tcp.get(i)!);
      const port = portOf(env)!;
      // 0100007F is 127.0.0.1 as the kernel writes it; 0A is LISTEN.
      const own = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;
      assert.deepEqual(held.filter((h) => h.state === "0A"), [{ local: own, state: "0A" }], "one listener");
      // Besides it, at most connections it accepted there (a status request just answered).
      assert.ok(
        held.every((h) => h.local === own),
        `every TCP socket is on its own port: ${JSON.stringify(held)}`,
      );
      // Once listening, it gave up its net permission: it can connect to nothing, listen nowhere else.
      const status = (await frame(env, { op: "status" }))?.header.status as { net?: string } | undefined;
      assert.ok(status?.net !== undefined && status.net !== "granted", `net: ${status?.net}`);
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
