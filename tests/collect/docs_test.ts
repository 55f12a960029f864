import assert from "node:assert/strict";
import { compileCredentialRules } from "../../src/record/secrets.ts";

const RULES = compileCredentialRules([]);
import {
  collectDocs,
  type DocsState,
  gitBlobHash,
  isMarkdownName,
  MAX_DOC_BYTES,
  parseLsTree,
  parseNameLog,
} from "../../src/collect/docs.ts";
import { collectGit } from "../../src/collect/git.ts";
import { recordId, type VerdictRecord } from "../../src/record/record.ts";
import type { WorkerAnswer, WorkerJob } from "./collect_worker.ts";
import { commit, git, initRepo, setMtime, tempDir, writeFiles } from "./git_fixture.ts";
import { claudeMemory } from "./_memory.ts";

const SECRET = "TOPSECRET-verdict-test-not-a-real-secret";

interface Problem {
  readonly path: string;
  readonly message: string;
}

function reporter(): { problems: Problem[]; report: (path: string, message: string) => void } {
  const problems: Problem[] = [];
  return { problems, report: (path, message) => problems.push({ path, message }) };
}

function allRecords(replaced: ReadonlyMap<string, readonly VerdictRecord[]>): VerdictRecord[] {
  return [...replaced.values()].flat();
}

async function run(
  docRoots: string[],
  previous: DocsState | null = null,
  claudeProjects: string | null = null,
) {
  const { problems, report } = reporter();
  const result = await collectDocs({
    docRoots,
    memory: claudeMemory(claudeProjects),
    previous,
    since: null,
    report,
    credentialRules: RULES,
    // Looked at well after the files were written (a look within their change second is racy:
    // src/fsutil/identity.ts, tested on its own).
    now: () => Date.now() + 2000,
  });
  // The state goes through JSON between runs.
  const state: DocsState = JSON.parse(JSON.stringify(result.state));
  return { result, state, problems };
}

Deno.test("collectDocs() makes one record per section, dated by mtime outside git", async () => {
  const root = await tempDir("docs");
  await writeFiles(root, { "plan.md": "Preamble.\n\n# Plan\nUse BM25.\n## Later\n\nMaybe bigrams.\n" });
  await setMtime(`${root}/plan.md`, "2026-02-02T03:04:05Z");
  const { result, problems } = await run([root]);
  assert.deepEqual(problems, []);
  const file = `${root}/plan.md`;
  const base = {
    kind: "doc",
    origin: "doc",
    time: "2026-02-02T03:04:05.000Z",
    project: root,
    session: null,
    source_file: file,
    commit: null,
  } as const;
  assert.deepEqual(result.replaced.get(file), [
    { ...base, id: recordId("doc", `${file}#0`), text: "Preamble.", source_line: 1 },
    { ...base, id: recordId("doc", `${file}#1`), text: "# Plan\nUse BM25.", source_line: 3 },
    { ...base, id: recordId("doc", `${file}#2`), text: "## Later\n\nMaybe bigrams.", source_line: 5 },
  ]);
  assert.deepEqual(result.appended, []);
  assert.equal(result.stats.filesRead, 1);
  const info = await Deno.stat(file);
  assert.deepEqual(result.state.files[file], {
    size: info.size,
    mtimeMs: Date.parse("2026-02-02T03:04:05Z"),
    ctimeMs: info.ctime!.getTime(),
    dev: info.dev,
    ino: info.ino,
    racy: result.state.files[file]!.racy,
    time: "2026-02-02T03:04:05.000Z",
    fromGit: false,
    since: null,
    digest: result.state.files[file]!.digest,
  });
  assert.match(result.state.files[file]!.digest, /^[0-9a-f]{64}$/);
});

Deno.test("collectDocs() reads .md and .markdown files and skips dot-directories and node_modules", async () => {
  const root = await tempDir("docs");
  await writeFiles(root, {
    "a.md": "# A\nalpha\n",
    "sub/b.markdown": "# B\nbeta\n",
    "sub/C.MD": "# C\ngamma\n",
    ".hidden/h.md": "# H\nhidden\n",
    "node_modules/pkg/readme.md": "# R\ndependency\n",
    "notes.txt": "not markdown\n",
  });
  const { result } = await run([root]);
  assert.deepEqual([...result.replaced.keys()], [
    `${root}/a.md`,
    `${root}/sub/C.MD`,
    `${root}/sub/b.markdown`,
  ]);
  assert.equal(isMarkdownName(".md"), false);
});

