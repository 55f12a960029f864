/**
 * One HOME holding every registered agent's real sessions (the client samples in
 * ../shared/clients/, each laid out where its agent writes it by tests/agents/<id>/samples.ts):
 * one real `verdict collect` yields exactly the union of every agent's hand-decided records (typed
 * prompts and landed notes, each with its agent's origin, session, project, time, file and line;
 * nothing machine-made, nothing under another agent's name); a second collect adds nothing;
 * include_headless adds exactly the headless prompts. Then `verdict doctor` and `verdict install
 * --dry-run` over the same HOME name all six agents. With every agent's real settings files added
 * (most register the sample run's own stub MCP server under the name "verdict"), install and its
 * dry run refuse without writing anything, naming every refused file in one run, with one hint
 * leading past them all to wiring the other agents, and doctor names each stub as not verdict's
 * server. Skipped, with the reason printed, when
 * ../shared/clients is absent.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Agent, AgentEnv } from "../../src/agents/agent.ts";
import { mainSessionRoot } from "../../src/agents/locate.ts";
import { AGENT_IDS } from "../../src/agents/registry.ts";
import { loadAgents } from "../../src/agents/loaded.ts";
import { runCli, tempHome } from "../cli_helper.ts";
import { assertCollectsExactly, type LaidOut } from "./_samples.ts";
import { ALL_SAMPLES } from "./all_samples.ts";

const CLIENTS = fileURLToPath(new URL("../../../shared/clients/", import.meta.url));
let skipped: string | null = null;
try {
  if (!Deno.statSync(CLIENTS).isDirectory) skipped = `${CLIENTS} is not a directory`;
} catch {
  skipped = `${CLIENTS} is absent`;
}
if (skipped) console.log(`all_agents_home_test: skipped, ${skipped}`);

const BIN = "/opt/verdict/bin/verdict";
const agents: Agent[] = await loadAgents();

function at(home: string): AgentEnv {
  return { env: { HOME: home }, home, cwd: home };
}

/** A temp HOME holding every agent's samples; the caller closes what it returns. */
async function allAgentsHome(): Promise<{ home: string; sets: LaidOut[] }> {
  assert.deepEqual(
    ALL_SAMPLES.map((s) => s.agent).sort(),
    [...AGENT_IDS].sort(),
    "every registered agent needs its real samples in tests/agents/<id>/samples.ts",
  );
  for (const s of ALL_SAMPLES) assert.equal(s.missing(), null, `${s.agent}: its samples`);
  const home = await tempHome();
  const sets: LaidOut[] = [];
  for (const s of ALL_SAMPLES) sets.push(await s.layOut(home));
  return { home, sets };
}

function closeAll(sets: readonly LaidOut[]): void {
  for (const s of sets) s.close();
}

/** Every regular file under `dir` (relative paths, sorted), links included as themselves. */
async function tree(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) out.push(...await tree(`${dir}/${e.name}`, `${prefix}${e.name}/`));
    else out.push(`${prefix}${e.name}`);
  }
  return out.sort();
}

Deno.test({
  name:
    "collect in one HOME holding all six agents' real sessions: exactly every agent's typed prompts and notes, under its own name",
  ignore: skipped !== null,
  fn: async () => {
    const { home, sets } = await allAgentsHome();
    try {
      for (const s of sets) {
        assert.ok(s.records.length > 0, `${s.agent}: no expected record, so nothing would be proven`);
        for (const r of [...s.records, ...s.headless]) assert.equal(r.origin, s.agent);
      }
      assert.ok(sets.some((s) => s.headless.length > 0), "no headless prompt to prove include_headless on");
      await assertCollectsExactly(home, sets);
    } finally {
      closeAll(sets);
    }
  },
});

