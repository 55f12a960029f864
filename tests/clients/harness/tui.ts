/**
 * What every interactive agent driver shares: start the agent in tmux in the workspace's project,
 * wait until it is idle (its ready screen, nothing busy, the screen still), type a prompt and see
 * it echoed, press Enter, wait for the model turn it causes, wait for idle again, and quit. A
 * driver (tests/clients/<agent>/<agent>.ts) says what its screens look like and overrides only
 * the steps its agent does differently; a driver whose agent takes prompts its own way (Cline's,
 * pi's) builds on TmuxTui, the starting and ending every driver shares.
 *
 * Every wait polls for what happened with a generous overall timeout and ends as soon as it
 * happens: the client tests share loaded machines, where a fixed sleep is either too short or
 * slow for nothing.
 */
import type { ModelServer, RecordedRequest } from "./model_server.ts";
import { delay, escapeRegExp, TmuxSession } from "./tmux.ts";
import type { Workspace } from "./workspace.ts";

/** The longest a TUI may take from start to its first ready screen. */
export const TUI_START_MS = 120_000;
/** The longest a turn may take to end, its screen then still and ready. */
export const TUI_IDLE_MS = 90_000;
/** The longest typed text may take to show on the screen. */
export const TUI_ECHO_MS = 60_000;
/** The longest the model request a prompt causes may take to arrive. */
export const TUI_TURN_MS = 120_000;
/** How still the screen must stay after typed keys before the next key (the TUI has read them). */
export const TUI_SETTLE_MS = 300;

/** What a driver's screens look like. */
export interface TuiShape {
  /** The agent's name in errors, e.g. "Claude Code". */
  readonly label: string;
  /** On the screen when the TUI waits for input. */
  readonly ready: RegExp;
  /** On the screen while a turn runs (or the TUI starts). */
  readonly busy: RegExp;
  /** What `ready` means, for the error: "an empty prompt", "its composer". */
  readonly readyIs: string;
  /** How long the screen must stay unchanged to count as still. */
  readonly quietMs: number;
}

/**
 * An agent's TUI in tmux and the model server it talks to: how every driver starts one, waits
 * for its exit and ends it. AgentTui adds the shared prompt steps; a driver whose agent does
 * them all its own way (Cline's, pi's) builds on this alone.
 */
export abstract class TmuxTui<Reply> {
  readonly tmux: TmuxSession;
  protected readonly server: ModelServer<Reply>;

  protected constructor(tmux: TmuxSession, server: ModelServer<Reply>) {
    this.tmux = tmux;
    this.server = server;
  }

  /**
   * Starts `argv` in tmux in the workspace's project, with its own tmp folder made first, in a
   * window of `size` (tmux.ts's default when not given).
   */
  protected static async open(
    ws: Workspace,
    argv: readonly string[],
    env: Readonly<Record<string, string>>,
    size: { readonly width?: number; readonly height?: number } = {},
  ): Promise<TmuxSession> {
    await Deno.mkdir(`${ws.root}/tmp`, { recursive: true });
    return await TmuxSession.start({ argv, cwd: ws.project, env, dir: ws.root, ...size });
  }

  /** Waits for the program to exit (its status), then ends the tmux server whatever happened. */
  protected async exitThenClose(timeoutMs: number): Promise<number> {
    try {
      return await this.tmux.waitExit(timeoutMs);
    } finally {
      await this.tmux.close();
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.tmux.close();
  }
}

export abstract class AgentTui<Reply> extends TmuxTui<Reply> {
  readonly #shape: TuiShape;

  protected constructor(tmux: TmuxSession, server: ModelServer<Reply>, shape: TuiShape) {
    super(tmux, server);
    this.#shape = shape;
  }

  /** Waits until no turn runs and the ready screen is up and still; returns the screen. */
  async idle(timeoutMs: number = TUI_IDLE_MS): Promise<string> {
    const { label, ready, busy, readyIs, quietMs } = this.#shape;
    const deadline = performance.now() + timeoutMs;
    while (true) {
      const screen = await this.tmux.waitQuiet(quietMs, Math.max(deadline - performance.now(), 1000));
      if (ready.test(screen) && !busy.test(screen)) return screen;
      if (performance.now() > deadline) {
        throw new Error(`${label} did not come back to ${readyIs}; the screen shows:\n${screen}`);
      }
      await delay(200);
    }
  }

  /**
   * Types `text` and presses Enter, then waits for the model turn whose latest input holds
   * `expect` (when given) and for the TUI to be idle again. Returns this prompt's turns.
   */
  async submit(text: string, expect?: string): Promise<RecordedRequest[]> {
    const from = this.server.requests.length;
    await this.typeAndSee(text);
    await this.enter(text, from);
    if (expect !== undefined) await this.waitForTurn(expect, from);
    await this.idle();
    await this.afterTurn(text);
    return this.server.requests.slice(from).filter((r) => this.isTurn(r));
  }

  /** The end of `text` as the screen echoes it (a leading "!" switches modes and is not shown). */
  protected echoOf(text: string): string {
    return text.replace(/^!/, "").slice(-16);
  }

  /** Types `text` and waits until its echo shows: the TUI has read the keys. */
  protected async typeAndSee(text: string): Promise<void> {
    await this.tmux.type(text);
    await this.tmux.waitForScreen(new RegExp(escapeRegExp(this.echoOf(text))), "the typed text", TUI_ECHO_MS);
  }

  /** Sends what was typed. */
  protected async enter(_text: string, _from: number): Promise<void> {
    await this.tmux.press("Enter");
  }

  /** A request this driver counts as one of the prompt's turns. */
  protected isTurn(r: RecordedRequest): boolean {
    return r.turn;
  }

  /** What the TUI needs after a turn before the next prompt (nothing by default). */
  protected async afterTurn(_text: string): Promise<void> {}

  /** Waits for the turn, from request `from` on, whose latest input holds `expect`. */
  protected async waitForTurn(expect: string, from: number): Promise<RecordedRequest> {
    const folded = expect.toLowerCase();
    return await this.server.waitFor(
      `a turn holding "${expect}"`,
      (r) => this.isTurn(r) && (r.input?.text.toLowerCase().includes(folded) ?? false),
      { from, timeoutMs: TUI_TURN_MS },
    );
  }

  /** Types `command` ("/quit"), waits until the screen settles, then presses Enter. */
  protected async runCommand(command: string): Promise<void> {
    await this.tmux.type(command);
    await this.tmux.waitQuiet(TUI_SETTLE_MS);
    await this.tmux.press("Enter");
  }
}