Deno.test("collectDocs() dates committed files by their last commit and edited or untracked ones by mtime", async () => {
  const root = await tempDir("docs");
  const repo = await initRepo(`${root}/proj`);
  await commit(
    repo,
    { "old.md": "# Old\nfirst\n", "edited.md": "# E\none\n" },
    "docs",
    "2026-01-10T00:00:00Z",
  );
  await commit(repo, { "old2.md": "# Old2\nsecond\n" }, "more docs", "2026-01-20T00:00:00Z");
  await commit(repo, { "code.txt": "not a doc\n" }, "code", "2026-01-25T00:00:00Z");
  await writeFiles(repo, { "edited.md": "# E\none, edited\n", "new.md": "# N\nuntracked\n" });
  await writeFiles(root, { "loose.md": "# L\noutside the repo\n" });
  for (const f of [`${repo}/edited.md`, `${repo}/new.md`, `${root}/loose.md`]) {
    await setMtime(f, "2026-02-01T00:00:00Z");
  }
  const { result, state, problems } = await run([root]);
  assert.deepEqual(problems, []);
  const first = (name: string) => result.replaced.get(name)?.[0];
  assert.equal(first(`${repo}/old.md`)?.time, "2026-01-10T00:00:00.000Z");
  assert.equal(first(`${repo}/old2.md`)?.time, "2026-01-20T00:00:00.000Z");
  assert.equal(first(`${repo}/edited.md`)?.time, "2026-02-01T00:00:00.000Z");
  assert.equal(first(`${repo}/new.md`)?.time, "2026-02-01T00:00:00.000Z");
  assert.equal(first(`${root}/loose.md`)?.time, "2026-02-01T00:00:00.000Z");
  // The repository is the project of every file inside it; the doc root of the rest.
  assert.equal(first(`${repo}/old.md`)?.project, repo);
  assert.equal(first(`${repo}/new.md`)?.project, repo);
  assert.equal(first(`${root}/loose.md`)?.project, root);
  assert.equal(state.files[`${repo}/old.md`]?.fromGit, true);
  assert.equal(state.files[`${repo}/edited.md`]?.fromGit, false);
  assert.deepEqual(Object.keys(state.repos), [repo]);
});

Deno.test("collectDocs() finds the repository around a doc root that is a subdirectory of it", async () => {
  const repo = await initRepo(`${await tempDir("docs")}/repo`);
  await commit(repo, { "docs/design.md": "# Design\nlexical only\n" }, "design", "2026-03-03T03:03:03Z");
  const root = `${repo}/docs`;
  const { result } = await run([root]);
  const rec = result.replaced.get(`${root}/design.md`)?.[0];
  assert.equal(rec?.time, "2026-03-03T03:03:03.000Z");
  assert.equal(rec?.project, repo);
});

/** A doc root and a Claude projects dir full of links to a secret outside both. */
async function escapeFixture(): Promise<{ root: string; projects: string; outside: string }> {
  const base = await tempDir("escape");
  const outside = `${base}/outside`;
  await writeFiles(outside, { "secret.md": `# Secret\n${SECRET}\n`, "dir/inner.md": `# Inner\n${SECRET}\n` });
  const root = `${base}/root`;
  await writeFiles(root, { "ok.md": "# Ok\nharmless\n" });
  await Deno.symlink(`${outside}/secret.md`, `${root}/file-link.md`);
  await Deno.symlink("../outside/secret.md", `${root}/relative-link.md`);
  await Deno.symlink(`${outside}/dir`, `${root}/dir-link`);
  await Deno.symlink(`${outside}/dir`, `${root}/dir-link.md`);
  const projects = `${base}/projects`;
  await writeFiles(projects, { "-home-u-proj/memory/mem.md": "# Memory\nuse tabs\n" });
  await Deno.symlink(`${outside}/secret.md`, `${projects}/-home-u-proj/memory/leak.md`);
  await Deno.mkdir(`${projects}/-home-u-other`, { recursive: true });
  await Deno.symlink(`${outside}/dir`, `${projects}/-home-u-other/memory`);
  await Deno.symlink(outside, `${projects}/-home-u-linked`);
  return { root, projects, outside };
}

