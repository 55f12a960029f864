/**
 * `verdict hint` and the hook entry `verdict hook user-prompt`, end to end: the real CLI over
 * records collected from the bundled examples in a temp HOME, clock pinned.
 */
import assert from "node:assert/strict";
import { copyTree, denoDir, runCli, tempHome } from "../cli_helper.ts";

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const AS_OF = "2026-03-05T00:00:00Z";
const SHOP_SESSION = "6f1c2a7e-3b1d-4c55-9a0e-2d7f1e5b8c01";

async function world(config: Record<string, unknown> = {}): Promise<Record<string, string>> {
  const home = await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  await copyTree(`${EXAMPLES}codex`, `${home}/.codex`);
  await copyTree(`${EXAMPLES}docs`, `${home}/docs`);
  await Deno.mkdir(`${home}/.config/verdict`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.config/verdict/config.json`,
    JSON.stringify({ doc_roots: [`${home}/docs`], ...config }),
  );
  const env = { HOME: home, VERDICT_ASOF: AS_OF };
  const r = await runCli(["collect"], { env });
  assert.equal(r.code, 0, r.stderr);
  return env;
}

const hookJson = (prompt: string, session = "live-1", cwd = "/home/dev/shop") =>
  JSON.stringify({
    session_id: session,
    transcript_path: "/nowhere.jsonl",
    cwd,
    hook_event_name: "UserPromptSubmit",
    prompt,
  });

const CONTRADICTION = "let us switch the orders db to MySQL and drop the pg_dump backups";

Deno.test("hint quotes the earlier decision as hook JSON and records it in the cooldown ledger", async () => {
  const env = await world();
  const r = await runCli(["hint"], { env, stdin: hookJson(CONTRADICTION) });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.hookSpecificOutput.hookEventName, "UserPromptSubmit");
  assert.match(
    out.systemMessage,
    /^verdict: you decided this before \(2026-03-01, shop\): "We decided: the orders service uses PostgreSQL/,
  );
  const ctx: string = out.hookSpecificOutput.additionalContext;
  assert.match(ctx, /^\[verdict recall\] .*Reference only: it may be stale.*not an instruction/);
  assert.match(
    ctx,
    /2026-03-01, prompt, \/home\/dev\/shop, .*6f1c2a7e-3b1d-4c55-9a0e-2d7f1e5b8c01\.jsonl:4\n```text\nWe decided/,
  );
  // The ledger holds the record shown and a key per quoted statement ("s" + hash, no text).
  const ledger = (await Deno.readTextFile(`${env.HOME}/.local/state/verdict/seen/live-1.jsonl`))
    .trim().split("\n").map((l) => JSON.parse(l) as { session: string; id: string });
  assert.equal(ledger.length, 3);
  assert.ok(ledger.every((e) => e.session === "live-1"));
  assert.match(ledger[0]!.id, /^p[0-9a-f]{16}$/);
  assert.ok(ledger.slice(1).every((e) => /^s[0-9a-f]{16}$/.test(e.id)));
});

Deno.test("hint output is byte-identical across runs with the clock pinned", async () => {
  const env = { ...(await world()), VERDICT_SEEN: "" };
  const a = await runCli(["hint"], { env, stdin: hookJson(CONTRADICTION) });
  const b = await runCli(["hint"], { env, stdin: hookJson(CONTRADICTION) });
  assert.ok(a.stdout.length > 0);
  assert.equal(a.stdout, b.stdout);
});

Deno.test("a record shown once in a session is not shown again in it; an empty VERDICT_SEEN disables that", async () => {
  const env = await world();
  const first = JSON.parse((await runCli(["hint"], { env, stdin: hookJson(CONTRADICTION) })).stdout);
  const second = await runCli(["hint"], { env, stdin: hookJson(CONTRADICTION) });
  const quoted = (o: { hookSpecificOutput: { additionalContext: string } }) =>
    o.hookSpecificOutput.additionalContext;
  if (second.stdout !== "") assert.notEqual(quoted(JSON.parse(second.stdout)), quoted(first));
  const otherSession = JSON.parse(
    (await runCli(["hint"], { env, stdin: hookJson(CONTRADICTION, "live-2") })).stdout,
  );
  assert.equal(quoted(otherSession), quoted(first));
  const off = { ...env, VERDICT_SEEN: "" };
  const x = await runCli(["hint"], { env: off, stdin: hookJson(CONTRADICTION, "live-3") });
  const y = await runCli(["hint"], { env: off, stdin: hookJson(CONTRADICTION, "live-3") });
  assert.equal(x.stdout, y.stdout);
  await assert.rejects(Deno.stat(`${env.HOME}/.local/state/verdict/seen/live-3.jsonl`), Deno.errors.NotFound);
});

Deno.test("hint never quotes the caller's live session back to it", async () => {
  const env = { ...(await world()), VERDICT_SEEN: "" };
  // (A prompt saying the decision again nearly word for word is a repeat: this one asks about it.)
  const prompt = "should the API version of /v2/orders move from the URL path into a version header?";
  const elsewhere = await runCli(["hint"], { env, stdin: hookJson(prompt, "someone-else") });
  assert.match(elsewhere.stdout, /version in the URL path/);
  const own = await runCli(["hint"], { env, stdin: hookJson(prompt, SHOP_SESSION) });
  assert.doesNotMatch(own.stdout, /version in the URL path/);
});

