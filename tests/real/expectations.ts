/**
 * What each real public transcript in `../shared/data/transcripts/` must yield, decided by hand
 * (each file read line by line; FORMATS.md §5 says where it comes from). Data only, so the parser
 * tests here and the end-to-end `verdict collect` test can share it.
 *
 * `prompts` and `notes` are the records with the default options (includeHeadless false), in file
 * order of `line` (a note's line is its tool_use entry). `headlessPrompts` are the extra prompts
 * that includeHeadless adds. Every record of a file has the file's `session` and `project`.
 * `textStart` is the whole text when `length` ≤ 80, else its first 80 UTF-16 code units;
 * `length` is the full text's length in UTF-16 code units (JavaScript's `.length`).
 */

export type RealParser = "claude" | "codex";

export interface ExpectedText {
  /** 1-based line of the source entry (for a note: the tool_use entry). */
  readonly line: number;
  /** RFC 3339 UTC time the record must carry. */
  readonly time: string;
  /** Length of the full text in UTF-16 code units. */
  readonly length: number;
  /** The whole text when length ≤ TEXT_START_CHARS, else its first TEXT_START_CHARS units. */
  readonly textStart: string;
}

export interface TranscriptExpectation {
  /** File name inside the transcripts directory. */
  readonly file: string;
  /** Which parser reads it (Claude transcripts and Codex rollouts). */
  readonly parser: RealParser;
  readonly session: string | null;
  readonly project: string;
  /** Why the file yields what it yields, for the person reading a failure. */
  readonly why: string;
  readonly prompts: readonly ExpectedText[];
  readonly notes: readonly ExpectedText[];
  readonly headlessPrompts: readonly ExpectedText[];
  /** Lines that would be a record but have no valid timestamp: skipped and counted (default 0). */
  readonly untimed?: number;
}

/** How much of a long text the expectations spell out. */
export const TEXT_START_CHARS = 80;

/** The shared samples: the repository's sibling `shared/data/transcripts/`. */
export const REAL_TRANSCRIPTS_DIR: URL = new URL("../../../shared/data/transcripts/", import.meta.url);

/** Whether a record text is the expected one (whole text, or length plus first 80 units). */
export function textMatches(text: string, expected: ExpectedText): boolean {
  if (text.length !== expected.length) return false;
  return expected.length <= TEXT_START_CHARS
    ? text === expected.textStart
    : text.startsWith(expected.textStart);
}

