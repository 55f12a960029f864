import assert from "node:assert/strict";
import { buildSnapshot, resolveTranscript } from "../../src/judge/build.ts";
import { gitStatus, parsePorcelainZ } from "../../src/judge/git_status.ts";
import { checkSnapshot } from "../../src/judge/snapshot.ts";
import { CONFIG, git, makeRepo, RULES, TranscriptBuilder } from "./_helpers.ts";

Deno.test("parsePorcelainZ reads modified, untracked and renamed entries", () => {
  assert.deepEqual(parsePorcelainZ(" M src/a.ts\0?? notes/\0R  new.ts\0old.ts\0A  b c.ts\0"), [
    "M src/a.ts",
    "?? notes/",
    "R old.ts -> new.ts",
    "A b c.ts",
  ]);
});

Deno.test("gitStatus reports a real repository's changed and untracked files, and says when there is none", async () => {
  const repo = await makeRepo();
  assert.deepEqual(await gitStatus(repo), { kind: "ok", root: repo, entries: [] });
  await Deno.writeTextFile(`${repo}/app.ts`, "export const a = 2;\n");
  await Deno.writeTextFile(`${repo}/new file.md`, "x\n");
  const st = await gitStatus(`${repo}`);
  assert.equal(st.kind, "ok");
  assert.deepEqual(st.kind === "ok" ? st.entries : [], ["M app.ts", "?? new file.md"]);
  const plain = await Deno.makeTempDir();
  assert.equal((await gitStatus(plain)).kind, "not_repo");
  assert.equal((await gitStatus(`${plain}/gone`)).kind, "missing_dir");
});

Deno.test("build from a transcript: dirty tree, open todo, and a file written outside any repository", async () => {
  const repo = await makeRepo();
  await Deno.writeTextFile(`${repo}/app.ts`, "export const a = 3;\n");
  await git(repo, "add", "app.ts");
  await Deno.writeTextFile(`${repo}/scratch.txt`, "x\n");
  const outside = await Deno.realPath(await Deno.makeTempDir());
  await Deno.writeTextFile(`${outside}/notes.md`, "notes\n");
  const t = new TranscriptBuilder("s-dirty", repo);
  t.prompt("go");
  t.tool("TodoWrite", { todos: [{ content: "ship it", status: "pending", activeForm: "shipping" }] });
  t.tool("Write", { file_path: `${repo}/app.ts`, content: "x" });
  t.tool("Write", { file_path: `${outside}/notes.md`, content: "notes" });
  t.tool("Write", { file_path: `${outside}/gone/deleted.md`, content: "x" });
  t.say("Written.");
  const file = `${outside}/t.jsonl`;
  await Deno.writeTextFile(file, t.text());
  const { snapshot, sources } = await buildSnapshot({ transcript_path: file }, {
    config: CONFIG,
    credentialRules: RULES,
  });
  assert.deepEqual(snapshot.summary.uncommitted, [
    "M app.ts",
    "?? scratch.txt",
    `${outside}/notes.md (written outside any repository)`,
  ]);
  assert.deepEqual(snapshot.summary.todos, ["ship it (pending)"]);
  assert.match(sources.todos[0]!, /^TodoWrite, line 2$/);
  assert.match(sources.uncommitted[2]!, /^Write, line \d+$/);
  assert.ok(snapshot.summary.risk_hints.includes("1 file(s) the session wrote are no longer on disk"));
  await checkSnapshot(JSON.parse(JSON.stringify(snapshot)));
});

Deno.test("build: a cwd that is not a repository, or missing, becomes a risk hint, not an item", async () => {
  const plain = await Deno.realPath(await Deno.makeTempDir());
  const t = new TranscriptBuilder("s-plain", plain);
  t.prompt("go");
  t.say("ok");
  const file = `${plain}/t.jsonl`;
  await Deno.writeTextFile(file, t.text());
  const a = await buildSnapshot({ transcript_path: file }, { config: CONFIG, credentialRules: RULES });
  assert.deepEqual(a.snapshot.summary.uncommitted, []);
  assert.ok(a.snapshot.summary.risk_hints.includes(`not a git repository: ${plain}`));
  const b = await buildSnapshot({ transcript_path: file, cwd: `${plain}/nope` }, {
    config: CONFIG,
    credentialRules: RULES,
  });
  assert.ok(b.snapshot.summary.risk_hints.includes(`working directory not found: ${plain}/nope`));
});

Deno.test("build: --cwd overrides the transcript's cwd", async () => {
  const repo = await makeRepo();
  await Deno.writeTextFile(`${repo}/README.md`, "changed\n");
  const t = new TranscriptBuilder("s-x", "/nonexistent/elsewhere");
  t.prompt("go");
  t.say("ok");
  const file = `${repo}/../t-${crypto.randomUUID()}.jsonl`;
  await Deno.writeTextFile(file, t.text());
  const { snapshot } = await buildSnapshot({ transcript_path: file, cwd: repo }, {
    config: CONFIG,
    credentialRules: RULES,
  });
  assert.deepEqual(snapshot.summary.uncommitted, ["M README.md"]);
  await Deno.remove(file);
});

Deno.test("a transcript path outside the transcript roots, or a symlink out of them, is refused", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const outside = await Deno.realPath(await Deno.makeTempDir());
  await Deno.writeTextFile(`${outside}/secret.jsonl`, "{}\n");
  await Deno.writeTextFile(`${root}/ok.jsonl`, "{}\n");
  await Deno.symlink(`${outside}/secret.jsonl`, `${root}/link.jsonl`);
  assert.equal(await resolveTranscript(`${root}/ok.jsonl`, [root]), `${root}/ok.jsonl`);
  await assert.rejects(
    () => resolveTranscript(`${outside}/secret.jsonl`, [root]),
    /refusing to read transcript/,
  );
  await assert.rejects(() => resolveTranscript(`${root}/link.jsonl`, [root]), /refusing to read transcript/);
  await assert.rejects(
    () =>
      buildSnapshot({ transcript_path: `${outside}/secret.jsonl` }, {
        config: CONFIG,
        credentialRules: RULES,
        transcriptRoots: [root],
      }),
    /not under|does not resolve/,
  );
});

Deno.test("build from a summary validates it and binds it by digest", async () => {
  const summary = {
    session: "s",
    todos: [],
    uncommitted: ["M a"],
    questions: [],
    decisions: [],
    next_steps: [],
    risk_hints: [],
  };
  const { snapshot, sources } = await buildSnapshot({ summary }, { config: CONFIG, credentialRules: RULES });
  assert.equal(snapshot.state.startsWith("Session: s\n"), true);
  assert.deepEqual(sources.uncommitted, ["summary given as JSON"]);
  await assert.rejects(
    () => buildSnapshot({ summary: { ...summary, keep: [] } }, { config: CONFIG, credentialRules: RULES }),
    /at \$\.keep/,
  );
});