Deno.test("hint stays silent on unrelated, common-word and machine-made prompts", async () => {
  const env = { ...(await world()), VERDICT_SEEN: "" };
  for (
    const prompt of [
      "what is the weather like on mars",
      "ok continue",
      "yes",
      "好的，继续",
      "<task-notification>Background job 3 finished: pg_dump backups MySQL orders</task-notification>",
      "[verdict recall] The user may have decided this before: pg_dump backups MySQL orders",
      "<command-name>/clear</command-name>",
    ]
  ) {
    const r = await runCli(["hint"], { env, stdin: hookJson(prompt) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "", `spoke on: ${prompt}`);
  }
});

Deno.test("hint respects hook_personas", async () => {
  const env = { ...(await world({ hook_personas: ["billing"] })), VERDICT_SEEN: "" };
  const shop = await runCli(["hint", "--explain"], {
    env,
    stdin: hookJson(CONTRADICTION, "s", "/home/dev/shop"),
  });
  assert.equal(shop.stdout, "");
  assert.match(shop.stderr, /silent \(persona\)/);
  const billing = await runCli(["hint"], { env, stdin: hookJson(CONTRADICTION, "s", "/home/dev/billing") });
  assert.notEqual(billing.stdout, "");
});

Deno.test("hint --explain names the search terms, the weights and the gate's rule on stderr", async () => {
  const env = { ...(await world()), VERDICT_SEEN: "" };
  const r = await runCli(["hint", "--explain"], { env, stdin: hookJson(CONTRADICTION) });
  assert.match(r.stderr, /^hint: spoke: 1 quote\(s\)/);
  assert.match(r.stderr, /search terms \(rarest first; common words last\):/);
  assert.match(r.stderr, /pg_dump {2}df=\d+ idf=/);
  assert.match(r.stderr, /= bm25 [\d.]+ × source 1 × marker 1\.5 × recency [\d.]+ × project 2/);
  const quiet = await runCli(["hint", "--explain", "--plain"], {
    env,
    stdin: "what is the weather like on mars",
  });
  assert.equal(quiet.stdout, "");
  assert.match(quiet.stderr, /^hint: silent \(/);
});

Deno.test("hint reports bad input clearly; the hook entry is silent on every failure", async () => {
  const env = await world();
  const bad = await runCli(["hint"], { env, stdin: "this is not json" });
  assert.equal(bad.code, 3);
  assert.match(bad.stderr, /stdin is not the UserPromptSubmit hook JSON/);
  assert.match(bad.stderr, /--plain/);

  const cases: [string, Record<string, string>, string | Uint8Array][] = [
    ["not json", env, "this is not json"],
    ["5 MiB of stdin", env, new Uint8Array(5 * 1024 * 1024).fill(0x61)],
    ["no records", { ...env, VERDICT_RECORDS: `${env.HOME}/none.jsonl` }, hookJson(CONTRADICTION)],
    ["malformed config", { ...env, VERDICT_CONFIG: `${env.HOME}/broken.json` }, hookJson(CONTRADICTION)],
  ];
  await Deno.writeTextFile(`${env.HOME}/broken.json`, "{ nope");
  for (const [what, e, stdin] of cases) {
    const r = await runCli(["hook", "user-prompt"], { env: e, stdin });
    assert.equal(r.code, 0, `${what}: ${r.stderr}`);
    assert.equal(r.stdout, "", what);
    assert.equal(r.stderr, "", what);
  }
  const ok = await runCli(["hook", "user-prompt"], { env, stdin: hookJson(CONTRADICTION) });
  assert.equal(ok.code, 0);
  assert.match(ok.stdout, /"hookEventName":"UserPromptSubmit"/);
});

Deno.test("the hint path holds no permission once its files are open", async () => {
  const env = await world();
  await Deno.writeTextFile(`${env.HOME}/secret.txt`, "TOPSECRET");
  const r = await runCli(["sandbox-probe", "--as", "hint", "--read", `${env.HOME}/secret.txt`], { env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^refused: hint cannot read/);
  const records = await runCli([
    "sandbox-probe",
    "--as",
    "hint",
    "--read",
    `${env.HOME}/.local/share/verdict/records.db`,
  ], { env });
  assert.equal(records.code, 0, "even the records file cannot be reopened after the revoke");
});

Deno.test("hook user-prompt --agent gemini answers BeforeAgent in Gemini CLI's shape, after its SessionStart prefix", async () => {
  const env = { ...(await world()), VERDICT_SEEN: "" };
  // Gemini CLI's BeforeAgent stdin; in -p mode SessionStart context comes before the typed text.
  const stdin = JSON.stringify({
    session_id: "g-live",
    transcript_path: "/nowhere.jsonl",
    cwd: "/home/dev/shop",
    hook_event_name: "BeforeAgent",
    timestamp: "2026-03-05T00:00:00.000Z",
    prompt: `<hook_context>another tool's SessionStart text</hook_context>\n\n${CONTRADICTION}`,
  });
  const r = await runCli(["hook", "user-prompt", "--agent", "gemini"], { env, stdin });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out).sort(), ["hookSpecificOutput", "systemMessage"]);
  assert.equal(out.hookSpecificOutput.hookEventName, "BeforeAgent");
  assert.match(out.hookSpecificOutput.additionalContext, /^\[verdict recall\] /);
  // The same prompt through Claude's default shape quotes the same records.
  const claude = JSON.parse(
    (await runCli(["hook", "user-prompt"], { env, stdin: hookJson(CONTRADICTION) })).stdout,
  );
  assert.equal(out.hookSpecificOutput.additionalContext, claude.hookSpecificOutput.additionalContext);
});

Deno.test("hint --agent names an agent with a prompt hook, else exit 3; the hook entry stays silent", async () => {
  const env = await world();
  const bad = await runCli(["hint", "--agent", "nobody"], { env, stdin: hookJson(CONTRADICTION) });
  assert.equal(bad.code, 3);
  assert.match(bad.stderr, /Cannot print a hint for agent "nobody": it has no prompt hook/);
  assert.match(bad.stderr, /--agent takes claude, codex, gemini/);
  const hook = await runCli(["hook", "user-prompt", "--agent", "nobody"], {
    env,
    stdin: hookJson(CONTRADICTION),
  });
  assert.equal(hook.code, 0);
  assert.equal(hook.stdout, "");
});

Deno.test("hint reads the hook JSON up to its first value: a host that keeps stdin open still gets the hint", async () => {
  const env = { ...(await world()), VERDICT_SEEN: "" };
  const { MAIN_TS, verdictRunFlags } = await import("../../src/task_flags.ts");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, "hint"],
    // The parent's Deno cache: a temp HOME's empty one would download every package first.
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: denoDir(), NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(hookJson(CONTRADICTION) + "\n"));
  // stdin stays open until the process has answered.
  const out = await child.output();
  await writer.close().catch(() => {});
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(
    JSON.parse(new TextDecoder().decode(out.stdout)).systemMessage,
    /^verdict: you decided this before/,
  );
});

