import assert from "node:assert/strict";
import { collectGit, dateInTagName, type GitState, parseCommitLog } from "../../src/collect/git.ts";
import { classifyStderr, GitError, gitRepoInfo, runGitText } from "../../src/collect/git_run.ts";
import { recordId, type VerdictRecord } from "../../src/record/record.ts";
import { commit, git, initRepo, tempDir } from "./git_fixture.ts";

interface Problem {
  readonly path: string;
  readonly message: string;
}

function reporter(): { problems: Problem[]; report: (path: string, message: string) => void } {
  const problems: Problem[] = [];
  return { problems, report: (path, message) => problems.push({ path, message }) };
}

/** A repository with commits on two branches and date, non-date and odd tags. */
async function sampleRepo(): Promise<{ repo: string; c1: string; c2: string; c3: string }> {
  const repo = await initRepo(`${await tempDir("git")}/repo`);
  const c1 = await commit(repo, { "README.md": "# Repo\n" }, "Initial import", "2026-01-05T10:00:00Z");
  const c2 = await commit(
    repo,
    { "rank.md": "bm25\n" },
    "Use BM25 for ranking\n\nWe decided against embeddings.\n\n决定：不用向量检索。",
    "2026-02-10T09:30:00+01:00",
  );
  await git(repo, ["tag", "snapshot-20260210"]);
  await git(
    repo,
    ["tag", "-a", "release-2026-03-01", "-m", "First release\n\nShips recall."],
    "2026-03-01T12:00:00Z",
  );
  await git(repo, ["tag", "-a", "v1.2.3", "-m", "Not a date"], "2026-03-02T12:00:00Z");
  // A tag of a blob names no change: it is skipped even though its name holds a date.
  await git(repo, ["tag", "blob-2026-01-01", await git(repo, ["hash-object", "-w", "--stdin"])]);
  await git(repo, ["checkout", "-q", "-b", "feature"]);
  const c3 = await commit(
    repo,
    { "x.md": "x\n" },
    "Experiment on the feature branch",
    "2026-02-20T00:00:00Z",
  );
  await git(repo, ["checkout", "-q", "main"]);
  return { repo, c1, c2, c3 };
}

function commitRecord(repo: string, hash: string, text: string, time: string): VerdictRecord {
  return {
    id: recordId("commit", `${repo}:${hash}`),
    kind: "commit",
    origin: "git",
    text,
    time,
    project: repo,
    session: null,
    source_file: repo,
    source_line: 0,
    commit: hash,
  };
}

Deno.test("collectGit() turns commits of every branch and date tags into records", async () => {
  const { repo, c1, c2, c3 } = await sampleRepo();
  const { problems, report } = reporter();
  const result = await collectGit({ repos: [repo], previous: null, since: null, report });
  assert.deepEqual(problems, []);
  assert.deepEqual([...result.replaced.keys()], [repo]);
  const records = result.replaced.get(repo) ?? [];
  const tag = (name: string, text: string, time: string): VerdictRecord => ({
    id: recordId("tag", `${repo}:${name}`),
    kind: "tag",
    origin: "git",
    text,
    time,
    project: repo,
    session: null,
    source_file: repo,
    source_line: 0,
    commit: c2,
  });
  assert.deepEqual(records, [
    commitRecord(repo, c1, "Initial import", "2026-01-05T10:00:00.000Z"),
    commitRecord(
      repo,
      c2,
      "Use BM25 for ranking\n\nWe decided against embeddings.\n\n决定：不用向量检索。",
      "2026-02-10T08:30:00.000Z",
    ),
    // A lightweight tag takes its commit's date; the name is the whole text.
    tag("snapshot-20260210", "snapshot-20260210", "2026-02-10T08:30:00.000Z"),
    commitRecord(repo, c3, "Experiment on the feature branch", "2026-02-20T00:00:00.000Z"),
    // An annotated tag takes the tagger date and carries its message.
    tag(
      "release-2026-03-01",
      "release-2026-03-01\n\nFirst release\n\nShips recall.",
      "2026-03-01T12:00:00.000Z",
    ),
  ]);
  assert.deepEqual(result.appended, []);
  assert.equal(result.stats.filesRead, 1);
});

