/**
 * The agents' hook dialects: how each reads its hook input and shapes verdict's output, and the
 * first-JSON-value reader the hook entries use (hosts may keep stdin open).
 */
import assert from "node:assert/strict";
import { dialect as claude } from "../../src/agents/claude/hook_dialect.ts";
import { dialect as codex } from "../../src/agents/codex/hook_dialect.ts";
import { dialect as qwen, PRE_COMPACT_CONTEXT_CHARS } from "../../src/agents/qwen/hook_dialect.ts";
import { AGENTS, hookDialectOf } from "../../src/agents/registry.ts";
import { JsonValueEnd, readFirstJsonValue, readFirstJsonValueSync } from "../../src/fsutil/bytes.ts";

Deno.test("claude dialect: the output is byte for byte what verdict printed before dialects existed", () => {
  const j = (v: unknown) => JSON.stringify(v);
  assert.equal(
    j(claude.render("user-prompt", { notice: "N", context: "C" })),
    '{"systemMessage":"N","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"C"}}',
  );
  assert.equal(j(claude.render("pre-compact", { block: "R" })), '{"decision":"block","reason":"R"}');
  assert.equal(j(claude.render("pre-compact", { notice: "N" })), '{"systemMessage":"N"}');
  assert.equal(
    j(claude.render("session-start", { context: "C" })),
    '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"C"}}',
  );
  assert.equal(claude.render("user-prompt", {}), null);
});

Deno.test("codex dialect: a block is continue:false; PreCompact gets nothing its schema does not allow", () => {
  const j = (v: unknown) => JSON.stringify(v);
  assert.equal(codex.canBlockCompaction, true);
  // Codex 0.169's PreCompact output allows continue, stopReason, suppressOutput and systemMessage
  // only; Claude's {"decision": "block"} is "invalid PreCompact hook JSON output" to it (seen).
  assert.equal(j(codex.render("pre-compact", { block: "R" })), '{"continue":false,"stopReason":"R"}');
  assert.equal(j(codex.render("pre-compact", { notice: "N", context: "C" })), '{"systemMessage":"N"}');
  assert.equal(
    j(codex.render("session-start", { context: "C" })),
    '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"C"}}',
  );
  assert.equal(
    j(codex.render("user-prompt", { context: "C" })),
    '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"C"}}',
  );
  assert.equal(codex.render("pre-compact", {}), null);
  assert.deepEqual(
    codex.read({
      session_id: "s",
      turn_id: "t",
      transcript_path: "/h/.codex/sessions/r.jsonl",
      cwd: "/p",
      hook_event_name: "PreCompact",
      model: "gpt-5.5",
      trigger: "auto",
    }),
    {
      event: "pre-compact",
      prompt: null,
      session: "s",
      cwd: "/p",
      transcript: "/h/.codex/sessions/r.jsonl",
      trigger: "auto",
      source: null,
    },
  );
});

Deno.test("claude dialect: reads the snake_case input, naming verdict's events and no others", () => {
  const input = claude.read({
    session_id: "s1",
    transcript_path: "/t.jsonl",
    cwd: "/src/app",
    hook_event_name: "PreCompact",
    trigger: "manual",
    prompt: 7,
  });
  assert.deepEqual(input, {
    event: "pre-compact",
    prompt: null,
    session: "s1",
    cwd: "/src/app",
    transcript: "/t.jsonl",
    trigger: "manual",
    source: null,
  });
  assert.equal(claude.read({ hook_event_name: "Stop" }).event, "other");
  assert.equal(claude.read({}).event, null);
});

Deno.test("every agent with a hook has a dialect; --agent with no value means Claude Code's; an unknown id has none", async () => {
  for (const a of AGENTS) {
    if (a.hookDialect) assert.equal(typeof (await a.hookDialect()).dialect.render, "function", a.id);
    else assert.equal(await hookDialectOf(a.id), null, `${a.id} has no hook wired, so no dialect`);
  }
  assert.equal(await hookDialectOf(undefined), claude);
  assert.equal(await hookDialectOf("no-such-agent"), null);
});

