/**
 * The command table (src/cli/commands.ts) and the layering around it: each row loads its own
 * command, the sandbox is a mechanism below the commands (nothing under src/sandbox/ reaches the
 * CLI or the agents), and the per-prompt hint path loads no collector, no agent folder and no
 * MCP SDK.
 */
import assert from "node:assert/strict";
import { AGENTS } from "../../src/agents/registry.ts";
import { COMMANDS, findCommand } from "../../src/cli/commands.ts";
import { permissionsFor } from "../../src/cli/grants.ts";
import { NO_PERMISSIONS } from "../../src/sandbox/permissions.ts";
import { runCli, tempHome } from "../cli_helper.ts";

/**
 * Largest static module graph of `verdict hint` (main.ts, the launcher and the hint command), as
 * measured; 40 since the hook's decision moved to src/gate/hint.ts so that `verdict replay` runs
 * it too; 41 since a recalled document quote is re-read through collect's own Markdown splitter
 * and credential screen (src/collect/markdown.ts, pulled in by src/lookup/recall.ts), so the two can
 * never disagree about where a section ends; 43 since the gate judges a candidate's statements
 * (src/gate/statements.ts) and reads their decision language at gate time (src/rank/markers.ts);
 * 50 since the archive is a store (node:sqlite, the store's archive, paths and reader, the index
 * segments and their byte reader, the analysis version) in place of one index file; 52 since
 * the plan builder is a module of its own, shared with the hook's own entry, and main.ts decides
 * which entry to load (src/hint/hook_argv.ts): a module costs about 20 µs to load here; 53 since
 * the marker phrases' index terms are stored (src/rank/marker_terms.ts), not derived in each
 * process (about 2 ms); two more (61) since the hint applies what the person marked: the marks, read through
 * the archive it holds (src/store/marks.ts), and their rules around the gate (src/hint/states.ts).
 */
const HINT_PATH_MAX_MODULES = 61;

/**
 * What main.ts loads before it knows which command runs: the per-prompt hook's argv check and the
 * warm helper's client (all a prompt the helper answers reads; tests/warm/warm_test.ts).
 */
export const WARM_CLIENT_MODULES = [
  "src/config/paths.ts",
  "src/fsutil/bytes.ts",
  "src/hint/hook_argv.ts",
  "src/hint/hook_limits.ts",
  "src/warm/client.ts",
  "src/warm/folder.ts",
  "src/warm/handshake.ts",
  "src/warm/wire.ts",
];

interface InfoModule {
  readonly specifier: string;
  readonly dependencies?: readonly {
    readonly isDynamic?: boolean;
    readonly code?: { readonly specifier: string };
    readonly type?: { readonly specifier: string };
  }[];
}

async function moduleInfo(entry: URL): Promise<Map<string, InfoModule>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry.pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
  return new Map(info.modules.map((m) => [m.specifier, m]));
}

/** Modules reachable without dynamic imports; with `types`, type-only imports count too. */
function staticClosure(mods: Map<string, InfoModule>, roots: readonly string[], types: boolean): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const dep of mods.get(s)?.dependencies ?? []) {
      if (dep.isDynamic) continue;
      if (dep.code) stack.push(dep.code.specifier);
      if (types && dep.type) stack.push(dep.type.specifier);
    }
  }
  return seen;
}

