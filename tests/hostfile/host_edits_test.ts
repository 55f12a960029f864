/**
 * The pure edits of the three host files: what install adds, that other tools' entries stay
 * deep-equal and every other byte stays put, that uninstall gives back the original bytes, and
 * the refusals.
 */
import assert from "node:assert/strict";
import {
  hookCommand,
  HOOKS,
  hookStatus,
  type HookSub,
  installedHookProgram,
  installHooks,
  isHandWiredHandler,
  uninstallHooks,
} from "../../src/agents/claude/hooks.ts";
import {
  claudeMcpState,
  installClaudeMcp,
  isOurMcpEntry,
  uninstallClaudeMcp,
} from "../../src/agents/claude/mcp.ts";
import {
  BLOCK_BEGIN,
  BLOCK_END,
  codexMcpState,
  foreignDefinition,
  HOOKS_ROLE,
  installCodex,
  uninstallCodex,
} from "../../src/agents/codex/mcp.ts";
import { installCodexHooks } from "../../src/agents/codex/hooks.ts";
import { eventKeyLabel, hookTrustHash } from "../../src/agents/codex/trust.ts";
import { HostFileError } from "../../src/hostfile/errors.ts";
import { JsoncSyntaxError } from "../../src/config/jsonc.ts";
import { assertGolden, fixture, GOLDEN_BIN, GOLDEN_ENV } from "../install/_golden.ts";

const BIN = GOLDEN_BIN;
const ENV = GOLDEN_ENV;
type Json = Record<string, unknown>;
const parse = (t: string) => JSON.parse(t) as Json;

/** `after` minus the keys named: what must equal `before`. */
function without(obj: Json, ...keys: string[]): Json {
  const out = { ...obj };
  for (const k of keys) delete out[k];
  return out;
}

Deno.test("installHooks() adds the three hooks; other tools' hooks and every other key stay deep-equal", () => {
  const before = fixture("claude/settings.before.json");
  const r = installHooks(before, "settings.json", BIN, ENV);
  assert.deepEqual(r.changes, [
    "UserPromptSubmit hook added",
    "PreCompact hook added",
    "SessionStart(compact) hook added",
  ]);
  assertGolden("claude/settings.after.json", r.text);
  const b = parse(before);
  const a = parse(r.text);
  assert.deepEqual(without(a, "hooks"), without(b, "hooks"));
  assert.deepEqual(Object.keys(a), Object.keys(b), "key order kept");
  const bh = b.hooks as Record<string, unknown[]>;
  const ah = a.hooks as Record<string, unknown[]>;
  assert.deepEqual(ah.PostToolUse, bh.PostToolUse);
  assert.deepEqual(
    ah.UserPromptSubmit![0],
    bh.UserPromptSubmit![0],
    "the other tool's hook is first and unchanged",
  );
  assert.equal(ah.UserPromptSubmit!.length, 2);
  assert.deepEqual(ah.SessionStart, [{
    matcher: "compact",
    hooks: [{ type: "command", command: hookCommand(BIN, ENV, "session-start"), timeout: 10 }],
  }]);
  // Every line of the original is still there, in order: only lines were added.
  const added = r.text.split("\n");
  let i = 0;
  for (const line of before.split("\n")) {
    while (i < added.length && added[i] !== line && added[i] !== line + ",") i++;
    assert.ok(i < added.length, `line lost: ${line}`);
  }
});

Deno.test("installHooks() is idempotent, and uninstallHooks() gives back the original bytes", () => {
  const before = fixture("claude/settings.before.json");
  const once = installHooks(before, "s", BIN, ENV).text;
  const twice = installHooks(once, "s", BIN, ENV);
  assert.deepEqual(twice.changes, []);
  assert.equal(twice.text, once);
  const removed = uninstallHooks(once, "s");
  assert.equal(removed.changes.length, 3);
  assert.equal(removed.text, before);
  assert.deepEqual(uninstallHooks(before, "s").changes, []);
});

Deno.test("installHooks() on a missing or empty file writes just the hooks; uninstall leaves {}", () => {
  const r = installHooks("", "s", BIN, {});
  assert.deepEqual(Object.keys(parse(r.text)), ["hooks"]);
  assert.equal(uninstallHooks(r.text, "s").text, "{}\n");
});

