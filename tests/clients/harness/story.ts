/**
 * The story every client test file drives, where it is the same for every agent: the prompts it
 * types, the marks that split the recorded requests into steps, session A where agents that
 * compact on a plain command have the same one, session B (a new session whose prompts a
 * decision of session A bears on, or not), the headless run and the collects after it, the run
 * after uninstall, and the claims that read the same for every agent.
 *
 * What differs stays with the agent (tests/clients/<agent>/<agent>_test.ts): how its TUI starts,
 * how it runs headless, a session A of its own, where its transcripts are, where hook context
 * lands in a request, and its own extra steps.
 */
import assert from "node:assert/strict";
import type { HeadlessResult } from "./headless.ts";
import type { RecordedRequest } from "./model_server.ts";
import { type Marked, promptTexts, readJsonl, turnsOf } from "./scenario.ts";
import type { TmuxSession } from "./tmux.ts";
import type { Workspace } from "./workspace.ts";

/** The marker verdict's hint block starts with (src/gate/render.ts). */
export const HINT_MARK = "[verdict recall]";
/** The first words of the compaction handoff (src/cli/cmd/hook_pre_compact.ts, hook_session_start.ts). */
export const HANDOFF_MARK = "[verdict compaction handoff]";

/** Session A's decision: what every later hint and recall quotes. */
export const DECISION = "From now on use pnpm, never npm, to install packages in this repo.";
/** Session A: a `!` line (the agent runs it in a shell; collect keeps it out). */
export const SHELL_LINE = "!git status --short";
/** Session A: the prompt right after the compaction (the handoff comes with it). */
export const AFTER_COMPACT = "What is left to do?";
/** Session B: a prompt the decision bears on (the hint comes with it). */
export const BEARS_ON_DECISION = "Should I install lodash with npm or pnpm?";
/** Session B: small talk (no hint comes with it). */
export const SMALL_TALK = "thanks, that is all for now";
/** Session B: a question the model answers through verdict's MCP recall tool. */
export const ASK_RECALL = "Check with the recall tool what we decided about package managers.";
/** The headless run's prompt: collected only with include_headless. */
export const HEADLESS = "From now on always run the linter before committing.";
/** The headless run after uninstall: the agent still works, and nothing of verdict reaches the model. */
export const AFTER_UNINSTALL = "Say hello after the uninstall.";

/** An agent's TUI as the shared steps drive it (every driver's but Cline's, whose prompts name their reply). */
export interface StoryTui extends AsyncDisposable {
  readonly tmux: TmuxSession;
  /** Types `text`, sends it, waits for the model turn holding `expect`, then for the TUI to be idle. */
  submit(text: string, expect?: string): Promise<unknown>;
  /** Ends the session and waits for the exit. */
  quit(): Promise<number>;
}

/** What the headless run left: its result, and the records without and with include_headless. */
export interface Collected {
  readonly headless: HeadlessResult;
  /** Records after a default collect (headless sessions left out). */
  readonly records: Record<string, unknown>[];
  /** Records of a collect with include_headless on. */
  readonly headlessRecords: Record<string, unknown>[];
}

/** What every story keeps: every request, the marks, the headless run and the records both ways. */
export interface StoryResult extends Marked, Collected {}

/** One story's run: its marks, and the steps every agent's story takes alike. */
export class StoryRun {
  /** Index into the server's requests where each step began (set just before the step ran). */
  readonly marks: Record<string, number> = {};
  readonly #ws: Workspace;
  readonly #server: { readonly requests: readonly RecordedRequest[] };
  readonly #print: (prompt: string) => Promise<HeadlessResult>;

  /** `print` runs the agent once headless with a prompt, in the workspace. */
  constructor(
    ws: Workspace,
    server: { readonly requests: readonly RecordedRequest[] },
    print: (prompt: string) => Promise<HeadlessResult>,
  ) {
    this.#ws = ws;
    this.#server = server;
    this.#print = print;
  }

  /** Marks where the step `name` begins: at the next request the model server records. */
  mark(name: string): void {
    this.marks[name] = this.#server.requests.length;
  }