Deno.test("dateInTagName() accepts real calendar dates in common spellings only", () => {
  const table: [string, string | null][] = [
    ["release-2026-03-01", "2026-03-01"],
    ["v20260301", "2026-03-01"],
    ["2026.03.01", "2026-03-01"],
    ["2026_03_01", "2026-03-01"],
    ["deploy/2026/03/01", "2026-03-01"],
    ["rc-2024-02-29", "2024-02-29"],
    ["v1.2.3", null],
    ["v2.10.12", null],
    ["release-2026-02-29", null],
    ["2026-13-01", null],
    ["2026-00-10", null],
    ["2026-04-31", null],
    ["2026-03-00", null],
    ["2026-03.01", null],
    ["build-12345678", null],
    ["20260301120000", null],
    ["x2026030112", null],
    ["1969-12-31", null],
    ["2100-01-01", null],
    ["v3-then-2026-03-01", "2026-03-01"],
    ["", null],
  ];
  for (const [name, expected] of table) assert.equal(dateInTagName(name), expected, name);
});

Deno.test("collectGit() run again with nothing changed reads nothing and keeps the state", async () => {
  const { repo } = await sampleRepo();
  const first = await collectGit({ repos: [repo], previous: null, since: null, report: () => {} });
  const state: GitState = JSON.parse(JSON.stringify(first.state));
  const second = await collectGit({ repos: [repo], previous: state, since: null, report: () => {} });
  assert.equal(second.replaced.size, 0);
  assert.deepEqual(second.state, first.state);
  assert.equal(second.stats.filesRead, 0);
});

Deno.test("collectGit() re-reads a repository after a new commit or a new tag", async () => {
  const { repo } = await sampleRepo();
  const first = await collectGit({ repos: [repo], previous: null, since: null, report: () => {} });
  const c4 = await commit(repo, { "new.md": "n\n" }, "Switch to hyperbolic decay", "2026-03-05T00:00:00Z");
  const second = await collectGit({ repos: [repo], previous: first.state, since: null, report: () => {} });
  const records = second.replaced.get(repo) ?? [];
  assert.equal(records.length, (first.replaced.get(repo)?.length ?? 0) + 1);
  assert.ok(records.some((r) => r.commit === c4 && r.text === "Switch to hyperbolic decay"));

  // A tag alone moves no HEAD, but the refs digest notices it.
  await git(repo, ["tag", "shipped-2026.03.06"], "2026-03-06T00:00:00Z");
  const third = await collectGit({ repos: [repo], previous: second.state, since: null, report: () => {} });
  const tag = third.replaced.get(repo)?.find((r) => r.kind === "tag" && r.text === "shipped-2026.03.06");
  assert.equal(tag?.commit, c4);
  assert.equal(tag?.time, "2026-03-05T00:00:00.000Z");
});

Deno.test("collectGit() reports a path that is not a git repository and goes on", async () => {
  const { repo } = await sampleRepo();
  const plain = await tempDir("plain");
  const missing = `${plain}/does-not-exist`;
  const { problems, report } = reporter();
  const result = await collectGit({ repos: [plain, missing, repo], previous: null, since: null, report });
  assert.deepEqual([...result.replaced.keys()], [repo]);
  assert.deepEqual(problems.map((p) => p.path).sort(), [missing, plain].sort());
  assert.ok(problems.every((p) => /not a git work tree/.test(p.message)));
  assert.equal(result.stats.filesUnreadable, 2);
  assert.deepEqual(Object.keys(result.state.repos), [repo]);
});

Deno.test("collectGit() gives an empty repository no records and no error", async () => {
  const repo = await initRepo(`${await tempDir("empty")}/repo`);
  const { problems, report } = reporter();
  const first = await collectGit({ repos: [repo], previous: null, since: null, report });
  assert.deepEqual(problems, []);
  assert.deepEqual(first.replaced.get(repo), []);
  assert.equal(first.state.repos[repo]?.head, null);
  const again = await collectGit({ repos: [repo], previous: first.state, since: null, report });
  assert.equal(again.replaced.size, 0);
  await commit(repo, {}, "First words", "2026-04-01T00:00:00Z");
  const after = await collectGit({ repos: [repo], previous: again.state, since: null, report });
  assert.deepEqual(after.replaced.get(repo)?.map((r) => r.text), ["First words"]);
});

