/**
 * SECURITY.md's table of what holds net is the command table's: each row's commands, and the
 * net their permission rule gives, classified (a listen address, the judge service, or a literal
 * grant); every command the table does not name holds none.
 */
import assert from "node:assert/strict";
import { COMMANDS } from "../../src/cli/commands.ts";
import { permissionsFor } from "../../src/cli/grants.ts";
import { buildPlan } from "../../src/plan/build_plan.ts";
import { parseArgs } from "../../src/plan/args.ts";
import { tempHome } from "../cli_helper.ts";

const JUDGE = "127.0.0.1:8181";
const LISTEN = "127.0.0.1:8933";

/** The table's rows: the commands it names (null: every other command) and its net column. */
async function tableRows(): Promise<{ commands: string[] | null; net: string }[]> {
  const doc = await Deno.readTextFile(new URL("../../SECURITY.md", import.meta.url));
  const start = doc.indexOf("### What holds net, and why");
  assert.ok(start >= 0, "SECURITY.md has the table");
  const section = doc.slice(start, doc.indexOf("\n### ", start + 1));
  const rows = section.split("\n").filter((l) =>
    l.startsWith("| ") && !l.startsWith("| command") && !l.startsWith("| ---")
  );
  return rows.map((row) => {
    const [commands, net] = row.split("|").slice(1, 3).map((c) => c.trim()) as [string, string];
    const named = [...commands.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    return { commands: commands === "every other command" ? null : named, net };
  });
}

/** What the table's net column says, as the same classes the grants are put in. */
function fromTable(net: string): string[] {
  if (net.startsWith("none")) return [];
  return net.split(", ").map((part) =>
    part === "its listen address"
      ? "listen"
      : part === "the judge service"
      ? "judge"
      : part.replaceAll("`", "")
  );
}

/** A command's net grant with the judge service set, classified. */
function classify(net: readonly string[]): string[] {
  return net.map((n) => n === LISTEN ? "listen" : n === JUDGE ? "judge" : n);
}

Deno.test("SECURITY.md's table of what holds net is the command table's", async () => {
  const home = await tempHome();
  try {
    await Deno.writeTextFile(
      `${home}/c.json`,
      JSON.stringify({ judge: { service_url: `http://${JUDGE}/v1/chat/completions` } }),
    );
    const actual = new Map<string, string[]>();
    for (const spec of COMMANDS) {
      const argv = spec.name === "query" ? ["--as-of", "2026-01-01T00:00:00Z", "x"] : [];
      const plan = await buildPlan(
        spec,
        parseArgs(argv, spec.options, spec.name),
        { HOME: home, VERDICT_CONFIG: `${home}/c.json` },
        home,
        null,
      );
      actual.set(spec.name, classify(permissionsFor(spec.name, plan).net));
    }
    const rows = await tableRows();
    const named = new Set<string>();
    for (const row of rows.filter((r) => r.commands !== null)) {
      for (const name of row.commands!) {
        assert.ok(actual.has(name), `the table names "${name}", which is no command`);
        assert.deepEqual(actual.get(name), fromTable(row.net), name);
        named.add(name);
      }
    }
    const others = rows.find((r) => r.commands === null);
    assert.ok(others && fromTable(others.net).length === 0, "a row for every other command: none");
    for (const [name, net] of actual) {
      if (!named.has(name)) assert.deepEqual(net, [], `${name} holds net the table does not name`);
    }
    // The per-prompt hook's row is the one whose process holds the base grant before it revokes.
    assert.equal(COMMANDS.find((c) => c.name === "hook user-prompt")?.sandbox, "revoke");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
