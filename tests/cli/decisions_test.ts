/**
 * `verdict decisions`, the look-ups' filters, `verdict import` and `verdict report`, end to end:
 * the real CLI over the bundled examples collected into a real archive in a temp HOME.
 */
import assert from "node:assert/strict";
import { copyTree, runCli, tempHome } from "../cli_helper.ts";
import { stdioClient, textOf } from "../serve/serve_helper.ts";

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

Deno.test("recall, query and verdict_recall take a project, a date window and a kind; query takes --as-of now", async () => {
  const env = await world();
  const ids = async (args: string[]) => {
    const r = await runCli([...args, "--json", "pnpm npm postgres orders deploy"], { env });
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout).hits as { id: string; time: string; kind: string; project: string }[];
  };
  const all = await ids(["recall", "--as-of", AS_OF, "--top", "50"]);
  assert.ok(all.some((h) => h.kind === "note") && all.some((h) => h.kind === "prompt"));
  const notes = await ids(["recall", "--as-of", AS_OF, "--top", "50", "--kind", "note"]);
  assert.ok(notes.length > 0 && notes.every((h) => h.kind === "note"));
  const window = await ids([
    "recall",
    "--as-of",
    AS_OF,
    "--top",
    "50",
    "--since",
    "2026-03-01",
    "--until",
    "2026-03-02",
  ]);
  assert.ok(window.length > 0 && window.every((h) => h.time >= "2026-03-01" && h.time < "2026-03-02"));
  assert.ok(window.length < all.length, "the window leaves some out");
  const shop = await ids(["query", "--as-of", "now", "--top", "50", "--project", "/home/dev/shop"]);
  assert.ok(
    shop.length > 0 &&
      shop.every((h) => h.project === "/home/dev/shop" || h.project.startsWith("/home/dev/shop/")),
  );
  const none = await runCli(["recall", "--as-of", AS_OF, "--project", "/nowhere", "pnpm"], { env });
  assert.equal(none.code, 0);
  assert.match(none.stdout, /^no match: no match within the given project, dates and kind/);
  for (
    const bad of [["--kind", "tweet"], ["--since", "March"], [
      "--since",
      "2026-03-02",
      "--until",
      "2026-03-01",
    ]]
  ) {
    const r = await runCli(["recall", ...bad, "pnpm"], { env });
    assert.equal(r.code, 3, bad.join(" "));
  }

  const { client } = await stdioClient(env.HOME!, [], { VERDICT_ASOF: AS_OF });
  try {
    const call = async (args: Record<string, unknown>) =>
      textOf(
        await client.callTool({
          name: "verdict_recall",
          arguments: { query: "pnpm npm postgres orders deploy", top: 50, ...args },
        }),
      );
    const headers = (text: string) => text.split("\n").filter((l) => /^\[\d+\] /.test(l));
    const everything = headers(await call({}));
    const onlyNotes = headers(await call({ kind: "note" }));
    assert.ok(onlyNotes.length > 0 && onlyNotes.every((l) => / · note · /.test(l)), onlyNotes.join("\n"));
    const dated = headers(await call({ since: "2026-03-01", until: "2026-03-02T00:00:00Z" }));
    assert.ok(
      dated.length > 0 && dated.every((l) => /^\[\d+\] 2026-03-01 /.test(l)) &&
        dated.length < everything.length,
    );
    assert.match(
      await call({ project: "/nowhere" }),
      /^No match: no match within the given project, dates and kind$/,
    );
    const bad = await client.callTool({
      name: "verdict_recall",
      arguments: { query: "pnpm", kind: "tweet" },
    });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /^Invalid arguments for verdict_recall: .*kind/);
  } finally {
    await client.close();
  }
});

Deno.test("import merges another machine's export: same ids, nothing duplicated, tombstones honoured, a bad line changes nothing", async () => {
  // Machine B has the Claude Code and Codex examples; machine A only Codex's, and forgot one of them.
  const FORGOTTEN = "p68d7fd640196c3e4";
  const b = await world();
  const exported = await runCli(["export"], { env: b });
  assert.equal(exported.code, 0, exported.stderr);
  const file = `${b.HOME}/b.jsonl`;
  await Deno.writeTextFile(file, exported.stdout);
  const homeA = await tempHome();
  await copyTree(`${EXAMPLES}codex`, `${homeA}/.codex`);
  const a = { HOME: homeA };
  assert.equal((await runCli(["collect"], { env: a })).code, 0);
  assert.equal((await runCli(["forget", FORGOTTEN], { env: a })).code, 0);
  const before = (await runCli(["export"], { env: a })).stdout;

  const bad = `${b.HOME}/bad.jsonl`;
  await Deno.writeTextFile(bad, exported.stdout + '{"id": "nope"}\n');
  const refused = await runCli(["import", bad], { env: a });
  assert.equal(refused.code, 3);
  assert.match(refused.stderr, /line \d+ is not a record/);
  assert.equal((await runCli(["export"], { env: a })).stdout, before, "nothing imported");

  const r = await runCli(["import", "--json", file], { env: a });
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  const total = exported.stdout.split("\n").filter((l) => l !== "").length;
  assert.equal(summary.read, total);
  assert.equal(summary.forgotten, 1, "the record forgotten here stays out");
  assert.equal(summary.added + summary.present + summary.forgotten, total);
  const after = (await runCli(["export"], { env: a })).stdout;
  const lines = after.split("\n").filter((l) => l !== "");
  const ids = lines.map((l) => JSON.parse(l).id);
  assert.equal(new Set(ids).size, ids.length, "no id twice");
  assert.ok(!ids.includes(FORGOTTEN));
  assert.ok(summary.added > 0);
  // A record here already is kept as it is (its own source path); the others come as they were.
  const here = new Set(before.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l).id));
  for (const l of before.split("\n").filter((l) => l !== "")) assert.ok(lines.includes(l), "kept as it was");
  for (const l of exported.stdout.split("\n").filter((l) => l !== "")) {
    const id = JSON.parse(l).id;
    if (id !== FORGOTTEN && !here.has(id)) {
      assert.ok(lines.includes(l), `imported as it was: ${l.slice(0, 60)}`);
    }
  }
  assert.equal(lines.length, here.size + summary.added);
  const again = JSON.parse((await runCli(["import", "--json", file], { env: a })).stdout);
  assert.equal(again.added, 0, "importing twice changes nothing");
  assert.equal((await runCli(["export"], { env: a })).stdout, after);
  // The index serves the imported records.
  const recall = await runCli(["recall", "--as-of", AS_OF, "--json", "money cents floats"], { env: a });
  assert.ok(JSON.parse(recall.stdout).hits.some((h: { id: string }) => h.id === NOTE));
  const missing = await runCli(["import", `${b.HOME}/none.jsonl`], { env: a });
  assert.equal(missing.code, 3);
});