function reader(chunks: string[], keepOpen: boolean) {
  const enc = new TextEncoder();
  const queue = chunks.map((c) => enc.encode(c));
  const readSync = (buf: Uint8Array): number | null => {
    const next = queue.shift();
    if (next === undefined) {
      // An open stdin never ends: a reader that asks again would wait forever.
      if (keepOpen) throw new Error("read past the first JSON value of an open stdin");
      return null;
    }
    buf.set(next);
    return next.length;
  };
  return {
    readSync,
    read: (buf: Uint8Array): Promise<number | null> => {
      try {
        return Promise.resolve(readSync(buf));
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
}

/** The two readers of the first JSON value (the warm client's is the blocking one), as one. */
const READERS = {
  async: (r: ReturnType<typeof reader>, max?: number) => readFirstJsonValue(r, max),
  sync: (r: ReturnType<typeof reader>, max?: number) => Promise.resolve(readFirstJsonValueSync(r, max)),
};
const text = (bytes: Uint8Array | null) => bytes === null ? null : new TextDecoder().decode(bytes);

for (const [kind, read] of Object.entries(READERS)) {
  Deno.test(`readFirstJsonValue (${kind}) stops at the end of the first object, across chunks, strings and escapes`, async () => {
    const json = ' {"prompt": "a } ] \\" { [ b", "n": [1, {"x": "é"}]}';
    for (let cut = 1; cut < json.length; cut++) {
      const got = text(await read(reader([json.slice(0, cut), json.slice(cut) + "\n"], true)));
      assert.equal(got, json, `split at ${cut}`);
    }
    // Trailing bytes after the value, in the same chunk, are not part of it.
    assert.equal(text(await read(reader(['{"a":1}{"b":2}'], true))), '{"a":1}');
  });

  Deno.test(`readFirstJsonValue (${kind}) reads plain text to its end, and refuses more than the cap`, async () => {
    assert.equal(text(await read(reader(["plain ", "prompt"], false))), "plain prompt");
    assert.equal(await read(reader(['{"a": "', "x".repeat(100), '"}'], false), 50), null);
    // At the cap exactly, the value is read; one byte over, it is refused (in one chunk or two).
    const value = '{"a":"' + "x".repeat(40) + '"}';
    assert.equal(text(await read(reader([value + "tail"], true), value.length)), value);
    assert.equal(await read(reader([value], true), value.length - 1), null);
    assert.equal(text(await read(reader([value.slice(0, 9), value.slice(9)], true), value.length)), value);
    assert.equal(await read(reader([value.slice(0, 9), value.slice(9)], true), value.length - 1), null);
    assert.equal(await read(reader(["plain text", " more"], false), 12), null);
  });
}

Deno.test("JsonValueEnd skips a byte-order mark before the value", () => {
  const end = new JsonValueEnd();
  assert.equal(end.feed(new TextEncoder().encode('\ufeff{"a":[]}')), 11);
});

Deno.test("qwen dialect: Claude's shapes, but a pre-compaction reply gives the summarizer its context and never blocks", () => {
  assert.equal(qwen.canBlockCompaction, false);
  assert.equal(claude.canBlockCompaction, true);
  const reply = { notice: "N", context: "C" };
  assert.deepEqual(qwen.render("user-prompt", reply), claude.render("user-prompt", reply));
  assert.deepEqual(
    qwen.render("session-start", { context: "C" }),
    claude.render("session-start", { context: "C" }),
  );
  assert.deepEqual(qwen.render("pre-compact", reply), {
    systemMessage: "N",
    hookSpecificOutput: { hookEventName: "PreCompact", additionalContext: "C" },
  });
  const long = qwen.render("pre-compact", { context: "x".repeat(10_000) }) as {
    hookSpecificOutput: { additionalContext: string };
  };
  assert.equal(long.hookSpecificOutput.additionalContext.length, PRE_COMPACT_CONTEXT_CHARS);
  assert.ok(long.hookSpecificOutput.additionalContext.endsWith("… (cut)"));
  assert.deepEqual(
    qwen.read({ session_id: "s", prompt: "p", hook_event_name: "UserPromptSubmit" }).event,
    "user-prompt",
  );
});

Deno.test("gemini and opencode dialects: BeforeAgent nested output after Gemini's hook_context prefix; OpenCode's flat one", async () => {
  const { dialect: gemini } = await import("../../src/agents/gemini/hook_dialect.ts");
  const { dialect: opencode } = await import("../../src/agents/opencode/hook_dialect.ts");
  const g = gemini.read({
    hook_event_name: "BeforeAgent",
    session_id: "g",
    prompt: "<hook_context>x</hook_context>\n\nuse pnpm",
  });
  assert.deepEqual([g.event, g.prompt, g.session], ["user-prompt", "use pnpm", "g"]);
  assert.equal(
    JSON.stringify(gemini.render("user-prompt", { notice: "N", context: "C" })),
    '{"systemMessage":"N","hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"C"}}',
  );
  assert.equal(gemini.render("pre-compact", { notice: "N", context: "C" }), null);
  assert.equal(
    JSON.stringify(opencode.render("user-prompt", { notice: "N", context: "C" })),
    '{"systemMessage":"N","additionalContext":"C"}',
  );
  assert.equal(opencode.read({ session_id: "o", prompt: "p" }).prompt, "p");
});

Deno.test("copilot dialect: camelCase input, flat additionalContext only (the nested shape is ignored by Copilot)", async () => {
  const { dialect: copilot } = await import("../../src/agents/copilot/hook_dialect.ts");
  // The stdin Copilot 1.0.102 sent (../shared/clients/copilot/samples/hook-stdin-log.jsonl).
  const input = copilot.read({
    sessionId: "a6bed0cc",
    timestamp: 1796111274164,
    cwd: "/home/dev/project",
    prompt: "From now on use pnpm, never npm, in this repo.",
  });
  assert.deepEqual(input, {
    event: null,
    prompt: "From now on use pnpm, never npm, in this repo.",
    session: "a6bed0cc",
    cwd: "/home/dev/project",
    transcript: null,
    trigger: null,
    source: null,
  });
  assert.equal(
    JSON.stringify(copilot.render("user-prompt", { notice: "N", context: "C" })),
    '{"additionalContext":"C"}',
  );
  assert.equal(copilot.render("pre-compact", { notice: "N", context: "C" }), null);
  assert.equal(copilot.canBlockCompaction, false);
});
