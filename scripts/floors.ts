// The floors of src/ and the import picture: which file imports which, which folders import
// each other, and which imports run up a floor. tests/floors_test.ts holds src/ to the table;
// `deno task floors` prints the picture.
//
// The scan is static and reads every import specifier a reader sees: `import ... from`,
// `export ... from`, `import "..."`, literal `import("...")`, and `new URL("./x.ts",
// import.meta.url)` (a module named by URL and loaded later, by a dynamic import or a Worker;
// see isImport for what is not).
// Type-only imports count too: a loop a reader has to follow is a loop whether or not the
// runtime sees it.

import { taskArgs } from "./task_args.ts";

/**
 * Each folder of src/ (and its top files, and main.ts) with its floor, bottom first. A file may
 * import files of its own folder and of any folder on a lower floor; two folders on one floor
 * know nothing of each other. docs/design.md gives each folder's contract.
 */
export const FLOORS: Readonly<Record<string, number>> = {
  "fsutil": 1,
  "errors.ts": 1,
  "task_flags.ts": 1,
  "record": 2,
  "config": 3,
  "rank": 3,
  "sandbox": 4,
  "hostfile": 5,
  "agents": 6,
  "store": 7,
  "gate": 7,
  "plan": 7,
  "collect": 8,
  "report": 8,
  "install": 9,
  "judge": 9,
  "replay": 9,
  "lookup": 10,
  "hint": 11,
  "serve": 11,
  "warm": 12,
  "cli": 13,
  "main.ts": 14,
};

export interface Edge {
  /** Repository-relative paths, e.g. "src/cli/main.ts". */
  readonly from: string;
  readonly to: string;
  /** The specifier as written. */
  readonly specifier: string;
}

const IMPORT_PATTERNS: readonly RegExp[] = [
  /\b(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gs,
  /\bimport\s*["']([^"']+)["']/g,
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
];
const URL_PATTERN = /\bnew URL\(\s*["'](\.{1,2}\/[^"']+\.ts)["']\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Comments are blanked first so that a specifier quoted in prose is not an import: the comments
 * that start a line (a block or `//`), which is how this code writes them. No lexer: a string
 * holding a glob (a slash, a star, then the rest of a path) would read as a block comment.
 */
function stripComments(text: string): string {
  return text.replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, "").replace(/^[ \t]*\/\/[^\n]*/gm, "");
}

/** The specifiers a file names, each with whether it is named by URL (loaded later, or run). */
export function specifiersOf(text: string): { specifier: string; byUrl: boolean }[] {
  const code = stripComments(text);
  const out = new Map<string, boolean>();
  for (const pattern of IMPORT_PATTERNS) {
    for (const m of code.matchAll(pattern)) out.set(m[1]!, false);
  }
  for (const m of code.matchAll(URL_PATTERN)) if (!out.has(m[1]!)) out.set(m[1]!, true);
  return [...out].map(([specifier, byUrl]) => ({ specifier, byUrl }));
}

/**
 * What is not an import although it is written like one: a URL naming main.ts is the program a
 * new process runs (the warm helper, a spawned CLI), not a module this process loads; and a file
 * that is not TypeScript (deno.json, the MCP contract) is data, on no floor.
 */
function isImport(to: string, byUrl: boolean): boolean {
  return to.endsWith(".ts") && !(byUrl && to === "main.ts");
}

function posix(path: string): string {
  const parts: string[] = [];
  for (const p of path.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return parts.join("/");
}

async function tsFiles(root: string, dir: string, out: string[]): Promise<void> {
  const names: { name: string; isDirectory: boolean }[] = [];
  for await (const e of Deno.readDir(`${root}/${dir}`)) names.push(e);
  names.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const e of names) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) await tsFiles(root, path, out);
    else if (e.name.endsWith(".ts")) out.push(path);
  }
}

/** Every relative import between main.ts and the files under src/ (root: the repository). */
export async function scanImports(root: string): Promise<{ files: string[]; edges: Edge[] }> {
  const files: string[] = ["main.ts"];
  await tsFiles(root, "src", files);
  const edges: Edge[] = [];
  for (const from of files) {
    const text = await Deno.readTextFile(`${root}/${from}`);
    const dir = from.includes("/") ? from.slice(0, from.lastIndexOf("/")) : "";
    for (const { specifier, byUrl } of specifiersOf(text)) {
      if (!specifier.startsWith(".")) continue;
      const to = posix(`${dir}/${specifier}`);
      if (isImport(to, byUrl)) edges.push({ from, to, specifier });
    }
  }
  return { files, edges };
}

