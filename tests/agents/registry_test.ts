/**
 * The agent registry (src/agents/registry.ts) against the stages that iterate over it: collect,
 * install, uninstall, doctor and the permission plan must each cover every registered agent, so
 * an agent added to the table but wired into only some of them fails here. Each agent brings a
 * synthetic HOME (tests/fixtures/agents/<id>/home/) with one session per session reader.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Agent, AgentEnv } from "../../src/agents/agent.ts";
import { isPresent, mainSessionRoot, sessionRoots } from "../../src/agents/locate.ts";
import { AGENT_IDS, AGENTS, andList, noneOfList, orList, RECORD_ORIGINS } from "../../src/agents/registry.ts";
import { AGENT_FOLDERS, loadAgents } from "../../src/agents/loaded.ts";
import { findCommand } from "../../src/cli/commands.ts";
import { parseArgs } from "../../src/plan/args.ts";
import { buildPlan } from "../../src/cli/main.ts";
import { asRecord, type VerdictRecord } from "../../src/record/record.ts";
import { isWithin } from "../../src/config/paths.ts";
import { permissionsFor } from "../../src/cli/grants.ts";
import { copyTree, exportedRecords, runCli, tempHome } from "../cli_helper.ts";
import { CLIENTS } from "../clients/harness/versions.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/agents/", import.meta.url));
const BIN = "/opt/verdict/bin/verdict";
const AS_OF = "2026-11-29T12:00:00Z";

const agents: Agent[] = await loadAgents();

/** One temp HOME holding every registered agent's fixture HOME. */
async function allAgentsHome(): Promise<string> {
  const home = await tempHome();
  for (const agent of agents) await copyTree(`${FIXTURES}${agent.id}/home`, home);
  return home;
}

function at(home: string): AgentEnv {
  return { env: { HOME: home }, home, cwd: home };
}

async function records(path: string): Promise<VerdictRecord[]> {
  return (await exportedRecords(path)).split("\n").filter((l) => l !== "").map((l) =>
    asRecord(JSON.parse(l), RECORD_ORIGINS)!
  );
}

Deno.test("registry: ids, reader kinds and host file roles are unique; every row loads a folder that fills the interface", () => {
  assert.ok(AGENTS.length >= 2);
  assert.deepEqual(agents.map((a) => a.id), AGENT_IDS);
  assert.deepEqual(Object.keys(AGENT_FOLDERS).sort(), [...AGENT_IDS].sort(), "one folder loader per row");
  assert.equal(new Set(AGENT_IDS).size, AGENT_IDS.length, "agent ids");
  for (const id of AGENT_IDS) {
    assert.match(id, /^[a-z][a-z0-9-]*$/, `${id}: a lower-case word (it is a flag and an origin)`);
    assert.ok(!["doc", "git"].includes(id), `${id}: taken by another record origin`);
  }
  const kinds = agents.flatMap((a) => a.sessions.map((r) => r.kind));
  assert.equal(new Set(kinds).size, kinds.length, `reader kinds ${kinds}`);
  const roles = agents.flatMap((a) => a.hostFiles.map((f) => f.role));
  assert.equal(new Set(roles).size, roles.length, `host file roles ${roles}`);
  for (const agent of agents) {
    assert.ok(
      agent.label !== "" && agent.wires !== "" && agent.readsHelp !== "" && agent.checksHelp !== "",
      agent.id,
    );
    assert.ok(agent.sessions.length > 0, `${agent.id}: no session reader`);
    assert.ok(agent.hostFiles.length > 0, `${agent.id}: nothing for install to wire`);
    // An agent without MCP support says so (noMcp) instead of registering the server.
    assert.equal(
      agent.hostFiles.some((f) => f.mcpState),
      agent.noMcp === undefined,
      `${agent.id}: either a file registers the MCP server or noMcp says why none can`,
    );
    if (agent.memory) {
      assert.ok(agent.sessions.some((r) => r.kind === agent.memory!.under), `${agent.id}: memory.under`);
    }
  }
});

