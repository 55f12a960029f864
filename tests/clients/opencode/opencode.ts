/**
 * Driving the real OpenCode offline: the pinned (or `--latest`) npm package, a temp HOME whose
 * `~/.config/opencode/opencode.json` points an OpenAI-compatible provider at the Chat Completions
 * model on 127.0.0.1, and sessions either headless (`opencode run`) or interactive in tmux. What
 * it takes (seen with 1.18.33, ../shared/clients/opencode/NOTES.md):
 *
 * - the native binary of the platform package (`opencode-linux-x64/bin/opencode`): the
 *   launcher `opencode-ai` ships is a stub its postinstall script replaces, and the installer
 *   runs no install scripts;
 * - `@opencode-ai/plugin` of the same version already in `~/.config/opencode/` (its
 *   `node_modules` and `package.json`), as OpenCode leaves it for a person who is online. The
 *   installer caches it beside the CLI (harness/install_cli.ts), so a fresh machine fetches both
 *   once;
 * - the npm registry pointed at the model server (`npm_config_registry`): at every start
 *   OpenCode asks the registry about that package, whether it is there or not. Asked the real
 *   registry, the tests would not be offline; asked nothing that answers, OpenCode waits about
 *   70 s before it draws anything. The model server answers 404 at once, and OpenCode goes on;
 * - models.dev fetches, the auto-updater and the default plugins off (OPENCODE_DISABLE_*), and
 *   edits and shell commands allowed (no permission dialog takes a prompt).
 */
import { installCli, isExecutable } from "../harness/install_cli.ts";
import type { ModelServer, RecordedRequest } from "../harness/model_server.ts";
import { type ChatReply, systemText } from "../harness/openai_chat.ts";
import { AgentTui, TUI_ECHO_MS, TUI_SETTLE_MS, TUI_START_MS, TUI_TURN_MS } from "../harness/tui.ts";
import { CLIENTS, versionOf } from "../harness/versions.ts";
import { type HeadlessResult, runHeadless } from "../harness/headless.ts";
import type { Workspace } from "../harness/workspace.ts";

/** Visibly fake; OpenCode sends it as a bearer token to the provider. */
export const API_KEY = "opencode-test-key-not-real";
/** The provider and model names in opencode.json (`<provider>/<model>`). */
export const MODEL = "local/test-model";
/** The package OpenCode installs into its config folder (its plugin API). */
export const PLUGIN_PKG = "@opencode-ai/plugin";

/** How OpenCode's own requests start (answered apart, never by the script). */
const SIDE_PROMPTS = ["You are a title generator", "You are a context summarization agent"];

/** Is `body` a request OpenCode makes for itself (a title, a compaction summary)? */
export function isOpenCodeSide(body: unknown): boolean {
  const system = systemText(body);
  return SIDE_PROMPTS.some((p) => system.startsWith(p));
}

/** The platform packages that may hold the binary, in the order the launcher's postinstall tries. */
function nativePackages(): string[] {
  const os = Deno.build.os === "darwin" ? "darwin" : Deno.build.os === "windows" ? "windows" : "linux";
  const arch = Deno.build.arch === "aarch64" ? "arm64" : "x64";
  const base = `opencode-${os}-${arch}`;
  if (arch !== "x64") return [base];
  let avx2 = true;
  try {
    avx2 = /(^|\s)avx2(\s|$)/.test(Deno.readTextFileSync("/proc/cpuinfo"));
  } catch {
    // not Linux: the launcher's default order
  }
  return avx2 ? [base, `${base}-baseline`] : [`${base}-baseline`, base];
}

/** The OpenCode binary of the version under test, installed into the cache when missing. */
export async function openCodeBinary(): Promise<string> {
  const version = versionOf("opencode");
  const prefix = await installCli(CLIENTS.opencode.pkg, version);
  const tried: string[] = [];
  for (const pkg of nativePackages()) {
    const bin = `${prefix}/node_modules/${pkg}/bin/opencode`;
    if (await isExecutable(bin)) return bin;
    tried.push(bin);
  }
  throw new Error(
    `Cannot run OpenCode ${version}: none of ${
      tried.join(", ")
    } is an executable (the package layout changed?)`,
  );
}

/** The opencode.json a person who pointed OpenCode at a local provider would have. */
export function openCodeConfig(server: ModelServer<ChatReply>): Record<string, unknown> {
  const [provider, model] = MODEL.split("/");
  return {
    $schema: "https://opencode.ai/config.json",
    provider: {
      [provider!]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Local test model",
        options: { baseURL: `${server.origin}/v1`, apiKey: API_KEY },
        models: { [model!]: { name: "Test model", tool_call: true } },
      },
    },
    model: MODEL,
    small_model: MODEL,
    autoupdate: false,
    share: "disabled",
    permission: { edit: "allow", bash: "allow" },
  };
}