Deno.test("collectDocs() never reads through a link to outside the roots (file, relative, directory)", async () => {
  const { root, projects } = await escapeFixture();
  const { result } = await run([root], null, projects);
  const records = allRecords(result.replaced);
  assert.ok(!JSON.stringify(records).includes(SECRET), "the secret leaked into a record");
  assert.deepEqual([...result.replaced.keys()], [`${projects}/-home-u-proj/memory/mem.md`, `${root}/ok.md`]);
});

Deno.test("collectDocs() refuses, and reports, files that resolve outside the roots when a root is a link", async () => {
  // Callers pass real paths; should one pass a link, containment still holds, by real path.
  const { root, outside } = await escapeFixture();
  const linkRoot = `${root}/../link-root`;
  await Deno.symlink(outside, linkRoot);
  const { result, problems } = await run([linkRoot]);
  assert.equal(result.replaced.size, 0);
  assert.ok(!JSON.stringify(allRecords(result.replaced)).includes(SECRET));
  assert.equal(result.stats.filesUnreadable, 2);
  assert.equal(result.stats.filesRead, 0);
  assert.deepEqual(problems.map((p) => p.path).sort(), [`${linkRoot}/dir/inner.md`, `${linkRoot}/secret.md`]);
  assert.ok(problems.every((p) => /outside the configured roots/.test(p.message)));
});

Deno.test("collectDocs() reads only <projects>/<project>/memory/*.md from the Claude projects dir", async () => {
  const projects = await tempDir("projects");
  await writeFiles(projects, {
    "-home-u-proj/memory/decisions.md": "# Decisions\nno ORM\n",
    "-home-u-proj/memory/sub/nested.md": "# Nested\nnot read\n",
    "-home-u-proj/notes.md": "# Notes\nnot read\n",
    "-home-u-proj/session.jsonl": "{}\n",
    "top.md": "# Top\nnot read\n",
  });
  const { result } = await run([], null, projects);
  const file = `${projects}/-home-u-proj/memory/decisions.md`;
  assert.deepEqual([...result.replaced.keys()], [file]);
  assert.equal(result.replaced.get(file)?.[0]?.project, `${projects}/-home-u-proj`);
});

Deno.test("collectDocs() run again with nothing changed reads nothing and keeps the state", async () => {
  const root = await tempDir("docs");
  const repo = await initRepo(`${root}/proj`);
  await commit(repo, { "a.md": "# A\nalpha\n" }, "a", "2026-01-10T00:00:00Z");
  await writeFiles(root, { "b.md": "# B\nbeta\n" });
  const first = await run([root]);
  assert.equal(first.result.replaced.size, 2);
  const second = await run([root], first.state);
  assert.equal(second.result.replaced.size, 0);
  assert.equal(second.result.stats.filesRead, 0);
  assert.deepEqual(second.state, first.state);
});

Deno.test("collectDocs() replaces changed and new files, keeps unchanged ones out, and forgets deleted ones", async () => {
  const root = await tempDir("docs");
  await writeFiles(root, { "keep.md": "# K\nkeep\n", "change.md": "# C\nv1\n", "gone.md": "# G\ngone\n" });
  for (const f of ["keep.md", "change.md", "gone.md"]) await setMtime(`${root}/${f}`, "2026-01-01T00:00:00Z");
  const first = await run([root]);
  const firstIds = first.result.replaced.get(`${root}/change.md`)?.map((r) => r.id);

  await writeFiles(root, { "change.md": "# C\nv2\n\n# D\nadded section\n", "new.md": "# N\nnew\n" });
  await setMtime(`${root}/change.md`, "2026-01-02T00:00:00Z");
  await Deno.remove(`${root}/gone.md`);
  const second = await run([root], first.state);
  assert.deepEqual([...second.result.replaced.keys()], [`${root}/change.md`, `${root}/new.md`]);
  const changed = second.result.replaced.get(`${root}/change.md`) ?? [];
  assert.deepEqual(changed.map((r) => r.text), ["# C\nv2", "# D\nadded section"]);
  assert.equal(changed[0]?.id, firstIds?.[0], "a section keeps its id while its ordinal is unchanged");
  assert.equal(changed[0]?.time, "2026-01-02T00:00:00.000Z");
  assert.deepEqual(Object.keys(second.state.files), [
    `${root}/change.md`,
    `${root}/keep.md`,
    `${root}/new.md`,
  ]);
});

