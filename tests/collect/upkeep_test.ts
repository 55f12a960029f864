/**
 * What a collect leaves behind for the next one to do, and what it looks at: the costs of a
 * collect that adds one prompt to a large archive (issue 10). Real files in a temp dir, the real
 * Claude reader, collect() in-process.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { LOADED_AGENTS } from "../../src/agents/loaded.ts";
import { collect } from "../../src/collect/collect.ts";
import { CREDENTIAL_PLACEHOLDER } from "../../src/record/secrets.ts";
import { sameYieldOptions, sinceCovers } from "../../src/record/source.ts";
import {
  collectTranscripts,
  lookFingerprint,
  savedFingerprint,
  type SavedTranscripts,
  type TranscriptFileState,
  type TranscriptState,
} from "../../src/collect/transcripts.ts";
import { identityOf, sameIdentity } from "../../src/fsutil/identity.ts";
import { DEFAULT_CONFIG } from "../../src/config/config.ts";
import type { Roots } from "../../src/config/roots.ts";
import { Archive, STORE_FORMAT_VERSION } from "../../src/store/archive.ts";
import { storePaths } from "../../src/store/paths.ts";
import { claudePrompt } from "./_claude_lines.ts";

const T0 = Date.parse("2026-01-01T00:00:00Z");

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

// ---- the saved states: fingerprints for every file, the whole state only when a file changed

/** Looks that are never racy: the clock reads a minute past every file's change. */
const LATE = () => Date.now() + 60_000;

function claudeReaders() {
  return new Map(LOADED_AGENTS.flatMap((a) => a.sessions.map((r) => [r.kind, r] as const)));
}

/** SavedTranscripts over `states`, as the archive saves them, counting the states asked for. */
function saved(states: TranscriptState): { saved: SavedTranscripts; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    saved: {
      fingerprint: (file) => (states[file] ? savedFingerprint(states[file]) : undefined),
      state: (file) => {
        asked.push(file);
        return states[file] ?? null;
      },
    },
  };
}

async function look(w: World, previous: SavedTranscripts | null) {
  return await collectTranscripts({
    roots: w.roots.sessions,
    readers: claudeReaders(),
    includeHeadless: false,
    previous,
    since: null,
    report: (path, message) => {
      throw new Error(`${path}: ${message}`);
    },
    now: LATE,
  });
}

Deno.test("files found as they were are decided by their fingerprints: no saved state is parsed; a grown file's alone is", async () => {
  const w = await world();
  const files = ["a", "b", "c"].map((n) => `${w.projects}/-p/${n}.jsonl`);
  for (const [i, f] of files.entries()) {
    await Deno.writeTextFile(f, claudePrompt(i, `Decision ${i}: we keep it`, `s-${i}`) + "\n");
  }
  const first = await look(w, null);
  assert.deepEqual(Object.keys(first.state).sort(), files);

  const again = saved(first.state);
  const second = await look(w, again.saved);
  assert.deepEqual(again.asked, []);
  assert.deepEqual([...second.kept].sort(), files);
  assert.deepEqual(second.state, {});
  assert.equal(second.stats.filesRead, 0);

  await Deno.writeTextFile(files[1]!, claudePrompt(9, "From now on we squash merge", "s-1") + "\n", {
    append: true,
  });
  const grown = saved(first.state);
  const third = await look(w, grown.saved);
  assert.deepEqual(grown.asked, [files[1]]);
  assert.deepEqual([...third.kept].sort(), [files[0], files[2]]);
  assert.deepEqual(Object.keys(third.state), [files[1]]);
  assert.deepEqual(third.appended.map((r) => r.text), ["From now on we squash merge"]);
});

Deno.test("a fingerprint is equal only where the full check keeps a state: any change to what it checks makes it differ", () => {
  const base: TranscriptFileState = {
    kind: "claude",
    dev: 2049,
    ino: 77,
    size: 1000,
    mtimeMs: 1_780_000_000_123,
    ctimeMs: 1_780_000_000_000,
    racy: false,
    offset: 1000,
    lineNo: 4,
    openLine: false,
    readBytes: 1000,
    digest: "d",
    since: null,
    options: { includeHeadless: false },
    carry: null,
  };
  const look = (s: TranscriptFileState, kind = s.kind, since = s.since, options = s.options) =>
    lookFingerprint(kind, s, since, options);
  assert.equal(savedFingerprint(base), look(base));
  // A racy look is never trusted: no fingerprint, whatever is looked at later.
  assert.equal(savedFingerprint({ ...base, racy: true }), null);
  const changes: [string, TranscriptFileState][] = [
    ["dev", { ...base, dev: 2050 }],
    ["ino", { ...base, ino: 78 }],
    ["size", { ...base, size: 1001 }],
    ["mtime", { ...base, mtimeMs: base.mtimeMs + 1 }],
    ["ctime", { ...base, ctimeMs: base.ctimeMs! + 1000 }],
    ["no ctime", { ...base, ctimeMs: null }],
    ["no inode", { ...base, ino: null }],
  ];
  for (const [what, now] of changes) assert.notEqual(look(now), savedFingerprint(base), what);
  assert.notEqual(look(base, "history"), savedFingerprint(base), "another reader");
  assert.notEqual(look(base, "claude", "2026-01-01T00:00:00Z"), savedFingerprint(base), "another cutoff");
  assert.notEqual(
    look(base, "claude", null, { includeHeadless: true }),
    savedFingerprint(base),
    "other options",
  );
  // Equal fingerprints: the full check (transcripts.ts) keeps the state too.
  const now = identityOf(
    {
      dev: 2049,
      ino: 77,
      size: 1000,
      mtime: new Date(base.mtimeMs),
      ctime: new Date(base.ctimeMs!),
    } as Deno.FileInfo,
    base.mtimeMs + 60_000,
  );
  assert.equal(look({ ...base, ...now }), savedFingerprint(base));
  assert.ok(sameIdentity(base, now));
  assert.ok(sinceCovers(base.since, null) && sameYieldOptions(base.options, { includeHeadless: false }));
});

