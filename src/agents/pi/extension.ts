/**
 * verdict's wiring for pi: pi has no command hooks and no settings-file hooks, it runs TypeScript
 * extensions from `<folder>/extensions/` (loaded at start, no build step). install writes one small
 * extension file, wholly verdict's; uninstall deletes exactly that file (a file there without our
 * first line is someone else's: install refuses it, uninstall leaves it).
 *
 * The extension holds no verdict code: each handler runs the absolute `verdict hook …` command
 * with Claude Code's hook JSON on stdin (`hook_event_name`, `session_id`, `transcript_path`,
 * `cwd`, `prompt`, `source`) and reads a flat JSON object back (hook_dialect.ts). Any failure (no
 * binary, a timeout, odd output) adds nothing.
 * - `session_start`: appends a custom entry `{"mode": "interactive" | "headless"}` (pi keeps
 *   custom entries out of the model's context): pi writes a `pi -p` session exactly as a terminal
 *   one, and collect needs to know which prompts were typed (session.ts).
 * - `before_agent_start` (after a prompt is submitted, before the agent starts on it): the hint,
 *   returned as a custom message; pi stores it as a `custom_message` entry (never a user message,
 *   so collect never reads it back as typed) and sends it to the model right after the prompt.
 * - `session_before_compact`: `verdict hook pre-compact` judges the session from its file and
 *   writes the handoff; its one-line verdict is shown (a notification). It never cancels a
 *   compaction: pi's event does not say whether `/compact` or the context limit started it, and
 *   an automatic compaction must never be held back.
 * - `session_compact`: `verdict hook session-start` with source "compact" gives the handoff back;
 *   it reaches the model with the next prompt (added to that prompt's custom message).
 */
import type { EditResult } from "../../hostfile/errors.ts";
import {
  installOwnedFile,
  isOwnedFile,
  type OwnedFile,
  ownedFileProgram,
  uninstallOwnedFile,
} from "../../hostfile/owned_file.ts";

/** First line of every extension install writes: how install and uninstall know the file is ours. */
export const EXTENSION_MARKER =
  '// verdict-pi-extension: written by "verdict install"; "verdict uninstall" deletes this file.';

/** The extension gives up on a hook after this long (the hint itself stops at 400 ms). */
export const EXTENSION_TIMEOUT_MS = 5000;

/** Compaction hooks read the whole session: they get longer. */
export const EXTENSION_COMPACT_TIMEOUT_MS = 30_000;

/** The extension's source. `bin` and `env` are embedded as JSON literals (valid TypeScript). */
export function extensionSource(bin: string, env: Readonly<Record<string, string>>): string {
  return `${EXTENSION_MARKER}
// It runs verdict's hooks: the hint before pi starts on a prompt, the compaction verdict before a
// compaction and its handoff after one. Edits here are overwritten by the next install.
import { spawn } from "node:child_process";

const VERDICT = ${JSON.stringify(bin)};
const VERDICT_ENV = ${JSON.stringify(env)};

function hook(event: string, input: object, timeoutMs: number): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let child: any;
    try {
      child = spawn(VERDICT, ["hook", event, "--agent", "pi"], {
        env: { ...process.env, ...VERDICT_ENV },
        stdio: ["pipe", "pipe", "ignore"],
      });
    } catch {
      return resolve({});
    }
    let out = "";
    const timer = setTimeout(() => {
      child.kill();
      resolve({});
    }, timeoutMs);
    child.stdout.on("data", (chunk: unknown) => (out += String(chunk)));
    child.on("error", () => {
      clearTimeout(timer);
      resolve({});
    });
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const o = JSON.parse(out);
        resolve(o !== null && typeof o === "object" ? o : {});
      } catch {
        resolve({});
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
  });
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export default function (pi: any) {
  let handoff = "";
  const session = (ctx: any) => ({
    session_id: ctx.sessionManager.getSessionId(),
    transcript_path: ctx.sessionManager.getSessionFile() ?? "",
    cwd: ctx.cwd,
  });
  pi.on("session_start", async (_event: any, ctx: any) => {
    pi.appendEntry("verdict", { mode: ctx.hasUI ? "interactive" : "headless" });
  });
  pi.on("before_agent_start", async (event: any, ctx: any) => {
    const input = { hook_event_name: "UserPromptSubmit", prompt: event.prompt, ...session(ctx) };
    const hint = text((await hook("user-prompt", input, ${EXTENSION_TIMEOUT_MS})).additionalContext);
    const content = [handoff, hint].filter((t) => t !== "").join("\\n\\n");
    handoff = "";
    if (content !== "") return { message: { customType: "verdict", content, display: true } };
  });
  pi.on("session_before_compact", async (_event: any, ctx: any) => {
    const input = { hook_event_name: "PreCompact", ...session(ctx) };
    const notice = text((await hook("pre-compact", input, ${EXTENSION_COMPACT_TIMEOUT_MS})).systemMessage);
    if (notice !== "" && ctx.hasUI) ctx.ui.notify(notice, "info");
  });
  pi.on("session_compact", async (_event: any, ctx: any) => {
    const input = { hook_event_name: "SessionStart", source: "compact", ...session(ctx) };
    handoff = text((await hook("session-start", input, ${EXTENSION_COMPACT_TIMEOUT_MS})).additionalContext);
  });
}
`;
}

const OWNED: OwnedFile = { marker: EXTENSION_MARKER, label: "extension", noun: "extension" };

export function isOurExtension(text: string): boolean {
  return isOwnedFile(OWNED, text);
}

/** The program an installed extension runs, or null. */
export const extensionProgram = ownedFileProgram;

export function installExtension(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return installOwnedFile(OWNED, text, path, extensionSource(bin, env));
}

export function uninstallExtension(text: string, _path: string): EditResult {
  return uninstallOwnedFile(OWNED, text);
}