Deno.test("collectDocs() notices a commit that changes a file's time, and a rewritten history", async () => {
  const root = await tempDir("docs");
  const repo = await initRepo(`${root}/proj`);
  await commit(repo, { "a.md": "# A\nalpha\n", "b.md": "# B\nbeta\n" }, "docs", "2026-01-10T00:00:00Z");
  await writeFiles(repo, { "a.md": "# A\nalpha two\n" });
  await setMtime(`${repo}/a.md`, "2026-02-01T00:00:00Z");
  const first = await run([root]);
  assert.equal(first.result.replaced.get(`${repo}/a.md`)?.[0]?.time, "2026-02-01T00:00:00.000Z");

  // Committing the edit changes only a.md's time: HEAD moved forward, so only new commits are read.
  await git(repo, ["commit", "-q", "-am", "edit a"], "2026-02-05T00:00:00Z");
  const second = await run([root], first.state);
  assert.deepEqual([...second.result.replaced.keys()], [`${repo}/a.md`]);
  assert.equal(second.result.replaced.get(`${repo}/a.md`)?.[0]?.time, "2026-02-05T00:00:00.000Z");

  // Amending with another date rewrites history: the whole log is consulted again.
  await git(repo, ["commit", "-q", "--amend", "--no-edit", "--reset-author"], "2026-02-07T00:00:00Z");
  const third = await run([root], second.state);
  assert.deepEqual([...third.result.replaced.keys()], [`${repo}/a.md`]);
  assert.equal(third.result.replaced.get(`${repo}/a.md`)?.[0]?.time, "2026-02-07T00:00:00.000Z");
  assert.equal(third.state.files[`${repo}/b.md`]?.time, "2026-01-10T00:00:00.000Z");

  const fourth = await run([root], third.state);
  assert.equal(fourth.result.replaced.size, 0);
});

Deno.test("collectDocs() counts empty, non-UTF-8, binary and oversized files without failing", async () => {
  const root = await tempDir("docs");
  await writeFiles(root, { "empty.md": "", "blank.md": "\n\n", "good.md": "# G\ngood\n" });
  await Deno.writeFile(`${root}/latin1.md`, new Uint8Array([0x23, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a]));
  await Deno.writeFile(`${root}/binary.md`, new Uint8Array([0x23, 0x20, 0x00, 0x01, 0x0a]));
  await Deno.writeTextFile(`${root}/huge.md`, "# Huge\n" + "z".repeat(MAX_DOC_BYTES));
  const { result, problems } = await run([root]);
  assert.deepEqual([...result.replaced.keys()], [`${root}/blank.md`, `${root}/empty.md`, `${root}/good.md`]);
  assert.deepEqual(result.replaced.get(`${root}/empty.md`), []);
  assert.equal(result.stats.filesRead, 3);
  assert.equal(result.stats.filesUnreadable, 3);
  assert.deepEqual(problems.map((p) => p.path).sort(), [
    `${root}/binary.md`,
    `${root}/huge.md`,
    `${root}/latin1.md`,
  ]);
});

Deno.test({
  name: "collectDocs() counts and reports a file it may not read (EACCES)",
  ignore: Deno.build.os === "windows" || Deno.uid() === 0, // root reads any file regardless of mode
  fn: async () => {
    const root = await tempDir("docs");
    await writeFiles(root, { "locked.md": "# L\nlocked\n", "open.md": "# O\nopen\n" });
    await Deno.chmod(`${root}/locked.md`, 0o000);
    try {
      const { result, problems } = await run([root]);
      assert.deepEqual([...result.replaced.keys()], [`${root}/open.md`]);
      assert.equal(result.stats.filesUnreadable, 1);
      assert.deepEqual(problems.map((p) => p.path), [`${root}/locked.md`]);
    } finally {
      await Deno.chmod(`${root}/locked.md`, 0o644);
    }
  },
});

