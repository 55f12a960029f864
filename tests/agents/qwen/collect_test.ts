/**
 * `verdict collect` over a HOME holding Qwen Code's real sessions (the 0.24.4 samples, read from
 * ../shared at test time, laid out as Qwen writes them): exactly the typed prompts and the note
 * tests/agents/qwen/expectations.ts decides, incrementally, only from Qwen's own folders (a
 * subagent transcript, a symlink escape and a file beside the chats stay out), with
 * include_headless adding the `qwen -p` prompts.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { asRecord, type VerdictRecord } from "../../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../../src/agents/registry.ts";
import { exportedRecords, runCli, tempHome } from "../../cli_helper.ts";
import { QWEN_EXPECTATIONS, QWEN_SAMPLES_DIR } from "./expectations.ts";
import { QWEN_PROJECT_DIR as PROJECT_DIR, QWEN_SAMPLES } from "./samples.ts";

function samplesPresent(): boolean {
  try {
    return QWEN_EXPECTATIONS.every((e) =>
      Deno.statSync(fileURLToPath(new URL(e.file, QWEN_SAMPLES_DIR))).isFile
    );
  } catch {
    return false;
  }
}

/** A HOME with the samples where Qwen keeps them, and what must stay out. */
async function world(): Promise<{ home: string; chats: ReadonlyMap<string, string> }> {
  const home = await tempHome();
  const { files: chats } = await QWEN_SAMPLES.layOut(home);
  const typed = (text: string) =>
    JSON.stringify({
      uuid: crypto.randomUUID(),
      sessionId: "x",
      timestamp: "2026-12-01T09:00:00.000Z",
      type: "user",
      provenance: "real_user",
      cwd: "/home/dev/project",
      message: { role: "user", parts: [{ text }] },
    }) + "\n" +
    JSON.stringify({
      type: "system",
      subtype: "file_history_snapshot",
      timestamp: "2026-12-01T09:00:00.010Z",
    }) +
    "\n";
  // A subagent's transcript: Qwen's own, but not typed by the person.
  await Deno.mkdir(`${home}/${PROJECT_DIR}/subagents/s1`, { recursive: true });
  await Deno.writeTextFile(`${home}/${PROJECT_DIR}/subagents/s1/agent-a1.jsonl`, typed("SUBAGENT-TASK text"));
  // A symlink escape from the chats folder, and a chat-shaped file outside every root.
  await Deno.writeTextFile(`${home}/elsewhere.jsonl`, typed("TOPSECRET outside the roots"));
  await Deno.symlink(`${home}/elsewhere.jsonl`, `${home}/${PROJECT_DIR}/chats/escape.jsonl`);
  return { home, chats };
}

async function records(
  home: string,
  file = `${home}/.local/share/verdict/records.jsonl`,
): Promise<VerdictRecord[]> {
  return (await exportedRecords(file)).split("\n").filter((l) => l !== "").map((l) =>
    asRecord(JSON.parse(l), RECORD_ORIGINS)!
  );
}

Deno.test({
  name:
    "collect over Qwen Code's real sessions: exactly the typed prompts and landed notes, incrementally, nothing from outside",
  ignore: !samplesPresent(),
  fn: async () => {
    const { home, chats } = await world();
    const env = { HOME: home };
    const first = await runCli(["collect"], { env });
    assert.equal(first.code, 0, first.stderr);
    const got = (await records(home)).filter((r) => r.origin === "qwen");
    const want = QWEN_EXPECTATIONS.flatMap((e) => [
      ...e.prompts.map((p) => ({ kind: "prompt", file: chats.get(e.file)!, ...p })),
      ...e.notes.map((n) => ({ kind: "note", file: chats.get(e.file)!, ...n })),
    ]);
    const shape = (r: { kind: string; file: string; line: number; time: string; text: string }) =>
      `${r.kind} ${r.file}:${r.line} ${r.time} ${r.text}`;
    assert.deepEqual(
      got.map((r) =>
        shape({ kind: r.kind, file: r.source_file, line: r.source_line, time: r.time, text: r.text })
      )
        .sort(),
      want.map(shape).sort(),
    );
    const all = await exportedRecords(`${home}/.local/share/verdict/records.jsonl`);
    for (
      const bad of ["TOPSECRET", "SUBAGENT-TASK", "VERDICT-HINT", "qwen:user-prompt-submit-context", "/stats"]
    ) {
      assert.ok(!all.includes(bad), `a record holds "${bad}"`);
    }

    // A second collect reads nothing new; a grown chat adds only its new prompt.
    const again = await runCli(["collect"], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /nothing new, 5 records .*; 0 file\(s\) read/);
    const tui = chats.get(QWEN_EXPECTATIONS[0]!.file)!;
    const lines = (await Deno.readTextFile(tui)).trimEnd().split("\n");
    const last = JSON.parse(lines.find((l) => l.includes('"real_user"'))!);
    const grown = { ...last, uuid: "grown-1", timestamp: "2026-12-01T08:05:00.000Z" };
    grown.systemPayload = { displayText: "And keep the lockfile committed." };
    await Deno.writeTextFile(
      tui,
      JSON.stringify(grown) + "\n" +
        JSON.stringify({
          type: "system",
          subtype: "file_history_snapshot",
          timestamp: "2026-12-01T08:05:00.010Z",
        }) +
        "\n",
      { append: true },
    );
    const third = await runCli(["collect"], { env });
    assert.match(third.stderr, /\b1 new\b/, third.stderr);
    assert.ok((await records(home)).some((r) => r.text === "And keep the lockfile committed."));

    // include_headless adds the qwen -p prompts, and only them.
    const config = `${home}/headless.json`;
    await Deno.writeTextFile(config, '{ "include_headless": true }\n');
    const out = `${home}/headless.jsonl`;
    const h = await runCli(["collect", "--full", "--out", out], { env: { ...env, VERDICT_CONFIG: config } });
    assert.equal(h.code, 0, h.stderr);
    const headless = (await records(home, out)).filter((r) => r.origin === "qwen" && r.kind === "prompt");
    const extra = QWEN_EXPECTATIONS.flatMap((e) =>
      e.headlessPrompts.map((p) => `${chats.get(e.file)}:${p.line}`)
    );
    for (const key of extra) {
      assert.ok(
        headless.some((r) => `${r.source_file}:${r.source_line}` === key),
        `include_headless misses ${key}`,
      );
    }
  },
});

Deno.test("the collect sandbox refuses a read outside Qwen Code's folders", async () => {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.qwen/projects`, { recursive: true });
  await Deno.writeTextFile(`${home}/secret.txt`, "x");
  const r = await runCli(["sandbox-probe", "--as", "collect", "--read", `${home}/secret.txt`], {
    env: { HOME: home },
  });
  assert.equal(r.code, 0, `the read went through: ${r.stdout}${r.stderr}`);
});
