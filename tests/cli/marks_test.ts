/**
 * show, retract, unretract, mute, unmute and forget, end to end: the real CLI over the bundled
 * examples collected into a real archive in a temp HOME.
 */
import assert from "node:assert/strict";
import { copyTree, denoDir, exportedRecords, runCli, tempHome } from "../cli_helper.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const AS_OF = "2026-03-05T00:00:00Z";
/** The shop's PostgreSQL / pg_dump decision (a typed prompt) and the shop's conventions note. */
const DECISION = "pa51b3f56d1285bda";
const NOTE = "n33d05dc6634d01ba";
const PROMPT = "how do we back up with pg_dump in the orders service?";

async function world(): Promise<Record<string, string>> {
  const home = await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  await copyTree(`${EXAMPLES}codex`, `${home}/.codex`);
  const env = { HOME: home, VERDICT_SEEN: "" };
  const c = await runCli(["collect"], { env });
  assert.equal(c.code, 0, c.stderr);
  return env;
}

async function hint(env: Record<string, string>, cwd = "/home/dev/shop", prompt = PROMPT) {
  const r = await runCli(["hint", "--as-of", AS_OF], {
    env,
    stdin: JSON.stringify({ session_id: "live", cwd, prompt }),
  });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout === "" ? null : JSON.parse(r.stdout) as {
    systemMessage: string;
    hookSpecificOutput: { additionalContext: string };
  };
}