Deno.test("a moved binary: install updates the command in place; the other entries are untouched", () => {
  const once = installHooks(fixture("claude/settings.before.json"), "s", "/old/verdict", {}).text;
  const r = installHooks(once, "s", BIN, ENV);
  assert.deepEqual(r.changes, [
    "UserPromptSubmit hook updated",
    "PreCompact hook updated",
    "SessionStart(compact) hook updated",
  ]);
  assert.equal(r.text, installHooks(fixture("claude/settings.before.json"), "s", BIN, ENV).text);
  assert.deepEqual(hookStatus(r.text, "s").map((s) => [s.state, s.program]), [
    ["installed", BIN],
    ["installed", BIN],
    ["installed", BIN],
  ]);
});

Deno.test("a verdict hook wired by hand is left alone by install and by uninstall", () => {
  const text = JSON.stringify(
    {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "verdict hook user-prompt" }] }] },
    },
    null,
    2,
  );
  const r = installHooks(text, "s", BIN, {});
  assert.deepEqual(r.changes, ["PreCompact hook added", "SessionStart(compact) hook added"]);
  assert.match(r.notes[0]!, /UserPromptSubmit: a verdict hook wired by hand is already there/);
  const u = uninstallHooks(r.text, "s");
  assert.equal(u.text, text);
  assert.match(u.notes[0]!, /wired by hand is left as is/);
  assert.ok(isHandWiredHandler({ command: "/x/hook/verdict-hook.sh user-prompt" }, "user-prompt"));
  assert.ok(!isHandWiredHandler({ command: "not-verdict hook user-prompt" }, "user-prompt"));
});

Deno.test("hook commands quote the program and values for the shell; the installed program reads back", () => {
  const odd = "/tmp/a b/it's $(x)/verdict";
  const cmd = hookCommand(odd, { VERDICT_RECORDS: "/r/x y.jsonl" }, "user-prompt");
  assert.equal(
    cmd,
    `test -x '/tmp/a b/it'\\''s $(x)/verdict' && VERDICT_RECORDS='/r/x y.jsonl' exec '/tmp/a b/it'\\''s $(x)/verdict' hook user-prompt; exit 0 # added by verdict install`,
  );
  assert.equal(installedHookProgram(cmd), odd);
  assert.equal(
    hookCommand("verdict", {}, "pre-compact"),
    "command -v verdict >/dev/null && exec verdict hook pre-compact; exit 0 # added by verdict install",
  );
  assert.equal(HOOKS.length, 3);
});

Deno.test("malformed settings: a JSONC syntax error with line and column; a non-object hooks is refused", () => {
  const bad = '{\n  "hooks": {\n    "UserPromptSubmit": [\n  }\n}\n';
  assert.throws(
    () => installHooks(bad, "s", BIN, {}),
    (e: unknown) => e instanceof JsoncSyntaxError && e.line === 4,
  );
  assert.throws(
    () => installHooks('{"hooks": []}', "/h/settings.json", BIN, {}),
    (e: unknown) =>
      e instanceof HostFileError &&
      /refusing to edit "\/h\/settings.json": "hooks" is not an object/.test(e.message),
  );
  assert.throws(() => installHooks("[1]", "s", BIN, {}), /the top level is not a JSON object/);
});

Deno.test("installClaudeMcp() adds mcpServers.verdict; ~/.claude.json's other state stays deep-equal and in order", () => {
  const before = fixture("claude/claude.before.json");
  const r = installClaudeMcp(before, "claude.json", BIN, ENV);
  assert.deepEqual(r.changes, ["mcpServers.verdict added"]);
  assertGolden("claude/claude.after.json", r.text);
  const b = parse(before);
  const a = parse(r.text);
  assert.deepEqual(without(a, "mcpServers"), without(b, "mcpServers"));
  assert.deepEqual(Object.keys(a), Object.keys(b));
  const servers = a.mcpServers as Json;
  assert.deepEqual(without(servers, "verdict"), b.mcpServers);
  assert.deepEqual(servers.verdict, { type: "stdio", command: BIN, args: ["mcp"], env: ENV });
  assert.equal(claudeMcpState(r.text, "c"), "ours");
  assert.deepEqual(installClaudeMcp(r.text, "c", BIN, ENV).changes, []);
  const u = uninstallClaudeMcp(r.text, "c");
  assert.equal(u.text, before);
  assert.equal(claudeMcpState(before, "c"), null);
});

