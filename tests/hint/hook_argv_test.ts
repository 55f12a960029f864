/** Which argv the per-prompt hook's own entry takes over (src/hint/hook_argv.ts). */
import assert from "node:assert/strict";
import { hookArgs } from "../../src/hint/hook_argv.ts";

Deno.test("the hook's own entry takes bare `hook user-prompt` and the --agent forms install writes, nothing else", () => {
  assert.deepEqual(hookArgs(["hook", "user-prompt"]), { options: {}, positionals: [] });
  assert.deepEqual(hookArgs(["hook", "user-prompt", "--agent", "gemini"]), {
    options: { agent: "gemini" },
    positionals: [],
  });
  assert.deepEqual(hookArgs(["hook", "user-prompt", "--agent=qwen"]), {
    options: { agent: "qwen" },
    positionals: [],
  });
  // Everything else is the launcher's: help, other options, errors it reports, other commands.
  for (
    const argv of [
      ["hook", "user-prompt", "--help"],
      ["hook", "user-prompt", "--config", "/x.json"],
      ["hook", "user-prompt", "--agent"],
      ["hook", "user-prompt", "--agent", "--help"],
      ["hook", "user-prompt", "--agent", "gemini", "--agent", "codex"],
      ["hook", "user-prompt", "extra"],
      ["hook", "pre-compact"],
      ["hint"],
      [],
    ]
  ) assert.equal(hookArgs(argv), null, argv.join(" "));
});