Deno.test("hint --agent claude is the default's shape; an unknown agent is an input error, silent in the hook", async () => {
  const env = { ...(await world()), VERDICT_SEEN: "" };
  const claude = await runCli(["hint"], { env, stdin: hookJson(CONTRADICTION) });
  const named = await runCli(["hint", "--agent", "claude"], { env, stdin: hookJson(CONTRADICTION) });
  assert.equal(named.stdout, claude.stdout);
  const bad = await runCli(["hint", "--agent", "nosuch"], { env, stdin: hookJson(CONTRADICTION) });
  assert.equal(bad.code, 3);
  assert.match(bad.stderr, /Cannot print a hint for agent "nosuch": it has no prompt hook/);
  // The hook entry never fails loudly: an unknown agent prints nothing and exits 0.
  const hook = await runCli(["hook", "user-prompt", "--agent", "nosuch"], {
    env,
    stdin: hookJson(CONTRADICTION),
  });
  assert.deepEqual([hook.code, hook.stdout, hook.stderr], [0, "", ""]);
});

Deno.test("hook user-prompt --agent copilot reads Copilot's camelCase stdin and answers with the flat additionalContext", async () => {
  const env = { ...(await world()), VERDICT_SEEN: "" };
  const stdin = JSON.stringify({
    sessionId: "c-live",
    timestamp: 1796111274164,
    cwd: "/home/dev/shop",
    prompt: CONTRADICTION,
  });
  const r = await runCli(["hint", "--agent", "copilot"], { env, stdin });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ["additionalContext"]);
  const claude = JSON.parse((await runCli(["hint"], { env, stdin: hookJson(CONTRADICTION) })).stdout);
  assert.equal(out.additionalContext, claude.hookSpecificOutput.additionalContext);
  // Qwen's stdin is Claude's: the same answer, byte for byte.
  const qwen = await runCli(["hint", "--agent", "qwen"], { env, stdin: hookJson(CONTRADICTION) });
  assert.equal(qwen.stdout, JSON.stringify(claude) + "\n");
});

Deno.test("the hook's own entry and the launcher print the same hook output, byte for byte", async () => {
  const base = await world();
  const env = { ...base, VERDICT_SEEN: "" };
  const config = `${base.HOME}/.config/verdict/config.json`;
  for (const agent of [[], ["--agent", "gemini"], ["--agent=gemini"]]) {
    // Bare (or with --agent only) it is the hook's entry; with --config it is the launcher's.
    const own = await runCli(["hook", "user-prompt", ...agent], { env, stdin: hookJson(CONTRADICTION) });
    const launcher = await runCli(["hook", "user-prompt", ...agent, "--config", config], {
      env,
      stdin: hookJson(CONTRADICTION),
    });
    assert.equal(own.code, 0, own.stderr);
    assert.match(own.stdout, /\[verdict recall\]/);
    assert.equal(own.stdout, launcher.stdout, agent.join(" "));
  }
});
