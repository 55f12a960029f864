/**
 * Incremental must equal full: collect() run after each change (reading only what changed, by
 * its state) must leave the archive a fresh full collect of the same files makes. Real files in
 * a temp dir, the real agents' readers, the real git; in-process so that many runs stay fast.
 */
import assert from "node:assert/strict";
import { collect } from "../../src/collect/collect.ts";
import { asRecord, type VerdictRecord } from "../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../src/agents/registry.ts";
import { DEFAULT_CONFIG } from "../../src/config/config.ts";
import type { Roots } from "../../src/config/roots.ts";
import { git } from "./git_fixture.ts";
import { exportedRecords } from "../cli_helper.ts";
import { claudePrompt } from "./_claude_lines.ts";
import { seededRandom } from "../../scripts/seeded_random.ts";

interface World {
  readonly dir: string;
  readonly projects: string;
  readonly history: string;
  readonly codex: string;
  readonly docs: string;
  readonly repo: string;
  readonly roots: Roots;
}

async function world(): Promise<World> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "verdict-incr-" }));
  const projects = `${dir}/claude/projects`;
  await Deno.mkdir(`${projects}/-p`, { recursive: true });
  const history = `${dir}/claude/history.jsonl`;
  await Deno.writeTextFile(history, "");
  const codex = `${dir}/codex/sessions`;
  await Deno.mkdir(`${codex}/2026/01/01`, { recursive: true });
  const docs = `${dir}/docs`;
  await Deno.mkdir(docs);
  const repo = `${dir}/repo`;
  await Deno.mkdir(repo);
  await git(repo, ["init", "-q", "-b", "main"]);
  return {
    dir,
    projects,
    history,
    codex,
    docs,
    repo,
    roots: {
      sessions: [
        { agent: "claude", kind: "claude", path: projects, layout: "dir" },
        { agent: "claude", kind: "history", path: history, layout: "file" },
        { agent: "codex", kind: "codex", path: codex, layout: "dir" },
      ],
      docs: [docs],
      gitRepos: [repo],
    },
  };
}

async function run(w: World, records: string, options: { since?: string; full?: boolean } = {}) {
  return await collect({
    roots: w.roots,
    recordsPath: records,
    config: DEFAULT_CONFIG,
    since: options.since ?? null,
    full: options.full ?? false,
    report: () => {},
  });
}