Deno.test("collectDocs() gives the same ids on a full re-collect of unchanged files", async () => {
  const root = await tempDir("docs");
  await writeFiles(root, { "a.md": "# A\none\n# B\ntwo\n" });
  const ids = async () => allRecords((await run([root])).result.replaced).map((r) => r.id);
  assert.deepEqual(await ids(), await ids());
});

Deno.test("parseNameLog() keeps the newest commit time of each wanted path", () => {
  const out = "\x01200\0\na.md\0b.md\0\x01100\0\na.md\0c.md\0";
  assert.deepEqual(
    [...parseNameLog(out, new Set(["a.md", "c.md"]))],
    [["a.md", 200_000], ["c.md", 100_000]],
  );
});

Deno.test("gitBlobHash() names blobs as git does", async () => {
  assert.equal(await gitBlobHash(new Uint8Array()), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  assert.equal(
    await gitBlobHash(new TextEncoder().encode("hello\n")),
    "ce013625030ba8dba906f756967f9e9ca394464a",
  );
});

Deno.test("parseLsTree() keeps blobs and drops links and submodules", () => {
  const h = "1".repeat(40);
  const out = `100644 blob ${h}\tdocs/a b.md\x00120000 blob ${h}\tlink.md\x00160000 commit ${h}\tsub\x00`;
  assert.deepEqual([...parseLsTree(out)], [["docs/a b.md", h]]);
});

Deno.test({
  name: "collectDocs() and collectGit() never let a repository's config start a program",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const root = await tempDir("hostile");
    const repo = await initRepo(`${root}/proj`);
    const marker = `${root}/MARKER`;
    const hook = `${root}/hook.sh`;
    await Deno.writeTextFile(hook, `#!/bin/sh\ntouch "${marker}"\ncat\n`);
    await Deno.chmod(hook, 0o755);
    await commit(repo, { "a.md": "# A\nalpha\n", "b.md": "# B\nbeta\n" }, "docs", "2026-01-10T00:00:00Z");
    // Set after the commit so the fixture's own git calls do not trip them.
    await writeFiles(repo, { ".gitattributes": "*.md filter=evil diff=evil\n" });
    const hostileConfig: [string, string][] = [
      ["core.fsmonitor", hook],
      ["filter.evil.clean", hook],
      ["filter.evil.smudge", hook],
      ["diff.evil.textconv", hook],
      ["diff.external", hook],
      ["gpg.program", hook],
      ["log.showSignature", "true"],
      ["core.pager", hook],
    ];
    for (const [key, value] of hostileConfig) await git(repo, ["config", key, value]);
    await writeFiles(repo, { "b.md": "# B\nbeta, edited\n" });
    const docs = await run([root]);
    assert.equal(docs.result.replaced.get(`${repo}/a.md`)?.[0]?.time, "2026-01-10T00:00:00.000Z");
    await collectGit({ repos: [repo], previous: null, since: null, report: () => {} });
    await assert.rejects(Deno.stat(marker), Deno.errors.NotFound, "a repository-configured program ran");
  },
});

/** Runs one job in a Worker narrowed like collect's: read = the roots, run = git (or nothing), no env. */
function inWorker(job: WorkerJob, read: string[], run: string[] | false): Promise<WorkerAnswer> {
  const worker = new Worker(new URL("./collect_worker.ts", import.meta.url), {
    type: "module",
    deno: {
      permissions: {
        read,
        run,
        write: false,
        net: false,
        env: false,
        sys: false,
        ffi: false,
        import: false,
      },
    },
  });
  return new Promise<WorkerAnswer>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<WorkerAnswer>) => {
      worker.terminate();
      resolve(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(e.message));
    };
    worker.postMessage(job);
  });
}

