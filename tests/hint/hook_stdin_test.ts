/**
 * Every hook entry reads the hook JSON up to its first complete value and does not wait for the
 * end of input: some hosts keep stdin open after writing it. Each entry is spawned with a real
 * pipe whose write end stays open, and must answer (and exit) by itself.
 */
import assert from "node:assert/strict";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { copyTree, denoDir, GENEROUS_HOOK_DEADLINE_MS, runCli, tempHome } from "../cli_helper.ts";

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const AS_OF = "2026-03-05T00:00:00Z";
/** Far beyond the hook's own 400 ms deadline and start-up, well inside a host's timeout. */
const ANSWER_WITHIN_MS = 20_000;

interface Answer {
  readonly exited: boolean;
  readonly code: number | null;
  readonly stdout: string;
}

/** Runs `verdict hook <sub>`, writes `json` plus a newline to its stdin and leaves the pipe open. */
async function hookWithOpenStdin(sub: string, json: string, env: Record<string, string>): Promise<Answer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, "hook", sub],
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
      VERDICT_WARM: "off",
      VERDICT_HOOK_DEADLINE_MS: GENEROUS_HOOK_DEADLINE_MS,
      ...env,
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(json + "\n"));
  // Not closed: the host is still holding its end.
  const stdout = new Response(child.stdout).text();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ANSWER_WITHIN_MS)));
  const status = await Promise.race([child.status, timeout]);
  clearTimeout(timer);
  if (status === null) {
    child.kill("SIGKILL");
    await child.status;
  }
  await writer.close().catch(() => {});
  return { exited: status !== null, code: status?.code ?? null, stdout: await stdout };
}

async function world(): Promise<Record<string, string>> {
  const home = await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  const env = { HOME: home, VERDICT_ASOF: AS_OF };
  assert.equal((await runCli(["collect"], { env })).code, 0);
  return env;
}

Deno.test("hook user-prompt answers while the host keeps stdin open", async () => {
  const env = await world();
  const json = JSON.stringify({
    session_id: "live-1",
    cwd: "/home/dev/shop",
    hook_event_name: "UserPromptSubmit",
    prompt: "let us switch the orders db to MySQL and drop the pg_dump backups",
  });
  const r = await hookWithOpenStdin("user-prompt", json, env);
  assert.ok(r.exited, "the hook waited for the end of stdin");
  assert.equal(r.code, 0);
  assert.match(r.stdout, /\[verdict recall\]/);
});

Deno.test("hook session-start answers while the host keeps stdin open", async () => {
  const env = await world();
  const state = `${env.HOME}/.local/state/verdict`;
  await Deno.mkdir(`${state}/handoff`, { recursive: true });
  await Deno.writeTextFile(`${state}/handoff/s-open.md`, "# verdict handoff\n\n- uncommitted: notes.md\n");
  const json = JSON.stringify({ session_id: "s-open", hook_event_name: "SessionStart", source: "compact" });
  const r = await hookWithOpenStdin("session-start", json, env);
  assert.ok(r.exited, "the hook waited for the end of stdin");
  assert.equal(r.code, 0);
  assert.match(r.stdout, /\[verdict compaction handoff\].*uncommitted: notes\.md/s);
});

Deno.test("hook pre-compact answers while the host keeps stdin open", async () => {
  const env = await world();
  const transcript = `${env.HOME}/.claude/projects/-home-dev-shop/6f1c2a7e-3b1d-4c55-9a0e-2d7f1e5b8c01.jsonl`;
  const json = JSON.stringify({
    session_id: "6f1c2a7e-3b1d-4c55-9a0e-2d7f1e5b8c01",
    transcript_path: transcript,
    cwd: env.HOME,
    hook_event_name: "PreCompact",
    trigger: "manual",
  });
  const r = await hookWithOpenStdin("pre-compact", json, env);
  assert.ok(r.exited, "the hook waited for the end of stdin");
  assert.equal(r.code, 0);
  assert.match(r.stdout, /"systemMessage":"verdict: /);
});