/** The folder a file belongs to: the first name under src/, or the top file itself. */
export function folderOf(path: string): string {
  if (!path.startsWith("src/")) return path;
  return path.split("/")[1]!;
}

/** Strongly connected components with more than one member (Tarjan), each sorted. */
export function circles(nodes: readonly string[], next: (n: string) => readonly string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return out.sort((a, b) => a[0]! < b[0]! ? -1 : 1);
}

export interface Picture {
  readonly fileCircles: string[][];
  readonly folderCircles: string[][];
  /** Folder pairs that import each other (directly). */
  readonly mutualPairs: [string, string][];
  /** Imports into a folder on a higher floor, or into another folder on the same floor. */
  readonly upward: Edge[];
  /** Folders under src/ the table does not name. */
  readonly unplaced: string[];
}

export function picture(files: readonly string[], edges: readonly Edge[]): Picture {
  const byFile = new Map<string, string[]>();
  for (const e of edges) byFile.set(e.from, [...(byFile.get(e.from) ?? []), e.to]);
  const fileCircles = circles(files, (f) => byFile.get(f) ?? []);
  const folderEdges = new Map<string, Set<string>>();
  for (const e of edges) {
    const a = folderOf(e.from), b = folderOf(e.to);
    if (a === b) continue;
    if (!folderEdges.has(a)) folderEdges.set(a, new Set());
    folderEdges.get(a)!.add(b);
  }
  const folders = [...new Set(files.map(folderOf))].sort();
  const folderCircles = circles(folders, (f) => [...(folderEdges.get(f) ?? [])].sort());
  const mutualPairs: [string, string][] = [];
  for (const a of folders) {
    for (const b of folderEdges.get(a) ?? []) {
      if (a < b && folderEdges.get(b)?.has(a)) mutualPairs.push([a, b]);
    }
  }
  const upward = edges.filter((e) => {
    const a = folderOf(e.from), b = folderOf(e.to);
    if (a === b) return false;
    const fa = FLOORS[a], fb = FLOORS[b];
    return fa === undefined || fb === undefined || fb >= fa;
  });
  const unplaced = folders.filter((f) => FLOORS[f] === undefined);
  return { fileCircles, folderCircles, mutualPairs: mutualPairs.sort(), upward, unplaced };
}

/** "a → b" folder pairs with at least one upward import, and how many. */
export function upwardPairs(upward: readonly Edge[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of upward) {
    const key = `${folderOf(e.from)} → ${folderOf(e.to)}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return new Map([...out].sort());
}

if (import.meta.main) {
  taskArgs("floors", import.meta.url, Deno.args, { switches: ["--edges"] });
  const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const { files, edges } = await scanImports(root);
  const p = picture(files, edges);
  const floorOf = (f: string) => FLOORS[f] ?? "?";
  console.log(`${files.length} files, ${edges.length} relative imports`);
  console.log(`file circles: ${p.fileCircles.length}`);
  for (const c of p.fileCircles) console.log(`  (${c.length} files) ${c.join(" ")}`);
  console.log(`folder circles: ${p.folderCircles.length}`);
  for (const c of p.folderCircles) console.log(`  ${c.join(" ")}`);
  console.log(`folder pairs that import each other: ${p.mutualPairs.length}`);
  for (const [a, b] of p.mutualPairs) console.log(`  ${a} ↔ ${b}`);
  const pairs = upwardPairs(p.upward);
  console.log(`folder pairs with an upward import: ${pairs.size}`);
  for (const [pair, n] of pairs) {
    const [a, b] = pair.split(" → ");
    console.log(`  ${pair} (floor ${floorOf(a!)} → ${floorOf(b!)}): ${n}`);
  }
  if (Deno.args.includes("--edges")) {
    for (const e of p.upward) console.log(`    ${e.from} → ${e.specifier}`);
  }
  if (p.unplaced.length > 0) console.log(`folders with no floor: ${p.unplaced.join(", ")}`);
}
