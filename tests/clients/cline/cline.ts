/**
 * Driving the real Cline CLI (`cline`) offline: the pinned (or `--latest`) package from the npm
 * registry, an OpenAI-compatible provider set with its own `cline auth` and pointed at the Chat
 * Completions model on 127.0.0.1, and sessions either headless (`cline "<prompt>"`) or
 * interactive in tmux. What it takes (seen with 3.0.65):
 *
 * - `cline auth -p openai -k KEY -m MODEL -b BASE` stores the provider (as openai-compatible);
 * - the first run starts a hub daemon (`cline --cline-hub-daemon …`) that outlives it and runs
 *   every later session, the TUI's and the headless ones, on port 25463 unless CLINE_HUB_PORT
 *   says otherwise: each workspace gets a free port of its own, and the story ends its hub;
 * - the TUI may open with an advertisement ("Press Enter to open, any other key to close"):
 *   Escape closes it;
 * - plugins are imported in a Node.js sandbox within CLINE_PLUGIN_IMPORT_TIMEOUT_MS (4 s by
 *   default): the tests give it 30 s, since a loaded machine can take longer (the hint's own
 *   timing is Cline's 3 s per hook, unchanged).
 */
import type { ChatReply } from "../harness/openai_chat.ts";
import { chatServer } from "../harness/openai_chat.ts";
import { installCli } from "../harness/install_cli.ts";
import type { ModelServer, RecordedRequest, Rule } from "../harness/model_server.ts";
import { delay, escapeRegExp } from "../harness/tmux.ts";
import { TmuxTui } from "../harness/tui.ts";
import { CLIENTS, versionOf } from "../harness/versions.ts";
import { type HeadlessResult, runHeadless } from "../harness/headless.ts";
import type { Workspace } from "../harness/workspace.ts";

export const MODEL = "test-model";

export function clineServer(script: readonly Rule<ChatReply>[]): ModelServer<ChatReply> {
  return chatServer(script);
}

/** The `cline` launcher of the version under test, installed into the cache when missing. */
export async function clineBinary(): Promise<string> {
  const prefix = await installCli(CLIENTS["cline"].pkg, versionOf("cline"));
  return `${prefix}/node_modules/.bin/cline`;
}

/** Cline's folder in the workspace's HOME. */
export function clineFolder(ws: Workspace): string {
  return `${ws.home}/.cline`;
}

/** Each workspace's hub port: Cline's default (25463) is one per machine, and a hub serves the HOME it started in. */
const hubPorts = new WeakMap<Workspace, string>();

function hubPort(ws: Workspace): string {
  let port = hubPorts.get(ws);
  if (port === undefined) {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    port = String((l.addr as Deno.NetAddr).port);
    l.close();
    hubPorts.set(ws, port);
  }
  return port;
}

export function clineEnv(ws: Workspace): Record<string, string> {
  return ws.env({ CLINE_PLUGIN_IMPORT_TIMEOUT_MS: "30000", CLINE_HUB_PORT: hubPort(ws) });
}

export type { HeadlessResult } from "../harness/headless.ts";

/** `cline ARGS` in the project, stdin closed. */
export async function cline(ws: Workspace, args: readonly string[]): Promise<HeadlessResult> {
  return await runHeadless(ws, [await clineBinary(), ...args], clineEnv(ws));
}

