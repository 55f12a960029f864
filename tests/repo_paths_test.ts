/**
 * Code under src/ names only paths inside the repository: a comment that cites a file beside the
 * checkout (a reference folder, another project) points at something a reader of the repository
 * does not have. Every `../`-led path written in src/ (import or prose) must lead, from the file
 * that writes it, to something inside the repository: prose citing `../shared/...` (a folder
 * beside the checkout) leads nowhere from any file under src/.
 */
import assert from "node:assert/strict";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * Each `../`-led path in `text` whose first named step, taken from `dir`, leaves `root` or names
 * nothing there.
 */
export function pathsOutside(
  text: string,
  dir: string,
  root: string,
  exists: (path: string) => boolean,
): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\.\.\/)+[\w.-]+/g)) {
    const target = resolve(dir, m[0]);
    if (relative(root, target).startsWith("..") || !exists(target)) out.push(m[0]);
  }
  return out;
}

function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

async function* files(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* files(path);
    else if (e.name.endsWith(".ts")) yield path;
  }
}

Deno.test("no file under src/ names a path outside the repository", async () => {
  const found: string[] = [];
  for await (const file of files(`${ROOT}src`)) {
    const text = await Deno.readTextFile(file);
    const dir = file.slice(0, file.lastIndexOf("/"));
    for (const p of pathsOutside(text, dir, ROOT, existsSync)) found.push(`${relative(ROOT, file)}: ${p}`);
  }
  assert.deepEqual(found, []);
});

Deno.test("a path that climbs out of the repository is found; one that stays inside is not", () => {
  const root = "/repo/";
  const tree = new Set(["/repo/src/rank", "/repo/src/gate"]);
  const exists = (p: string) => tree.has(p);
  assert.deepEqual(pathsOutside("see ../shared/clients/NOTES.md", "/repo/src", root, exists), ["../shared"]);
  assert.deepEqual(pathsOutside("(../../../../shared/x)", "/repo/src/agents/qwen", root, exists), [
    "../../../../shared",
  ]);
  assert.deepEqual(pathsOutside('import { x } from "../rank/bm25.ts";', "/repo/src/gate", root, exists), []);
});