Deno.test("show prints the record, its source position, what the hint would quote and its state; a bad id is exit 3", async () => {
  const env = await world();
  const r = await runCli(["show", DECISION], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^id: +${DECISION}\nstate: +live\n`));
  assert.match(r.stdout, /\nsource: +\S+6f1c2a7e-3b1d-4c55-9a0e-2d7f1e5b8c01\.jsonl:4\n/);
  assert.match(r.stdout, /\nquoted:\n {2}> We decided: the orders service uses PostgreSQL, not MySQL\.\n/);
  assert.match(r.stdout, /\ntext:\n {2}\| We decided: .*kept 14 days\.\n$/);
  const json = await runCli(["show", "--json", DECISION], { env });
  const shown = JSON.parse(json.stdout);
  assert.equal(shown.record.id, DECISION);
  assert.deepEqual(shown.state, ["live"]);
  for (const bad of ["pzzz", "x0123456789abcdef", "p0000000000000000"]) {
    const b = await runCli(["show", bad], { env });
    assert.equal(b.code, 3, bad);
    assert.match(
      b.stderr,
      bad === "p0000000000000000" ? /No record with id p0000000000000000/ : /is not a record id/,
    );
  }
  const none = await runCli(["show"], { env });
  assert.equal(none.code, 3);
  assert.match(none.stderr, /needs a record id/);
});

Deno.test("retract --by: the hint shows what replaced the decision and says when it changed; recall still finds it, marked; unretract undoes", async () => {
  const env = await world();
  const before = await hint(env);
  assert.ok(before, "the hint speaks on the pg_dump decision");
  assert.match(
    before.systemMessage,
    /you decided this before \(2026-03-01, shop\): "We decided: the orders service uses PostgreSQL/,
  );
  const r = await runCli([
    "retract",
    DECISION,
    "--by",
    NOTE,
    "--why",
    "moved to a managed database",
    "--as-of",
    "2026-03-04T10:00:00Z",
  ], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `${DECISION}: retracted on 2026-03-04 by ${NOTE} (moved to a managed database)\n`);
  const after = await hint(env);
  assert.ok(after);
  assert.match(after.systemMessage, /^verdict: you changed this on 2026-03-04 \(shop\): "# Shop conventions/);
  const context = after.hookSpecificOutput.additionalContext;
  assert.match(
    context,
    new RegExp(
      `changed on 2026-03-04 \\(moved to a managed database\\): this replaces what was decided on 2026-03-01 \\(${DECISION}\\), which no longer holds`,
    ),
  );
  assert.doesNotMatch(
    context,
    /We decided: the orders service/,
    "the retracted text is never shown as current",
  );

  const recall = await runCli(["recall", "--as-of", AS_OF, "--json", "pg_dump backups"], { env });
  const hit = JSON.parse(recall.stdout).hits.find((h: { id: string }) => h.id === DECISION);
  assert.deepEqual(hit.state, [`retracted on 2026-03-04 by ${NOTE} (moved to a managed database)`]);
  const text = await runCli(["recall", "--as-of", AS_OF, "pg_dump backups"], { env });
  assert.match(text.stdout, new RegExp(`id ${DECISION} {2}\\[retracted on 2026-03-04 by ${NOTE}`));
  assert.match(
    (await runCli(["show", DECISION], { env })).stdout,
    /\nstate: +retracted on 2026-03-04 by n33d05dc6634d01ba/,
  );

  // Without --by: the hint says it no longer holds.
  assert.equal((await runCli(["retract", DECISION, "--as-of", "2026-03-04T10:00:00Z"], { env })).code, 0);
  const alone = await hint(env);
  assert.ok(alone);
  assert.match(alone.systemMessage, /^verdict: you changed this on 2026-03-04; no longer holds: "We decided/);
  assert.match(
    alone.hookSpecificOutput.additionalContext,
    /retracted on 2026-03-04: this no longer holds; do not act on it/,
  );

  assert.equal((await runCli(["unretract", DECISION], { env })).code, 0);
  assert.deepEqual(await hint(env), before);
  const again = await runCli(["unretract", DECISION], { env });
  assert.equal(again.code, 3);
  assert.match(again.stderr, /is not retracted/);
  for (
    const args of [["retract", DECISION, "--by", DECISION], [
      "retract",
      DECISION,
      "--by",
      "p0000000000000000",
    ], ["retract", "nope"]]
  ) {
    const bad = await runCli(args, { env });
    assert.equal(bad.code, 3, args.join(" "));
  }
});

Deno.test("mute: a muted record is never hinted (--here: only in that folder); recall still finds it, marked; unmute undoes", async () => {
  const env = await world();
  const quoted = (h: Awaited<ReturnType<typeof hint>>) => h?.hookSpecificOutput.additionalContext ?? "";
  assert.match(quoted(await hint(env)), /We decided: the orders service/);
  assert.equal((await runCli(["mute", DECISION], { env })).code, 0);
  assert.doesNotMatch(quoted(await hint(env)), /We decided: the orders service/);
  const recall = await runCli(["recall", "--as-of", AS_OF, "--json", "pg_dump backups"], { env });
  assert.deepEqual(
    JSON.parse(recall.stdout).hits.find((h: { id: string }) => h.id === DECISION).state,
    ["muted"],
  );
  assert.equal((await runCli(["unmute", DECISION], { env })).code, 0);
  assert.match(quoted(await hint(env)), /We decided: the orders service/);

  // --here: muted for prompts typed in this folder or below it, not elsewhere.
  const here = await runCli(["mute", DECISION, "--here"], { env, cwd: env.HOME });
  assert.equal(here.code, 0, here.stderr);
  assert.equal(here.stdout, `${DECISION}: muted in ${env.HOME}\n`);
  assert.doesNotMatch(quoted(await hint(env, `${env.HOME}/sub`)), /We decided: the orders service/);
  assert.match(quoted(await hint(env, "/home/dev/shop")), /We decided: the orders service/);
  const notThere = await runCli(["unmute", DECISION, "--here"], { env, cwd: "/" });
  assert.equal(notThere.code, 3);
  assert.match(notThere.stderr, /is not muted in \//);
  assert.equal((await runCli(["unmute", DECISION, "--here"], { env, cwd: env.HOME })).code, 0);
  assert.match(quoted(await hint(env, `${env.HOME}/sub`)), /We decided: the orders service/);
});

async function filesHolding(dir: string, text: string): Promise<string[]> {
  const out: string[] = [];
  const needle = new TextEncoder().encode(text);
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (e.isFile) {
        const bytes = await Deno.readFile(p);
        outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
          for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
          out.push(p);
          break;
        }
      }
    }
  };
  await walk(dir);
  return out;
}

Deno.test("forget: the record leaves the archive and every index file at once; a tombstone keeps a full collect from storing it again", async () => {
  const env = await world();
  const data = `${env.HOME}/.local/share/verdict`;
  assert.ok((await filesHolding(data, "MySQL")).length > 0, "the archive holds the text before");
  const dry = await runCli(["forget", "--match", "mysql", "--dry-run"], { env });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(
    dry.stderr,
    new RegExp(`would forget 1 record\\(s\\):\n {2}${DECISION} {2}2026-03-01 {2}prompt`),
  );
  const before = await exportedRecords(`${data}/records.db`);
  // --match asks first: with no terminal to ask on and no --yes, it refuses and changes nothing.
  const refused = await runCli(["forget", "--match", "mysql"], { env, stdin: "y\n" });
  assert.equal(refused.code, 3);
  assert.match(refused.stderr, /without a confirmation/);
  assert.equal(await exportedRecords(`${data}/records.db`), before);

  const gone = await runCli(["forget", "--match", "mysql", "--yes", "--json"], { env });
  assert.equal(gone.code, 0, gone.stderr);
  assert.deepEqual(JSON.parse(gone.stdout), { forgotten: [DECISION], dry_run: false });
  assert.deepEqual(await filesHolding(data, "MySQL"), [], "no file of the archive keeps the text");
  assert.match((await runCli(["show", DECISION], { env })).stdout, /state: +forgotten on \d{4}-\d{2}-\d{2}/);
  const recall = await runCli(["recall", "--as-of", AS_OF, "--json", "MySQL"], { env });
  assert.ok(JSON.parse(recall.stdout).hits.every((h: { id: string }) => h.id !== DECISION));

  // The transcript still holds it (and history.jsonl a copy under another id): a full collect stores neither.
  const full = await runCli(["collect", "--full"], { env });
  assert.equal(full.code, 0, full.stderr);
  assert.ok(!(await exportedRecords(`${data}/records.db`)).includes("MySQL"));
  assert.deepEqual(await filesHolding(data, "MySQL"), []);

  // Ids: an unknown one is exit 3 and nothing changes; a forgotten one says so.
  const after = await exportedRecords(`${data}/records.db`);
  for (const id of ["p0000000000000000", DECISION]) {
    const r = await runCli(["forget", NOTE, id], { env });
    assert.equal(r.code, 3, id);
    assert.match(r.stderr, id === DECISION ? /was forgotten on/ : /No record with id/);
  }
  assert.equal(
    await exportedRecords(`${data}/records.db`),
    after,
    "a bad id among good ones changes nothing",
  );
  const both = await runCli(["forget", NOTE, "--match", "x"], { env });
  assert.equal(both.code, 3);
});

Deno.test("remember: a decision added by hand has a real source, is pinned to its words (the hint shows it where the gate stays silent, once per session) and a collect keeps it once", async () => {
  const env: Record<string, string> = await world();
  const ask = (prompt: string, seen = "") =>
    runCli(["hint", "--as-of", AS_OF], {
      env: { ...env, VERDICT_SEEN: seen },
      stdin: JSON.stringify({ session_id: "s9", cwd: "/home/dev/web", prompt }),
    });
  const prompt = "add the lodash-es dependency with yarn for the web app";
  assert.equal((await ask(prompt)).stdout, "", "the gate alone stays silent on this prompt");

  const plain = await runCli([
    "remember",
    "--project",
    "/home/dev/web",
    "--as-of",
    "2026-03-02T08:00:00Z",
    "We ship the web app as static files only.",
  ], { env });
  assert.equal(plain.code, 0, plain.stderr);
  const r = await runCli([
    "remember",
    "--json",
    "--on",
    "yarn,Lodash-ES",
    "--project",
    "/home/dev/web",
    "--as-of",
    "2026-03-02T09:00:00Z",
    "Always use pnpm for the web app, never yarn.",
  ], { env });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const file = `${env.HOME}/.local/share/verdict/remembered.md`;
  assert.deepEqual(out.pinned, ["lodash-es", "yarn"]);
  assert.equal(out.record.kind, "doc");
  assert.equal(out.record.project, "/home/dev/web");
  assert.equal(out.source, `${file}:${out.record.source_line}`);
  const lines = (await Deno.readTextFile(file)).split("\n");
  assert.equal(lines[out.record.source_line - 1], "Always use pnpm for the web app, never yarn.");

  const seen = `${env.HOME}/seen.jsonl`;
  const first = await ask(prompt, seen);
  assert.equal(first.code, 0, first.stderr);
  const hint = JSON.parse(first.stdout);
  assert.match(
    hint.systemMessage,
    /^verdict: you pinned this \(2026-03-02, web\): "Always use pnpm for the web app, never yarn\."/,
  );
  assert.match(
    hint.hookSpecificOutput.additionalContext,
    new RegExp(`remembered\\.md:${out.record.source_line}\\n`),
  );
  assert.equal((await ask(prompt, seen)).stdout, "", "shown once per session (the cooldown)");
  assert.equal((await ask("what is the weather like", "")).stdout, "", "a prompt naming no trigger word");
  assert.match((await runCli(["show", out.record.id], { env })).stdout, /state: +pinned on lodash-es, yarn/);

  // A collect (full or not) reads the file and keeps each decision once, with its id; an edit to
  // the section's text is picked up under the same id.
  for (const args of [["collect"], ["collect", "--full"]]) {
    assert.equal((await runCli(args, { env })).code, 0);
  }
  const kept = (await runCli(["recall", "--as-of", AS_OF, "--json", "pnpm yarn web app"], { env })).stdout;
  assert.equal(JSON.parse(kept).hits.filter((h: { id: string }) => h.id === out.record.id).length, 1);
  await Deno.writeTextFile(
    file,
    (await Deno.readTextFile(file)).replace("never yarn.", "never yarn or npm."),
  );
  assert.equal((await runCli(["collect"], { env })).code, 0);
  assert.match((await runCli(["show", out.record.id], { env })).stdout, /never yarn or npm\./);

  for (
    const [args, why] of [
      [["remember"], /needs the decision/],
      [["remember", "--on", "two words!", "x"], /is not one word/],
      [["remember", "the deploy key is ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"], /credential/],
    ] as const
  ) {
    const bad = await runCli([...args], { env });
    assert.equal(bad.code, 3, args.join(" "));
    assert.match(bad.stderr, why);
  }
  assert.ok(!(await Deno.readTextFile(file)).includes("ghp_"), "a refused decision is not written");
});

Deno.test("show, forget, retract, mute and remember may read and write only the archive's own files (remember: and remembered.md)", async () => {
  const env = await world();
  const transcript = `${env.HOME}/.claude/projects/-home-dev-shop/6f1c2a7e-3b1d-4c55-9a0e-2d7f1e5b8c01.jsonl`;
  for (const as of ["show", "forget", "retract", "unretract", "mute", "unmute", "remember"]) {
    for (const path of [transcript, `${env.HOME}/.config/verdict/config.json`, "/etc/passwd"]) {
      const r = await runCli(["sandbox-probe", "--as", as, "--read", path], { env });
      assert.equal(r.code, 0, `${as} may not read ${path}: ${r.stdout}${r.stderr}`);
    }
  }
  const inside = await runCli([
    "sandbox-probe",
    "--as",
    "forget",
    "--read",
    `${env.HOME}/.local/share/verdict/records.db`,
  ], {
    env,
  });
  assert.equal(inside.code, 1, "the probe can tell: the archive itself is readable under forget's rule");
});

/** Runs `verdict forget --match TEXT` on a terminal (util-linux `script` gives it one) and answers `answer`. */
async function forgetOnTerminal(env: Record<string, string>, text: string, answer: string) {
  const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;
  const line = [Deno.execPath(), "run", "--quiet", ...verdictRunFlags(), MAIN_TS, "forget", "--match", text]
    .map(quote).join(" ");
  const child = new Deno.Command("script", {
    args: ["-qec", line, "/dev/null"],
    env: { ...env, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: denoDir(), NO_COLOR: "1" },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  // The question comes before the answer is read; a terminal keeps what is typed early.
  await writer.write(new TextEncoder().encode(answer));
  await writer.close();
  const out = await child.output();
  return { code: out.code, text: new TextDecoder().decode(out.stdout) };
}

Deno.test("forget --match asks on a terminal: anything but yes forgets nothing, yes forgets", async () => {
  try {
    await new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" }).output();
  } catch {
    throw new Error("this test needs util-linux's script (apt-get install -y bsdutils)");
  }
  const env = await world();
  const data = `${env.HOME}/.local/share/verdict/records.db`;
  const before = await exportedRecords(data);
  const no = await forgetOnTerminal(env, "mysql", "n\n");
  assert.equal(no.code, 0, no.text);
  assert.match(no.text, /Forget these 1 record\(s\)\? \[y\/N\]/);
  assert.match(no.text, /nothing forgotten/);
  assert.equal(await exportedRecords(data), before);
  const yes = await forgetOnTerminal(env, "mysql", "y\n");
  assert.equal(yes.code, 0, yes.text);
  assert.match(yes.text, new RegExp(`forgot 1 record\\(s\\): ${DECISION}`));
  assert.ok(!(await exportedRecords(data)).includes("MySQL"));
});

Deno.test("doctor counts the marks and names, by id, a mark whose record left the archive; unretract drops it", async () => {
  const env = await world();
  const marksCheck = async () => {
    const r = await runCli(["doctor", "--json"], { env });
    const checks = JSON.parse(r.stdout).checks as { id: string; status: string; message: string }[];
    return checks.find((c) => c.id === "marks")!;
  };
  assert.deepEqual(await marksCheck(), {
    ...(await marksCheck()),
    status: "ok",
    message: "0 retracted, 0 muted, 0 pinned, 0 forgotten (verdict decisions lists them with their ids)",
  });
  for (const args of [["retract", DECISION, "--by", NOTE], ["mute", NOTE], ["forget", NOTE]]) {
    assert.equal((await runCli(args, { env })).code, 0, args.join(" "));
  }
  const warned = await marksCheck();
  assert.equal(warned.status, "warn");
  assert.equal(
    warned.message,
    `1 retracted, 0 muted, 0 pinned, 1 forgotten; marks on records no longer in the archive: ${NOTE} (replaces ${DECISION})`,
  );
  assert.equal((await runCli(["unretract", DECISION], { env })).code, 0);
  assert.equal((await marksCheck()).status, "ok");
});
