import assert from "node:assert/strict";
import {
  hasNotTypedPrefix,
  NOT_TYPED_PREFIXES,
  parseVersion,
  slashCommandText,
  typedPromptText,
} from "../../../src/agents/claude/prompt.ts";
import { VERDICT_HINT_MARKER } from "../../../src/record/line_parser.ts";

const interactive = { includeHeadless: false };
const all = { includeHeadless: true };

/** A 2.1.x interactive typed prompt; `extra` overrides or adds fields. */
function entry(content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    parentUuid: null,
    isSidechain: false,
    type: "user",
    message: { role: "user", content },
    uuid: "u-1",
    timestamp: "2026-03-02T10:00:00.000Z",
    cwd: "/home/dev/shop",
    sessionId: "s-1",
    version: "2.1.230",
    entrypoint: "cli",
    promptId: "p-1",
    permissionMode: "default",
    origin: { kind: "human" },
    ...extra,
  };
}

Deno.test("typedPromptText() returns the trimmed text of a typed string prompt", () => {
  assert.equal(typedPromptText(entry("  Add a retry to fetch \n"), interactive), "Add a retry to fetch");
});

Deno.test("typedPromptText() joins text blocks with a newline and ignores images", () => {
  const content = [
    { type: "text", text: "first" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
    { type: "text", text: "second" },
  ];
  assert.equal(typedPromptText(entry(content), interactive), "first\nsecond");
});

Deno.test("typedPromptText() yields nothing for an image-only prompt", () => {
  const content = [{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } }];
  assert.equal(typedPromptText(entry(content), interactive), null);
});

Deno.test("typedPromptText() drops the IDE's opened-file block beside the typed text", () => {
  const content = [
    { type: "text", text: "<ide_opened_file>The user opened the file /a.ts in the IDE.</ide_opened_file>" },
    { type: "text", text: "why does this retry forever?" },
  ];
  const e = entry(content, { entrypoint: "claude-vscode" });
  assert.equal(typedPromptText(e, interactive), "why does this retry forever?");
});

Deno.test("typedPromptText() rejects each structural marker of machine-made user entries", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["sidechain", { isSidechain: true }],
    ["meta", { isMeta: true }],
    ["compact summary", { isCompactSummary: true, isVisibleInTranscriptOnly: true }],
    ["tool use result", { toolUseResult: { stdout: "ok" } }],
    ["string tool use result", { toolUseResult: "Error: denied" }],
    ["origin peer", { origin: { kind: "peer", from: "s-2" } }],
    ["origin channel", { origin: { kind: "channel" } }],
    ["origin coordinator", { origin: { kind: "coordinator" } }],
    ["origin task-notification", { origin: { kind: "task-notification" } }],
    ["origin auto-continuation", { origin: { kind: "auto-continuation" } }],
    ["origin unclassified", { origin: { kind: "unclassified" } }],
    ["origin without kind", { origin: {} }],
    ["assistant type", { type: "assistant" }],
    ["attachment type", { type: "attachment" }],
  ];
  for (const [name, extra] of cases) {
    assert.equal(typedPromptText(entry("Looks typed", extra), all), null, name);
  }
});

Deno.test("typedPromptText() rejects an entry carrying a tool_result block", () => {
  const content = [{
    type: "tool_result",
    tool_use_id: "toolu_1",
    content: "[Request interrupted by user for tool use]",
  }];
  assert.equal(typedPromptText(entry(content), interactive), null);
  const mixed = [{ type: "text", text: "typed?" }, { type: "tool_result", tool_use_id: "t", content: "x" }];
  assert.equal(typedPromptText(entry(mixed), interactive), null);
});

Deno.test("typedPromptText() keeps a prompt without origin (older versions fall through to the text rules)", () => {
  assert.equal(typedPromptText(entry("Plain prompt", { origin: undefined }), interactive), "Plain prompt");
});

Deno.test("typedPromptText() rejects every deny-listed text start, also after leading whitespace", () => {
  for (const prefix of NOT_TYPED_PREFIXES) {
    for (const lead of ["", "  \n\t"]) {
      const text = `${lead}${prefix}rest of it`;
      assert.equal(typedPromptText(entry(text), all), null, JSON.stringify(text));
      assert.equal(typedPromptText(entry([{ type: "text", text }]), all), null, JSON.stringify(text));
    }
  }
});

Deno.test("typedPromptText() keeps text that only mentions a deny-listed tag later on", () => {
  const text = "Why does the <system-reminder> tag show up in my output?";
  assert.equal(typedPromptText(entry(text), interactive), text);
  assert.equal(hasNotTypedPrefix(text), false);
});