export const REAL_EXPECTATIONS: readonly TranscriptExpectation[] = [
  {
    file: "d-kimuson-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
    parser: "claude",
    session: "1af7fc5e-8455-4414-9ccd-011d40f70b2a",
    project: "/path/to/Demo",
    why:
      "1.0.98: /init wrapper with no args (l.1) and its isMeta body (l.2) are not typed; the Write to CLAUDE.md (l.25) was denied (l.26 is_error), so no note.",
    prompts: [],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "d-kimuson-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
    parser: "claude",
    session: "5c0375b4-57a5-4f26-b12d-d022ee4e51b7",
    project: "/path/to/Demo",
    why:
      "1.0.108: /orchestrator args (l.1); inline sidechain prompts (l.16, 26) dropped; the Edit of CLAUDE.md (l.45) failed (l.46), the MultiEdit (l.49) landed (l.50).",
    prompts: [
      {
        line: 1,
        time: "2025-09-07T09:52:03.071Z",
        length: 44,
        textStart: "/orchestrator @CLAUDE.md を最新の状態にアップデートしてください",
      },
    ],
    notes: [
      {
        line: 49,
        time: "2025-09-07T09:54:06.007Z",
        length: 2795,
        textStart: "A fully functional TODO application built with Next.js 15.5.2, React 19.1.0, Typ",
      },
    ],
    headlessPrompts: [],
  },
  {
    file: "d-kimuson-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
    parser: "claude",
    session: "fe5e1c67-53e7-4862-81ae-d0e013e3270b",
    project: "/path/to/Demo",
    why:
      "1.0.98: /orchestrator args (l.2), 405 sidechain lines with many Writes (none count), the typed prompt at l.434 and its CLAUDE.md Write (l.436, result l.437).",
    prompts: [
      {
        line: 2,
        time: "2025-09-03T00:52:31.217Z",
        length: 40,
        textStart: "/orchestrator create TODO app by Next.js",
      },
      {
        line: 434,
        time: "2025-09-03T01:01:44.806Z",
        length: 51,
        textStart: "Thanks! Please update CLAUDE.md for current changes",
      },
    ],
    notes: [
      {
        line: 436,
        time: "2025-09-03T01:02:00.863Z",
        length: 3061,
        textStart: "# TODO App Project\n\n## Project Overview\nA fully functional TODO application buil",
      },
    ],
    headlessPrompts: [],
  },
  {
    file: "jazzyalex-claude-small.jsonl",
    parser: "claude",
    session: null,
    project: "",
    why:
      "2.1.x schema catalog: l.7 and l.22 are sidechain (l.22 also a compact summary), l.30 a tool result, l.49/60/63 have a non-human origin kind, l.62/87 have no valid timestamp (skipped and counted); nothing is kept, with or without headless.",
    prompts: [],
    notes: [],
    headlessPrompts: [],
    untimed: 2,
  },
  {
    file: "jazzyalex-codex-small.jsonl",
    parser: "codex",
    session: "019fc8be-3658-7ca3-9e29-000000000000",
    project: "/tmp/repo",
    why:
      'Codex 0.146 catalog, `source:"cli"`: the user_message at l.4; the later ones (l.71, 85) have no valid timestamp (l.71 is skipped and counted, as is the item_completed UserMessage at l.101; l.85, a non-plain kind, is no prompt anyway); replacement_history copies (l.26…) and subagent metas (l.29, 36, 42) add nothing.',
    prompts: [
      { line: 4, time: "2026-08-03T10:48:56.000Z", length: 14, textStart: "List the files" },
    ],
    notes: [],
    headlessPrompts: [],
    untimed: 2,
  },
  {
    file: "jnarowski-06381696-0074-49f8-863e-6ad4fac507f9.jsonl",
    parser: "claude",
    session: "06381696-0074-49f8-863e-6ad4fac507f9",
    project: "/Users/jnarowski/Dev/sourceborn/src/agent-workflows-monorepo-v2",
    why: "2.0.29: /clear caveat + wrapper + stdout (l.2-4) dropped; one long typed prompt (l.6).",
    prompts: [
      {
        line: 6,
        time: "2025-10-30T12:04:09.234Z",
        length: 5884,
        textStart: "Let's explore scrolling, scroll to bottom, scrolling when new messages are added",
      },
    ],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "jnarowski-full-session-five.jsonl",
    parser: "claude",
    session: "10cd5911-8704-4996-9e33-32010589c357",
    project: "/Users/jnarowski/Dev/sourceborn/src/agent-workflows-monorepo-v2",
    why: "2.0.28: 16 summary titles around a single typed prompt (l.12).",
    prompts: [
      {
        line: 12,
        time: "2025-10-28T11:18:37.185Z",
        length: 49,
        textStart: "search the web for the claude code response types",
      },
    ],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "jnarowski-full-session-four.jsonl",
    parser: "claude",
    session: "2d984148-cddb-4605-aac1-13e720fe613c",
    project: "/Users/jnarowski/Dev/sourceborn/src/agent-workflows-monorepo-v2",
    why: "2.0.27: /clear (l.2-4) dropped; three typed prompts; edits touch no memory file.",
    prompts: [
      {
        line: 6,
        time: "2025-10-26T10:38:30.633Z",
        length: 80,
        textStart: "Can you add the first two initials of actual user who is logged into the NavUser",
      },
      {
        line: 40,
        time: "2025-10-26T10:42:16.553Z",
        length: 50,
        textStart: "does it get the logged in user from the authStore?",
      },
      {
        line: 46,
        time: "2025-10-26T10:47:56.529Z",
        length: 142,
        textStart: "The username I am logged in with is jnarowski but the menu says Guest User. We s",
      },
    ],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "jnarowski-full-session-two.jsonl",
    parser: "claude",
    session: "8a2518dd-ff41-4d5f-83a1-407b03598cc6",
    project: "/Users/jnarowski/Dev/sourceborn/src/agent-workflows-monorepo-v2",
    why:
      "2.0.26: /clear (l.2-4) and the interrupt markers (l.12, 23) dropped; four typed prompts with thinkingMetadata.",
    prompts: [
      {
        line: 6,
        time: "2025-10-24T20:54:39.926Z",
        length: 125,
        textStart: "please move the + button to it's own button to the right of the search in @apps/",
      },
      {
        line: 14,
        time: "2025-10-24T20:55:01.452Z",
        length: 195,
        textStart: "not the new session button. this one'/var/folders/sr/6t367_f55y3d5cf8mvmj_c80000",
      },
      {
        line: 25,
        time: "2025-10-24T21:26:09.529Z",
        length: 42,
        textStart: "Completely outside the search bar entirely",
      },
      {
        line: 38,
        time: "2025-10-24T21:29:05.811Z",
        length: 34,
        textStart: "let's give the button a background",
      },
    ],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "jnarowski-full-session.jsonl",
    parser: "claude",
    session: "cfa1e878-62b5-4e40-b281-bbf9b250d766",
    project: "/Users/jnarowski/Dev/sourceborn/src/agent-workflows-monorepo-v2",
    why:
      "2.0.14: two typed string prompts WITHOUT thinkingMetadata; they stay (the program-driven heuristic needs a block array).",
    prompts: [
      { line: 1, time: "2025-10-21T03:21:27.040Z", length: 3, textStart: "Hey" },
      { line: 6, time: "2025-10-21T03:21:57.265Z", length: 28, textStart: "Can you audit this codebase?" },
    ],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "jnarowski-rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl",
    parser: "codex",
    session: "01997e76-d124-7592-9cac-2ec05abbca08",
    project: "/Users/jnarowski/Dev/spectora/src/spectora-labs-monorepo-v2",
    why: "Codex 0.40 VS Code session (no source, originator codex_vscode): 13 user_messages, none counted.",
    prompts: [],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "jnarowski-rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl",
    parser: "codex",
    session: "019982b8-3422-79e0-8b3b-05abaf4f3c3e",
    project: "/Users/jnarowski/Dev/spectora/src/spectora-labs-monorepo-v2",
    why: "Codex 0.40 VS Code session: its one request (l.4) is not counted.",
    prompts: [],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "kvsankar-claude-session-01.jsonl",
    parser: "claude",
    session: "06090cb1-3e64-433a-bc7e-a621c0f596d2",
    project: "/tmp/agent-history-real-agent/claude/workspace",
    why:
      '2.1.152 `entrypoint:"sdk-cli"` (claude -p): headless, so its prompt counts only with includeHeadless; the queue-operation and last-prompt copies never count.',
    prompts: [],
    notes: [],
    headlessPrompts: [
      { line: 3, time: "2026-06-05T04:56:32.812Z", length: 17, textStart: "[REDACTED_PROMPT]" },
    ],
  },
  {
    file: "kvsankar-codex-session-01.jsonl",
    parser: "codex",
    session: "019e9625-802f-7e91-840a-cfe88d14117a",
    project: "/tmp/agent-history-real-agent/codex/workspace",
    why:
      'Codex 0.135 `codex exec` (`source:"exec"`): headless, its prompt (l.7) counts only with includeHeadless; the developer and environment_context items (l.3-4) never.',
    prompts: [],
    notes: [],
    headlessPrompts: [
      { line: 7, time: "2026-06-05T04:58:23.506Z", length: 17, textStart: "[REDACTED_PROMPT]" },
    ],
  },
  {
    file: "obra-large-conversation.jsonl",
    parser: "claude",
    session: "0fae0449-64d3-4788-8622-d3a47d82c14b",
    project: "/Users/testuser/Documents/GitHub/projects/example-project/.worktrees/streaming",
    why:
      "1.0.117-1.0.120: text-array prompts with thinkingMetadata; /context caveat + wrapper + ANSI stdout (l.229-231) and interrupts (l.303, 312, 370, 406) dropped; 43 Edits, none on a memory file (.claude/settings.local.json is not one).",
    prompts: [
      { line: 49, time: "2025-09-19T23:23:27.878Z", length: 29, textStart: "I see four uncommitted files?" },
      {
        line: 56,
        time: "2025-09-19T23:25:21.867Z",
        length: 64,
        textStart: "ah. the issue is the linter/formatter, not db:generate, I think.",
      },
      {
        line: 96,
        time: "2025-09-19T23:39:55.003Z",
        length: 4343,
        textStart: "why is this happy locally but failing in ci?\nRun npm run check\n\n> check\n> npm ru",
      },
      {
        line: 116,
        time: "2025-09-19T23:43:36.297Z",
        length: 100,
        textStart: "ok. uh. no. the ci is running on the current commit...but seems to be checking t",
      },
      {
        line: 126,
        time: "2025-09-19T23:47:10.082Z",
        length: 4176,
        textStart: "we're in a worktree.  it sure looks like CI is ending up with something other th",
      },
      {
        line: 134,
        time: "2025-09-20T00:52:19.577Z",
        length: 42,
        textStart: "ahhhh. now i've got it. main is now fixed.",
      },
      {
        line: 136,
        time: "2025-09-20T00:53:34.022Z",
        length: 30,
        textStart: "can we rebase on main, please?",
      },
      { line: 152, time: "2025-09-20T01:00:07.617Z", length: 15, textStart: "how's it going?" },
      { line: 154, time: "2025-09-20T01:01:04.942Z", length: 4, textStart: "yes." },
      {
        line: 192,
        time: "2025-09-20T01:36:54.450Z",
        length: 1442,
        textStart: "ci is being super pedantic: 5s\nRun npm run audit:unused\n\n> audit:unused\n> knip\n\n",
      },
      {
        line: 232,
        time: "2025-09-20T04:37:12.802Z",
        length: 612,
        textStart: "something broke streaming :/  it appears that streaming events aren't making it ",
      },
      {
        line: 277,
        time: "2025-09-20T04:44:05.704Z",
        length: 104,
        textStart: "the issue is for the indiivdual token streaming. the final message streaming wor",
      },
      {
        line: 304,
        time: "2025-09-20T04:45:49.445Z",
        length: 51,
        textStart: "it seems to work. let's get this committed and Pred",
      },
      {
        line: 309,
        time: "2025-09-20T04:46:37.695Z",
        length: 36,
        textStart: "we merged that PR. we need a new one",
      },
      { line: 313, time: "2025-09-20T04:47:17.902Z", length: 28, textStart: "sorry. push up and make a pr" },
      {
        line: 319,
        time: "2025-09-20T04:49:56.387Z",
        length: 1649,
        textStart: "pr feedback:\n\n1. Critical Bug: Double JSON Serialization (app/lib/streaming/hand",
      },
      {
        line: 337,
        time: "2025-09-20T04:52:56.136Z",
        length: 44,
        textStart: "fix the comments that confused the reviewer?",
      },
      {
        line: 348,
        time: "2025-09-20T04:56:14.585Z",
        length: 2858,
        textStart: "more reviewer feedback: app/lib/streaming/handlers/ai-chat.ts (1)\n158-207: SSE p",
      },
      {
        line: 371,
        time: "2025-09-20T05:00:33.798Z",
        length: 536,
        textStart: "In app/routes/api.plan-stream.ts around lines 76 to 82, the abort listener\ncurre",
      },
      {
        line: 407,
        time: "2025-09-20T05:04:16.590Z",
        length: 44,
        textStart: "we're importing it in two different methods?",
      },
      {
        line: 424,
        time: "2025-09-20T05:08:25.704Z",
        length: 3131,
        textStart: "Code Review for PR #17: Fix Streaming Platform Issues\n✅ Strengths\nImproved SSE P",
      },
    ],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "obra-long-conversation.jsonl",
    parser: "claude",
    session: "9a9eadc8-c1f1-493e-a0f1-884aa996b05b",
    project: "/Users/testuser/Documents/GitHub/example-org/example-project",
    why:
      '2.0.5: the isMeta PDF document (l.14) dropped; l.28 is "A " trimmed to "A"; 31 Writes/Edits, none on a memory file.',
    prompts: [
      {
        line: 2,
        time: "2025-10-08T02:43:40.849Z",
        length: 86,
        textStart: "please read the research and the resources directories. then talk to me about th",
      },
      {
        line: 17,
        time: "2025-10-08T02:50:14.255Z",
        length: 499,
        textStart: "so, i think the early tests are going to be both cli and web. i'd love to solve ",
      },
      {
        line: 22,
        time: "2025-10-08T02:55:21.841Z",
        length: 92,
        textStart: "playwright agent feels implausible? because we want the agent doing the driving ",
      },
      {
        line: 25,
        time: "2025-10-08T02:56:31.840Z",
        length: 94,
        textStart: "i think the execution agent and the oracle need to be the same agent?\nbut tell m",
      },
      { line: 28, time: "2025-10-08T02:57:44.527Z", length: 1, textStart: "A" },
      {
        line: 33,
        time: "2025-10-08T03:03:57.816Z",
        length: 403,
        textStart: "todomvc or a web based calculator is great.  let's use something simple and pre-",
      },
      {
        line: 40,
        time: "2025-10-08T03:27:47.418Z",
        length: 585,
        textStart: "I think we want an in-container computer use tool suite so that we can be sure t",
      },
      {
        line: 75,
        time: "2025-10-08T04:28:57.733Z",
        length: 227,
        textStart: "those agent frameworks look...ancient?  proving the agent loop locally is very h",
      },
      { line: 107, time: "2025-10-08T04:37:18.992Z", length: 2, textStart: "ok" },
      {
        line: 151,
        time: "2025-10-08T04:59:31.502Z",
        length: 183,
        textStart: "ok. let's use apple container instead of docker proper. it works basically the s",
      },
      {
        line: 239,
        time: "2025-10-08T15:36:02.096Z",
        length: 54,
        textStart: "how hard would it be to switch to openai and use GPT5?",
      },
      {
        line: 243,
        time: "2025-10-08T15:38:23.001Z",
        length: 102,
        textStart: "sure. will that magically switch endpoints?  (since your knowledge cutoff, gpt-5",
      },
      {
        line: 263,
        time: "2025-10-08T15:54:57.512Z",
        length: 116,
        textStart: "oh. so that's an ancient playwright container. looks like we might want mcr.micr",
      },
      {
        line: 277,
        time: "2025-10-08T16:12:01.493Z",
        length: 2376,
        textStart: "❯ ./run.sh\n🐳 Building container image...\n[+] Building 1.3s (1/2)               ",
      },
      {
        line: 287,
        time: "2025-10-08T17:00:47.617Z",
        length: 2727,
        textStart: "❯ ./run.sh\n🐳 Building container image...\n[+] Building 1.3s (1/2)               ",
      },
    ],
    notes: [],
    headlessPrompts: [],
  },
  {
    file: "obra-short-conversation.jsonl",
    parser: "claude",
    session: "982581eb-41b9-46da-86c1-ac34168117a8",
    project: "/Users/testuser/.worktrees/example-feature/skills/collaboration/remembering-conversations/tool",
    why:
      "2.0.9 summarizer call sent by a program: a block array without thinkingMetadata, so headless (kept only with includeHeadless).",
    prompts: [],
    notes: [],
    headlessPrompts: [
      {
        line: 2,
        time: "2025-10-08T20:52:16.536Z",
        length: 22027,
        textStart: "Summarize this part of a conversation in 2-3 sentences. What happened, what was ",
      },
    ],
  },
  {
    file: "obra-tiny-conversation.jsonl",
    parser: "claude",
    session: "67a8478e-78dc-44ab-82ea-f65c8ead85f6",
    project: "/Users/testuser/Documents/GitHub/projects/example-project/.worktrees/streaming",
    why: "1.0.119: two typed strings (l.3 starts with a no-break space, trimmed).",
    prompts: [
      {
        line: 1,
        time: "2025-09-19T17:34:29.181Z",
        length: 217,
        textStart: "Lately, I've noticed you being very tentative. \"I've identified a clear problem.",
      },
      {
        line: 3,
        time: "2025-09-19T17:36:14.103Z",
        length: 45,
        textStart: "What's the right way to fix the instructions?",
      },
    ],
    notes: [],
    headlessPrompts: [],
  },
];
