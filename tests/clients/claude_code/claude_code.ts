/**
 * Driving the real Claude Code CLI offline: the pinned (or `--latest`) native binary from the
 * npm registry, a temp HOME pre-seeded so no first-run dialog eats a prompt, the Anthropic
 * Messages model on 127.0.0.1, and sessions either headless (`claude -p`) or interactive in
 * tmux. What it takes (seen with 2.1.328, ../shared/clients/claude-code/NOTES.md):
 *
 * - `~/.claude.json`: onboarding done, the project's trust dialog accepted, and the API key's
 *   last 20 characters approved, or the first prompt answers a dialog instead;
 * - an explicit permission mode and allow rules: the default "auto" mode asks a server-side
 *   classifier the scripted model cannot answer;
 * - telemetry, non-essential traffic and the auto-updater off (nothing but the model is asked).
 */
import type { AnthropicReply } from "../harness/anthropic_messages.ts";
import { installCli, isExecutable } from "../harness/install_cli.ts";
import type { ModelServer } from "../harness/model_server.ts";
import { AgentTui, TUI_SETTLE_MS, TUI_START_MS } from "../harness/tui.ts";
import { CLIENTS, versionOf } from "../harness/versions.ts";
import { type HeadlessResult, runHeadless } from "../harness/headless.ts";
import { jsonlFilesIn } from "../harness/scenario.ts";
import type { Workspace } from "../harness/workspace.ts";

/** Visibly fake; Claude Code only checks that its suffix was approved. */
export const API_KEY = "sk-ant-api03-test-key-not-real-0000000000";
/** Claude Code remembers approved keys by their last 20 characters. */
const KEY_SUFFIX_CHARS = 20;

/** Tools the scripted model calls, allowed up front (no permission prompt in the TUI). */
export const ALLOWED_TOOLS = ["Write", "Bash(git status:*)", "mcp__verdict__verdict_recall"];

/** The platform package that holds the native binary, e.g. claude-code-linux-x64. */
function nativePackage(): string {
  const os = Deno.build.os === "darwin" ? "darwin" : Deno.build.os === "windows" ? "win32" : "linux";
  const arch = Deno.build.arch === "aarch64" ? "arm64" : "x64";
  return `@anthropic-ai/claude-code-${os}-${arch}`;
}

/** The Claude Code binary of the version under test, installed into the cache when missing. */
export async function claudeBinary(): Promise<string> {
  const version = versionOf("claude-code");
  const prefix = await installCli(CLIENTS["claude-code"].pkg, version);
  const bin = `${prefix}/node_modules/${nativePackage()}/claude`;
  if (!(await isExecutable(bin))) {
    throw new Error(
      `Cannot run Claude Code ${version}: ${bin} is not an executable (the package layout changed?)`,
    );
  }
  return bin;
}

/** Pre-seeds `~/.claude.json` and `~/.claude/settings.json` as a person who set it up would have. */
export async function seedClaudeHome(ws: Workspace, settings: Record<string, unknown> = {}): Promise<void> {
  await Deno.mkdir(`${ws.home}/.claude`, { recursive: true });
  const config = {
    hasCompletedOnboarding: true,
    theme: "dark",
    customApiKeyResponses: { approved: [API_KEY.slice(-KEY_SUFFIX_CHARS)], rejected: [] },
    projects: { [ws.project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  await Deno.writeTextFile(`${ws.home}/.claude.json`, JSON.stringify(config, null, 2) + "\n");
  // disableAutoMode: its "make auto mode your default?" offer would eat the first prompt.
  const base = {
    permissions: { defaultMode: "acceptEdits", disableAutoMode: "disable", allow: ALLOWED_TOOLS },
  };
  await Deno.writeTextFile(
    `${ws.home}/.claude/settings.json`,
    JSON.stringify({ ...base, ...settings }, null, 2) + "\n",
  );
}

/** The environment Claude Code runs in: the workspace's, pointed at the scripted model. */
export function claudeEnv(ws: Workspace, server: ModelServer<AnthropicReply>): Record<string, string> {
  return ws.env({
    ANTHROPIC_BASE_URL: server.origin,
    ANTHROPIC_API_KEY: API_KEY,
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  });
}

export type { HeadlessResult } from "../harness/headless.ts";

/** `claude -p PROMPT` in the project, stdin closed. */
export async function claudePrint(
  ws: Workspace,
  server: ModelServer<AnthropicReply>,
  prompt: string,
  extraArgs: readonly string[] = [],
): Promise<HeadlessResult> {
  return await runHeadless(ws, [await claudeBinary(), "-p", prompt, ...extraArgs], claudeEnv(ws, server));
}

/** The empty prompt box of an idle TUI: the "❯" line between two rules. */
const PROMPT_BOX = /─{20,}\n❯\s*\n─{20,}/;
/** Shown while a turn runs. */
const BUSY = /esc to interrupt/i;

/** An interactive Claude Code in tmux. */
export class ClaudeTui extends AgentTui<AnthropicReply> {
  static async start(ws: Workspace, server: ModelServer<AnthropicReply>): Promise<ClaudeTui> {
    const tmux = await AgentTui.open(ws, [await claudeBinary()], claudeEnv(ws, server));
    const tui = new ClaudeTui(tmux, server, {
      label: "Claude Code",
      ready: PROMPT_BOX,
      busy: BUSY,
      readyIs: "an empty prompt",
      quietMs: 500,
    });
    await tui.idle(TUI_START_MS);
    return tui;
  }

  /** "!" (shell) and "#" (memory) switch the prompt box's mode and are not echoed. */
  protected override echoOf(text: string): string {
    return text.replace(/^[!#]/, "").slice(-16);
  }

  /** Ends the session the way a person does (Ctrl-D twice) and waits for the exit. */
  async quit(): Promise<number> {
    await this.tmux.press("C-d");
    await this.tmux.waitQuiet(TUI_SETTLE_MS);
    await this.tmux.press("C-d");
    return await this.exitThenClose(20_000);
  }
}

/** Every Claude Code transcript in the workspace's HOME (`~/.claude/projects/<project>/*.jsonl`). */
export async function transcripts(ws: Workspace): Promise<string[]> {
  return await jsonlFilesIn(`${ws.home}/.claude/projects`);
}
