/**
 * verdict's wiring for the Cline CLI's prompts: a Cline plugin, `<cline dir>/plugins/verdict.js`.
 * Cline's hook files cannot carry the hint (its UserPromptSubmit hook runs detached and its output
 * is never read; TaskStart's output is read only under a setting the CLI never sets), but a
 * plugin's `beforeRun` hook runs before each prompt's run and what it returns as `appendContext`
 * reaches the model's request, as a user message `<hook_context source="RunStart">…</hook_context>`
 * right after the prompt (docs/cline.md). install writes the file, wholly verdict's; uninstall
 * deletes exactly that file (a file there without our first line is someone else's: install
 * refuses it, uninstall leaves it).
 *
 * The plugin holds no verdict code: `beforeRun` takes the prompt from the snapshot's last user
 * message (the `<user_input>` body), runs the absolute `verdict hook user-prompt --agent cline`
 * with Claude Code's hook JSON on stdin (`hook_event_name`, `session_id`, `cwd`, `prompt`) and
 * returns the `additionalContext` it prints. Cline gives a plugin hook 3 s; the plugin gives up
 * at PLUGIN_HOOK_TIMEOUT_MS, so a slow verdict adds nothing rather than an error. Subagents' runs
 * (a snapshot with a parentAgentId) get nothing: their "prompt" is the lead agent's.
 *
 * Cline imports plugins in a Node.js sandbox process and gives that import 4 s by default
 * (CLINE_PLUGIN_IMPORT_TIMEOUT_MS); the file imports only node:child_process, so it loads as
 * fast as a plugin can, and install's note says what to raise on a slow machine.
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
  '// verdict-cline-plugin: written by "verdict install"; "verdict uninstall" deletes this file.';

/** The plugin gives up on the hook after this long (Cline stops waiting for a plugin hook at 3 s). */
export const PLUGIN_HOOK_TIMEOUT_MS = 2500;

/** The variable by which Cline lets a plugin's import take longer than its 4 s default. */
export const IMPORT_TIMEOUT_VARIABLE = "CLINE_PLUGIN_IMPORT_TIMEOUT_MS";

/** install's note on every plugin it writes or updates. */
export const IMPORT_TIMEOUT_NOTE =
  `Cline gives a plugin's import 4 s; if its log (~/.cline/data/logs/cline.log) ` +
  `says "plugin-sandbox call timed out", start cline with ${IMPORT_TIMEOUT_VARIABLE}=15000`;

/** The plugin's source. `bin` and `env` are embedded as JSON literals. */
export function pluginSource(bin: string, env: Readonly<Record<string, string>>): string {
  return `${PLUGIN_MARKER}
// It runs verdict's hint before each prompt's run. Edits here are overwritten by the next install.
import { spawn } from "node:child_process";

const VERDICT = ${JSON.stringify(bin)};
const VERDICT_ENV = ${JSON.stringify(env)};

function hint(input) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(VERDICT, ["hook", "user-prompt", "--agent", "cline"], {
        env: { ...process.env, ...VERDICT_ENV },
        stdio: ["pipe", "pipe", "ignore"],
      });
    } catch {
      return resolve("");
    }
    let out = "";
    const timer = setTimeout(() => {
      child.kill();
      resolve("");
    }, ${PLUGIN_HOOK_TIMEOUT_MS});
    child.stdout.on("data", (chunk) => (out += String(chunk)));
    child.on("error", () => {
      clearTimeout(timer);
      resolve("");
    });
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const o = JSON.parse(out);
        resolve(o !== null && typeof o === "object" && typeof o.additionalContext === "string" ? o.additionalContext : "");
      } catch {
        resolve("");
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
  });
}

function typed(message) {
  if (!message || message.role !== "user") return "";
  const blocks = Array.isArray(message.content) ? message.content : [{ type: "text", text: message.content }];
  const text = blocks.filter((b) => b && b.type === "text" && typeof b.text === "string").map((b) => b.text).join("\\n");
  const m = /^<user_input mode="[^"]*">([\\s\\S]*)<\\/user_input>$/.exec(text.trim());
  return m ? m[1].replace(/<mode_notice>[\\s\\S]*?<\\/mode_notice>/g, "").trim() : "";
}

let sessionId = "";

export default {
  name: "verdict",
  manifest: { capabilities: ["hooks"] },
  setup(_api, ctx) {
    if (ctx && ctx.session && typeof ctx.session.sessionId === "string") sessionId = ctx.session.sessionId;
  },
  hooks: {
    async beforeRun({ snapshot }) {
      if (!snapshot || snapshot.parentAgentId) return undefined;
      const messages = Array.isArray(snapshot.messages) ? snapshot.messages : [];
      const prompt = typed(messages.findLast((m) => m && m.role === "user"));
      if (prompt === "") return undefined;
      const context = await hint({
        hook_event_name: "UserPromptSubmit",
        prompt,
        session_id: sessionId || snapshot.conversationId || "",
        cwd: process.cwd(),
      });
      return context === "" ? undefined : { appendContext: context };
    },
  },
};
`;
}

const OWNED: OwnedFile = {
  marker: PLUGIN_MARKER,
  label: "plugin",
  noun: "plugin",
  notes: [IMPORT_TIMEOUT_NOTE],
};

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
