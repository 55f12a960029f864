/**
 * SIGINT/SIGTERM end every command: the launcher tells its Worker to stop, gives it
 * STOP_GRACE_MS, then ends it wherever it waits. The real CLI, real files, a real HTTP service.
 */
import assert from "node:assert/strict";
import { asRecord } from "../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../src/agents/registry.ts";
import { STOP_GRACE_MS } from "../../src/sandbox/launch.ts";
import { denoDir, exportedRecords, tempHome } from "../cli_helper.ts";
import { storePaths } from "../../src/store/paths.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { fakeService, makeRepo, TranscriptBuilder } from "../judge/_helpers.ts";

function spawn(args: string[], env: Record<string, string>, stdin?: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, ...args],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
      VERDICT_WARM: "off",
      ...env,
    },
    clearEnv: true,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    ReadableStream.from([new TextEncoder().encode(stdin)]).pipeTo(child.stdin).catch(() => {});
  }
  // Never let a test hang on a command that does not stop.
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const output = child.output().finally(() => clearTimeout(guard));
  return { child, output };
}

async function until(check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error("timed out waiting for the command to get going");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("SIGTERM stops a long collect at once: exit 143, a clear line, nothing half-written", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.claude`);
  const lines: string[] = [];
  for (let i = 0; i < 200_000; i++) {
    lines.push(JSON.stringify({
      display: `we decided zebra ${i} keeps postgres for the orders service`,
      pastedContents: {},
      timestamp: Date.parse("2026-01-01T00:00:00Z") + i * 1000,
      project: "/p",
      sessionId: `s${i % 50}`,
    }));
  }
  await Deno.writeTextFile(`${home}/.claude/history.jsonl`, lines.join("\n") + "\n");
  const records = `${home}/.local/share/verdict/records.db`;
  const { child, output } = spawn(["collect"], { HOME: home });
  await until(() => exists(storePaths(records).lock), 30_000);
  await new Promise((r) => setTimeout(r, 100));
  const sent = performance.now();
  child.kill("SIGTERM");
  const out = await output;
  const took = performance.now() - sent;
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 143, stderr);
  // Stopped between two reads, or (on a machine too busy to get there in time) ended by the launcher.
  assert.match(stderr, /stopped by SIGTERM before finishing.*nothing was half-written/);
  assert.ok(took < STOP_GRACE_MS + 1000, `collect took ${took.toFixed(0)} ms to stop`);
  // Stopped while reading, it wrote nothing; stopped later, it left the whole archive: never half.
  const kept = (await exportedRecords(records)).split("\n").filter((l) => l !== "");
  assert.ok(kept.length === 0 || kept.length === 200_000, `${kept.length} records: half an archive`);
  assert.ok(kept.every((l) => asRecord(JSON.parse(l), RECORD_ORIGINS) !== null));
});

Deno.test("a command that cannot stop is ended after the grace period: a hook waiting on a silent service exits 0", async () => {
  const home = await tempHome();
  const service = fakeService("{}", { hang: true });
  try {
    const repo = await makeRepo(home);
    const t = new TranscriptBuilder("s-stop", repo);
    t.prompt("set up the db");
    t.tool("TodoWrite", { todos: [{ content: "write schema", status: "pending", activeForm: "writing" }] });
    const transcript = `${home}/.claude/projects/-repo/s-stop.jsonl`;
    await Deno.mkdir(`${home}/.claude/projects/-repo`, { recursive: true });
    await Deno.writeTextFile(transcript, t.text());
    // One unlanded item: inside the band where the service is asked, and it is told to wait a minute.
    await Deno.writeTextFile(
      `${home}/config.json`,
      JSON.stringify({ judge: { service_url: service.url, timeout_ms: 60_000 } }),
    );
    const { child, output } = spawn(
      ["hook", "pre-compact"],
      { HOME: home, VERDICT_CONFIG: `${home}/config.json` },
      JSON.stringify({
        session_id: "s-stop",
        transcript_path: transcript,
        cwd: repo,
        hook_event_name: "PreCompact",
        trigger: "auto",
      }),
    );
    await until(() => service.requests.length > 0, 30_000);
    const sent = performance.now();
    child.kill("SIGTERM");
    const out = await output;
    const took = performance.now() - sent;
    assert.equal(out.code, 0, "a hook exits 0 even when stopped");
    assert.equal(new TextDecoder().decode(out.stdout), "");
    assert.equal(new TextDecoder().decode(out.stderr), "", "a hook says nothing, even when ended");
    assert.ok(took >= STOP_GRACE_MS - 200, `ended before its grace period (${took.toFixed(0)} ms)`);
    assert.ok(took < STOP_GRACE_MS + 1500, `took ${took.toFixed(0)} ms to end after SIGTERM`);
  } finally {
    await service.close();
  }
});
