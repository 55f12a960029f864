/**
 * Driving the real Gemini CLI offline: the pinned (or `--latest`) npm package, a temp HOME whose
 * settings pick API-key auth (else the TUI opens its auth dialog) and turn off telemetry, usage
 * statistics, update checks and tips, the Gemini API model on 127.0.0.1
 * (GOOGLE_GEMINI_BASE_URL), and sessions either headless (`gemini -p`) or interactive in tmux.
 * What it takes is in ../shared/clients/gemini/NOTES.md (seen with 0.61.0).
 *
 * The TUI runs with `--approval-mode yolo`, so the scripted tool calls (write_file, the MCP
 * recall) run without a confirmation dialog; install does not set `trust` on verdict's server.
 */
import type { GeminiReply } from "../harness/gemini_api.ts";
import { installCli, isExecutable } from "../harness/install_cli.ts";
import type { ModelServer, RecordedRequest } from "../harness/model_server.ts";
import { escapeRegExp } from "../harness/tmux.ts";
import { AgentTui, TUI_ECHO_MS, TUI_START_MS } from "../harness/tui.ts";
import { CLIENTS, versionOf } from "../harness/versions.ts";
import { type HeadlessResult, runHeadless } from "../harness/headless.ts";
import { jsonlFilesIn } from "../harness/scenario.ts";
import type { Workspace } from "../harness/workspace.ts";

/** Visibly fake; sent as x-goog-api-key. */
export const API_KEY = "gemini-test-key-not-real";

/** The settings a person who set Gemini CLI up for an API key would have (NOTES.md §1). */
export const BASE_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
  privacy: { usageStatisticsEnabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  telemetry: { enabled: false },
  ui: { hideTips: true },
};

/** The `gemini` launcher of the version under test, installed into the cache when missing. */
export async function geminiBinary(): Promise<string> {
  const version = versionOf("gemini");
  const prefix = await installCli(CLIENTS.gemini.pkg, version);
  const bin = `${prefix}/node_modules/.bin/gemini`;
  if (!(await isExecutable(bin))) {
    throw new Error(
      `Cannot run Gemini CLI ${version}: ${bin} is not an executable (the package layout changed?)`,
    );
  }
  return bin;
}

export async function seedGeminiHome(ws: Workspace): Promise<string> {
  await Deno.mkdir(`${ws.home}/.gemini`, { recursive: true });
  const path = `${ws.home}/.gemini/settings.json`;
  await Deno.writeTextFile(path, JSON.stringify(BASE_SETTINGS, null, 2) + "\n");
  return path;
}

export function geminiEnv(ws: Workspace, server: ModelServer<GeminiReply>): Record<string, string> {
  return ws.env({ GEMINI_API_KEY: API_KEY, GOOGLE_GEMINI_BASE_URL: server.origin });
}

export type { HeadlessResult } from "../harness/headless.ts";

/** `gemini -p PROMPT` in the project, stdin closed. */
export async function geminiPrint(
  ws: Workspace,
  server: ModelServer<GeminiReply>,
  prompt: string,
): Promise<HeadlessResult> {
  return await runHeadless(ws, [await geminiBinary(), "-p", prompt], geminiEnv(ws, server));
}

/** The empty input line of an idle TUI (normal and shell mode). */
const INPUT_EMPTY = /Type your (message or @path\/to\/file|shell command)/;
/** Shown while a turn runs or the CLI starts. */
const BUSY = /esc to cancel|Initializing\.\.\./i;

/** Enter presses at most per prompt (the first one can land on a completion list). */
const ENTER_TRIES = 3;

/**
 * The input line holding the typed `/quit`, and the command list narrowed to it alone: the CLI
 * has read every typed key (while it still lists other commands, it has not caught up).
 */
const QUIT_TYPED = /^\s*\*\s+\/quit\s*$/m;
const QUIT_LISTED = /^\s*quit\s+Exit the cli\s*$/m;
const OTHER_COMMAND_LISTED = /^\s*(clear|compress|about)\s{2,}\S/m;
/** What Gemini CLI shows once it takes /quit: its session summary (kept on the dead pane). */
const QUITTING = /Agent powering down|To resume this session|Interaction Summary/;
/** How long the summary may take to appear after Enter before Enter is judged lost. */
const QUIT_TAKEN_MS = 10_000;
/** How long the CLI may take to exit once it shows the summary (its MCP server is stopped too). */
const QUIT_EXIT_MS = 60_000;
/** How long the screen must stay still before judging whether Enter was taken. */
const ENTER_SETTLE_MS = 800;

/** An interactive Gemini CLI in tmux. */
export class GeminiTui extends AgentTui<GeminiReply> {
  /** The workspace's HOME (Gemini CLI's shell history is under it). */
  #home = "";

  static async start(ws: Workspace, server: ModelServer<GeminiReply>): Promise<GeminiTui> {
    const tmux = await AgentTui.open(
      ws,
      [await geminiBinary(), "--approval-mode", "yolo"],
      geminiEnv(ws, server),
    );
    const tui = new GeminiTui(tmux, server, {
      label: "Gemini CLI",
      ready: INPUT_EMPTY,
      busy: BUSY,
      readyIs: "an empty input line",
      quietMs: 500,
    });
    tui.#home = ws.home;
    await tui.idle(TUI_START_MS);
    return tui;
  }