Deno.test("collectDocs() and collectGit() work in a Worker with collect's narrowed permissions", async () => {
  const { root, projects, outside } = await escapeFixture();
  const repo = await initRepo(`${root}/proj`);
  const hash = await commit(
    repo,
    { "design.md": "# Design\nlexical\n" },
    "Design notes",
    "2026-05-05T05:05:05Z",
  );
  const probe = `${outside}/secret.md`;

  const docs = await inWorker(
    { source: "docs", docRoots: [root], claudeProjects: projects, previous: null, probe },
    [root, projects],
    ["git"],
  );
  assert.equal(docs.error, null);
  // The sandbox is real: no env, and no direct read outside the roots.
  assert.equal(docs.envRead, "NotCapable");
  assert.equal(docs.probeRead, "NotCapable");
  assert.deepEqual(docs.problems, []);
  const docRecords = docs.replaced.flatMap(([, records]) => records);
  assert.ok(!JSON.stringify(docRecords).includes(SECRET));
  const design = docs.replaced.find(([file]) => file === `${repo}/design.md`)?.[1][0];
  assert.equal(design?.time, "2026-05-05T05:05:05.000Z", "git ran inside the sandbox");
  assert.equal(design?.project, repo);

  const gitAnswer = await inWorker({ source: "git", repos: [repo], previous: null, probe }, [repo], ["git"]);
  assert.equal(gitAnswer.error, null);
  assert.deepEqual(gitAnswer.problems, []);
  assert.deepEqual(gitAnswer.replaced.map(([file, records]) => [file, records.map((r) => r.commit)]), [[
    repo,
    [hash],
  ]]);
});

Deno.test("collectDocs() and collectGit() report, and go on, when the sandbox forbids running git", async () => {
  const root = await tempDir("docs");
  const repo = await initRepo(`${root}/proj`);
  await commit(repo, { "a.md": "# A\nalpha\n" }, "a", "2026-01-10T00:00:00Z");
  await setMtime(`${repo}/a.md`, "2026-06-01T00:00:00Z");
  const docs = await inWorker(
    { source: "docs", docRoots: [root], claudeProjects: null, previous: null, probe: `${root}/none` },
    [root],
    false,
  );
  assert.equal(docs.error, null);
  assert.equal(docs.replaced[0]?.[1][0]?.time, "2026-06-01T00:00:00.000Z", "falls back to mtime");
  assert.equal(docs.problems.length, 1);
  assert.match(docs.problems[0]?.message ?? "", /not permitted/);

  const gitAnswer = await inWorker(
    { source: "git", repos: [repo], previous: null, probe: repo },
    [repo],
    false,
  );
  assert.equal(gitAnswer.error, null);
  assert.deepEqual(gitAnswer.replaced, []);
  assert.match(gitAnswer.problems[0]?.message ?? "", /not permitted/);
});

Deno.test("a private key longer than a chunk is dropped with every chunk it touches, and counted", async () => {
  const root = await tempDir("pem");
  const body = Array.from({ length: 50 }, (_, i) => `MIIJFAKE${String(i).padStart(2, "0")}` + "Q".repeat(54));
  const prose = Array.from(
    { length: 4 },
    (_, i) => `Context ${i}: ` + "the key below deploys staging. ".repeat(12),
  );
  await Deno.writeTextFile(
    `${root}/keys.md`,
    [
      "# Keys",
      "",
      "## Staging deploy key",
      "",
      ...prose.flatMap((p) => [p, ""]),
      "```",
      "-----BEGIN RSA PRIVATE KEY-----",
      ...body,
      "-----END RSA PRIVATE KEY-----",
      "```",
      "",
      "## Rotation",
      "",
      "We decided to rotate it monthly.",
      "",
    ].join("\n"),
  );
  const { result } = await run([root]);
  const records = allRecords(result.replaced);
  const all = JSON.stringify(records);
  for (const line of body) {
    assert.ok(!all.includes(line.slice(0, 16)), `a key line was kept: ${line.slice(0, 16)}`);
  }
  assert.ok(!all.includes("PRIVATE KEY"));
  // The chunks the key does not touch stay: the prose before it, the next section.
  assert.ok(records.some((r) => r.text.startsWith("## Staging deploy key\n\nContext 0")));
  assert.ok(records.some((r) => r.text === "## Rotation\n\nWe decided to rotate it monthly."));
  assert.ok(result.stats.secretsDropped >= 2, `only ${result.stats.secretsDropped} chunks counted`);
});