const src = (path: string) => new URL(`../../src/${path}`, import.meta.url);
const local = (specifier: string) => specifier.replace(/^file:\/\/.*?\/src\//, "src/");

Deno.test("command table: each row loads a module that runs it; self-narrowing rows launch their own Worker", async () => {
  assert.equal(new Set(COMMANDS.map((c) => c.name)).size, COMMANDS.length, "names are unique");
  for (const spec of COMMANDS) {
    assert.equal(findCommand(spec.name), spec);
    const mod = await spec.load();
    assert.equal(typeof mod.run, "function", `${spec.name}: run`);
    // A "none" command either needs nothing (version) or pins its plan and starts its Worker.
    if (spec.sandbox === "none" && spec.name !== "version") {
      assert.equal(typeof mod.launch, "function", `${spec.name}: launch`);
    }
    if (spec.sandbox === "worker" || spec.name === "hint") {
      assert.equal(mod.launch, undefined, `${spec.name} is run as it is, in its Worker or in-process`);
    }
  }
  assert.equal(findCommand("no such command"), undefined);
  assert.deepEqual(permissionsFor("no such command", {} as never), NO_PERMISSIONS);
});

Deno.test("the sandbox sits below the commands: nothing under src/sandbox/ imports the CLI or the agents", async () => {
  for await (const e of Deno.readDir(src("sandbox"))) {
    if (!e.name.endsWith(".ts")) continue;
    const entry = src(`sandbox/${e.name}`);
    const mods = await moduleInfo(entry);
    const reached = [...staticClosure(mods, [entry.href], true)].map(local);
    const above = reached.filter((s) => /^src\/(cli|agents|collect|install|serve|judge)\//.test(s));
    assert.deepEqual(above, [], `src/sandbox/${e.name} reaches ${above.join(", ")}`);
  }
});

Deno.test("the hint path loads no collector, no agent folder, no install code and no MCP SDK, and stays small", async () => {
  const main = new URL("../../main.ts", import.meta.url);
  const launcher = src("cli/main.ts");
  const mods = await moduleInfo(launcher);
  const hint = [...mods.keys()].find((s) => s.endsWith("/src/cli/cmd/hint.ts"));
  assert.ok(hint, "the launcher's graph reaches cmd/hint.ts through the command table");
  // main.ts loads the launcher (src/cli/main.ts) with a dynamic import; it is on the hint path.
  const path = [
    ...new Set([
      ...staticClosure(await moduleInfo(main), [main.href], false),
      ...staticClosure(mods, [launcher.href, hint], false),
    ]),
  ].map(local);
  const forbidden = path.filter((s) =>
    s.startsWith("npm:") ||
    /^src\/(collect\/(collect|transcripts|docs|git)|install\/(install|doctor)|serve\/(server|http|stdio|mcp_deps))\.ts$/
      .test(s) ||
    // An agent's folder loads with src/agents/loaded.ts; only Claude's typed-prompt rule is shared.
    (/^src\/agents\/[^/]+\//.test(s) && s !== "src/agents/claude/prompt.ts") ||
    s === "src/agents/loaded.ts"
  );
  assert.deepEqual(forbidden, []);
  assert.ok(
    path.length <= HINT_PATH_MAX_MODULES,
    `the hint path grew to ${path.length} modules (at most ${HINT_PATH_MAX_MODULES}):\n${
      path.sort().join("\n")
    }`,
  );
});

Deno.test("the per-prompt hook's own entry loads neither the command table nor the launcher, and is smaller than the hint path", async () => {
  const main = new URL("../../main.ts", import.meta.url);
  const entry = src("hint/hook_entry.ts");
  const mods = await moduleInfo(main);
  const mainStatic = [...staticClosure(mods, [main.href], false)].map(local);
  // main.ts itself loads the argv check and the warm helper's client, nothing else.
  assert.deepEqual(mainStatic.filter((s) => s.startsWith("src/")).sort(), WARM_CLIENT_MODULES);
  const hook = [...staticClosure(await moduleInfo(entry), [entry.href], false)].map(local);
  const launcher = hook.filter((s) =>
    /^src\/(cli\/(main|commands|run_confined)|plan\/roots|sandbox\/permissions)\.ts$/.test(s)
  );
  assert.deepEqual(launcher, []);
  const launcherMods = await moduleInfo(src("cli/main.ts"));
  const hint = [...launcherMods.keys()].find((s) => s.endsWith("/src/cli/cmd/hint.ts"))!;
  const hintPath = new Set([
    ...staticClosure(mods, [main.href], false),
    ...staticClosure(launcherMods, [src("cli/main.ts").href, hint], false),
  ]);
  assert.ok(hook.length < hintPath.size, `${hook.length} modules, the hint path ${hintPath.size}`);
});

Deno.test("deno run reads only the modules the per-prompt hook runs, not the rest of the program's graph", async () => {
  // Deno reads every module a literal dynamic import names before the program starts: one in
  // main.ts (the launcher) or on the hook's path (an agent's folder in the registry) made every
  // hook read the whole program, four times what it runs. Deno's debug log names each file it
  // fetches.
  const home = await tempHome();
  try {
    const run = await runCli(["hook", "user-prompt"], {
      env: { HOME: home, DENO_LOG: "debug" },
      stdin: JSON.stringify({ session_id: "s1", cwd: home, prompt: "which queue did we pick for billing?" }),
    });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "", "no archive: silent");
    const fetched = new Set(
      [...run.stderr.matchAll(/fetch_no_follow - specifier: (file:\S+)/g)].map((m) => local(m[1]!)),
    );
    // What the hook may read: its code, and what its own literal dynamic imports name (each
    // agent's hook dialect, which imports only dialects; the in-memory index of the fallback).
    const roots = [
      new URL("../../main.ts", import.meta.url),
      src("hint/hook_entry.ts"),
      src("rank/memory_index.ts"),
      ...AGENTS.filter((a) => a.hookDialect !== null).map((a) => src(`agents/${a.id}/hook_dialect.ts`)),
    ];
    const runs = new Set<string>();
    for (const root of roots) {
      for (const s of staticClosure(await moduleInfo(root), [root.href], false)) runs.add(local(s));
    }
    const ours = [...fetched].filter((s) => s.startsWith("src/"));
    assert.ok(ours.length >= 30, `the debug log names the modules fetched (${ours.length} found)`);
    assert.deepEqual(ours.filter((s) => !runs.has(s)), [], "fetched although the hook never runs it");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("an agent's hook dialect (the one part of an agent the per-prompt hook loads) imports no code but dialects", async () => {
  for (const a of AGENTS) {
    if (a.hookDialect === null) continue;
    const mods = await moduleInfo(new URL(`../../src/agents/${dialectPath(a.hookDialect)}`, import.meta.url));
    const entry = [...mods.keys()].find((s) => s.endsWith("hook_dialect.ts"))!;
    const code = [...staticClosure(mods, [entry], false)].map(local);
    // Other dialects, and the line-parser contract (already on the hint path), and nothing else.
    const other = code.filter((m) =>
      !/^src\/agents\/[^/]+\/hook_dialect\.ts$/.test(m) && m !== "src/record/line_parser.ts"
    );
    assert.deepEqual(other, [], `${a.id}: the dialect module loads ${code.join(", ")}`);
  }
});

/** The module a dialect loader imports, read from its source ("./claude/hook_dialect.ts"). */
function dialectPath(loader: () => unknown): string {
  const m = /import\("\.\/([^"]+)"\)/.exec(loader.toString());
  if (!m) throw new Error(`not a literal import: ${loader}`);
  return m[1]!;
}