  /** Every character of the text is echoed ("!" too: shell mode is entered by `shell`). */
  protected override echoOf(text: string): string {
    return text.slice(-16);
  }

  /**
   * An "@path" opens a completion list while it is typed; Enter on it picks a file, not the
   * prompt. Let the input settle, and press Enter again while the text still sits there.
   */
  protected override async enter(text: string, from: number): Promise<void> {
    await this.tmux.waitQuiet(400);
    await this.tmux.press("Enter");
    for (let tries = 1; tries < ENTER_TRIES && (await this.#stillTyped(text, from)); tries++) {
      await this.tmux.press("Enter");
    }
  }

  /** The conversation's turns, not Gemini CLI's own side requests. */
  protected override isTurn(r: RecordedRequest): boolean {
    return r.turn && !r.side;
  }

  /** After a quiet moment: is `text` still in the input line, with no request sent since `from`? */
  async #stillTyped(text: string, from: number): Promise<boolean> {
    const screen = await this.tmux.waitQuiet(ENTER_SETTLE_MS);
    if (this.server.requests.length > from) return false;
    const input = screen.split("\n").find((l) => /^\s*[*!>]\s/.test(l) && l.includes(text.slice(0, 16)));
    return input !== undefined && !/^\s*>\s/.test(input);
  }

  /** After a quiet moment: has `command` reached Gemini CLI's shell history? */
  async #ranShell(command: string): Promise<boolean> {
    await this.tmux.waitQuiet(ENTER_SETTLE_MS);
    return (await shellHistory(this.#home)).includes(command);
  }

  /** A `!` shell-mode line: "!" switches the input to shell mode, the command runs locally. */
  async shell(command: string): Promise<void> {
    await this.tmux.type("!");
    await this.tmux.waitForScreen(/shell mode enabled/, "shell mode");
    await this.tmux.type(command);
    await this.tmux.waitForScreen(
      new RegExp(escapeRegExp(command.slice(-16))),
      "the shell command",
      TUI_ECHO_MS,
    );
    // As with prompts, an Enter that lands while the input still settles can be lost: press it
    // again while the command has not reached the shell history (the command ran when it has).
    await this.tmux.waitQuiet(400);
    await this.tmux.press("Enter");
    for (let tries = 1; tries < ENTER_TRIES && !(await this.#ranShell(command)); tries++) {
      await this.tmux.press("Enter");
    }
    await this.idle();
    await this.tmux.press("Escape"); // back to prompts
    await this.tmux.waitForScreen(/Type your message/, "prompt mode");
  }

  /**
   * Ends the session the way a person does (/quit) and waits for the exit. Gemini CLI reads an
   * Enter that comes within 30 ms of the key before it as a newline, not a submission
   * (FAST_RETURN_TIMEOUT in its KeypressContext), so Enter waits until the input shows /quit,
   * the command list is narrowed to it and the screen is still; an Enter that still went lost
   * (no session summary, /quit still in the input) is pressed again.
   */
  async quit(): Promise<number> {
    await this.tmux.type("/quit");
    await this.tmux.waitUntil(
      (s) => QUIT_TYPED.test(s) && QUIT_LISTED.test(s) && !OTHER_COMMAND_LISTED.test(s),
      "the typed /quit with the command list narrowed to it",
    );
    try {
      for (let tries = 1;; tries++) {
        await this.tmux.waitQuiet(ENTER_SETTLE_MS);
        await this.tmux.press("Enter");
        const taken = await this.tmux.waitUntil((s) => QUITTING.test(s), "the session summary", QUIT_TAKEN_MS)
          .then(() => true, () => false);
        if (taken) break;
        const screen = await this.tmux.screen();
        if (!QUIT_TYPED.test(screen) || tries >= ENTER_TRIES) {
          throw new Error(
            `Gemini CLI did not take /quit (Enter pressed ${tries} time(s), no session summary within ` +
              `${QUIT_TAKEN_MS} ms each); the screen shows:\n${screen}`,
          );
        }
      }
      return await this.tmux.waitExit(QUIT_EXIT_MS).catch((err) => {
        throw new Error(
          `Gemini CLI showed its session summary after /quit but did not exit within ${QUIT_EXIT_MS} ms\n` +
            (err as Error).message,
        );
      });
    } finally {
      await this.tmux.close();
    }
  }
}

/** The commands of every project's shell history (`~/.gemini/tmp/<id>/shell_history`), one per line. */
async function shellHistory(home: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const dir of Deno.readDir(`${home}/.gemini/tmp`)) {
      try {
        out.push(...(await Deno.readTextFile(`${home}/.gemini/tmp/${dir.name}/shell_history`)).split("\n"));
      } catch {
        // no shell command run in that project yet
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out.map((l) => l.trim()).filter((l) => l !== "");
}

/** Every Gemini CLI chat file in the workspace's HOME (`~/.gemini/tmp/<id>/chats/*.jsonl`). */
export async function chatFiles(ws: Workspace): Promise<string[]> {
  return await jsonlFilesIn(`${ws.home}/.gemini/tmp`, "chats");
}
