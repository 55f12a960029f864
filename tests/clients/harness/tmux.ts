/**
 * An interactive agent session in tmux, on a private server socket (`tmux -L <unique>`) so
 * nothing touches anyone else's tmux. Text is typed literally (`send-keys -l`) and keys are
 * pressed by name; waits are on what happened (a model request, a screen line, a quiet screen),
 * never a fixed sleep. The pane stays after the program exits, so its last screen can be read.
 */

export interface TmuxStart {
  /** The program and its arguments. */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The whole environment of the tmux server and so of the program (nothing else is inherited). */
  readonly env: Readonly<Record<string, string>>;
  /** Folder for the tmux config file (the workspace). */
  readonly dir: string;
  readonly width?: number;
  readonly height?: number;
}

let sessions = 0;

/** Is tmux installed? */
export async function haveTmux(): Promise<boolean> {
  try {
    return (await new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export class TmuxSession {
  readonly socket: string;
  readonly #env: Readonly<Record<string, string>>;
  #closed = false;

  private constructor(socket: string, env: Readonly<Record<string, string>>) {
    this.socket = socket;
    this.#env = env;
  }

  static async start(opts: TmuxStart): Promise<TmuxSession> {
    if (!(await haveTmux())) {
      throw new Error(
        "Cannot start an interactive agent session: tmux is not installed\n" +
          "hint: install it (Debian: apt-get install -y tmux); .ci/run does so when it is missing",
      );
    }
    const socket = `verdict-test-${Deno.pid}-${++sessions}-${crypto.randomUUID().slice(0, 8)}`;
    const conf = `${opts.dir}/tmux-${socket}.conf`;
    // remain-on-exit keeps the pane (and its last screen) after the program ends.
    await Deno.writeTextFile(
      conf,
      "set -g remain-on-exit on\nset -g history-limit 20000\nset -g status off\nset -g focus-events on\n",
    );
    const session = new TmuxSession(socket, opts.env);
    await session.#tmux([
      "-f",
      conf,
      "new-session",
      "-d",
      "-s",
      "main",
      "-x",
      String(opts.width ?? 160),
      "-y",
      String(opts.height ?? 50),
      "-c",
      opts.cwd,
      opts.argv.map(shellWord).join(" "),
    ]);
    return session;
  }

  async #tmux(args: readonly string[]): Promise<string> {
    const out = await new Deno.Command("tmux", {
      args: ["-L", this.socket, ...args],
      env: { ...this.#env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    if (!out.success) {
      throw new Error(`Cannot run "tmux ${args[0]}" on ${this.socket}: ${dec.decode(out.stderr).trim()}`);
    }
    return dec.decode(out.stdout);
  }

  /** Types `text` literally (no key names are interpreted). */
  async type(text: string): Promise<void> {
    await this.#tmux(["send-keys", "-t", "main", "-l", text]);
  }

  /** Presses keys by tmux name: "Enter", "Escape", "C-d", "Down"… */
  async press(...keys: string[]): Promise<void> {
    await this.#tmux(["send-keys", "-t", "main", ...keys]);
  }

  /** The visible screen, or with `scrollback` the history too. */
  async screen(scrollback = false): Promise<string> {
    return await this.#tmux(["capture-pane", "-p", "-t", "main", ...(scrollback ? ["-S", "-20000"] : [])]);
  }

  /** Has the program in the pane exited? Its exit status when it has, else null. */
  async exited(): Promise<number | null> {
    const out =
      (await this.#tmux(["display-message", "-p", "-t", "main", "#{pane_dead} #{pane_dead_status}"]))
        .trim();
    const [dead, status] = out.split(" ");
    return dead === "1" ? Number(status ?? "0") : null;
  }

  /** Waits until the screen matches `pattern`; returns the screen. */
  async waitForScreen(pattern: RegExp, what: string, timeoutMs = 30_000): Promise<string> {
    return await this.waitUntil((screen) => pattern.test(screen), `${what} (${pattern})`, timeoutMs);
  }

  /** Waits until `shows` holds for the screen; returns it. `what` names the wait in the error. */
  async waitUntil(shows: (screen: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
    const deadline = performance.now() + timeoutMs;
    let last = "";
    while (performance.now() < deadline) {
      last = await this.screen();
      if (shows(last)) return last;
      await delay(100);
    }
    throw new Error(`The screen never showed ${what} within ${timeoutMs} ms; it shows:\n${last}`);
  }

  /** Waits until the screen has not changed for `quietMs`; returns it. */
  async waitQuiet(quietMs = 600, timeoutMs = 30_000): Promise<string> {
    const deadline = performance.now() + timeoutMs;
    let last = await this.screen();
    let since = performance.now();
    while (performance.now() < deadline) {
      await delay(100);
      const now = await this.screen();
      if (now !== last) {
        last = now;
        since = performance.now();
      } else if (performance.now() - since >= quietMs) {
        return now;
      }
    }
    throw new Error(`The screen kept changing for ${timeoutMs} ms; it shows:\n${last}`);
  }

  /** Waits for the program to exit; its status. */
  async waitExit(timeoutMs = 30_000): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      const status = await this.exited();
      if (status !== null) return status;
      await delay(100);
    }
    throw new Error(
      `The program in tmux ${this.socket} did not exit within ${timeoutMs} ms:\n${await this.screen()}`,
    );
  }

  /** Ends the tmux server (and the program, if still running). Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#tmux(["kill-server"]).catch(() => {});
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `s` as a regular expression matching itself (typed text looked for on the screen). */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
