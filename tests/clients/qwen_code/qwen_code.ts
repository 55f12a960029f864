/**
 * Driving the real Qwen Code CLI offline: the pinned (or `--latest`) package from the npm
 * registry, a temp HOME whose settings pick the OpenAI-compatible provider, the Chat Completions
 * model on 127.0.0.1, and sessions either headless (`qwen -p`) or interactive in tmux. What it
 * takes (seen with 0.24.4, ../shared/clients/qwen-code/NOTES.md):
 *
 * - `~/.qwen/settings.json` with `security.auth.selectedType: "openai"` AND `model.name` (without
 *   the model key Qwen crashes), folder trust off, usage statistics, telemetry and updates off;
 * - OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL in the environment;
 * - the TUI takes keys only once its prompt box shows ("Type your message"); a `!` line leaves it
 *   in shell mode until Escape;
 * - Qwen asks the model for itself after turns (the managed-memory extraction subagent, next-
 *   prompt suggestions): those are side requests (`isQwenSideRequest`) that consume no rule.
 */
import { chatMessages, type ChatReply, chatServer, systemText } from "../harness/openai_chat.ts";
import { installCli } from "../harness/install_cli.ts";
import type { ModelServer, RecordedRequest, Rule } from "../harness/model_server.ts";
import { AgentTui, TUI_START_MS } from "../harness/tui.ts";
import { CLIENTS, versionOf } from "../harness/versions.ts";
import { type HeadlessResult, runHeadless } from "../harness/headless.ts";
import { jsonlFilesIn } from "../harness/scenario.ts";
import type { Workspace } from "../harness/workspace.ts";

/** The model id the settings and the environment name (any id works with a custom provider). */
export const MODEL = "test-model";
/** Visibly fake. */
export const API_KEY = "sk-test-key-not-real-0000";

/** Qwen's own requests: memory extraction after a turn, and the next-prompt suggestion. */
export function isQwenSideRequest(body: unknown): boolean {
  if (systemText(body).startsWith("You are now acting as the managed memory extraction subagent")) {
    return true;
  }
  const last = chatMessages(body).filter((m) => m.role === "user").at(-1);
  return last?.text.startsWith("[SUGGESTION MODE:") ?? false;
}

/**
 * A Chat Completions server for Qwen. It reports a large prompt (`promptTokens`) so that
 * `/compress` is worth it to Qwen (it refuses to compact a history the usage calls small).
 */
export function qwenServer(script: readonly Rule<ChatReply>[]): ModelServer<ChatReply> {
  return chatServer(script, { side: isQwenSideRequest, promptTokens: 60_000 });
}

/** The `qwen` launcher of the version under test, installed into the cache when missing. */
export async function qwenBinary(): Promise<string> {
  const prefix = await installCli(CLIENTS["qwen-code"].pkg, versionOf("qwen-code"));
  return `${prefix}/node_modules/.bin/qwen`;
}

/** The settings a person who set Qwen up for a local OpenAI-compatible model would have. */
export async function seedQwenHome(ws: Workspace): Promise<void> {
  await Deno.mkdir(`${ws.home}/.qwen`, { recursive: true });
  const settings = {
    security: { auth: { selectedType: "openai" }, folderTrust: { enabled: false } },
    model: { name: MODEL },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    telemetry: { enabled: false },
    ui: { hideTips: true },
  };
  await Deno.writeTextFile(`${ws.home}/.qwen/settings.json`, JSON.stringify(settings, null, 2) + "\n");
}

export function qwenEnv(ws: Workspace, server: ModelServer<ChatReply>): Record<string, string> {
  return ws.env({ OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: `${server.origin}/v1`, OPENAI_MODEL: MODEL });
}

export type { HeadlessResult } from "../harness/headless.ts";

/** `qwen -p PROMPT` in the project, stdin closed. */
export async function qwenPrint(
  ws: Workspace,
  server: ModelServer<ChatReply>,
  prompt: string,
  extraArgs: readonly string[] = [],
): Promise<HeadlessResult> {
  return await runHeadless(ws, [await qwenBinary(), "-p", prompt, ...extraArgs], qwenEnv(ws, server));
}

/** The empty prompt box of an idle TUI. */
const PROMPT_BOX = /Type your message or @path\/to\/file/;
/** Shown while a turn runs. */
const BUSY = /esc to cancel/i;

/** Shown under the prompt box while `!` lines go to the shell. */
const SHELL_MODE = /shell mode enabled/;
/** Escape presses at most to leave shell mode. */
const ESCAPE_TRIES = 3;
/**
 * The dialog a double Escape opens: an Escape that was slow to take effect and the retry after it
 * read as one double press (seen under load). Escape closes it again.
 */
const REWIND_DIALOG = /Rewind Conversation/;

/** An interactive Qwen Code in tmux (`--approval-mode yolo`: tool calls run without asking). */
export class QwenTui extends AgentTui<ChatReply> {
  static async start(ws: Workspace, server: ModelServer<ChatReply>): Promise<QwenTui> {
    const tmux = await AgentTui.open(
      ws,
      [await qwenBinary(), "--approval-mode", "yolo"],
      qwenEnv(ws, server),
    );
    const tui = new QwenTui(tmux, server, {
      label: "Qwen Code",
      ready: PROMPT_BOX,
      busy: BUSY,
      readyIs: "an empty prompt",
      quietMs: 500,
    });
    await tui.idle(TUI_START_MS);
    return tui;
  }

  /** The conversation's turns, not Qwen Code's own side requests. */
  protected override isTurn(r: RecordedRequest): boolean {
    return r.turn && !r.side;
  }

  /** A `!` line is followed by Escape (out of shell mode). */
  protected override async afterTurn(text: string): Promise<void> {
    if (text.startsWith("!")) await this.#leaveShellMode();
  }

  /**
   * Escape, until the prompt box is out of shell mode: an Escape that lands while the TUI still
   * settles after the command is lost (seen under load: the next prompt was typed as a command).
   */
  async #leaveShellMode(): Promise<void> {
    for (let tries = 0; tries < ESCAPE_TRIES; tries++) {
      await this.tmux.press("Escape");
      if (REWIND_DIALOG.test(await this.tmux.waitQuiet(500, 10_000))) {
        await this.tmux.press("Escape");
      }
      const screen = await this.idle();
      if (!SHELL_MODE.test(screen)) return;
    }
    throw new Error(`Qwen Code stayed in shell mode after ${ESCAPE_TRIES} presses of Escape`);
  }

  /** Ends the session the way a person does (/quit) and waits for the exit. */
  async quit(): Promise<number> {
    await this.runCommand("/quit");
    return await this.exitThenClose(30_000);
  }
}

/** Every Qwen Code chat file in the workspace's HOME (`~/.qwen/projects/<project>/chats/*.jsonl`). */
export async function chatFiles(ws: Workspace): Promise<string[]> {
  return await jsonlFilesIn(`${ws.home}/.qwen/projects`, "chats");
}
