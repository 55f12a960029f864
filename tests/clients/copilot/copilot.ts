/**
 * Driving the real GitHub Copilot CLI offline with its own BYOK mode: the pinned (or `--latest`)
 * package from the npm registry, COPILOT_OFFLINE with the provider pointed at the Chat
 * Completions model on 127.0.0.1, and sessions either headless (`copilot -p`) or interactive in
 * tmux. What it takes (seen with 1.0.102, ../shared/clients/copilot/NOTES.md):
 *
 * - COPILOT_OFFLINE=true (no GitHub login, telemetry, web tools or auto-update),
 *   COPILOT_PROVIDER_BASE_URL / _API_KEY, and COPILOT_MODEL=claude-sonnet-4.5 (that id picks the
 *   function tools `create`/`edit`; a gpt-5 id would pick a freeform apply_patch);
 * - the project in `trustedFolders` of `~/.copilot/config.json`, or the terminal UI's folder
 *   trust dialog eats the first prompt (the same list in settings.json does not stop it);
 * - `-p` runs need `--allow-all-tools`, the terminal UI `--allow-all`.
 */
import type { ChatReply } from "../harness/openai_chat.ts";
import { chatServer } from "../harness/openai_chat.ts";
import { installCli } from "../harness/install_cli.ts";
import type { ModelServer, Rule } from "../harness/model_server.ts";
import { AgentTui, TUI_START_MS } from "../harness/tui.ts";
import { CLIENTS, versionOf } from "../harness/versions.ts";
import { type HeadlessResult, runHeadless } from "../harness/headless.ts";
import type { Workspace } from "../harness/workspace.ts";

export const MODEL = "claude-sonnet-4.5";
export const API_KEY = "sk-test-key-not-real-0000";

export function copilotServer(script: readonly Rule<ChatReply>[]): ModelServer<ChatReply> {
  return chatServer(script);
}

/** The `copilot` launcher of the version under test, installed into the cache when missing. */
export async function copilotBinary(): Promise<string> {
  const prefix = await installCli(CLIENTS["copilot"].pkg, versionOf("copilot"));
  return `${prefix}/node_modules/.bin/copilot`;
}

/** The settings and the folder trust a person who set Copilot up here would have. */
export async function seedCopilotHome(ws: Workspace): Promise<void> {
  await Deno.mkdir(`${ws.home}/.copilot`, { recursive: true });
  await Deno.writeTextFile(
    `${ws.home}/.copilot/settings.json`,
    JSON.stringify({ banner: "never", autoUpdate: false }, null, 2) + "\n",
  );
  await Deno.writeTextFile(
    `${ws.home}/.copilot/config.json`,
    JSON.stringify({ trustedFolders: [ws.project] }, null, 2) + "\n",
  );
}

export function copilotEnv(ws: Workspace, server: ModelServer<ChatReply>): Record<string, string> {
  return ws.env({
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: `${server.origin}/v1`,
    COPILOT_PROVIDER_API_KEY: API_KEY,
    COPILOT_MODEL: MODEL,
    COPILOT_AUTO_UPDATE: "false",
  });
}

export type { HeadlessResult } from "../harness/headless.ts";

/** `copilot -p PROMPT --allow-all-tools` in the project, stdin closed. */
export async function copilotPrint(
  ws: Workspace,
  server: ModelServer<ChatReply>,
  prompt: string,
): Promise<HeadlessResult> {
  return await runHeadless(
    ws,
    [await copilotBinary(), "-p", prompt, "--allow-all-tools"],
    copilotEnv(ws, server),
  );
}

/** The empty prompt box of an idle TUI: the "❯" line between two rules. */
const PROMPT_BOX = /─{20,}\n❯\s*\n─{20,}/;
/** Shown while a turn runs. */
const BUSY = /esc to (cancel|interrupt|stop)|Thinking/i;

/** An interactive Copilot CLI in tmux (`--allow-all`: tool calls run without asking). */
export class CopilotTui extends AgentTui<ChatReply> {
  static async start(ws: Workspace, server: ModelServer<ChatReply>): Promise<CopilotTui> {
    const tmux = await AgentTui.open(ws, [await copilotBinary(), "--allow-all"], copilotEnv(ws, server));
    const tui = new CopilotTui(tmux, server, {
      label: "Copilot CLI",
      ready: PROMPT_BOX,
      busy: BUSY,
      readyIs: "an empty prompt",
      quietMs: 500,
    });
    await tui.idle(TUI_START_MS);
    return tui;
  }

  /** Ends the session the way a person does (/exit) and waits for the exit. */
  async quit(): Promise<number> {
    await this.runCommand("/exit");
    return await this.exitThenClose(30_000);
  }
}

/** Every Copilot session log in the workspace's HOME. */
export async function eventFiles(ws: Workspace): Promise<string[]> {
  const root = `${ws.home}/.copilot/session-state`;
  const out: string[] = [];
  try {
    for await (const dir of Deno.readDir(root)) {
      if (!dir.isDirectory) continue;
      const path = `${root}/${dir.name}/events.jsonl`;
      try {
        if ((await Deno.stat(path)).isFile) out.push(path);
      } catch {
        // a session folder without a log yet
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out.sort();
}