/** The provider a person who set Cline up for a local model would have, set by `cline auth`. */
export async function seedClineHome(ws: Workspace, server: ModelServer<ChatReply>): Promise<void> {
  const r = await cline(ws, [
    "auth",
    "-p",
    "openai",
    "-k",
    "test-key-not-real",
    "-m",
    MODEL,
    "-b",
    `${server.origin}/v1`,
  ]);
  if (r.code !== 0) throw new Error(`cline auth exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
}

/** The hub daemons Cline started for this HOME (found by their command line and HOME), by pid. */
async function hubPids(ws: Workspace): Promise<number[]> {
  const out: number[] = [];
  for await (const e of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const cmd = await Deno.readTextFile(`/proc/${e.name}/cmdline`);
      if (!cmd.includes("--cline-hub-daemon")) continue;
      const env = await Deno.readTextFile(`/proc/${e.name}/environ`);
      if (env.split("\0").includes(`HOME=${ws.home}`)) out.push(Number(e.name));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Ends this HOME's hub daemons: SIGTERM, then SIGKILL for one still there after 5 s. */
export async function stopHub(ws: Workspace): Promise<void> {
  const pids = await hubPids(ws);
  const signal = (pid: number, sig: Deno.Signal) => {
    try {
      Deno.kill(pid, sig);
    } catch {
      // already gone
    }
  };
  for (const pid of pids) signal(pid, "SIGTERM");
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline && (await hubPids(ws)).length > 0) await delay(200);
  for (const pid of await hubPids(ws)) signal(pid, "SIGKILL");
}

/** The input box, empty, with its placeholder ("What can I do for you?" at first). */
const IDLE = /❯ (Ask anything\.\.\.|What can I do for you\?)/;
/** The advertisement some starts show over the input box. */
const ADVERT = /any other key to close/;

/** An interactive Cline in tmux. */
export class ClineTui extends TmuxTui<ChatReply> {
  static async start(ws: Workspace, server: ModelServer<ChatReply>): Promise<ClineTui> {
    const tmux = await TmuxTui.open(ws, [await clineBinary()], clineEnv(ws), { width: 120, height: 40 });
    const tui = new ClineTui(tmux, server);
    await tmux.waitUntil((s) => IDLE.test(s) || ADVERT.test(s), "Cline's input box", 90_000);
    // The advertisement comes up a moment after the input box, when it comes: a key typed while
    // it shows only closes it. Look for it a few seconds, and close it if it comes.
    const until = performance.now() + 4000;
    while (performance.now() < until) {
      if (ADVERT.test(await tmux.screen())) {
        await tmux.press("Escape");
        await tmux.waitUntil((s) => IDLE.test(s) && !ADVERT.test(s), "the input box after the advertisement");
        break;
      }
      await delay(200);
    }
    return tui;
  }

  /**
   * Types `text` and presses Enter, then waits for the model request whose latest input holds
   * `expect`, and for the reply (`reply`, as the screen shows it) and an empty input box.
   */
  async submit(text: string, expect: string, reply: string): Promise<RecordedRequest[]> {
    const from = this.server.requests.length;
    await this.tmux.type(text);
    await this.tmux.waitForScreen(new RegExp(escapeRegExp(text.slice(-16))), "the typed text");
    const folded = expect.toLowerCase();
    const arrived = (r: RecordedRequest) => r.turn && (r.input?.text.toLowerCase().includes(folded) ?? false);
    // Right after a run Cline may still be busy for a moment (its checkpoint commit), and an Enter
    // pressed then is dropped, the text left in the input box: press it again, as a person would.
    // An advertisement that comes up late takes the next key for itself: close it, then press
    // Enter again if the text is still in the box. Looked at every few seconds until the request
    // comes, as a person would watch the screen.
    // The box is drawn centred, so its line opens with spaces.
    const inBox = new RegExp(`^\\s*❯ ${escapeRegExp(text.slice(0, 40))}`, "m");
    const deadline = performance.now() + 90_000;
    let press: "Enter" | "Escape" | null = "Enter";
    for (;;) {
      if (press !== null) await this.tmux.press(press);
      try {
        await this.server.waitFor(`a turn holding "${expect}"`, arrived, { from, timeoutMs: 8000 });
        break;
      } catch (err) {
        const screen = await this.tmux.screen();
        if (performance.now() > deadline) {
          throw new Error(`${(err as Error).message}\nthe screen shows:\n${screen}`);
        }
        // Submitted when the text has left the box: the request is on its way, wait on.
        press = ADVERT.test(screen) ? "Escape" : inBox.test(screen) ? "Enter" : null;
      }
    }
    await this.tmux.waitUntil(
      (s) => s.includes(reply) && IDLE.test(s),
      `the reply "${reply}" and an empty input box`,
      90_000,
    );
    await delay(200);
    return this.server.requests.slice(from).filter((r) => r.turn);
  }

  /** Ends the session the way a person does (/quit) and waits for the exit. */
  async quit(): Promise<number> {
    await this.tmux.type("/quit");
    await this.tmux.waitForScreen(/Exit Cline/, "the /quit command in the menu");
    await this.tmux.press("Enter");
    return await this.exitThenClose(30_000);
  }
}

/** Every session's messages document in the workspace's HOME, parsed, by path. */
export async function sessionDocuments(ws: Workspace): Promise<Record<string, Record<string, unknown>>> {
  const root = `${clineFolder(ws)}/data/sessions`;
  const out: Record<string, Record<string, unknown>> = {};
  try {
    for await (const dir of Deno.readDir(root)) {
      if (!dir.isDirectory) continue;
      const path = `${root}/${dir.name}/${dir.name}.messages.json`;
      try {
        out[path] = JSON.parse(await Deno.readTextFile(path));
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out;
}