Deno.test("registry: every agent has a fixture HOME, and every one of its locations derives from that HOME", async () => {
  for (const agent of agents) {
    const fixture = `${FIXTURES}${agent.id}/home`;
    assert.ok((await Deno.stat(fixture)).isDirectory, `tests/fixtures/agents/${agent.id}/home is missing`);
    const where = at("/h");
    const paths = [
      agent.folder(where),
      ...agent.presence(where),
      ...agent.sessions.flatMap((r) => r.roots(where)),
      ...agent.hostFiles.map((f) => f.path(where)),
    ];
    for (const p of paths) assert.ok(isWithin(p, "/h"), `${agent.id}: ${p} is not under HOME`);
    assert.ok(await isPresent(agent, at(await allAgentsHome())), `${agent.id}: its fixture HOME is not seen`);
  }
});

Deno.test("registry: collect reads every agent's every session reader, with origin naming the agent", async () => {
  const home = await allAgentsHome();
  const r = await runCli(["collect"], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  const got = await records(`${home}/.local/share/verdict/records.db`);
  for (const agent of agents) {
    for (const reader of agent.sessions) {
      const roots = reader.roots(at(home));
      const mine = got.filter((x) => roots.some((root) => isWithin(x.source_file, root)));
      assert.ok(mine.length > 0, `${agent.id}/${reader.kind}: no record from ${roots.join(", ")}`);
      for (const rec of mine) assert.equal(rec.origin, agent.id, `${agent.id}/${reader.kind}: origin`);
    }
  }
  assert.ok(got.every((x) => AGENT_IDS.includes(x.origin)), "only agent records in this HOME");
});

Deno.test("registry: the permission plan grants collect every agent's session roots, and lookups their directories", async () => {
  const home = await allAgentsHome();
  const plan = async (command: string) =>
    await buildPlan(
      findCommand(command)!,
      parseArgs([], findCommand(command)!.options, command),
      {
        HOME: home,
      },
      home,
      null,
    );
  const collect = permissionsFor("collect", await plan("collect"));
  const recall = permissionsFor("recall", await plan("recall"));
  const resolved = await sessionRoots(agents, at(home), () => true);
  for (const agent of agents) {
    for (const reader of agent.sessions) {
      const mine = resolved.filter((r) => r.agent === agent.id && r.kind === reader.kind);
      assert.ok(mine.length > 0, `${agent.id}/${reader.kind}: no root resolved`);
      for (const root of mine) {
        assert.ok(collect.read.includes(root.path), `collect may not read ${root.path}`);
        if (reader.layout === "dir") {
          assert.ok(recall.read.includes(root.path), `recall may not read ${root.path}`);
        }
      }
    }
  }
});

Deno.test("registry: install wires, and uninstall removes, every agent's every host file; doctor checks each", async () => {
  const home = await allAgentsHome();
  const env = { HOME: home, VERDICT_BIN: BIN, VERDICT_ASOF: AS_OF };
  const install = await runCli(["install"], { env });
  assert.equal(install.code, 0, install.stderr);
  for (const agent of agents) {
    for (const file of agent.hostFiles) {
      const path = file.path(at(home));
      assert.match(install.stdout, new RegExp(`${file.label}: ${path} created`), `${agent.id}: ${file.role}`);
      assert.notEqual(file.mcpState?.(await Deno.readTextFile(path), path) ?? "ours", null, file.role);
    }
  }
  assert.match(install.stdout, new RegExp(`done: restart ${andList(agents.map((a) => a.label))}`));

  const doctor = await runCli(["doctor", "--json"], { env });
  const checks = JSON.parse(doctor.stdout).checks as { id: string; status: string; message: string }[];
  const mcp = checks.find((c) => c.id === "mcp")!;
  assert.equal(mcp.status, "ok", mcp.message);
  for (const agent of agents) {
    assert.match(mcp.message, new RegExp(agent.label), `doctor's MCP check misses ${agent.id}`);
    const transcripts = checks.find((c) => c.id === "transcripts")!;
    assert.ok(
      transcripts.message.includes(mainSessionRoot(agent, at(home))),
      `doctor misses ${agent.id}'s sessions`,
    );
  }

  const uninstall = await runCli(["uninstall"], { env });
  assert.equal(uninstall.code, 0, uninstall.stderr);
  for (const agent of agents) {
    for (const file of agent.hostFiles) {
      const path = file.path(at(home));
      // A file install wrote whole (OpenCode's plugin) is deleted; the others are edited.
      assert.match(
        uninstall.stdout,
        new RegExp(`${file.label}: ${path} (updated|removed)`),
        `${agent.id}: ${file.role}`,
      );
      const left = await Deno.readTextFile(path).catch(() => "");
      assert.equal(file.mcpState?.(left, path) ?? null, null, file.role);
    }
  }
});

Deno.test("registry: install and uninstall take one flag per agent, and that flag wires that agent only", async () => {
  for (const agent of agents) {
    for (const command of ["install", "uninstall"]) {
      const spec = findCommand(command)!;
      assert.equal(spec.options[agent.id]?.kind, "boolean", `${command} --${agent.id}`);
      assert.ok(spec.usage.includes(`[--${agent.id}]`), `${command} usage`);
    }
    const home = await allAgentsHome();
    const r = await runCli(["install", `--${agent.id}`, "--dry-run"], {
      env: { HOME: home, VERDICT_BIN: BIN, VERDICT_ASOF: AS_OF },
    });
    assert.equal(r.code, 0, r.stderr);
    for (const other of agents) {
      for (const file of other.hostFiles) {
        const named = r.stdout.includes(`${file.label}: ${file.path(at(home))}`);
        assert.equal(named, other.id === agent.id, `install --${agent.id} and ${other.id}'s ${file.role}`);
      }
    }
  }
});

Deno.test("registry: a HOME without any agent is refused by install, naming every agent and its flag", async () => {
  const home = await tempHome();
  const r = await runCli(["install"], { env: { HOME: home, VERDICT_BIN: BIN } });
  assert.equal(r.code, 3);
  for (const agent of agents) {
    assert.ok(r.stderr.includes(`${agent.label} (${agent.folder(at(home))})`), r.stderr);
    assert.ok(r.stderr.includes(`--${agent.id}`), r.stderr);
  }
});

Deno.test("registry: the help of collect, install and doctor says what it does for every agent", async () => {
  const helps = Object.fromEntries(
    await Promise.all(["collect", "install", "doctor"].map(async (c) => {
      const r = await runCli([c, "--help"], { env: {} });
      assert.equal(r.code, 0, r.stderr);
      return [c, r.stdout.replace(/\s+/g, " ")] as const;
    })),
  );
  for (const agent of agents) {
    assert.ok(helps.collect!.includes(agent.readsHelp.replace(/\s+/g, " ")), `collect --help: ${agent.id}`);
    assert.ok(helps.install!.includes(`${agent.label}: ${agent.installHelp}`.replace(/\s+/g, " ")), agent.id);
    assert.ok(helps.doctor!.includes(`${agent.label}: ${agent.checksHelp}`.replace(/\s+/g, " ")), agent.id);
  }
});

Deno.test("registry: the README's supported-agents table has a row per agent, naming the version the client tests pin", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const section = readme.slice(readme.indexOf("## Supported agents"), readme.indexOf("## Collect"));
  const rows = section.split("\n").filter((l) => l.startsWith("| ")).map((l) =>
    l.split("|").map((c) => c.trim())
  );
  for (const agent of agents) {
    const row = rows.find((r) => r[1] === agent.label);
    assert.ok(row, `no row for ${agent.label} in the README's Supported agents table`);
    const client = Object.values(CLIENTS).find((c) => c.label === agent.label);
    assert.ok(client, `tests/clients/harness/versions.ts drives no ${agent.label}`);
    assert.equal(row[2], client.pinned, `${agent.label}: the README's verified version`);
  }
});

Deno.test("list phrases: two items read as before, more get commas", () => {
  assert.equal(andList(["A"]), "A");
  assert.equal(andList(["A", "B"]), "A and B");
  assert.equal(andList(["A", "B", "C"]), "A, B and C");
  assert.equal(orList(["A", "B", "C"]), "A, B or C");
  assert.equal(noneOfList(["A", "B"]), "neither A nor B");
  assert.equal(noneOfList(["A", "B", "C"]), "none of A, B or C");
});
