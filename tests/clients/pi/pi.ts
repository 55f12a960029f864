/**
 * Driving the real pi (`@mariozechner/pi-coding-agent`) offline: the pinned (or `--latest`) package
 * from the npm registry, a custom provider in `~/.pi/agent/models.json` pointed at the Chat
 * Completions model on 127.0.0.1, and sessions either headless (`pi -p`) or interactive in tmux.
 * What it takes (seen with 0.73.1):
 *
 * - `models.json` with one provider (`api: "openai-completions"`, developer role and reasoning
 *   effort off) and `settings.json` naming it as the default; no first-run screens follow;
 * - PI_OFFLINE=1: no version check, and no download of `fd` / `rg` at start;
 * - its compaction asks the model for a summary with its own system prompt: a side request.
 */
import type { ChatReply } from "../harness/openai_chat.ts";
import { chatServer, systemText } from "../harness/openai_chat.ts";
import { installCli } from "../harness/install_cli.ts";
import type { ModelServer, RecordedRequest, Rule } from "../harness/model_server.ts";
import { delay, escapeRegExp } from "../harness/tmux.ts";
import { TmuxTui } from "../harness/tui.ts";
import { CLIENTS, versionOf } from "../harness/versions.ts";
import { type HeadlessResult, runHeadless } from "../harness/headless.ts";
import { jsonlFilesIn } from "../harness/scenario.ts";
import type { Workspace } from "../harness/workspace.ts";

export const MODEL = "test-model";

/** pi's compaction (and branch) summaries are asked for with this system prompt. */
const SUMMARY_PROMPT = "You are a context summarization assistant";

export function piServer(script: readonly Rule<ChatReply>[]): ModelServer<ChatReply> {
  return chatServer(script, { side: (body) => systemText(body).startsWith(SUMMARY_PROMPT) });
}

/** The `pi` launcher of the version under test, installed into the cache when missing. */
export async function piBinary(): Promise<string> {
  const prefix = await installCli(CLIENTS["pi"].pkg, versionOf("pi"));
  return `${prefix}/node_modules/.bin/pi`;
}

/** pi's folder in the workspace's HOME. */
export function piFolder(ws: Workspace): string {
  return `${ws.home}/.pi/agent`;
}

/** The provider and defaults a person who set pi up for a local model would have. */
export async function seedPiHome(ws: Workspace, server: ModelServer<ChatReply>): Promise<void> {
  const dir = piFolder(ws);
  await Deno.mkdir(dir, { recursive: true });
  const provider = {
    baseUrl: `${server.origin}/v1`,
    api: "openai-completions",
    apiKey: "test-key-not-real",
    compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
    models: [{ id: MODEL }],
  };
  await Deno.writeTextFile(
    `${dir}/models.json`,
    JSON.stringify({ providers: { local: provider } }, null, 2) + "\n",
  );
  await Deno.writeTextFile(
    `${dir}/settings.json`,
    JSON.stringify({ defaultProvider: "local", defaultModel: MODEL }, null, 2) + "\n",
  );
}

export function piEnv(ws: Workspace): Record<string, string> {
  return ws.env({ PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" });
}

export type { HeadlessResult } from "../harness/headless.ts";

/** `pi -p PROMPT` in the project, stdin closed. */
export async function piPrint(ws: Workspace, prompt: string): Promise<HeadlessResult> {
  return await runHeadless(ws, [await piBinary(), "-p", prompt], piEnv(ws));
}

/** The editor between two rules, then the footer (cwd, then the token line naming the model). */
const IDLE = new RegExp(`─{20,}\\n(.*\\n)?─{20,}\\n[^\\n]*\\n[^\\n]*${MODEL}`);
/** Shown while a turn (or a compaction) runs. */
const BUSY = /Working\.\.\.|Compacting/;

/** An interactive pi in tmux. */
export class PiTui extends TmuxTui<ChatReply> {
  static async start(ws: Workspace, server: ModelServer<ChatReply>): Promise<PiTui> {
    const tui = new PiTui(await TmuxTui.open(ws, [await piBinary()], piEnv(ws)), server);
    await tui.idle(60_000);
    return tui;
  }

  async idle(timeoutMs = 60_000): Promise<string> {
    const deadline = performance.now() + timeoutMs;
    while (true) {
      const left = deadline - performance.now();
      const screen = await this.tmux.waitQuiet(500, Math.max(left, 1000));
      if (IDLE.test(screen) && !BUSY.test(screen)) return screen;
      if (performance.now() > deadline) {
        throw new Error(`pi did not come back to an empty editor; the screen shows:\n${screen}`);
      }
      await delay(200);
    }
  }

  /**
   * Types `text` and presses Enter, then waits for the model request whose latest input holds
   * `expect` (when given) and for pi to be idle again. Returns the turns of this prompt.
   */
  async submit(text: string, expect?: string): Promise<RecordedRequest[]> {
    const from = this.server.requests.length;
    await this.tmux.type(text);
    await this.tmux.waitForScreen(new RegExp(escapeRegExp(text.slice(-16))), "the typed text");
    await this.tmux.press("Enter");
    if (expect !== undefined) {
      const folded = expect.toLowerCase();
      await this.server.waitFor(
        `a turn holding "${expect}"`,
        (r) => r.turn && (r.input?.text.toLowerCase().includes(folded) ?? false),
        { from, timeoutMs: 60_000 },
      );
    }
    await this.idle();
    return this.server.requests.slice(from).filter((r) => r.turn);
  }

  /** Ends the session the way a person does (/quit) and waits for the exit. */
  async quit(): Promise<number> {
    await this.tmux.type("/quit");
    await this.tmux.waitForScreen(/\/quit/, "the typed /quit");
    await this.tmux.press("Enter");
    return await this.exitThenClose(30_000);
  }
}

/** Every pi session file in the workspace's HOME (`~/.pi/agent/sessions/<project>/*.jsonl`). */
export async function sessionFiles(ws: Workspace): Promise<string[]> {
  return await jsonlFilesIn(`${piFolder(ws)}/sessions`);
}