Deno.test("collectGit() counts a repository named twice or by a subdirectory once, under its top level", async () => {
  const { repo } = await sampleRepo();
  await Deno.mkdir(`${repo}/sub/dir`, { recursive: true });
  const result = await collectGit({
    repos: [`${repo}/sub/dir`, repo, repo],
    previous: null,
    since: null,
    report: () => {},
  });
  assert.deepEqual([...result.replaced.keys()], [repo]);
  assert.equal(new Set(result.replaced.get(repo)?.map((r) => r.id)).size, result.replaced.get(repo)?.length);
});

Deno.test("collectGit() accepts an unrecognised previous state as a full collect", async () => {
  const { repo } = await sampleRepo();
  const bogus = { version: 99, repos: "nope" } as unknown as GitState;
  const result = await collectGit({ repos: [repo], previous: bogus, since: null, report: () => {} });
  assert.equal(result.replaced.size, 1);
});

Deno.test("collectGit() follows a tag of a tag to its commit", async () => {
  const repo = await initRepo(`${await tempDir("nested")}/repo`);
  const c1 = await commit(repo, { "a.md": "a\n" }, "Ship it", "2026-01-01T00:00:00Z");
  await git(repo, ["tag", "-a", "inner", "-m", "inner"], "2026-01-02T00:00:00Z");
  await git(
    repo,
    ["-c", "advice.nestedTag=false", "tag", "-a", "outer-2026-01-03", "-m", "Outer", "inner"],
    "2026-01-03T00:00:00Z",
  );
  const result = await collectGit({ repos: [repo], previous: null, since: null, report: () => {} });
  const tag = result.replaced.get(repo)?.find((r) => r.kind === "tag");
  assert.equal(tag?.commit, c1);
  assert.equal(tag?.time, "2026-01-03T00:00:00.000Z");
  assert.equal(tag?.text, "outer-2026-01-03\n\nOuter");
});

Deno.test("parseCommitLog() splits NUL-separated commits and joins subject and body", () => {
  const h1 = "a".repeat(40);
  const h2 = "b".repeat(40);
  const out =
    `${h1}\x001772359200\x00Subject one\x00Body line\n\nMore\n\x00\n${h2}\x000\x00Only subject\x00\x00\n`;
  assert.deepEqual(parseCommitLog(out), [
    { hash: h1, time: "2026-03-01T10:00:00.000Z", text: "Subject one\n\nBody line\n\nMore" },
    { hash: h2, time: "1970-01-01T00:00:00.000Z", text: "Only subject" },
  ]);
  assert.deepEqual(parseCommitLog(""), []);
});

Deno.test("gitRepoInfo() fails with a typed error outside a repository", async () => {
  const plain = await tempDir("plain");
  await assert.rejects(gitRepoInfo(plain), (err: unknown) => {
    assert.ok(err instanceof GitError);
    assert.equal(err.failure, "not-a-repository");
    return true;
  });
  await assert.rejects(gitRepoInfo(`${plain}/missing`), (err: unknown) => {
    assert.ok(err instanceof GitError && err.failure === "not-a-repository");
    return true;
  });
});

Deno.test("classifyStderr() recognises git's refusals", () => {
  assert.equal(
    classifyStderr("fatal: not a git repository (or any of the parent directories): .git"),
    "not-a-repository",
  );
  assert.equal(classifyStderr("fatal: cannot change to '/x': No such file or directory"), "not-a-repository");
  assert.equal(
    classifyStderr("fatal: detected dubious ownership in repository at '/r'"),
    "unsafe-repository",
  );
  assert.equal(classifyStderr("fatal: bad object"), "failed");
});

Deno.test("runGitText() ignores git variables of the calling environment", async () => {
  const { repo } = await sampleRepo();
  const saved = Deno.env.get("GIT_DIR");
  Deno.env.set("GIT_DIR", "/nonexistent/verdict-not-a-git-dir");
  try {
    const top = await runGitText(repo, ["rev-parse", "--show-toplevel"]);
    assert.equal(top.trim(), repo);
  } finally {
    if (saved === undefined) Deno.env.delete("GIT_DIR");
    else Deno.env.set("GIT_DIR", saved);
  }
});
