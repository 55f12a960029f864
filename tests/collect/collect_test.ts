/**
 * `verdict collect` end to end: a temp HOME with Claude Code and Codex transcripts (the bundled
 * examples), a doc root holding a symlink escape, and a real git repo; the real CLI, with the
 * compiled binary's permissions.
 */
import assert from "node:assert/strict";
import { MAX_LINE_BYTES } from "../../src/collect/lines.ts";
import { asRecord, fnv1a64, MAX_RECORD_BYTES, type VerdictRecord } from "../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../src/agents/registry.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { copyTree, denoDir, exportedRecords, runCli, tempHome } from "../cli_helper.ts";
import { storePaths } from "../../src/store/paths.ts";
import { git } from "./git_fixture.ts";

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const SHOP_SESSION = "6f1c2a7e-3b1d-4c55-9a0e-2d7f1e5b8c01";

interface World {
  readonly home: string;
  readonly docs: string;
  readonly repo: string;
  readonly records: string;
  readonly claudeFile: string;
  readonly env: Record<string, string>;
}

async function world(): Promise<World> {
  const home = await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  await copyTree(`${EXAMPLES}codex`, `${home}/.codex`);
  const docs = `${home}/notes`;
  await copyTree(`${EXAMPLES}docs`, docs);
  // A symlink escape: inside the doc root, pointing outside every root.
  await Deno.writeTextFile(
    `${home}/private.md`,
    "# Private\n\nTOPSECRET-LINK-TARGET must never be collected.\n",
  );
  await Deno.symlink(`${home}/private.md`, `${docs}/escape.md`);
  await Deno.mkdir(`${home}/private-dir`);
  await Deno.writeTextFile(`${home}/private-dir/x.md`, "# X\n\nTOPSECRET-DIR-TARGET\n");
  await Deno.symlink(`${home}/private-dir`, `${docs}/escape-dir`);
  // A credential inside a doc: the section is dropped whole.
  await Deno.writeTextFile(
    `${docs}/ops.md`,
    "# Ops\n\n## Access\n\npassword: hunter2-FAKE\n\n## Rotation\n\nRotate keys monthly.\n",
  );
  const repo = `${home}/src/app`;
  await Deno.mkdir(repo, { recursive: true });
  await git(repo, ["init", "-q", "-b", "main"]);
  await Deno.writeTextFile(`${repo}/a.txt`, "a\n");
  await git(repo, ["add", "."]);
  await git(
    repo,
    ["commit", "-q", "-m", "Use pnpm workspaces\n\nWe decided to drop npm install."],
    "2026-02-01T10:00:00Z",
  );
  await Deno.writeTextFile(`${repo}/a.txt`, "b\n");
  await git(repo, ["commit", "-q", "-am", "Bump version"], "2026-02-02T10:00:00Z");
  await git(repo, ["tag", "release-2026-02-02"], "2026-02-02T10:00:00Z");
  await git(repo, ["tag", "v1.2.3"], "2026-02-02T10:00:00Z");
  const config = `${home}/.config/verdict/config.json`;
  await Deno.mkdir(`${home}/.config/verdict`, { recursive: true });
  await Deno.writeTextFile(config, JSON.stringify({ doc_roots: [docs], git_repos: [repo] }));
  return {
    home,
    docs,
    repo,
    records: `${home}/.local/share/verdict/records.db`,
    claudeFile: `${home}/.claude/projects/-home-dev-shop/${SHOP_SESSION}.jsonl`,
    env: { HOME: home },
  };
}

async function readRecords(path: string): Promise<VerdictRecord[]> {
  return (await exportedRecords(path)).split("\n").filter((l) => l).map((l) => {
    const r = asRecord(JSON.parse(l), RECORD_ORIGINS);
    assert.ok(r, `not a record: ${l}`);
    return r;
  });
}

const brief = (r: VerdictRecord) => `${r.kind}:${r.source_line}:${r.text.split("\n")[0]!.slice(0, 40)}`;

