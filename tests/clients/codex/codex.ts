/**
 * Driving the real Codex CLI offline: the pinned (or `--latest`) npm package, a temp HOME whose
 * config.toml points a custom provider at the OpenAI Responses model on 127.0.0.1, and sessions
 * either headless (`codex exec`, stdin closed or it waits for more input) or interactive in tmux
 * (`--no-alt-screen`). What it takes (seen with 0.169.0, ../shared/clients/codex/NOTES.md):
 *
 * - a model slug Codex knows ("gpt-5.5": the real tool set, apply_patch and tool_search);
 * - `approval_policy = "never"` and a full-access sandbox (no bubblewrap here), the project
 *   trusted, analytics off;
 * - the TUI's first-run screens pre-seeded ([notice.model_migrations], the screen-reader probe),
 *   or the first prompt answers a dialog instead;
 * - the plan tool turned on ([tools.update_plan]), so a session can leave an unfinished plan.
 */
import { installCli, isExecutable } from "../harness/install_cli.ts";
import type { ModelServer } from "../harness/model_server.ts";
import type { ResponsesReply } from "../harness/openai_responses.ts";
import { delay } from "../harness/tmux.ts";
import { AgentTui, TUI_ECHO_MS, TUI_START_MS } from "../harness/tui.ts";
import { CLIENTS, versionOf } from "../harness/versions.ts";
import { type HeadlessResult, runHeadless } from "../harness/headless.ts";
import type { Workspace } from "../harness/workspace.ts";

/** Visibly fake; Codex sends it as a bearer token to the provider. */
export const API_KEY = "test-key-not-real";

/** The Codex launcher of the version under test, installed into the cache when missing. */
export async function codexBinary(): Promise<string> {
  const version = versionOf("codex");
  const prefix = await installCli(CLIENTS.codex.pkg, version);
  const bin = `${prefix}/node_modules/.bin/codex`;
  if (!(await isExecutable(bin))) {
    throw new Error(`Cannot run Codex ${version}: ${bin} is not an executable (the package layout changed?)`);
  }
  return bin;
}

function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** The config.toml a person who pointed Codex at a local provider would have. */
export function codexConfig(ws: Workspace, server: ModelServer<ResponsesReply>): string {
  return [
    'model = "gpt-5.5"',
    'model_provider = "local"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    "check_for_update_on_startup = false",
    "",
    "[model_providers.local]",
    'name = "Local test model"',
    `base_url = ${tomlString(`${server.origin}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "LOCAL_MODEL_API_KEY"',
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    `[projects.${tomlString(ws.project)}]`,
    'trust_level = "trusted"',
    "",
    "[analytics]",
    "enabled = false",
    "",
    "# The plan tool (update_plan) is off for this model by default; a person who keeps plans turns",
    "# it on, and the compaction verdict counts an unfinished plan's steps as todos.",
    "[tools.update_plan]",
    "enabled = true",
    "",
    "[tui]",
    "screen_reader_detection_done = true",
    "",
    "[tui.model_availability_nux]",
    '"gpt-6.1-sol" = 1',
    "",
    "# Without this the TUI opens on a model-migration dialog that eats the first prompt.",
    "[notice.model_migrations]",
    '"gpt-5.5" = "gpt-6-sol"',
    "",
  ].join("\n");
}

export async function seedCodexHome(ws: Workspace, server: ModelServer<ResponsesReply>): Promise<void> {
  await Deno.mkdir(`${ws.home}/.codex`, { recursive: true });
  await Deno.writeTextFile(`${ws.home}/.codex/config.toml`, codexConfig(ws, server));
}

export function codexEnv(ws: Workspace): Record<string, string> {
  return ws.env({ LOCAL_MODEL_API_KEY: API_KEY });
}

export type { HeadlessResult } from "../harness/headless.ts";

/** `codex exec [args] PROMPT` in the project, stdin closed. */
export async function codexExec(ws: Workspace, args: readonly string[]): Promise<HeadlessResult> {
  return await runHeadless(ws, [await codexBinary(), "exec", ...args], codexEnv(ws));
}

/** The composer's placeholder or hint line, shown when the TUI waits for input. */
const READY = /›\s|context left|\? for shortcuts/;
/** Shown while a turn runs. */
const BUSY = /esc to interrupt|Working \(/i;

/** An interactive Codex in tmux. */
export class CodexTui extends AgentTui<ResponsesReply> {
  static async start(
    ws: Workspace,
    server: ModelServer<ResponsesReply>,
    args: readonly string[] = [],
  ): Promise<CodexTui> {
    const tmux = await AgentTui.open(ws, [await codexBinary(), "--no-alt-screen", ...args], codexEnv(ws));
    const tui = new CodexTui(tmux, server, {
      label: "Codex",
      ready: READY,
      busy: BUSY,
      readyIs: "its composer",
      quietMs: 600,
    });
    await tui.idle(TUI_START_MS);
    return tui;
  }

  /**
   * The echo is one more occurrence of the text's end than the screen held before (it may hold
   * some already: "/compact" is in the message of a stopped compaction).
   */
  protected override async typeAndSee(text: string): Promise<void> {
    const tail = text.replace(/^[!/]/, "").slice(-16);
    const count = (screen: string) => screen.split(tail).length - 1;
    const before = count(await this.tmux.screen());
    await this.tmux.type(text);
    await this.tmux.waitUntil((screen) => count(screen) > before, `the typed text "${text}"`, TUI_ECHO_MS);
  }

  /** Ends the session with /quit and waits for the exit. */
  async quit(): Promise<number> {
    await this.runCommand("/quit");
    return await this.exitThenClose(20_000);
  }
}

/** Every rollout file under the workspace's ~/.codex/sessions, sorted. */
export async function rollouts(ws: Workspace): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string) {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory) await walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".jsonl")) out.push(`${dir}/${e.name}`);
    }
  }
  await walk(`${ws.home}/.codex/sessions`);
  return out.sort();
}

/**
 * Codex's TUI starts an app-server daemon from a copy of itself under `~/.codex/packages/`,
 * which outlives the TUI. This stops the ones started from the workspace's HOME (matched by
 * the program's path, ended by pid; nothing else is touched), when disposed.
 */
export function codexDaemons(ws: Workspace): AsyncDisposable {
  return {
    async [Symbol.asyncDispose]() {
      await stopProcessesUnder(`${ws.home}/.codex/`);
    },
  };
}

async function processesUnder(prefix: string): Promise<number[]> {
  const pids: number[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir("/proc"));
  } catch {
    return pids; // no /proc (not Linux): nothing to find this way
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const argv0 = (await Deno.readTextFile(`/proc/${e.name}/cmdline`)).split("\0")[0] ?? "";
      if (argv0.startsWith(prefix)) pids.push(Number(e.name));
    } catch {
      // gone already, or not ours to read
    }
  }
  return pids;
}

async function stopProcessesUnder(prefix: string): Promise<void> {
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    const pids = await processesUnder(prefix);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        Deno.kill(pid, signal);
      } catch {
        // exited meanwhile
      }
    }
    for (let waited = 0; waited < 5000 && (await processesUnder(prefix)).length > 0; waited += 100) {
      await delay(100);
    }
  }
}
