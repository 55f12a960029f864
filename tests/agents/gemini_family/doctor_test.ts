/**
 * The doctor check Gemini CLI and Qwen Code share, run on real settings text (what install
 * writes, then edited as a person would): each outcome, in the order the check gives them.
 */
import assert from "node:assert/strict";
import type { DoctorContext } from "../../../src/agents/agent.ts";
import { type SettingsHooksCheck, settingsHooksCheck } from "../../../src/agents/gemini_family/doctor.ts";
import { QWEN_SETTINGS } from "../../../src/agents/qwen/settings.ts";
import { sandboxed, SETTINGS_ROLE, turnedOff } from "../../../src/agents/qwen/doctor.ts";

const PATH = "/home/u/.qwen/settings.json";
const BIN = "/usr/local/bin/verdict";

const SPEC: SettingsHooksCheck = {
  label: "Qwen Code",
  role: SETTINGS_ROLE,
  fix: "run verdict install --qwen",
  file: QWEN_SETTINGS,
  turnedOff,
  mayNotRun: sandboxed,
};

function ctx(text: string | null, present = true, bin = BIN): DoctorContext {
  return {
    agent: { id: "qwen", present, files: [{ role: SETTINGS_ROLE, path: PATH, agentPath: PATH }] },
    bin,
    read: (path) => Promise.resolve(path === PATH ? text : null),
  };
}

/** The installed settings with `extra` merged in at the top level. */
function installed(extra: Record<string, unknown> = {}): string {
  const text = QWEN_SETTINGS.install("{}", PATH, BIN, {}).text;
  return JSON.stringify({ ...JSON.parse(text), ...extra }, null, 2);
}

Deno.test("the family's hooks check: ok on what install writes, and says the trust step is not needed", async () => {
  const c = await settingsHooksCheck(ctx(installed()), SPEC);
  assert.equal(c.status, "ok");
  assert.match(c.message, /in \/home\/u\/\.qwen\/settings\.json \(user hooks need no trust step\)/);
});

Deno.test("the family's hooks check: skipped without the agent, missing hooks, a file that does not parse", async () => {
  assert.equal((await settingsHooksCheck(ctx(installed(), false), SPEC)).status, "skip");
  const missing = await settingsHooksCheck(ctx("{}"), SPEC);
  assert.equal(missing.status, "fail");
  assert.match(missing.fix ?? "", /verdict install --qwen/);
  assert.equal((await settingsHooksCheck(ctx('{"hooks": '), SPEC)).status, "fail");
});

Deno.test("the family's hooks check: a failure for hooks turned off, warnings for a setting that may stop them and for a blocked MCP server", async () => {
  const off = await settingsHooksCheck(ctx(installed({ disableAllHooks: true })), SPEC);
  assert.equal(off.status, "fail");
  assert.match(off.message, /^Qwen Code will not run verdict's hooks: disableAllHooks is true/);
  const maybe = await settingsHooksCheck(ctx(installed({ tools: { executionSandbox: {} } })), SPEC);
  assert.equal(maybe.status, "warn");
  assert.match(maybe.message, /^Qwen Code may not run verdict's hooks: tools\.executionSandbox/);
  const mcp = await settingsHooksCheck(ctx(installed({ mcp: { allowed: ["github"] } })), SPEC);
  assert.equal(mcp.status, "warn");
  assert.match(mcp.message, /mcp\.allowed does not list "verdict"/);
});

Deno.test("the family's hooks check: hooks that run another program are out of date", async () => {
  const c = await settingsHooksCheck(ctx(installed(), true, "/opt/other/verdict"), SPEC);
  assert.notEqual(c.status, "ok");
});