Deno.test("an archive of store format 1 is upgraded by the next collect, which misses nothing and saves every file's fingerprint", async () => {
  const w = await world();
  const file = `${w.projects}/-p/s-1.jsonl`;
  const still = `${w.projects}/-p/s-2.jsonl`;
  await Deno.writeTextFile(file, claudePrompt(1, "We use pnpm, never npm") + "\n");
  await Deno.writeTextFile(still, claudePrompt(1, "Tabs in the Makefile", "s-2") + "\n");
  // Looked at a second after the writes, so that the states saved are trusted (not racy) ones.
  await settle();
  await run(w);
  // Format 1, as the previous verdict left it: no fingerprint column.
  const paths = storePaths(w.records);
  const db = new DatabaseSync(paths.db);
  db.exec("ALTER TABLE sources DROP COLUMN seen");
  db.exec("PRAGMA user_version = 1");
  db.close();
  await Deno.writeTextFile(file, claudePrompt(2, "Always run the linter before a commit") + "\n", {
    append: true,
  });
  await settle();

  const upgraded = await run(w);
  assert.equal(upgraded.added, 1);
  const after = new DatabaseSync(paths.db, { readOnly: true });
  try {
    assert.equal(
      (after.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
      STORE_FORMAT_VERSION,
    );
    const rows = after.prepare("SELECT key, seen FROM sources WHERE key LIKE 't:%' ORDER BY key").all() as {
      key: string;
      seen: string | null;
    }[];
    // The grown file's new state, and the untouched one's saved once more to get its fingerprint.
    assert.deepEqual(rows.map((r) => [r.key, typeof r.seen]), [[`t:${file}`, "string"], [
      `t:${still}`,
      "string",
    ]]);
  } finally {
    after.close();
  }
  // Nothing new: nothing read; then a line appended is found.
  const idle = await run(w);
  assert.equal(idle.filesRead, 0);
  assert.equal(idle.total, 3);
  await Deno.writeTextFile(still, claudePrompt(2, "Prefer rebase", "s-2") + "\n", { append: true });
  assert.equal((await run(w)).added, 1);
});

/** Past the second within which a change makes a look racy (src/fsutil/identity.ts). */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1100));
}

Deno.test("new credential rules screen the saved carry of a file found as it was", async () => {
  const w = await world();
  const file = `${w.projects}/-p/s-1.jsonl`;
  // A memory write still waiting for its tool result: its text is carried in the file's state.
  const write = JSON.stringify({
    type: "assistant",
    isSidechain: false,
    cwd: "/p",
    sessionId: "s-1",
    message: {
      role: "assistant",
      content: [{
        type: "tool_use",
        id: "toolu_1",
        name: "Write",
        input: { file_path: "/p/CLAUDE.md", content: "Deploy with token acme-tok-424242 always" },
      }],
    },
    uuid: "s-1-a1",
    timestamp: new Date(T0 + 60_000).toISOString(),
  });
  await Deno.writeTextFile(file, claudePrompt(1, "We use pnpm, never npm") + "\n" + write + "\n");
  await settle();
  await run(w);
  const carried = () => {
    const db = new DatabaseSync(storePaths(w.records).db, { readOnly: true });
    try {
      return (db.prepare("SELECT value FROM sources WHERE key = ?").get(`t:${file}`) as { value: string })
        .value;
    } finally {
      db.close();
    }
  };
  assert.match(carried(), /acme-tok-424242/);
  const problems: string[] = [];
  const summary = await collect({
    roots: w.roots,
    recordsPath: w.records,
    config: { ...DEFAULT_CONFIG, credential_patterns: ["acme-tok-[0-9]+"] },
    since: null,
    full: false,
    report: (path, message) => problems.push(`${path}: ${message}`),
  });
  assert.deepEqual(problems, []);
  assert.equal(summary.filesRead, 0);
  // Its state stands (the file is not read again), with the carried text replaced.
  assert.doesNotMatch(carried(), /acme-tok-424242/);
  assert.ok(carried().includes(JSON.stringify(CREDENTIAL_PLACEHOLDER).slice(1, -1)), carried());
  assert.equal((await run(w)).filesRead, 0);
});