  /**
   * Session A as the agents that compact on a plain command have it: the decision, `memory` (a
   * prompt whose turn makes the model write `memoryFile`), a `!` line, `compact`, and one more
   * prompt; each step marked ("decision", "memory", "shell", "compact", "after-compact", then
   * "session-a-end").
   */
  async decideThenCompact(
    start: () => Promise<StoryTui>,
    opts: { readonly memory: string; readonly memoryFile: string; readonly compact: string },
  ): Promise<void> {
    await using tui = await start();
    this.mark("decision");
    await tui.submit(DECISION, "from now on use pnpm");
    this.mark("memory");
    await tui.submit(opts.memory, opts.memoryFile);
    this.mark("shell");
    await tui.submit(SHELL_LINE);
    this.mark("compact");
    await tui.submit(opts.compact);
    this.mark("after-compact");
    await tui.submit(AFTER_COMPACT, "what is left to do");
    this.mark("session-a-end");
    await tui.quit();
  }

  /**
   * Session B, a new session (so the decision is an earlier one): the prompt the decision bears
   * on, small talk, and (unless `askRecall` is false: the agent has no MCP) the question for the
   * recall tool; each step marked ("hint", "small-talk", "recall", then "session-b-end").
   * Returns the screen right after the hinted prompt (where the person sees the hint's line).
   */
  async askInNewSession(
    start: () => Promise<StoryTui>,
    opts: { readonly bearsOnDecision?: string; readonly askRecall?: boolean } = {},
  ): Promise<string> {
    await using tui = await start();
    this.mark("hint");
    await tui.submit(opts.bearsOnDecision ?? BEARS_ON_DECISION, "lodash");
    const hintScreen = await tui.tmux.screen();
    this.mark("small-talk");
    await tui.submit(SMALL_TALK, "thanks");
    if (opts.askRecall ?? true) {
      this.mark("recall");
      await tui.submit(ASK_RECALL, "recall tool");
    }
    this.mark("session-b-end");
    await tui.quit();
    return hintScreen;
  }

  /** The headless run (step "headless"), a default collect, and the records both ways. */
  async headlessThenCollect(): Promise<Collected> {
    this.mark("headless");
    const headless = await this.#print(HEADLESS);
    await this.#ws.verdictOk(["collect"]);
    const records = await this.#ws.readRecords();
    return { headless, records, headlessRecords: await this.#ws.collectIncludingHeadless() };
  }

  /** The headless run after uninstall (step "after-uninstall"). */
  async printAfterUninstall(): Promise<HeadlessResult> {
    this.mark("after-uninstall");
    return await this.#print(AFTER_UNINSTALL);
  }
}

// ---- reading what a story recorded

/** The JSON lines of each of the agent's transcript files, by path. */
export async function readJsonlFiles(
  paths: readonly string[],
): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const path of paths) out[path] = await readJsonl(path);
  return out;
}

/**
 * The first conversation turn (or, `withSide`, the first model turn of any kind) whose latest
 * input holds `typed`.
 */
export function turnFor(
  s: { readonly requests: readonly RecordedRequest[] },
  typed: string,
  opts: { readonly withSide?: boolean } = {},
): RecordedRequest {
  const hit = s.requests.find((r) =>
    r.turn && (opts.withSide === true || !r.side) && (r.input?.text.includes(typed) ?? false)
  );
  if (!hit) throw new Error(`no model request carried the prompt "${typed}"`);
  return hit;
}

// ---- claims that read the same for every agent

/**
 * The headless policy: `prompt`, typed into a headless run, is left out of a default collect and
 * collected with include_headless.
 */
export function assertCollectedOnlyWithHeadless(s: Omit<Collected, "headless">, prompt: string): void {
  assert.ok(
    !promptTexts(s.records).includes(prompt),
    `a headless prompt was collected without include_headless: "${prompt}"`,
  );
  assert.ok(
    promptTexts(s.headlessRecords).includes(prompt),
    `include_headless did not collect the headless prompt "${prompt}"`,
  );
}

/**
 * No hint comes with small talk, nor with the decision in session A (its own session is never
 * quoted back). `contextOf` is the part of a request where the agent puts hook context.
 */
export function assertNoHintOnSmallTalk(s: Marked, contextOf: (r: RecordedRequest) => string): void {
  const turns = turnsOf(s, "small-talk");
  assert.ok(turns.length >= 1, "small talk reached no model request");
  for (const t of turns) {
    assert.ok(!contextOf(t).includes(HINT_MARK), `a hint came with "${SMALL_TALK}"`);
  }
  for (const t of turnsOf(s, "decision")) assert.ok(!contextOf(t).includes(HINT_MARK));
}
