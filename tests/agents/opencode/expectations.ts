/**
 * What collect must yield from OpenCode 1.18.33's real sessions (../shared/clients/opencode/
 * samples/opencode-db-dump.sessions.json), decided by hand from the dump, message by message:
 *
 * ses_dcf729c2… (`opencode run` twice, the second with --continue; the session carries run's
 * question/plan_enter/plan_exit denials): two prompts, stored wrapped in literal quotes. Headless:
 * nothing by default; with include_headless both, unquoted.
 *
 * ses_dcf7236d… (the TUI): typed "From now on…", "Check with the recall tool…", "Please record
 * that rule in AGENTS.md.", "Which command installs lodash here?" → four prompts. Not prompts:
 * the probe plugin's synthetic "VERDICT-HINT[chat.message]…" part on each of them, the `!git
 * status --short` message (one synthetic "The following tool was executed by the user" part),
 * the `/compact` message (a compaction part, no text), the compaction summary (assistant), the
 * tool results (assistant tool parts). One note: the completed `write` of AGENTS.md.
 */
export const TUI_SESSION = "ses_dcf7236d4ffeZbf5xHUwWNmWSc";
export const RUN_SESSION = "ses_dcf729c2affejVx3C15TuYxuKt";

export interface Expected {
  readonly kind: "prompt" | "note";
  readonly session: string;
  readonly text: string;
  readonly time: string;
}

export const TUI_RECORDS: readonly Expected[] = [
  {
    kind: "prompt",
    session: TUI_SESSION,
    text: "From now on use pnpm, never npm, in this repo.",
    time: "2026-12-01T07:42:08.210Z",
  },
  {
    kind: "prompt",
    session: TUI_SESSION,
    text: "Check with the recall tool what we decided about package managers.",
    time: "2026-12-01T07:42:17.210Z",
  },
  {
    kind: "prompt",
    session: TUI_SESSION,
    text: "Please record that rule in AGENTS.md.",
    time: "2026-12-01T07:42:26.238Z",
  },
  {
    kind: "note",
    session: TUI_SESSION,
    text: "# Agent rules\n\n- Use pnpm, never npm.",
    time: "2026-12-01T07:42:26.529Z",
  },
  {
    kind: "prompt",
    session: TUI_SESSION,
    text: "Which command installs lodash here?",
    time: "2026-12-01T07:42:35.243Z",
  },
];

export const RUN_RECORDS: readonly Expected[] = [
  {
    kind: "prompt",
    session: RUN_SESSION,
    text: "From now on use pnpm, never npm, in this repo.",
    time: "2026-12-01T07:41:42.313Z",
  },
  {
    kind: "prompt",
    session: RUN_SESSION,
    text: "Which command installs lodash here?",
    time: "2026-12-01T07:41:48.278Z",
  },
];

/** Every record's project: the sample's cwd. */
export const PROJECT = "/home/dev/project";