Deno.test("collect yields exactly the typed prompts, notes, docs, commits and date tags", async () => {
  const w = await world();
  const r = await runCli(["collect"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const records = await readRecords(w.records);
  const bySource = (pred: (r: VerdictRecord) => boolean) => records.filter(pred).map(brief).sort();

  assert.deepEqual(bySource((x) => x.source_file === w.claudeFile), [
    "note:5:# Shop conventions",
    "prompt:11:Caching with redis? Never mind the redis",
    "prompt:14:For the API, always put the version in t",
    "prompt:4:We decided: the orders service uses Post",
    "prompt:7:以后都统一用 pnpm，不要再用 npm install 了。",
  ]);
  // The history line of another session survives; the one duplicating a transcript prompt does not.
  assert.deepEqual(bySource((x) => x.source_file.endsWith("/.claude/history.jsonl")), [
    "prompt:3:Deploys go out on Tuesdays only; no Frid",
  ]);
  assert.deepEqual(bySource((x) => x.origin === "codex"), [
    "prompt:4:From now on, run the migrations with sql",
    "prompt:6:决定：订单金额一律用整数分存储，不要用浮点数。",
  ]);
  assert.deepEqual(bySource((x) => x.kind === "doc"), [
    "doc:12:## ADR-003 Deploys",
    "doc:3:## ADR-001 Database",
    "doc:7:## Rotation",
    "doc:8:## ADR-002 Package manager",
  ]);
  assert.deepEqual(bySource((x) => x.origin === "git"), [
    "commit:0:Bump version",
    "commit:0:Use pnpm workspaces",
    "tag:0:release-2026-02-02",
  ]);
  assert.equal(records.length, 15);

  const all = await exportedRecords(w.records);
  assert.ok(!all.includes("TOPSECRET"), "a symlink escape reached the records");
  assert.ok(!all.includes("hunter2"), "a credential reached the records");
  for (const f of await Array.fromAsync(Deno.readDir(`${w.home}/.local/share/verdict`))) {
    const text = await Deno.readTextFile(`${w.home}/.local/share/verdict/${f.name}`).catch(() => "");
    assert.ok(!text.includes("hunter2") && !text.includes("TOPSECRET"), `leak in ${f.name}`);
  }
  assert.match(r.stderr, /15 new, 15 records \(prompt 7, note 1, doc 4, commit 2, tag 1\)/);
  assert.match(r.stderr, /1 dropped as credentials/);
  const commit = records.find((x) => x.kind === "commit" && x.text.startsWith("Use pnpm"))!;
  assert.equal(commit.time, "2026-02-01T10:00:00.000Z");
  assert.equal(commit.text, "Use pnpm workspaces\n\nWe decided to drop npm install.");
  assert.match(commit.commit ?? "", /^[0-9a-f]{40}$/);
});

Deno.test("a re-collect with nothing new writes nothing; a grown transcript adds only its new lines", async () => {
  const w = await world();
  assert.equal((await runCli(["collect"], { env: w.env })).code, 0);
  const first = await exportedRecords(w.records);
  const again = await runCli(["collect"], { env: w.env });
  assert.match(again.stderr, /nothing new, 15 records/);
  assert.equal(await exportedRecords(w.records), first);

  const line = JSON.stringify({
    parentUuid: "u-0012",
    isSidechain: false,
    userType: "external",
    cwd: "/home/dev/shop",
    sessionId: SHOP_SESSION,
    version: "2.1.180",
    entrypoint: "cli",
    type: "user",
    message: { role: "user", content: "Settled: invoices are PDFs rendered server-side." },
    uuid: "u-0013",
    timestamp: "2026-03-01T09:20:00.000Z",
    origin: { kind: "human" },
  });
  await Deno.writeTextFile(w.claudeFile, line + "\n", { append: true });
  const grown = await runCli(["collect"], { env: w.env });
  assert.equal(grown.code, 0, grown.stderr);
  assert.match(grown.stderr, /1 new, 16 records/);
  assert.match(grown.stderr, /1 file\(s\) read/);
  const incremental = await exportedRecords(w.records);

  // The same inputs collected from scratch give the same bytes.
  const full = await runCli(["collect", "--full", "--out", `${w.home}/full.db`], { env: w.env });
  assert.equal(full.code, 0, full.stderr);
  assert.equal(await exportedRecords(`${w.home}/full.db`), incremental);
});

Deno.test("records whose transcript was deleted are kept by later collects", async () => {
  const w = await world();
  assert.equal((await runCli(["collect"], { env: w.env })).code, 0);
  await Deno.remove(w.claudeFile);
  await Deno.writeTextFile(`${w.docs}/new.md`, "# New\n\nA fresh note.\n");
  const r = await runCli(["collect"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const records = await readRecords(w.records);
  assert.equal(records.filter((x) => x.source_file === w.claudeFile).length, 5);
  assert.equal(records.length, 16);
});

Deno.test("a malformed config stops collect with exit 3, naming file, line and column, writing nothing", async () => {
  const w = await world();
  await Deno.writeTextFile(
    `${w.home}/.config/verdict/config.json`,
    '{\n  "doc_roots": ["a"]\n  "git_repos": []\n}',
  );
  const r = await runCli(["collect"], { env: w.env });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /config\.json.*line 3, column 3/);
  await assert.rejects(Deno.stat(storePaths(w.records).db), Deno.errors.NotFound);
});

Deno.test("an unknown config key and an invalid credential rule are refused by name, nothing written", async () => {
  const w = await world();
  const cfg = `${w.home}/.config/verdict/config.json`;
  await Deno.writeTextFile(cfg, JSON.stringify({ doc_root: [] }));
  const unknown = await runCli(["collect"], { env: w.env });
  assert.equal(unknown.code, 3);
  assert.match(unknown.stderr, /Unknown key "doc_root"/);
  await Deno.writeTextFile(cfg, JSON.stringify({ credential_patterns: ["keyword:api_key", "([bad"] }));
  const bad = await runCli(["collect"], { env: w.env });
  assert.equal(bad.code, 3);
  assert.match(bad.stderr, /credential_patterns\[1\]/);
  await assert.rejects(Deno.stat(storePaths(w.records).db), Deno.errors.NotFound);
});

Deno.test("a new credential rule also removes matching records already in the archive", async () => {
  const w = await world();
  assert.equal((await runCli(["collect"], { env: w.env })).code, 0);
  const cfg = `${w.home}/.config/verdict/config.json`;
  const config = JSON.parse(await Deno.readTextFile(cfg));
  await Deno.writeTextFile(cfg, JSON.stringify({ ...config, credential_patterns: ["sqlx migrate"] }));
  const r = await runCli(["collect"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!(await exportedRecords(w.records)).includes("sqlx migrate"));
  assert.match(r.stderr, /1 dropped as credentials/);
  // Gone from every file of the archive: the database, its log, the index segments.
  const found = await filesHolding(`${w.home}/.local/share/verdict`, ["sqlx migrate", "sqlx"]);
  assert.deepEqual(found, [], `the removed text is still in ${found.join(", ")}`);
});

/** Files under `dir` (recursively) whose bytes hold any of `needles` (as UTF-8). */
async function filesHolding(dir: string, needles: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await filesHolding(path, needles));
    else if (e.isFile) {
      const bytes = new TextDecoder("latin1").decode(await Deno.readFile(path));
      const utf8 = (s: string) => String.fromCharCode(...new TextEncoder().encode(s));
      if (needles.some((n) => bytes.includes(utf8(n)))) out.push(path);
    }
  }
  return out;
}

Deno.test("real-world damage is skipped and counted, never fatal", async () => {
  const w = await world();
  const dir = `${w.home}/.claude/projects/-home-dev-broken`;
  await Deno.mkdir(dir);
  const good = (uuid: string, text: string) =>
    JSON.stringify({
      type: "user",
      uuid,
      sessionId: "b1",
      cwd: "/b",
      entrypoint: "cli",
      timestamp: "2026-04-01T00:00:00Z",
      message: { role: "user", content: text },
    });
  const bad = new Uint8Array([0x7b, 0xff, 0xfe, 0x0a]); // "{" + invalid UTF-8 + newline
  const enc = new TextEncoder();
  const parts = [
    enc.encode(good("b-1", "first prompt") + "\n"),
    enc.encode("this is not json\n"),
    bad,
    enc.encode(good("b-2", "second prompt") + "\n"),
    enc.encode('{"type":"user","uuid":"b-3","mess'), // a live session's truncated last line
  ];
  await Deno.writeFile(`${dir}/broken.jsonl`, new Uint8Array(parts.flatMap((p) => [...p])));
  await Deno.writeTextFile(`${dir}/empty.jsonl`, "");
  const r = await runCli(["collect"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const texts = (await readRecords(w.records)).filter((x) => x.project === "/b").map((x) => x.text);
  assert.deepEqual(texts, ["first prompt", "second prompt"]);
  assert.match(r.stderr, /2 line\(s\) skipped/);
});

Deno.test("collect --since leaves out older records; --doc-root must exist", async () => {
  const w = await world();
  const r = await runCli(["collect", "--since", "2026-03-01T09:06:00Z"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const records = await readRecords(w.records);
  assert.ok(records.every((x) => x.time >= "2026-03-01T09:06:00.000Z"), records.map(brief).join("\n"));
  assert.ok(records.length > 0);
  const missing = await runCli(["collect", "--doc-root", `${w.home}/nope`], { env: w.env });
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /no such directory/);
  const badDate = await runCli(["collect", "--since", "yesterday"], { env: w.env });
  assert.equal(badDate.code, 3);
  assert.match(badDate.stderr, /--since "yesterday" is not a date/);
});

Deno.test("collect refuses to overwrite a file that is not a records archive", async () => {
  const w = await world();
  const out = `${w.home}/notes.txt`;
  await Deno.writeTextFile(out, "my precious notes\n");
  const r = await runCli(["collect", "--out", out], { env: w.env });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /Refusing to migrate ".*notes\.txt": none of its 1 lines is a verdict record/);
  assert.equal(await Deno.readTextFile(out), "my precious notes\n");
});

Deno.test("collect on a machine with no history says so and how to go on", async () => {
  const home = await tempHome();
  const r = await runCli(["collect"], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /0 new, 0 records/);
  assert.match(r.stderr, /found nothing to read: no .*\/\.claude\/projects, no .*\/\.codex\/sessions/);
  assert.match(r.stderr, /hint: add --doc-root DIR or --git-repo DIR/);
});

Deno.test("an archive written before a built-in rule existed is screened again by the next collect, even with nothing new", async () => {
  const w = await world();
  // What an older verdict left: a records file holding a record its rules let through, and a
  // state naming those rules (their digest covered only the configured list) that matches it.
  const old = JSON.stringify({
    id: "p00000000000000aa",
    kind: "prompt",
    origin: "claude",
    text: "the browser token is xoxc-0000000000-0000000000-FAKEfakeFAKE",
    time: "2026-01-01T00:00:00.000Z",
    project: "/home/dev/shop",
    session: "old",
    source_file: "/gone/old.jsonl",
    source_line: 1,
    commit: null,
  });
  await Deno.mkdir(`${w.home}/.local/share/verdict`, { recursive: true });
  const legacy = `${w.home}/.local/share/verdict/records.jsonl`;
  await Deno.writeTextFile(legacy, old + "\n");
  const info = await Deno.stat(legacy);
  const state = {
    version: 1,
    rulesDigest: fnv1a64(JSON.stringify([])),
    recordsSize: info.size,
    recordsMtimeMs: info.mtime!.getTime(),
    byKind: { prompt: 1, note: 0, doc: 0, commit: 0, tag: 0 },
    transcripts: {},
    docs: null,
    git: null,
  };
  await Deno.writeTextFile(`${legacy}.state.json`, JSON.stringify(state));
  const r = await runCli(["collect"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /migrated 1 records/);
  // The migrated record, and the password section of the world's docs (as in the first test).
  assert.match(r.stderr, /2 dropped as credentials/);
  assert.ok(!(await exportedRecords(w.records)).includes("xoxc-"));
  // Nothing new now, and the same rules: nothing is screened or dropped again.
  const again = await runCli(["collect"], { env: w.env });
  assert.match(again.stderr, /nothing new/);
  assert.doesNotMatch(again.stderr, /dropped as credentials/);
});

/** A commit written by hand, so its author time can be anything (git's own commands refuse some). */
async function rawCommit(repo: string, seconds: string, message: string): Promise<void> {
  const run = async (args: string[], stdin?: string) => {
    const child = new Deno.Command("git", {
      args: ["-C", repo, ...args],
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
      },
      stdin: stdin === undefined ? "null" : "piped",
      stdout: "piped",
    }).spawn();
    if (stdin !== undefined) await ReadableStream.from([new TextEncoder().encode(stdin)]).pipeTo(child.stdin);
    const out = await child.output();
    assert.equal(out.code, 0, `git ${args.join(" ")}`);
    return new TextDecoder().decode(out.stdout).trim();
  };
  await run(["add", "."]);
  const tree = await run(["write-tree"]);
  const parent = await run(["rev-parse", "-q", "--verify", "HEAD"]).catch(() => "");
  const who = `A <a@example.invalid> ${seconds} +0000`;
  const body = `tree ${tree}\n${
    parent ? `parent ${parent}\n` : ""
  }author ${who}\ncommitter ${who}\n\n${message}\n`;
  const hash = await run(["hash-object", "-t", "commit", "-w", "--stdin"], body);
  await run(["update-ref", "refs/heads/main", hash]);
}

Deno.test("a line or commit with an impossible time is skipped and counted; the rest of every source is collected", async () => {
  const w = await world();
  const history = `${w.home}/.claude/history.jsonl`;
  await Deno.writeTextFile(
    history,
    JSON.stringify({
      display: "we decided far future",
      pastedContents: {},
      timestamp: 1e20,
      sessionId: "h9",
    }) +
      "\n" +
      JSON.stringify({
        display: "history after it",
        timestamp: Date.parse("2026-03-03T00:00:00Z"),
        sessionId: "h9",
      }) +
      "\n",
    { append: true },
  );
  const codexDir = `${w.home}/.codex/sessions/2026/03/04`;
  await Deno.mkdir(codexDir, { recursive: true });
  await Deno.writeTextFile(
    `${codexDir}/rollout-2026-03-04T00-00-00-bad.jsonl`,
    [
      {
        timestamp: "2026-03-04T00:00:00.000Z",
        type: "session_meta",
        payload: { id: "c-bad", source: "cli", cwd: "/x" },
      },
      {
        timestamp: 1e20,
        type: "event_msg",
        payload: { type: "user_message", message: "rollout far future" },
      },
      {
        timestamp: "2026-03-04T00:01:00.000Z",
        type: "event_msg",
        payload: { type: "user_message", message: "rollout after it" },
      },
    ].map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  // A repository (also a doc root) whose last commit claims the year 3,170,843.
  await Deno.writeTextFile(`${w.repo}/notes.md`, "# Notes\n\nWe decided the notes stay.\n");
  await rawCommit(w.repo, "99999999999999", "From the far future");
  const cfg = `${w.home}/.config/verdict/config.json`;
  await Deno.writeTextFile(cfg, JSON.stringify({ doc_roots: [w.docs, w.repo], git_repos: [w.repo] }));
  for (const args of [["collect"], ["collect"], ["collect", "--full"]]) {
    const r = await runCli(args, { env: w.env });
    assert.equal(r.code, 0, r.stderr);
    const texts = (await readRecords(w.records)).map((x) => x.text);
    for (
      const text of [
        "history after it",
        "rollout after it",
        "Use pnpm workspaces\n\nWe decided to drop npm install.",
      ]
    ) {
      assert.ok(texts.includes(text), `${args.join(" ")}: missing ${JSON.stringify(text)}`);
    }
    assert.ok(texts.some((t) => t.startsWith("# Notes")), "the doc falls back to its file time");
    assert.ok(!texts.some((t) => /far future/i.test(t)), "a record with an impossible time");
    if (!r.stderr.includes("nothing new")) assert.match(r.stderr, /\b3 line\(s\) skipped/);
  }
});

Deno.test("a FIFO or a device at a transcript path is reported and skipped; collect never blocks on it", async () => {
  const w = await world();
  const history = `${w.home}/.claude/history.jsonl`;
  await Deno.remove(history);
  const mkfifo = await new Deno.Command("mkfifo", { args: [history] }).output();
  assert.equal(mkfifo.code, 0);
  const codexDir = `${w.home}/.codex/sessions/2026/03/05`;
  await Deno.mkdir(codexDir, { recursive: true });
  await new Deno.Command("mkfifo", { args: [`${codexDir}/rollout-fifo.jsonl`] }).output();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, "collect"],
    env: { PATH: Deno.env.get("PATH") ?? "", DENO_DIR: denoDir(), HOME: w.home, NO_COLOR: "1" },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const out = await child.output();
  clearTimeout(timer);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `collect blocked or failed: ${stderr}`);
  assert.match(stderr, /history\.jsonl: skipped: not a regular file/);
  assert.match(stderr, /1 unreadable/);
  assert.ok((await readRecords(w.records)).length > 0, "everything else is collected");
  // A history that is a link to a device resolves outside nothing (the root is the file itself).
  await Deno.remove(history);
  await Deno.symlink("/dev/zero", history);
  const zero = await runCli(["collect"], { env: w.env });
  assert.equal(zero.code, 0, zero.stderr);
  assert.match(zero.stderr, /skipped: not a regular file/);
});

Deno.test("a prompt over the record cap and a line that is not UTF-8 are skipped and counted", async () => {
  const w = await world();
  const dir = `${w.home}/.claude/projects/-home-dev-big`;
  await Deno.mkdir(dir);
  const line = (uuid: string, text: string) =>
    JSON.stringify({
      type: "user",
      uuid,
      sessionId: "big",
      cwd: "/big",
      entrypoint: "cli",
      timestamp: "2026-04-01T00:00:00Z",
      message: { role: "user", content: text },
    });
  const enc = new TextEncoder();
  const huge = "we decided to paste this log " + "0123456789".repeat((MAX_RECORD_BYTES / 10) + 1);
  const notUtf8 = enc.encode(line("u-bad", "caf\u00e9 latte"));
  const at = notUtf8.indexOf(0xc3);
  notUtf8[at] = 0xff; // "é" broken into an invalid byte
  await Deno.writeFile(
    `${dir}/big.jsonl`,
    new Uint8Array([
      ...enc.encode(line("u-1", "a normal prompt") + "\n"),
      ...enc.encode(line("u-huge", huge) + "\n"),
      ...notUtf8,
      ...enc.encode("\n" + line("u-2", "another normal prompt") + "\n"),
    ]),
  );
  const r = await runCli(["collect"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const texts = (await readRecords(w.records)).filter((x) => x.project === "/big").map((x) => x.text);
  assert.deepEqual(texts.sort(), ["a normal prompt", "another normal prompt"]);
  assert.match(r.stderr, /\b2 line\(s\) skipped/);
  assert.ok((await Deno.stat(w.records)).size < MAX_RECORD_BYTES, "no oversized record was stored");
});

Deno.test("README's limits for skipped lines and records are the code's", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
  assert.match(readme, new RegExp(`lines over ${mib(MAX_LINE_BYTES)}`));
  assert.match(readme, new RegExp(`records over ${mib(MAX_RECORD_BYTES)}`));
  assert.doesNotMatch(readme, /50 MB lines/);
});

Deno.test("VERDICT_DEBUG_MEMORY prints the memory at the end of each stage of a collect, in order, and nothing without it", async () => {
  const w = await world();
  const traced = await runCli(["collect"], { env: { ...w.env, VERDICT_DEBUG_MEMORY: "1" } });
  assert.equal(traced.code, 0, traced.stderr);
  const stages = [
    ...traced.stderr.matchAll(
      /^collect: memory at [\d.]+ s, (.+): rss (\d+) MB, heap \d+ MB of \d+ MB, external \d+ MB$/gm,
    ),
  ]
    .map((m) => m[1]!.replace(/^segment \d+ written \(\d+ documents\)$/, "segment written"));
  assert.deepEqual(stages, [
    "archive opened",
    "sources' state loaded",
    "transcripts read",
    "docs read",
    "git read",
    "sources read, their state saved",
    "records inserted, their indexes built",
    "records merged",
    "CJK words derived",
    "segment written",
    "new segments written",
    "committed",
  ]);
  // The same collect, untraced, says only its summary.
  const plain = await runCli(["collect", "--full", "--out", `${w.home}/plain.db`], { env: w.env });
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(plain.stderr, /memory at/);
  assert.match(plain.stderr, /15 records/);
});