Deno.test({
  name: "doctor and install --dry-run over the same HOME name every agent, its sessions and its host files",
  ignore: skipped !== null,
  fn: async () => {
    const { home, sets } = await allAgentsHome();
    try {
      const env = { HOME: home, VERDICT_BIN: BIN };
      assert.equal((await runCli(["collect"], { env })).code, 0);

      // doctor: problems (nothing is wired yet), reported, not thrown.
      const json = await runCli(["doctor", "--json"], { env });
      assert.equal(json.code, 1, json.stderr);
      assert.equal(json.stderr, "");
      const checks = JSON.parse(json.stdout).checks as { id: string; status: string; message: string }[];
      const line = (c: { id: string; status: string; message: string }) =>
        `${c.status} ${c.id}: ${c.message}`;
      const transcripts = checks.find((c) => c.id === "transcripts")!;
      assert.equal(transcripts.status, "ok", transcripts.message);
      const records = checks.find((c) => c.id === "records")!;
      const total = sets.reduce((n, s) => n + s.records.length, 0);
      assert.equal(records.status, "ok", records.message);
      assert.match(records.message, new RegExp(`^${total} records `));
      const mcp = checks.find((c) => c.id === "mcp")!;
      assert.equal(mcp.status, "fail", mcp.message);
      for (const agent of agents) {
        const where = at(home);
        assert.ok(
          transcripts.message.includes(`${agent.label} ${mainSessionRoot(agent, where)}`),
          `doctor's transcripts check misses ${agent.id}: ${transcripts.message}`,
        );
        assert.ok(mcp.message.includes(agent.label), `doctor's MCP check misses ${agent.id}: ${mcp.message}`);
        // Each agent's hook (or plugin) check names the file it is wired in, and says how to fix it.
        const hostPaths = agent.hostFiles.map((f) => f.path(where));
        const own = checks.filter((c) =>
          c.id !== "mcp" && hostPaths.some((p) => c.message.includes(p)) && c.status === "fail"
        );
        assert.ok(
          own.length > 0,
          `no doctor check names ${agent.id}'s files:\n${checks.map(line).join("\n")}`,
        );
        assert.ok(own.every((c) => c.message.length > 0), agent.id);
      }
      const text = await runCli(["doctor"], { env });
      assert.equal(text.code, 1, text.stderr);
      for (const agent of agents) {
        assert.ok(
          text.stdout.includes(`fix: run verdict install --${agent.id}`),
          `doctor: no fix for ${agent.id}`,
        );
      }

      // install --dry-run: every agent's every host file, with what would change; nothing written.
      const before = await tree(home);
      const dry = await runCli(["install", "--dry-run"], { env });
      assert.equal(dry.code, 0, dry.stderr);
      for (const agent of agents) {
        for (const file of agent.hostFiles) {
          const path = file.path(at(home));
          assert.match(
            dry.stdout,
            new RegExp(`^${file.label}: ${path} would be created: .+ added`, "m"),
            `install --dry-run misses ${agent.id}'s ${file.role}`,
          );
          assert.ok(dry.stdout.includes(`+++ ${path} (after verdict install)`), `no diff for ${path}`);
        }
      }
      assert.match(dry.stdout, /^dry run: nothing was written$/m);
      assert.deepEqual(await tree(home), before, "install --dry-run wrote something");
    } finally {
      closeAll(sets);
    }
  },
});