async function archive(path: string): Promise<VerdictRecord[]> {
  const text = await exportedRecords(path);
  return text.split("\n").filter((l) => l !== "").map((l) => asRecord(JSON.parse(l), RECORD_ORIGINS)!)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What a fresh full collect of the files as they are now yields. */
async function fresh(w: World): Promise<VerdictRecord[]> {
  const path = `${await Deno.makeTempDir()}/records.jsonl`;
  await run(w, path, { full: true });
  return await archive(path);
}

const T0 = Date.parse("2026-01-01T00:00:00Z");
const at = (n: number) => new Date(T0 + n * 60_000).toISOString();

function codexMeta(id: string): string {
  return JSON.stringify({
    timestamp: at(0),
    type: "session_meta",
    payload: { id, source: "cli", originator: "codex_cli_rs", cwd: "/p" },
  });
}

function codexPrompt(n: number, text: string): string {
  return JSON.stringify({
    timestamp: at(n),
    type: "event_msg",
    payload: { type: "user_message", message: text, kind: "plain" },
  });
}

function historyLine(n: number, text: string): string {
  return JSON.stringify({
    display: text,
    pastedContents: {},
    timestamp: T0 + n * 60_000,
    project: "/p",
    sessionId: "h",
  });
}

const brief = (rs: readonly VerdictRecord[]) => rs.map((r) => `${r.id} ${r.source_line} ${r.time} ${r.text}`);

Deno.test("a live writer's last line, consumed without its newline, keeps every later line's number", async () => {
  const w = await world();
  const records = `${w.dir}/records.jsonl`;
  const rollout = `${w.codex}/2026/01/01/rollout-a.jsonl`;
  // Collect sees the second line complete but not yet ended by its newline.
  await Deno.writeTextFile(rollout, `${codexMeta("c-1")}\n${codexPrompt(1, "we decided alpha")}`);
  await run(w, records);
  await Deno.writeTextFile(rollout, `\n${codexPrompt(2, "we decided beta")}\n${codexPrompt(3, "gamma")}\n`, {
    append: true,
  });
  await run(w, records);
  const got = await archive(records);
  assert.deepEqual(got.map((r) => `${r.source_line} ${r.text}`).sort(), [
    "2 we decided alpha",
    "3 we decided beta",
    "4 gamma",
  ]);
  assert.deepEqual(brief(got), brief(await fresh(w)));
});

Deno.test("a file replaced by one with the same first 1 KiB and at least the old size is read again whole", async () => {
  const w = await world();
  const records = `${w.dir}/records.jsonl`;
  const file = `${w.projects}/-p/s-1.jsonl`;
  const head = claudePrompt(1, "x".repeat(1500)); // longer than 1 KiB on its own
  await Deno.writeTextFile(file, `${head}\n${claudePrompt(2, "we decided the old middle")}\n`);
  await run(w, records);
  await Deno.writeTextFile(
    file,
    `${head}\n${claudePrompt(3, "we decided the new middle!")}\n${claudePrompt(4, "and more")}\n`,
  );
  await run(w, records);
  const got = await archive(records);
  assert.deepEqual(brief(got), brief(await fresh(w)));
  assert.ok(!got.some((r) => r.text.includes("old middle")), "the old middle is gone with the old file");
  assert.ok(got.some((r) => r.text.includes("new middle")), "the new middle is read");
});

Deno.test("a file replaced with the same size and modification time (cp -p, rsync -t) is read again", async () => {
  const w = await world();
  const records = `${w.dir}/records.jsonl`;
  const file = `${w.projects}/-p/s-1.jsonl`;
  const doc = `${w.docs}/plan.md`;
  await Deno.writeTextFile(file, `${claudePrompt(1, "we decided postgres")}\n`);
  await Deno.writeTextFile(doc, "# Plan\n\nWe decided postgres.\n");
  await run(w, records);
  const before = [await Deno.stat(file), await Deno.stat(doc)];
  // Same length, other words, and the old modification time put back.
  await Deno.writeTextFile(file, `${claudePrompt(1, "we decided mysql!!!")}\n`);
  await Deno.writeTextFile(doc, "# Plan\n\nWe decided mysql!!!.\n");
  await Deno.utime(file, before[0]!.atime!, before[0]!.mtime!);
  await Deno.utime(doc, before[1]!.atime!, before[1]!.mtime!);
  assert.equal((await Deno.stat(file)).size, before[0]!.size);
  await run(w, records);
  const got = await archive(records);
  assert.deepEqual(brief(got), brief(await fresh(w)));
  assert.ok(got.some((r) => r.kind === "prompt" && r.text.includes("mysql")));
  assert.ok(got.some((r) => r.kind === "doc" && r.text.includes("mysql")));
});

Deno.test("after collect --since D, a plain collect picks up the older lines, sections and commits", async () => {
  const w = await world();
  const records = `${w.dir}/records.jsonl`;
  await Deno.writeTextFile(
    `${w.projects}/-p/s-1.jsonl`,
    `${claudePrompt(1, "we decided an old thing")}\n${claudePrompt(100, "we decided a new thing")}\n`,
  );
  await Deno.writeTextFile(
    w.history,
    `${historyLine(2, "old history")}\n${historyLine(101, "new history")}\n`,
  );
  await Deno.writeTextFile(`${w.docs}/old.md`, "# Old\n\nWe decided something long ago.\n");
  await Deno.utime(`${w.docs}/old.md`, new Date(T0), new Date(T0));
  await Deno.writeTextFile(`${w.repo}/a.txt`, "a\n");
  await git(w.repo, ["add", "."]);
  await git(w.repo, ["commit", "-q", "-m", "An old commit"], at(3));
  const since = at(50);
  await run(w, records, { since });
  const partial = await archive(records);
  assert.ok(partial.every((r) => r.time >= since), "--since leaves the older records out");
  await run(w, records);
  const got = await archive(records);
  for (const text of ["we decided an old thing", "old history", "An old commit"]) {
    assert.ok(got.some((r) => r.text === text), `missing after the plain collect: ${text}`);
  }
  assert.ok(got.some((r) => r.kind === "doc" && r.text.includes("long ago")));
  assert.deepEqual(brief(got), brief(await fresh(w)));
});

/** Sequences tried, and edits per sequence (each edit followed by an incremental collect). */
const SEQUENCES = 12;
const EDITS = 10;

Deno.test("incremental collect equals a full collect over random edit sequences", async () => {
  for (let seed = 1; seed <= SEQUENCES; seed++) {
    const rand = seededRandom(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const w = await world();
    const records = `${w.dir}/records.jsonl`;
    const files = {
      claude: `${w.projects}/-p/s-1.jsonl`,
      claude2: `${w.projects}/-p/s-2.jsonl`,
      codex: `${w.codex}/2026/01/01/rollout-r.jsonl`,
      history: w.history,
    };
    await Deno.writeTextFile(files.claude, "");
    await Deno.writeTextFile(files.claude2, "");
    await Deno.writeTextFile(files.codex, codexMeta(`c-${seed}`) + "\n");
    let n = 1;
    const lineFor = (file: string, text: string) =>
      file === files.codex
        ? codexPrompt(n++, text)
        : file === files.history
        ? historyLine(n++, text)
        : claudePrompt(n++, text, file === files.claude ? "s-1" : "s-2");
    const log: string[] = [];
    for (let step = 0; step < EDITS; step++) {
      const file = pick(Object.values(files));
      const text = await Deno.readTextFile(file);
      const word = `w${seed}x${step}`;
      const op = pick([
        "append",
        "append",
        "append-open",
        "append-partial",
        "end-line",
        "rewrite-middle",
        "rewrite-keep-times",
        "truncate",
        "doc",
        "since",
      ]);
      log.push(`${op} ${file.slice(w.dir.length)}`);
      switch (op) {
        case "append":
          await Deno.writeTextFile(file, `${lineFor(file, `we decided ${word}`)}\n`, { append: true });
          break;
        case "append-open": // complete JSON, newline still to come
          await Deno.writeTextFile(file, lineFor(file, `always ${word}`), { append: true });
          break;
        case "append-partial": { // half a line: a writer caught mid-write
          const line = lineFor(file, `never ${word}`);
          await Deno.writeTextFile(file, line.slice(0, line.length >> 1), { append: true });
          break;
        }
        case "end-line": {
          // Ends whatever last line is open or half written (a half line becomes damage, as it
          // would for a crashed writer; the completed one becomes a record).
          await Deno.writeTextFile(file, "\n", { append: true });
          break;
        }
        case "rewrite-middle": {
          // Same length, same first bytes, one middle word changed.
          const i = text.indexOf("we decided");
          if (i > 0) await Deno.writeTextFile(file, text.slice(0, i) + "we DECIDED" + text.slice(i + 10));
          break;
        }
        case "rewrite-keep-times": {
          const info = await Deno.stat(file);
          const i = text.lastIndexOf("decided");
          if (i > 0) {
            await Deno.writeTextFile(file, text.slice(0, i) + "DECIDED" + text.slice(i + 7));
            await Deno.utime(file, info.atime!, info.mtime!);
          }
          break;
        }
        case "truncate": {
          const cut = text.lastIndexOf("\n", text.length - 2);
          await Deno.writeTextFile(file, cut > 0 ? text.slice(0, cut + 1) : "");
          break;
        }
        case "doc": {
          const doc = `${w.docs}/d${step % 2}.md`;
          const old = await Deno.readTextFile(doc).catch(() => "# Notes\n");
          const info = await Deno.stat(doc).catch(() => null);
          await Deno.writeTextFile(doc, `${old}\n## ${word}\n\nWe decided ${word}.\n`);
          if (info && rand() < 0.5) await Deno.utime(doc, info.atime!, info.mtime!);
          break;
        }
        case "since":
          await run(w, records, { since: at(Math.floor(rand() * n)) });
          continue;
      }
      await run(w, records);
      const [got, want] = [await archive(records), await fresh(w)];
      assert.deepEqual(brief(got), brief(want), `seed ${seed}, after: ${log.join("; ")}`);
    }
  }
});