Deno.test("installClaudeMcp() refuses a verdict server it did not write, and uninstall leaves it", () => {
  const text = JSON.stringify({
    mcpServers: { verdict: { type: "http", url: "http://127.0.0.1:8933/mcp" } },
  });
  assert.throws(
    () => installClaudeMcp(text, "/h/.claude.json", BIN, {}),
    (e: unknown) =>
      e instanceof HostFileError &&
      e.message.startsWith('refusing to replace mcpServers.verdict in "/h/.claude.json"'),
  );
  assert.equal(uninstallClaudeMcp(text, "c").text, text);
  assert.equal(claudeMcpState(text, "c"), "other");
  // What `claude mcp add verdict -- verdict mcp` writes counts as ours (and is brought up to date).
  assert.ok(isOurMcpEntry({ type: "stdio", command: "verdict", args: ["mcp"], env: {} }));
  assert.ok(!isOurMcpEntry({ command: "deno", args: ["run", "main.ts", "mcp"] }));
  const added = JSON.stringify({
    mcpServers: { verdict: { type: "stdio", command: "verdict", args: ["mcp"], env: {} } },
  });
  assert.deepEqual(installClaudeMcp(added, "c", BIN, {}).changes, ["mcpServers.verdict updated"]);
});

Deno.test("installCodex() appends one delimited block and touches no other byte; uninstall cuts it out", () => {
  const before = fixture("codex/config.before.toml");
  // hooks.json is planned first in the same job: the block trusts the hooks it now holds.
  const hooksPath = "/home/dev/.codex/hooks.json";
  const hooks = installCodexHooks("", hooksPath, BIN, ENV).text;
  assertGolden("codex/hooks.after.json", hooks);
  const planned = new Map([[HOOKS_ROLE, { path: hooksPath, agentPath: hooksPath, text: hooks }]]);
  const r = installCodex(before, "config.toml", BIN, ENV, planned);
  assert.deepEqual(r.changes, [
    "[mcp_servers.verdict] added",
    "UserPromptSubmit hook trusted",
    "PreCompact hook trusted",
    "SessionStart hook trusted",
  ]);
  assertGolden("codex/config.after.toml", r.text);
  assert.ok(r.text.startsWith(before));
  const trust = (
    event: string,
    sub: HookSub,
    matcher: string | null,
    timeout: number,
    statusMessage?: string,
  ) =>
    `\n[hooks.state."${hooksPath}:${eventKeyLabel(event)}:0:0"]\ntrusted_hash = "${
      hookTrustHash(event, matcher, { command: hookCommand(BIN, ENV, sub, "codex"), timeout, statusMessage })
    }"\n`;
  assert.equal(
    r.text.slice(before.length),
    `\n${BLOCK_BEGIN}\n[mcp_servers.verdict]\ncommand = "${BIN}"\nargs = ["mcp"]\nenv = { VERDICT_RECORDS = "/home/dev/data/records.jsonl" }\n` +
      trust("UserPromptSubmit", "user-prompt", null, 5) +
      trust("PreCompact", "pre-compact", null, 30, "verdict: checking for unlanded work") +
      trust("SessionStart", "session-start", "compact", 10) +
      `${BLOCK_END}\n`,
  );
  assert.deepEqual(installCodex(r.text, "c", BIN, ENV, planned).changes, []);
  // Without hooks.json in the job (an older job, or no hook to trust) the block holds the server only.
  assert.deepEqual(installCodex(before, "c", BIN, ENV).changes, ["[mcp_servers.verdict] added"]);
  assert.equal(codexMcpState(r.text, "c"), "ours");
  assert.equal(uninstallCodex(r.text, "c").text, before);
  // A changed binary replaces the block in place, trusting the hooks as they are now written.
  const movedHooks = installCodexHooks(hooks, hooksPath, "/new/verdict", {}).text;
  const movedPlan = new Map([[HOOKS_ROLE, { path: hooksPath, agentPath: hooksPath, text: movedHooks }]]);
  const moved = installCodex(r.text + "\n[other]\nx = 1\n", "c", "/new/verdict", {}, movedPlan);
  assert.deepEqual(moved.changes, [
    "[mcp_servers.verdict] updated",
    "UserPromptSubmit hook trust updated",
    "PreCompact hook trust updated",
    "SessionStart hook trust updated",
  ]);
  assert.ok(moved.text.endsWith("\n[other]\nx = 1\n"));
  assert.match(moved.text, /command = "\/new\/verdict"\nargs = \["mcp"\]\n\n\[hooks\.state\./);
  assert.ok(moved.text.includes(
    hookTrustHash("UserPromptSubmit", null, {
      command: hookCommand("/new/verdict", {}, "user-prompt", "codex"),
      timeout: 5,
    }),
  ));
  // Without a hook to trust, the old trust goes with the old hooks.
  const bare = installCodex(r.text, "c", "/new/verdict", {});
  assert.deepEqual(bare.changes, [
    "[mcp_servers.verdict] updated",
    "trust of /home/dev/.codex/hooks.json:user_prompt_submit:0:0 removed",
    "trust of /home/dev/.codex/hooks.json:pre_compact:0:0 removed",
    "trust of /home/dev/.codex/hooks.json:session_start:0:0 removed",
  ]);
  assert.match(bare.text, /command = "\/new\/verdict"\nargs = \["mcp"\]\n# <<< verdict <<<\n/);
});

Deno.test("installCodex(): a missing file, a file without a final newline, CRLF, Windows paths", () => {
  assert.equal(installCodex("", "c", BIN, {}).text.split("\n")[0], BLOCK_BEGIN);
  const noEol = installCodex('model = "x"', "c", BIN, {}).text;
  assert.ok(noEol.startsWith('model = "x"\n\n# >>> verdict'));
  const crlf = installCodex('model = "x"\r\n', "c", BIN, {}).text;
  assert.ok(!/[^\r]\n/.test(crlf));
  assert.equal(uninstallCodex(crlf, "c").text, 'model = "x"\r\n');
  assert.match(
    installCodex("", "c", "C:\\Users\\dev\\verdict.exe", {}).text,
    /command = "C:\\\\Users\\\\dev\\\\verdict.exe"/,
  );
});

Deno.test("installCodex() refuses every [mcp_servers.verdict] it did not write, naming the line", () => {
  const cases: [string, RegExp][] = [
    [
      'model = "x"\n\n[mcp_servers.verdict]\ncommand = "verdict"\n',
      /line 3 holds a \[mcp_servers\.verdict\] table/,
    ],
    ['[mcp_servers . "verdict" . env]\nA = "1"\n', /line 1 holds a \[mcp_servers\."verdict"\.env\] table/],
    ['mcp_servers.verdict.command = "v"\n', /line 1 holds a mcp_servers\.verdict key/],
    ['[mcp_servers]\nverdict = { command = "v" }\n', /line 2 holds a verdict entry of \[mcp_servers\]/],
    ['mcp_servers = { other = { command = "o" } }\n', /line 1 holds an inline mcp_servers table/],
  ];
  for (const [text, re] of cases) {
    assert.throws(
      () => installCodex(text, "/h/config.toml", BIN, {}),
      (e: unknown) =>
        e instanceof HostFileError && e.message.startsWith('refusing to edit "/h/config.toml"') &&
        re.test(e.message),
      text,
    );
    assert.equal(uninstallCodex(text, "c").text, text, "uninstall leaves it");
  }
  // Tables that merely start alike are not ours to refuse.
  assert.equal(foreignDefinition("[mcp_servers.verdict_old]\n[mcp_servers.github]\n", null), null);
});

Deno.test("a damaged verdict block (no end line) is refused rather than guessed at", () => {
  const text = `x = 1\n${BLOCK_BEGIN}\n[mcp_servers.verdict]\ncommand = "v"\n`;
  assert.throws(() => installCodex(text, "c", BIN, {}), /the verdict block has no end line/);
  assert.throws(() => uninstallCodex(text, "c"), /the verdict block has no end line/);
});