Deno.test({
  name:
    "with every agent's real settings files too (most name the sample run's stub server \"verdict\"): install refuses all at once, its hint leads past every refusal, doctor names each stub",
  ignore: skipped !== null,
  fn: async () => {
    const { home, sets } = await allAgentsHome();
    try {
      for (const s of ALL_SAMPLES) await s.layOutSettings(home);
      const env = { HOME: home, VERDICT_BIN: BIN };
      const hostPaths = agents.flatMap((a) => a.hostFiles.map((f) => ({ agent: a, path: f.path(at(home)) })));
      const before = new Map<string, string>();
      for (const { path } of hostPaths) {
        before.set(
          path,
          await Deno.readTextFile(path).catch(() => "(absent)"),
        );
      }
      const unchanged = async (what: string) => {
        for (const [path, text] of before) {
          assert.equal(await Deno.readTextFile(path).catch(() => "(absent)"), text, `${what}: ${path}`);
        }
      };
      // The agents whose real settings register a "verdict" server that is not verdict's.
      const stubbed = agents.filter((a) =>
        a.hostFiles.some((f) => {
          const text = before.get(f.path(at(home)))!;
          return text !== "(absent)" && f.mcpState?.(text, f.path(at(home))) === "other";
        })
      );
      assert.ok(stubbed.length >= 2, `the samples' settings name ${stubbed.length} stub server(s)`);

      const plain = await runCli(["install"], { env });
      assert.equal(plain.code, 3, plain.stdout + plain.stderr);
      await unchanged("install");

      // Every refusal at once, install and its dry run alike: each stubbed agent's file named with
      // what is wrong and what to do, one hint whose way past wires every other agent.
      for (const dry of [false, true]) {
        const args = ["install", ...(dry ? ["--dry-run"] : [])];
        const r = await runCli(args, { env });
        assert.equal(r.code, 3, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
        assert.equal(r.stdout, "");
        const lines = r.stderr.trimEnd().split("\n");
        const items = lines.filter((l) => l.startsWith("  - "));
        if (stubbed.length === 1) {
          assert.match(lines[0]!, /refusing to (edit|replace) .*"verdict install"/, r.stderr);
        } else {
          assert.match(
            lines[0]!,
            new RegExp(
              `^verdict: Cannot install: (\\d+ refusals in )?${stubbed.length} of \\d+ files.* nothing was written$`,
            ),
            r.stderr,
          );
          for (const agent of stubbed) {
            const own = hostPaths.filter((h) => h.agent === agent).map((h) => h.path);
            const i = lines.findIndex((l) =>
              l.startsWith(`  - ${agent.label}: `) && own.some((p) => l.includes(`"${p}"`)) &&
              /refusing to (edit|replace) .*"verdict install"/.test(l)
            );
            assert.ok(i > 0, `${agent.id}'s refusal is not named in:\n${r.stderr}`);
            assert.match(lines[i + 1]!, /^ {4}hint: \S/, r.stderr);
          }
          assert.equal(items.length, stubbed.length, r.stderr);
        }
        const hint = /^hint: .*; or leave (.+) out: verdict (install(?: --[a-z-]+)+)$/m.exec(r.stderr);
        assert.ok(hint, `no way past the refusals in: ${r.stderr}`);
        const past = hint[2]!.split(" ");
        assert.deepEqual(
          past.filter((a) => a.startsWith("--") && a !== "--dry-run").sort(),
          agents.filter((a) => !stubbed.includes(a)).map((a) => `--${a.id}`).sort(),
          "the way past names exactly the agents that were not refused",
        );
        assert.equal(past.includes("--dry-run"), dry);
        await unchanged(args.join(" "));
        if (!dry) continue;
        const last = await runCli(past, { env });
        assert.equal(last.code, 0, last.stderr);
        for (const agent of agents) {
          const wired = agent.hostFiles.some((f) =>
            last.stdout.includes(`${f.label}: ${f.path(at(home))} would be`)
          );
          assert.equal(wired, !stubbed.includes(agent), `${past.join(" ")} and ${agent.id}`);
        }
        await unchanged(past.join(" "));
      }

      // doctor names every agent's sessions, and every stub as not verdict's server.
      const d = await runCli(["doctor", "--json"], { env });
      assert.equal(d.stderr, "");
      const checks = JSON.parse(d.stdout).checks as { id: string; status: string; message: string }[];
      const transcripts = checks.find((c) => c.id === "transcripts")!.message;
      for (const agent of agents) assert.ok(transcripts.includes(agent.label), agent.id);
      const mcp = checks.find((c) => c.id === "mcp")!;
      assert.equal(mcp.status, "fail", mcp.message);
      assert.match(mcp.message, /runs another program, not "verdict mcp"$/);
      for (const agent of stubbed) {
        assert.ok(mcp.message.includes(`${agent.label} (`), `${agent.id}: ${mcp.message}`);
      }
    } finally {
      closeAll(sets);
    }
  },
});