/**
 * Writes `~/.config/opencode/opencode.json` and puts the plugin package there (see the head of
 * this file). Returns the config file's path.
 */
export async function seedOpenCodeHome(ws: Workspace, server: ModelServer<ChatReply>): Promise<string> {
  const dir = `${ws.home}/.config/opencode`;
  await Deno.mkdir(dir, { recursive: true });
  const deps = await installCli(PLUGIN_PKG, versionOf("opencode"));
  const cp = await new Deno.Command("cp", {
    args: ["-R", `${deps}/node_modules`, `${deps}/package.json`, `${dir}/`],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!cp.success) {
    throw new Error(`Cannot copy ${PLUGIN_PKG} into ${dir}: ${new TextDecoder().decode(cp.stderr)}`);
  }
  const path = `${dir}/opencode.json`;
  await Deno.writeTextFile(path, JSON.stringify(openCodeConfig(server), null, 2) + "\n");
  return path;
}

export function openCodeEnv(ws: Workspace, server: ModelServer<ChatReply>): Record<string, string> {
  return ws.env({
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    npm_config_registry: `${server.origin}${REGISTRY_PATH}`,
  });
}

/** Where OpenCode's package look-ups go on the model server (answered 404, recorded). */
export const REGISTRY_PATH = "/npm-registry/";

export type { HeadlessResult } from "../harness/headless.ts";

/** `opencode run PROMPT` in the project, stdin closed. */
export async function openCodeRun(
  ws: Workspace,
  server: ModelServer<ChatReply>,
  prompt: string,
): Promise<HeadlessResult> {
  return await runHeadless(ws, [await openCodeBinary(), "run", prompt], openCodeEnv(ws, server));
}

/** The key hints under the prompt box, drawn once the TUI takes input (prompt or shell mode). */
const READY = /ctrl\+p commands|esc exit shell mode/;
/** Shown while a turn runs. */
const BUSY = /esc interrupt/i;

/** Ctrl-C presses at most, each followed by a wait for the exit. */
const QUIT_TRIES = 3;
const QUIT_WAIT_MS = 8_000;

/** An interactive OpenCode in tmux. */
export class OpenCodeTui extends AgentTui<ChatReply> {
  static async start(ws: Workspace, server: ModelServer<ChatReply>): Promise<OpenCodeTui> {
    const tmux = await AgentTui.open(ws, [await openCodeBinary()], openCodeEnv(ws, server));
    const tui = new OpenCodeTui(tmux, server, {
      label: "OpenCode",
      ready: READY,
      busy: BUSY,
      readyIs: "its prompt box",
      quietMs: 600,
    });
    await tui.idle(TUI_START_MS);
    return tui;
  }

  /** "!" switches the box to shell mode and "/" opens the command list: neither is echoed. */
  protected override echoOf(text: string): string {
    return text.replace(/^[!/]/, "").slice(-16);
  }

  /** The conversation's turns, not OpenCode's own side requests (titles, summaries). */
  protected override isTurn(r: RecordedRequest): boolean {
    return r.turn && !r.side;
  }

  /**
   * Types `text` and presses Enter, then waits for what it causes and for the TUI to be idle
   * again: with `expect` a string, the conversation turn whose latest input holds it; with a
   * function, the first request it accepts (a side request such as the compaction summary);
   * with `screen`, a screen matching it (a `!` command asks no model). Returns the requests
   * made meanwhile.
   */
  override async submit(
    text: string,
    expect?: string | ((r: RecordedRequest) => boolean),
    screen?: RegExp,
  ): Promise<RecordedRequest[]> {
    const from = this.server.requests.length;
    await this.typeAndSee(text);
    await this.tmux.waitQuiet(TUI_SETTLE_MS);
    await this.tmux.press("Enter");
    if (typeof expect === "string") {
      await this.waitForTurn(expect, from);
    } else if (expect !== undefined) {
      await this.server.waitFor(`the request "${text}" makes`, expect, { from, timeoutMs: TUI_TURN_MS });
    }
    if (screen !== undefined) await this.tmux.waitForScreen(screen, `what "${text}" shows`, TUI_ECHO_MS);
    await this.idle();
    return this.server.requests.slice(from);
  }

  /**
   * Ends the session with Ctrl-C (on an empty prompt box it exits; on a busy or filled one it
   * first interrupts or clears, so it is pressed again while the TUI stays) and waits for the exit.
   */
  async quit(): Promise<number> {
    try {
      for (let tries = 0; tries < QUIT_TRIES; tries++) {
        await this.tmux.press("C-c");
        try {
          return await this.tmux.waitExit(QUIT_WAIT_MS);
        } catch {
          // still running: press again
        }
      }
      return await this.tmux.waitExit(20_000);
    } finally {
      await this.tmux.close();
    }
  }
}
