/**
 * `verdict decisions`, the look-ups' filters, `verdict import` and `verdict report`, end to end:
 * the real CLI over the bundled examples collected into a real archive in a temp HOME.
 */
import assert from "node:assert/strict";
import { copyTree, runCli, tempHome } from "../cli_helper.ts";

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const AS_OF = "2026-03-05T00:00:00Z";
const DECISION = "pa51b3f56d1285bda";
const NOTE = "n33d05dc6634d01ba";

async function world(): Promise<Record<string, string>> {
  const home = await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  await copyTree(`${EXAMPLES}codex`, `${home}/.codex`);
  const env = { HOME: home, VERDICT_SEEN: "" };
  const c = await runCli(["collect"], { env });
  assert.equal(c.code, 0, c.stderr);
  return env;
}

interface Entry {
  id: string;
  time: string;
  kind: string;
  statements: string[];
  state: string[];
  copies: number;
}

Deno.test("decisions: per project, newest first, each with its date, id and state (superseded, replaces, muted, pinned); --project, --since, --markdown", async () => {
  const env = await world();
  for (
    const args of [
      ["retract", DECISION, "--by", NOTE, "--why", "managed database", "--as-of", "2026-03-04T00:00:00Z"],
      ["mute", "p5cb5b40804a88890"],
      [
        "remember",
        "--project",
        "/home/dev/web",
        "--on",
        "pnpm",
        "--as-of",
        "2026-03-09T00:00:00Z",
        "Always use pnpm.",
      ],
    ]
  ) {
    const r = await runCli(args, { env });
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  }
  const r = await runCli(["decisions", "--json"], { env });
  assert.equal(r.code, 0, r.stderr);
  const projects = JSON.parse(r.stdout).projects as { project: string; decisions: Entry[] }[];
  assert.deepEqual(
    projects.map((p) => p.project),
    ["/home/dev/web", "/home/dev/shop"],
    "the newest decision's project first",
  );
  const shop = projects[1]!.decisions;
  const times = shop.map((e) => e.time);
  assert.deepEqual(times, [...times].sort().reverse(), "newest first");
  const byId = new Map(shop.map((e) => [e.id, e]));
  assert.deepEqual(byId.get(DECISION)!.state, [`superseded by ${NOTE} on 2026-03-04 (managed database)`]);
  assert.deepEqual(byId.get(DECISION)!.statements, [
    "We decided: the orders service uses PostgreSQL, not MySQL.",
  ]);
  assert.deepEqual(byId.get(NOTE)!.state, [`replaces ${DECISION}`]);
  assert.deepEqual(byId.get("p5cb5b40804a88890")!.state, ["muted"]);
  assert.deepEqual(projects[0]!.decisions.map((e) => [e.statements, e.state]), [[["Always use pnpm."], [
    "pinned on pnpm",
  ]]]);
  for (const e of shop) assert.ok(e.statements.length > 0 && /^[pndct][0-9a-f]{16}$/.test(e.id));

  const since = JSON.parse(
    (await runCli(["decisions", "--json", "--since", "2026-03-01", "--project", "/home/dev/shop"], { env }))
      .stdout,
  );
  assert.deepEqual(since.projects.map((p: { project: string }) => p.project), ["/home/dev/shop"]);
  assert.ok(since.projects[0].decisions.every((e: Entry) => e.time >= "2026-03-01"));
  assert.ok(
    !since.projects[0].decisions.some((e: Entry) => e.id === "p5cb5b40804a88890"),
    "the 02-25 decision is before --since",
  );

  const md = await runCli(["decisions", "--markdown", "--project", "/home/dev/shop"], { env });
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, /^# Decisions\n/);
  assert.match(md.stdout, /\n## \/home\/dev\/shop\n/);
  assert.match(
    md.stdout,
    new RegExp(`\\n {2}\`${DECISION}\` · prompt · superseded by ${NOTE} on 2026-03-04`),
  );
  const text = await runCli(["decisions"], { env });
  assert.match(
    text.stdout,
    new RegExp(`\\n {2}2026-03-01 {2}${DECISION} {2}prompt {2}\\[superseded by ${NOTE}`),
  );

  for (
    const bad of [["decisions", "--json", "--markdown"], ["decisions", "--since", "yesterday"], [
      "decisions",
      "--kind",
      "tweet",
    ]]
  ) {
    assert.equal((await runCli(bad, { env })).code, 3, bad.join(" "));
  }
});
