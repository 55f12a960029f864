/**
 * What a collect leaves behind for the next one to do, and what it looks at: the costs of a
 * collect that adds one prompt to a large archive (issue 10). Real files in a temp dir, the real
 * Claude reader, collect() in-process.
 */
import assert from "node:assert/strict";
import { collect } from "../../src/collect/collect.ts";
import { DEFAULT_CONFIG } from "../../src/config/config.ts";
import type { Roots } from "../../src/config/roots.ts";
import { Archive } from "../../src/store/archive.ts";
import { storePaths } from "../../src/store/paths.ts";

const T0 = Date.parse("2026-01-01T00:00:00Z");

function claudePrompt(n: number, text: string, session = "s-1"): string {
  return JSON.stringify({
    type: "user",
    isSidechain: false,
    cwd: "/p",
    sessionId: session,
    version: "2.1.180",
    entrypoint: "cli",
    message: { role: "user", content: text },
    uuid: `${session}-u${n}`,
    timestamp: new Date(T0 + n * 60_000).toISOString(),
    origin: { kind: "human" },
  });
}

interface World {
  readonly projects: string;
  readonly records: string;
  readonly roots: Roots;
}

async function world(): Promise<World> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "verdict-upkeep-" }));
  const projects = `${dir}/claude/projects`;
  await Deno.mkdir(`${projects}/-p`, { recursive: true });
  return {
    projects,
    records: `${dir}/store/records.db`,
    roots: {
      sessions: [{ agent: "claude", kind: "claude", path: projects, layout: "dir" }],
      docs: [],
      gitRepos: [],
    },
  };
}

async function run(w: World, problems: string[] = []) {
  return await collect({
    roots: w.roots,
    recordsPath: w.records,
    config: DEFAULT_CONFIG,
    since: null,
    full: false,
    report: (path, message) => problems.push(`${path}: ${message}`),
  });
}

/** The segment files in the index folder, by number, and the numbers the manifest names. */
function segments(w: World): { files: number[]; manifest: number[] } {
  const paths = storePaths(w.records);
  const files = [...Deno.readDirSync(paths.segments)].map((e) => e.name)
    .filter((n) => /^seg-\d+\.vix$/.test(n)).map((n) => Number(n.slice(4, -4))).sort((a, b) => a - b);
  const archive = Archive.openForRead(paths)!;
  try {
    return { files, manifest: archive.segmentRows().map((r) => r.seg).sort((a, b) => a - b) };
  } finally {
    archive.close();
  }
}

Deno.test("a collect removes the segments it made and merged away at once; those a commit named wait for the next collect", async () => {
  const w = await world();
  const file = `${w.projects}/-p/s-1.jsonl`;
  await Deno.writeTextFile(file, claudePrompt(1, "We use pnpm, never npm") + "\n");
  assert.equal((await run(w)).added, 1);
  assert.deepEqual(segments(w), { files: [1], manifest: [1] });

  // One more prompt: segment 2 holds it, and the two small segments merge into segment 3.
  // Segment 2 was never named by a commit: it goes right after this one. Segment 1 was (a
  // reader may have read that manifest and be about to open it): it stays until the next run.
  await Deno.writeTextFile(file, claudePrompt(2, "Always run the linter before a commit") + "\n", {
    append: true,
  });
  assert.equal((await run(w)).added, 1);
  assert.deepEqual(segments(w), { files: [1, 3], manifest: [3] });

  await Deno.writeTextFile(file, claudePrompt(3, "Prefer tabs in the Makefile") + "\n", { append: true });
  assert.equal((await run(w)).added, 1);
  assert.deepEqual(segments(w), { files: [3, 5], manifest: [5] });
});

Deno.test("a project's memory folder is looked at, not its listing: its notes are read, a linked memory folder or a file of that name is not", async () => {
  const w = await world();
  await Deno.writeTextFile(`${w.projects}/-p/s-1.jsonl`, claudePrompt(1, "We use pnpm, never npm") + "\n");
  await Deno.mkdir(`${w.projects}/-p/memory`);
  await Deno.writeTextFile(`${w.projects}/-p/memory/rules.md`, "# Rules\n\nWe always squash merge.\n");
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "verdict-upkeep-out-" }));
  await Deno.writeTextFile(`${outside}/leak.md`, "# Leak\n\nThe outside text must never be read.\n");
  await Deno.mkdir(`${w.projects}/-q`);
  await Deno.symlink(outside, `${w.projects}/-q/memory`);
  // A project folder holding a file named memory, not a folder: nothing to read there.
  await Deno.mkdir(`${w.projects}/-r`);
  await Deno.writeTextFile(`${w.projects}/-r/memory`, "not a folder\n");
  const problems: string[] = [];
  const summary = await run(w, problems);
  assert.deepEqual(problems, []);
  const archive = Archive.openForRead(storePaths(w.records))!;
  try {
    const texts = (archive.db.prepare("SELECT line FROM records ORDER BY doc").all() as { line: string }[])
      .map((r) => (JSON.parse(r.line) as { text: string }).text);
    assert.ok(texts.some((t) => t.includes("We always squash merge.")), texts.join(" | "));
    assert.ok(!texts.some((t) => t.includes("outside text")), texts.join(" | "));
  } finally {
    archive.close();
  }
  assert.equal(summary.byKind.prompt, 1);
});