Deno.test("typedPromptText() keeps <command-args> text as a typed prompt, named like the typed line", () => {
  // 2.0.26 tag order (jnarowski-full-session-two:3 shape).
  const v2 = "<command-name>/review</command-name>\n            <command-message>review</command-message>\n" +
    "            <command-args>the payment module</command-args>";
  assert.equal(typedPromptText(entry(v2), interactive), "/review the payment module");
  // 1.0.98 tag order (d-kimuson-fe5e1c67:2 shape).
  const v1 =
    "<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n" +
    "<command-args>create TODO app by Next.js</command-args>";
  assert.equal(typedPromptText(entry(v1), interactive), "/orchestrator create TODO app by Next.js");
});

Deno.test("typedPromptText() yields nothing for a slash command with empty args", () => {
  const clear =
    "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>";
  assert.equal(typedPromptText(entry(clear), interactive), null);
  const init =
    "<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>";
  assert.equal(typedPromptText(entry(init), interactive), null);
  const blank = "<command-name>/x</command-name><command-args>  \n </command-args>";
  assert.equal(typedPromptText(entry(blank), interactive), null);
});

Deno.test("slashCommandText() adds the missing slash and falls back to the args alone", () => {
  assert.equal(
    slashCommandText("<command-name>deploy</command-name><command-args>staging</command-args>"),
    "/deploy staging",
  );
  assert.equal(
    slashCommandText("<command-message>x</command-message><command-args>only args</command-args>"),
    "only args",
  );
  assert.equal(slashCommandText("<command-name>/x</command-name><command-args>unterminated"), null);
});

Deno.test("typedPromptText() never returns text holding verdict's own hint marker", () => {
  const text = `Earlier: ${VERDICT_HINT_MARKER} 2026-01-03 use backoff`;
  assert.equal(typedPromptText(entry(text), all), null);
  const cmd = `<command-name>/x</command-name><command-args>${VERDICT_HINT_MARKER} y</command-args>`;
  assert.equal(typedPromptText(entry(cmd), all), null);
});

Deno.test("typedPromptText() drops headless 2.1 entrypoints unless includeHeadless is set", () => {
  for (const ep of ["sdk-cli", "sdk-ts", "sdk-py", "local-agent"]) {
    assert.equal(typedPromptText(entry("Nightly job", { entrypoint: ep }), interactive), null, ep);
    assert.equal(typedPromptText(entry("Nightly job", { entrypoint: ep }), all), "Nightly job", ep);
  }
  for (const ep of ["cli", "claude-vscode", "claude-desktop", "claude-desktop-3p", undefined]) {
    assert.equal(typedPromptText(entry("Typed", { entrypoint: ep }), interactive), "Typed", String(ep));
  }
});

Deno.test("typedPromptText() treats a pre-2.1 block array without thinkingMetadata as program-driven", () => {
  const old = (content: unknown, version: string, tm: boolean) =>
    entry(content, {
      version,
      entrypoint: undefined,
      origin: undefined,
      promptId: undefined,
      permissionMode: undefined,
      thinkingMetadata: tm ? { level: "none", disabled: true, triggers: [] } : undefined,
    });
  const arr = [{ type: "text", text: "Summarize this part of a conversation" }];
  assert.equal(typedPromptText(old(arr, "2.0.9", false), interactive), null); // obra-short shape
  assert.equal(typedPromptText(old(arr, "2.0.9", false), all), "Summarize this part of a conversation");
  assert.equal(
    typedPromptText(old(arr, "1.0.117", true), interactive),
    "Summarize this part of a conversation",
  );
  assert.equal(typedPromptText(old("Hey", "2.0.14", false), interactive), "Hey"); // jnarowski-full-session
  assert.equal(
    typedPromptText(old(arr, "1.0.116", false), interactive),
    "Summarize this part of a conversation",
  );
  assert.equal(
    typedPromptText(old(arr, "2.1.0", false), interactive),
    "Summarize this part of a conversation",
  );
  assert.equal(
    typedPromptText(old(arr, "[trimmed]", false), interactive),
    "Summarize this part of a conversation",
  );
});

Deno.test("typedPromptText() returns null for values that are not entries", () => {
  for (
    const v of [null, undefined, 42, "user", [], [{ type: "user" }], { type: "user" }, {
      type: "user",
      message: 5,
    }]
  ) {
    assert.equal(typedPromptText(v, all), null, JSON.stringify(v));
  }
  assert.equal(typedPromptText(entry([null, 5, "x", { type: "text", text: 7 }]), all), null);
});

Deno.test("parseVersion() reads the numeric triple and refuses anything else", () => {
  assert.deepEqual(parseVersion("2.0.14"), [2, 0, 14]);
  assert.deepEqual(parseVersion("1.0.117-beta"), [1, 0, 117]);
  assert.equal(parseVersion("[trimmed for fixture]"), null);
  assert.equal(parseVersion(2), null);
});
