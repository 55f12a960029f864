/**
 * The floors of src/ (scripts/floors.ts, docs/design.md): every folder has one, imports run only
 * down, and no files or folders import each other in a circle. `deno task floors` prints the
 * picture these tests hold.
 */
import assert from "node:assert/strict";
import {
  circles,
  type Edge,
  FLOORS,
  folderOf,
  picture,
  scanImports,
  specifiersOf,
} from "../scripts/floors.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

const floorName = (folder: string) => `floor ${FLOORS[folder] ?? "none"} (${folder})`;

/** One line per import that runs up: the file, the import as written, both floors. */
export function upwardReport(upward: readonly Edge[]): string[] {
  return upward.map((e) =>
    `${e.from} imports "${e.specifier}" (${e.to}): ${floorName(folderOf(e.from))} → ${
      floorName(folderOf(e.to))
    }`
  );
}

Deno.test("every folder of src/ has a floor in the table", async () => {
  const { files, edges } = await scanImports(ROOT);
  assert.deepEqual(
    picture(files, edges).unplaced,
    [],
    "add the folder to FLOORS (scripts/floors.ts) and docs/design.md",
  );
  const folders = new Set(files.map(folderOf));
  assert.deepEqual(
    Object.keys(FLOORS).filter((f) => !folders.has(f)),
    [],
    "a floor names a folder src/ no longer has",
  );
});

Deno.test("imports run only down the floors: none into a higher floor or across one floor", async () => {
  const { files, edges } = await scanImports(ROOT);
  assert.deepEqual(upwardReport(picture(files, edges).upward), []);
});

Deno.test("no circle between folders, and none between files", async () => {
  const { files, edges } = await scanImports(ROOT);
  const p = picture(files, edges);
  assert.deepEqual(p.folderCircles, [], "folders that import each other, directly or around a loop");
  assert.deepEqual(p.fileCircles, [], "files that import each other, directly or around a loop");
});

Deno.test("the scan reads every kind of import a reader follows, and no specifier quoted in a comment", () => {
  const text = [
    '// import { a } from "./commented.ts";',
    '/* a block comment naming import("./block.ts") */',
    'import { b } from "./static.ts";',
    'import type { C } from "../type_only.ts";',
    'export { d } from "./reexport.ts";',
    'import "./side_effect.ts";',
    'const m = await import("../dynamic.ts");',
    'const url = new URL("./by_url.ts", import.meta.url);',
    'import {\n  e,\n  f,\n} from "./multi_line.ts";',
    'const text = "see https://example.org/x"; // a URL in a string is not a comment',
    'import g from "./late.ts";',
  ].join("\n");
  assert.deepEqual(specifiersOf(text).sort((a, b) => a.specifier < b.specifier ? -1 : 1), [
    { specifier: "../dynamic.ts", byUrl: false },
    { specifier: "../type_only.ts", byUrl: false },
    { specifier: "./by_url.ts", byUrl: true },
    { specifier: "./late.ts", byUrl: false },
    { specifier: "./multi_line.ts", byUrl: false },
    { specifier: "./reexport.ts", byUrl: false },
    { specifier: "./side_effect.ts", byUrl: false },
    { specifier: "./static.ts", byUrl: false },
  ]);
});

Deno.test("an import up a floor, or a circle, is reported naming the file, the import and both floors", () => {
  const files = ["src/rank/bm25.ts", "src/cli/commands.ts", "src/gate/gate.ts", "src/store/reader.ts"];
  const edges: Edge[] = [
    { from: "src/rank/bm25.ts", to: "src/cli/commands.ts", specifier: "../cli/commands.ts" },
    { from: "src/gate/gate.ts", to: "src/store/reader.ts", specifier: "../store/reader.ts" },
    { from: "src/store/reader.ts", to: "src/gate/gate.ts", specifier: "../gate/gate.ts" },
  ];
  const p = picture(files, edges);
  assert.deepEqual(upwardReport(p.upward), [
    'src/rank/bm25.ts imports "../cli/commands.ts" (src/cli/commands.ts): floor 3 (rank) → floor 13 (cli)',
    'src/gate/gate.ts imports "../store/reader.ts" (src/store/reader.ts): floor 7 (gate) → floor 7 (store)',
    'src/store/reader.ts imports "../gate/gate.ts" (src/gate/gate.ts): floor 7 (store) → floor 7 (gate)',
  ]);
  assert.deepEqual(p.folderCircles, [["gate", "store"]]);
  assert.deepEqual(p.fileCircles, [["src/gate/gate.ts", "src/store/reader.ts"]]);
  assert.deepEqual(circles(["a", "b", "c"], (n) => n === "a" ? ["b"] : n === "b" ? ["c"] : []), []);
});

/** What main.ts and the launcher load, including what they name only through a variable. */
const ENTRIES = [
  "main.ts",
  "src/cli/main.ts",
  "src/cli/worker.ts",
  "src/hint/hook_entry.ts",
  "src/warm/start.ts",
];

Deno.test("the scan sees every import deno itself resolves from the program's entries", async () => {
  const local = (s: string) => s.startsWith(`file://${ROOT}/`) ? s.slice(`file://${ROOT}/`.length) : null;
  const resolved = new Set<string>();
  for (const entry of ENTRIES) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--lock=deno.lock", "--frozen", entry],
      cwd: ROOT,
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert.ok(out.success, `deno info --json ${entry}`);
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: {
        specifier: string;
        dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
      }[];
    };
    for (const m of info.modules) {
      const from = local(m.specifier);
      if (from === null || !from.endsWith(".ts")) continue;
      for (const d of m.dependencies ?? []) {
        for (const target of [d.code?.specifier, d.type?.specifier]) {
          const to = target ? local(target) : null;
          if (to !== null && to.endsWith(".ts")) resolved.add(`${from} → ${to}`);
        }
      }
    }
  }
  const { edges } = await scanImports(ROOT);
  const seen = new Set(edges.map((e) => `${e.from} → ${e.to}`));
  assert.ok(resolved.size > 500, `deno info named ${resolved.size} imports between the repository's files`);
  assert.deepEqual([...resolved].filter((e) => !seen.has(e)).sort(), []);
});
