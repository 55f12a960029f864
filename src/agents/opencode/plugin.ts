/**
 * The hint for OpenCode: OpenCode has no settings-file command hooks, it runs JS plugins from
 * `~/.config/opencode/plugin/`. install writes one small plugin file, wholly verdict's; uninstall
 * deletes exactly that file (a file there without our first line is someone else's: install
 * refuses it, uninstall leaves it).
 *
 * The plugin's `chat.message` hook (it fires once per typed prompt, not for `!` shell commands
 * or `/compact`) runs `verdict hook user-prompt --agent opencode` with Claude's hook JSON on stdin
 * (`{"hook_event_name", "session_id", "cwd", "prompt"}`), takes `additionalContext` from its
 * output (nested or flat) and adds it to the message as a `synthetic` text part: OpenCode sends
 * it to the model with the prompt and stores it marked synthetic, so collect never reads it
 * back as typed. Any failure (no binary, a timeout, odd output) adds nothing.
 *
 * No compaction verdict: OpenCode's `experimental.session.compacting` hook can only add text to
 * the summary prompt (it cannot hold a compaction back), and verdict's judge reads session
 * transcripts, which OpenCode does not write (its sessions are rows in SQLite).
 */
import type { EditResult } from "../../hostfile/errors.ts";
import {
  installOwnedFile,
  isOwnedFile,
  type OwnedFile,
  ownedFileProgram,
  uninstallOwnedFile,
} from "../../hostfile/owned_file.ts";

/** First line of every plugin install writes: how install and uninstall know the file is ours. */
export const PLUGIN_MARKER =
  '// verdict-opencode-plugin: written by "verdict install"; "verdict uninstall" deletes this file.';

/** The plugin gives up on a hint after this long (the hint itself stops at 400 ms). */
export const PLUGIN_TIMEOUT_MS = 5000;

/** The plugin's source. `bin` and `env` are embedded as JSON string literals (valid JS). */
export function pluginSource(bin: string, env: Readonly<Record<string, string>>): string {
  return `${PLUGIN_MARKER}
// It adds what you decided before to a prompt it bears on (a synthetic part, marked as quoted
// reference). Edits here are overwritten by the next install.
import { spawn } from "node:child_process";

const VERDICT = ${JSON.stringify(bin)};
const VERDICT_ENV = ${JSON.stringify(env)};
const TIMEOUT_MS = ${PLUGIN_TIMEOUT_MS};

function runHook(input) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(VERDICT, ["hook", "user-prompt", "--agent", "opencode"], {
        env: { ...process.env, ...VERDICT_ENV },
        stdio: ["pipe", "pipe", "ignore"],
      });
    } catch {
      resolve("");
      return;
    }
    let out = "";
    const timer = setTimeout(() => {
      child.kill();
      resolve("");
    }, TIMEOUT_MS);
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", () => {
      clearTimeout(timer);
      resolve("");
    });
    child.on("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
  });
}

function contextOf(output) {
  try {
    const o = JSON.parse(output);
    const nested = o && o.hookSpecificOutput && o.hookSpecificOutput.additionalContext;
    const text = typeof nested === "string" ? nested : o && o.additionalContext;
    return typeof text === "string" ? text : "";
  } catch {
    return "";
  }
}

export const VerdictHint = async ({ directory }) => ({
  "chat.message": async (input, output) => {
    const typed = output.parts.find((p) => p.type === "text" && !p.synthetic && !p.ignored);
    if (!typed || typeof typed.text !== "string") return;
    const context = contextOf(
      await runHook({
        hook_event_name: "UserPromptSubmit",
        session_id: input.sessionID,
        cwd: directory,
        prompt: typed.text,
      }),
    );
    if (context === "") return;
    output.parts.push({ ...typed, id: typed.id + "verdict", type: "text", text: context, synthetic: true });
  },
});
`;
}

const OWNED: OwnedFile = { marker: PLUGIN_MARKER, label: "hint plugin", noun: "plugin" };

export function isOurPlugin(text: string): boolean {
  return isOwnedFile(OWNED, text);
}

/** The program an installed plugin runs, or null. */
export const pluginProgram = ownedFileProgram;

export function installPlugin(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return installOwnedFile(OWNED, text, path, pluginSource(bin, env));
}

export function uninstallPlugin(text: string, _path: string): EditResult {
  return uninstallOwnedFile(OWNED, text);
}
