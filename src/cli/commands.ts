/**
 * The command table: every command declared once, in one row: name, help, options, how it is
 * sandboxed, its loader and the name of its permission rule (the rules, and `permissionsFor`, are
 * in ./grants.ts; help is rendered by ./help.ts). The launcher (./main.ts) parses and dispatches
 * from it, and the Worker entry (./worker.ts) loads commands through it. It holds no code
 * of the commands (loaders are literal dynamic imports), so the launcher's module graph (what
 * `hint` starts with) never includes the MCP SDK or the collectors.
 */
import { AGENTS, andList, orList } from "../agents/registry.ts";
import { KEEP_BACKUPS } from "../install/jobs.ts";
import { dirname } from "../config/paths.ts";
import { storePaths } from "../store/paths.ts";
import { DEFAULT_BIND, DEFAULT_PORT } from "../serve/listen.ts";
import { type OptionSpecs, type ParsedArgs, stringOption } from "../plan/args.ts";
import type { CommandModule, CommandPlan, PlanSpec } from "../plan/plan.ts";
import { warmFolderOf } from "../warm/wire.ts";

/** The permission rules ./grants.ts holds, one per kind of command. */
export type GrantRule =
  | "none"
  | "collect"
  | "recall"
  | "replay"
  | "query"
  | "mcp"
  | "serve"
  | "compact build"
  | "compact judge"
  | "compact verify"
  | "warm serve"
  | "warm client"
  | "compaction hook"
  | "install"
  | "schedule"
  | "doctor"
  | "sandbox-probe"
  | "archive read"
  | "archive edit"
  | "remember"
  | "import"
  | "report";

export interface CommandSpec extends PlanSpec {
  readonly summary: string;
  readonly usage: string;
  readonly help: string;
  /** Shown in `verdict --help`; internal commands are hidden. */
  readonly listed: boolean;
  /** The command's code. A literal `import()`: deno compile bundles what it can see. */
  readonly load: () => Promise<CommandModule>;
  /**
   * Its permission rule, by name: the least Deno permissions its Worker needs under a plan
   * (./grants.ts, pure). Named, not imported, so the table (on the per-prompt hint path) does
   * not load the rules.
   */
  readonly permissions: GrantRule;
  /** The launcher reads stdin into the plan: the hook input names the files it may read. */
  readonly stdinInPlan?: boolean;
  /** Runs in the launcher before the Worker starts (what the narrowed Worker cannot do). */
  readonly prepare?: (plan: CommandPlan) => Promise<void>;
  /**
   * A hook entry: it exits 0 whatever happens, a signal's stop included, because its host reads
   * any other code as a verdict (exit 2 blocks).
   */
  readonly exitsZero?: true;
  /**
   * Whose row the launcher confines the run by, when not this one's own (sandbox-probe: the
   * probed command's sandbox mode and permission rule).
   */
  readonly runsAs?: (args: ParsedArgs) => string;
}

/** Help lines are wrapped at this width (the hand-written ones stay within it too). */
export const HELP_WIDTH = 85;

/** Words joined into lines of at most HELP_WIDTH characters. */
export function wrap(text: string): string {
  return wrapTo(text, HELP_WIDTH);
}

/** Words joined into lines of at most `width` characters (a longer word has a line of its own). */
export function wrapTo(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines.join("\n");
}

const CONFIG = {
  config: {
    kind: "string",
    value: "FILE",
    description: "config file (default: $VERDICT_CONFIG, else ~/.config/verdict/config.json)",
  },
} as const;

const RECORDS = {
  records: {
    kind: "string",
    value: "FILE",
    description: "the archive (default: $VERDICT_RECORDS, else ~/.local/share/verdict/records.db)",
  },
} as const;

const AS_OF = {
  "as-of": {
    kind: "string",
    value: "T",
    description: 'pin the clock: an RFC 3339 time, "now", or a file holding one (also $VERDICT_ASOF)',
  },
} as const;

const TOP = (fallback: number) => ({
  top: { kind: "string", value: "N", description: `how many quotes at most (default ${fallback})` },
} as const);

/** `--<id>` for every registered agent: install and uninstall wire only those named. */
function agentFlags(describe: (a: (typeof AGENTS)[number]) => string): OptionSpecs {
  return Object.fromEntries(AGENTS.map((a) => [a.id, { kind: "boolean", description: describe(a) }]));
}

const AGENT_FLAGS_USAGE = AGENTS.map((a) => `[--${a.id}]`).join(" ");
const AGENT_LABELS = AGENTS.map((a) => a.label);

/** Which agent's hook input and output shapes a hook entry uses (install writes it). */
const AGENT_OPTION = {
  agent: {
    kind: "string",
    value: "ID",
    description: `the agent whose hook JSON this is and whose output shape to print: ${
      orList(AGENTS.filter((a) => a.hookDialect !== null).map((a) => a.id))
    } (default claude)`,
  },
} as const;

const JSON_OUT = { json: { kind: "boolean", description: "print JSON instead of text" } } as const;

/** The look-ups' filters (src/cli/window.ts). */
const WINDOW = {
  project: { kind: "string", value: "DIR", description: "only records of DIR or below it" },
  since: {
    kind: "string",
    value: "DATE",
    description: "only records from DATE on (UTC; a bare date is midnight)",
  },
  until: { kind: "string", value: "DATE", description: "only records before DATE (UTC)" },
  kind: {
    kind: "string",
    value: "KIND",
    description: "only records of this kind: prompt, note, doc, commit or tag",
  },
} as const;

const WINDOW_HELP = `Filters: --project DIR (records of DIR or below it), --since DATE and --until DATE
(UTC, a bare date is midnight; --until excluded), --kind prompt|note|doc|commit|tag. They
pass over the records outside them among the best 2000 matches.`;
const EXPLAIN = {
  explain: {
    kind: "boolean",
    description: "show why: the search terms chosen, each weight applied, the gate's rule",
  },
} as const;

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "collect",
    summary: "gather prompts, notes, docs and commits into the records file",
    usage:
      "verdict collect [--out FILE] [--since DATE] [--git-repo DIR]... [--doc-root DIR]... [--skip-protected] [--full] [--quiet]",
    help: `Examples:
  verdict collect
  verdict collect --doc-root ~/notes --git-repo ~/src/app --since 2026-01-01

${
      wrap(
        `Reads, and only reads: ${AGENTS.map((a) => a.readsHelp).join(", ")}, ` +
          'Markdown under each doc root (config "doc_roots" plus --doc-root), and commits and ' +
          'dated tags of each git repo (config "git_repos" plus --git-repo). Text matching a ' +
          "credential pattern is dropped.",
      )
    }

The archive keeps records whose source file has since been deleted. A second collect
re-reads only new or grown files, and its cost follows what it finds, not the
archive's size. A file read under another config "include_headless", or under a
--since later than this run's, is read again whole: changing either needs no --full.
The summary's "file(s) read" counts the files read this time, not those unchanged.
An archive an older verdict wrote (records.jsonl) is migrated by the first collect
and the old file kept as records.jsonl.migrated. See every record with "verdict
export".`,
    options: {
      out: {
        kind: "string",
        value: "FILE",
        description:
          "the archive to write (default: $VERDICT_RECORDS, else ~/.local/share/verdict/records.db)",
      },
      since: { kind: "string", value: "DATE", description: "drop records older than DATE (e.g. 2026-01-01)" },
      "git-repo": { kind: "strings", value: "DIR", description: "also read this git work tree (repeatable)" },
      "doc-root": { kind: "strings", value: "DIR", description: "also read Markdown under DIR (repeatable)" },
      "skip-protected": {
        kind: "boolean",
        description: "skip macOS privacy-protected folders (Desktop, Documents, Downloads, Library…)",
      },
      full: { kind: "boolean", description: "ignore the incremental state and re-read every file" },
      quiet: { kind: "boolean", description: "print nothing but errors" },
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/collect.ts"),
    permissions: "collect",
    // The sandboxed collect may write only its own files, not create their folder.
    prepare: async (plan) => {
      await Deno.mkdir(dirname(plan.paths.records), { recursive: true, mode: 0o700 });
    },
    listed: true,
  },
  {
    name: "export",
    summary: "print every record as JSON lines, oldest first",
    usage: "verdict export [--records FILE]",
    help: `Examples:
  verdict export > records.jsonl
  verdict export | jq -r 'select(.kind == "prompt") | .text'

Prints one JSON object per record (the fields of docs/records.md), sorted by time,
then id, so the same archive always prints the same bytes. Reads only. A record
holding a credential (an archive older than a rule may) is withheld and counted.`,
    options: { ...RECORDS, ...CONFIG },
    sandbox: "worker",
    load: () => import("./cmd/export.ts"),
    permissions: "archive read",
    listed: true,
  },
  {
    name: "show",
    summary: "print a record: its text, source, what the hint would quote, its state",
    usage: "verdict show ID... [--json] [--records FILE]",
    help: `Examples:
  verdict show p04d4b5f7876b4275
  verdict show --json p04d4b5f7876b4275 n000000000000b006

Prints each record the ids name: kind, time, project, session, source file and line,
the decision statements the hint would quote of it, its whole text, and its state:
live, retracted (on DATE, by ID, why), muted (everywhere or in a project), pinned (its
trigger words), or forgotten (on DATE). Ids are printed by replay, recall, query,
decisions and hint --explain. An id that is not a record's is an error (exit 3).
Reads only.`,
    options: { ...JSON_OUT, ...RECORDS, ...CONFIG },
    sandbox: "worker",
    load: () => import("./cmd/show.ts"),
    permissions: "archive read",
    listed: true,
  },
  {
    name: "forget",
    summary: "remove records from the archive and its index for good",
    usage: "verdict forget ID... | --match TEXT [--dry-run] [--yes] [--json] [--records FILE]",
    help: `Examples:
  verdict forget p04d4b5f7876b4275
  verdict forget --match "hunter2" --dry-run
  verdict forget --match "hunter2" --yes

Removes the records from the archive and from the index files at once (the segments
that indexed them are rewritten, and SQLite's log emptied, so no file keeps their
text), in one transaction: a kill leaves the archive as it was or without them. A
tombstone (a hash of each record's id and text, never the text) keeps every later
collect and import from storing them again while their source still holds them.
--match TEXT forgets every record whose text holds TEXT (ASCII case folded): it lists
them and asks first; with no terminal to ask on it refuses unless --yes is given.
--dry-run lists and changes nothing. Writes only the archive.`,
    options: {
      match: { kind: "string", value: "TEXT", description: "forget every record whose text holds TEXT" },
      "dry-run": { kind: "boolean", description: "list what would be forgotten, change nothing" },
      yes: { kind: "boolean", description: "do not ask (for scripts)" },
      ...JSON_OUT,
      ...RECORDS,
      ...AS_OF,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/forget.ts"),
    permissions: "archive edit",
    listed: true,
  },
  {
    name: "retract",
    summary: "mark a decision as no longer holding (optionally: what replaced it)",
    usage: "verdict retract ID [--by ID] [--why TEXT] [--json] [--records FILE]",
    help: `Examples:
  verdict retract p04d4b5f7876b4275 --by p7f5c0a1b2c3d4e5f --why "moved to Svelte 5 runes"
  verdict retract p04d4b5f7876b4275

A retracted decision is never shown as current by the hint: when the hint would quote
it, it shows what replaced it (--by) and says "changed on DATE", or, without --by,
that it no longer holds. recall, query and decisions still find it, marked. Undo with
"verdict unretract ID". Writes only the archive.`,
    options: {
      by: { kind: "string", value: "ID", description: "the record that replaces it" },
      why: { kind: "string", value: "TEXT", description: "why it changed (shown with it)" },
      ...JSON_OUT,
      ...RECORDS,
      ...AS_OF,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/mark.ts"),
    permissions: "archive edit",
    listed: true,
  },
  {
    name: "unretract",
    summary: "undo a retraction",
    usage: "verdict unretract ID... [--json] [--records FILE]",
    help: `Example:
  verdict unretract p04d4b5f7876b4275

The record is current again. An id that is not retracted is an error (exit 3).`,
    options: { ...JSON_OUT, ...RECORDS, ...CONFIG },
    sandbox: "worker",
    load: () => import("./cmd/mark.ts"),
    permissions: "archive edit",
    listed: true,
  },
  {
    name: "mute",
    summary: "never hint a record (everywhere, or with --here in this project)",
    usage: "verdict mute ID... [--here] [--json] [--records FILE]",
    help: `Examples:
  verdict mute pf6b2af08a729dd00
  cd ~/src/app && verdict mute pf6b2af08a729dd00 --here

A muted record is never quoted by the hint: everywhere, or with --here only in prompts
typed in this folder or below it. recall, query and decisions still find it, marked.
Undo with "verdict unmute ID" (--here: only this folder's mute). Writes only the
archive.`,
    options: {
      here: { kind: "boolean", description: "only in this folder (and below it)" },
      ...JSON_OUT,
      ...RECORDS,
      ...AS_OF,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/mark.ts"),
    permissions: "archive edit",
    listed: true,
  },
  {
    name: "unmute",
    summary: "undo a mute",
    usage: "verdict unmute ID... [--here] [--json] [--records FILE]",
    help: `Examples:
  verdict unmute pf6b2af08a729dd00
  verdict unmute pf6b2af08a729dd00 --here

Without --here every mute of the record goes; with it, only this folder's. An id that
is not muted is an error (exit 3).`,
    options: {
      here: { kind: "boolean", description: "only this folder's mute" },
      ...JSON_OUT,
      ...RECORDS,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/mark.ts"),
    permissions: "archive edit",
    listed: true,
  },
  {
    name: "remember",
    summary: "add a decision by hand; --on pins it to words the hint then always answers",
    usage: "verdict remember TEXT [--project DIR] [--on WORD...] [--json] [--records FILE]",
    help: `Examples:
  verdict remember "Always use pnpm, never npm." --on pnpm,npm
  verdict remember --project ~/src/app "Deploys go through the staging branch first."

Stores the decision as a record whose source is a section of remembered.md beside the
archive (~/.local/share/verdict/remembered.md): its quote names that file and line, you
may edit or delete the section, and collect reads the file again whenever it changes.
Its project is --project DIR (default: this folder). --on WORD (repeatable, or joined by
commas) pins it: the hint shows it whenever a prompt names one of the words (once per
session, as any quote), even where the gate would stay silent. Text holding a credential
is refused (exit 3). Writes only the archive and remembered.md.`,
    options: {
      project: {
        kind: "string",
        value: "DIR",
        description: "the project it belongs to (default: this folder)",
      },
      on: {
        kind: "strings",
        value: "WORD",
        description: "pin it to these trigger words (repeatable; or a,b,c)",
      },
      ...JSON_OUT,
      ...RECORDS,
      ...AS_OF,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/remember.ts"),
    permissions: "remember",
    // The sandboxed command may write only its own files, not create their folder.
    prepare: async (plan) => {
      await Deno.mkdir(storePaths(plan.paths.records).segments, { recursive: true, mode: 0o700 });
    },
    listed: true,
  },
  {
    name: "decisions",
    summary: "your decisions at a glance: per project, newest first, with id and state",
    usage:
      "verdict decisions [--project DIR] [--since DATE] [--until DATE] [--kind KIND] [--json | --markdown]",
    help: `Examples:
  verdict decisions
  verdict decisions --project ~/src/app --since 2026-03-01
  verdict decisions --project ~/src/app --markdown > docs/DECISIONS.md

Lists, per project (the one with the newest decision first), newest first, the statements
verdict treats as decisions (typed sentences with a live decision marker, as the hint's gate
reads them) and the decisions added with "verdict remember", each with its date, record id
and state: retracted, superseded by ID, replaces ID, muted, pinned on WORDS. A text said
again is listed once, with how many times. --markdown writes a digest to keep in a
repository; --json the same as one object. Reads only.`,
    options: {
      project: { kind: "string", value: "DIR", description: "only records of DIR or below it" },
      since: { kind: "string", value: "DATE", description: "only from DATE on (UTC)" },
      until: { kind: "string", value: "DATE", description: "only before DATE (UTC)" },
      kind: {
        kind: "string",
        value: "KIND",
        description: "only records of this kind (prompt, note, doc, commit, tag)",
      },
      markdown: { kind: "boolean", description: "print a Markdown digest" },
      ...JSON_OUT,
      ...RECORDS,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/decisions.ts"),
    permissions: "archive read",
    listed: true,
  },
  {
    name: "import",
    summary: "merge an export from another machine into this archive",
    usage: "verdict import FILE [--json] [--records FILE]",
    help: `Examples:
  ssh laptop verdict export > laptop.jsonl && verdict import laptop.jsonl
  verdict import --json backup.jsonl

Merges the records of FILE ("verdict export" output, JSON lines) into the archive, in
one transaction: a kill leaves it as it was or with all of them. A record whose id is
here already is kept as it is (nothing is duplicated; importing twice changes nothing);
one a "verdict forget" here removed stays out; one holding a credential is dropped. A
line that is not a record is an error naming it (exit 3) and nothing is imported.
Writes only the archive.`,
    options: { ...JSON_OUT, ...RECORDS, ...CONFIG },
    sandbox: "worker",
    load: () => import("./cmd/import.ts"),
    permissions: "import",
    // The sandboxed command may write only its own files, not create their folder.
    prepare: async (plan) => {
      await Deno.mkdir(storePaths(plan.paths.records).segments, { recursive: true, mode: 0o700 });
    },
    listed: true,
  },
  {
    name: "report",
    summary: "write one self-contained HTML page: decisions timeline, replay's figures, most quoted",
    usage:
      "verdict report --html FILE [--project DIR] [--since DATE] [--until DATE] [--last N] [--records FILE] [--as-of T]",
    help: `Examples:
  verdict report --html ~/verdict-report.html
  verdict report --html report.html --project ~/src/app --since 2026-03-01 --last 2000

Writes one HTML file that loads nothing and sends nothing (inline style, inline SVG, a
little inline script; a Content Security Policy forbids every fetch): your decisions per
project, newest first, with a search box (also "#q=words" in the address); replay's
figures per week (prompts replayed and hints shown; silent prompts by rule) as small
plots; and the records quoted most often, each with its id and the commands to show,
retract, mute or forget it. The replay is "verdict replay"'s (--project, --since,
--until and --last choose its prompts; --project, --since and --until the decisions
listed). Writes only FILE.`,
    options: {
      html: { kind: "string", value: "FILE", description: "the page to write" },
      ...WINDOW,
      last: { kind: "string", value: "N", description: "replay only the N latest prompts of the window" },
      ...RECORDS,
      ...AS_OF,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/report.ts"),
    // The archive and the entity list; writes the page, through its temp file (src/fsutil/atomic.ts).
    permissions: "report",
    listed: true,
  },
  {
    name: "hint",
    summary: "the gated look-up a hook runs before each prompt (silent unless sure)",
    usage:
      "verdict hint [--records FILE] [--seen FILE] [--top N] [--plain] [--agent ID] [--as-of T] [--explain]",
    help: `Examples:
  echo '{"session_id":"s1","prompt":"should we use pg_dump?","cwd":"/src/app"}' | verdict hint
  echo "should we use pg_dump?" | verdict hint --plain

Reads the prompt hook JSON on stdin (at most 4 MiB, up to the end of its first JSON
value: "prompt", "session_id", "cwd", as Claude Code's UserPromptSubmit and Gemini
CLI's BeforeAgent send it), or a plain prompt with --plain. Prints the hook output, in
the shape --agent's hook accepts (default claude), when an earlier decision clears the
gate, and nothing otherwise. A shown record is written to the cooldown ledger (--seen,
or $VERDICT_SEEN; an empty value disables it; default: one ledger per session under
~/.local/state/verdict/seen/).`,
    options: {
      ...RECORDS,
      seen: { kind: "string", value: "FILE", description: "cooldown ledger (append-only JSONL)" },
      ...TOP(2),
      plain: { kind: "boolean", description: "stdin is the prompt text, not hook JSON" },
      ...AGENT_OPTION,
      ...AS_OF,
      ...EXPLAIN,
      ...CONFIG,
    },
    sandbox: "revoke",
    load: () => import("./cmd/hint.ts"),
    permissions: "none",
    listed: true,
  },
  {
    name: "recall",
    summary: "look up earlier decisions (no gate, longer quotes)",
    usage:
      'verdict recall [--project DIR] [--since DATE] [--until DATE] [--kind KIND] [--records FILE] [--top N] [--json] [--as-of T] [--explain] "<words>"',
    help: `Examples:
  verdict recall "pg_dump backups"
  verdict recall --json --top 10 "数据库 迁移"
  verdict recall --project ~/src/app --since 2026-03-01 --kind prompt "svelte runes"

Ranks every record against the words and prints the best, each with its date, kind,
project, source file:line, score and matched terms.

Copies of one text (a template or a decision sent again in several sessions: the same
words, whatever the spacing, punctuation, case and numbers) are one result: the
best-ranked copy, with "copies: N, FIRST to LAST" (--json: "copies": {count, first,
last, complete}). --top N (default 5, at most 50) counts distinct texts. Copies are
counted among the matches ranked (up to 4 per result asked, more when copies leave
fewer than N texts, at most 2000); when not every match was ranked the count says
"at least". Ties rank by score, then the newer record, then the record id. Each result
names its record id, and its state when you retracted, muted or pinned it.

${WINDOW_HELP}`,
    options: { ...RECORDS, ...TOP(5), ...WINDOW, ...JSON_OUT, ...AS_OF, ...EXPLAIN, ...CONFIG },
    sandbox: "worker",
    load: () => import("./cmd/recall.ts"),
    permissions: "recall",
    listed: true,
  },
  {
    name: "replay",
    summary: "replay the hint over your own typed prompts: how often it would speak, and on what",
    usage:
      "verdict replay [--records FILE] [--since DATE] [--until DATE] [--project DIR] [--last N] [--json] [--explain]",
    help: `Examples:
  verdict replay --last 500
  verdict replay --project ~/src/app --since 2026-03-01 --explain
  verdict replay --json > replay.json

Replays the UserPromptSubmit hook over the typed prompts of the records file, oldest
first. Each prompt is decided by the hook's own code (search, gate, cooldown, render)
as of its own time, against only the records older than it, never quoting its own
session; a quote enters that session's cooldown ledger, as in the hook. Then the
prompt joins the archive. Prints each prompt on which the hint fired: the prompt, the
notice the person would see, the records quoted and the rule that spoke; then a
summary: prompts, fired, share, silent prompts by rule, the records quoted most often.
--explain adds the silent prompts with their rule, and each candidate's weights and
check. --json prints the same as one JSON object.

Window (all optional; default: every prompt): --since DATE (inclusive) and --until
DATE (exclusive), in UTC (a bare date is midnight); --project DIR: prompts typed in DIR
or below it; --last N: the N latest prompts of the window. Every older record, in or
out of the window, can still be quoted to a prompt.

Where replay is not the live hook: the CJK words that index Chinese and Japanese text
are derived once from the whole records file (the live index derives them at each
collect from what it holds then; on the development histories replay's decisions
equal those of an index built from scratch at the prompt in 125 of 125 sampled
prompts); the archive is taken as fresh at every prompt (live, it is as old as the
last collect); a record counts from its own time (a doc edited later is unseen by
earlier prompts). Nothing is written, not even the cooldown ledger.`,
    options: {
      ...RECORDS,
      since: {
        kind: "string",
        value: "DATE",
        description: "replay prompts from DATE on (default: the first)",
      },
      until: {
        kind: "string",
        value: "DATE",
        description: "replay prompts before DATE (default: to the last)",
      },
      project: { kind: "string", value: "DIR", description: "replay only prompts typed in DIR or below it" },
      last: { kind: "string", value: "N", description: "replay only the N latest prompts of the window" },
      ...JSON_OUT,
      ...EXPLAIN,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/replay.ts"),
    permissions: "replay",
    listed: true,
  },
  {
    name: "query",
    summary: "like recall, for a caller's session (needs --as-of; skips the live session)",
    usage:
      'verdict query --as-of T|now [--project DIR] [--since DATE] [--until DATE] [--kind KIND] [--records FILE] [--entities FILE] [--top N] [--json] [--live-session ID] [--live-transcript FILE] [--explain] "<text>"',
    help: `Examples:
  verdict query --as-of 2026-11-29T12:00:00Z --live-session 5c0375b4 "switch the queue to redis"
  verdict query --as-of now --project ~/src/app --kind note "queue"

Ranks records as recall does, with the caller's project weighted, entities boosted,
and the live session's own records left out. Copies of one text are one result, as
in recall (see "verdict recall --help"): --top N counts distinct texts. --as-of now
pins the clock to the moment the command starts.

${WINDOW_HELP}`,
    options: {
      ...AS_OF,
      ...RECORDS,
      entities: {
        kind: "string",
        value: "FILE",
        description: 'entity list (TSV; default: config "entities")',
      },
      ...TOP(5),
      ...WINDOW,
      ...JSON_OUT,
      "live-session": { kind: "string", value: "ID", description: "leave out records of this session" },
      "live-transcript": {
        kind: "string",
        value: "FILE",
        description: "the live session's transcript (its session id and project are read from it)",
      },
      ...EXPLAIN,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/query.ts"),
    permissions: "query",
    listed: true,
  },
  {
    name: "mcp",
    summary: "serve the MCP tools over stdio",
    usage: "verdict mcp [--records FILE]",
    help: `Example (Claude Code):
  claude mcp add verdict -- verdict mcp

Speaks MCP on stdin/stdout; diagnostics go to stderr.`,
    options: { ...RECORDS, ...CONFIG },
    sandbox: "worker",
    load: () => import("./cmd/mcp.ts"),
    permissions: "mcp",
    listed: true,
  },
  {
    name: "serve",
    summary: "serve the MCP tools over HTTP on loopback",
    usage:
      "verdict serve [--records FILE] [--bind ADDR] [--port N] [--token-file FILE] | verdict serve --print-addr [--json]",
    help: `Examples:
  verdict serve
  verdict serve --port 9000
  verdict serve --token-file ~/.config/verdict/token

POST /mcp (Streamable HTTP) and GET /healthz. Defaults: --bind ${DEFAULT_BIND}
($VERDICT_MCP_BIND), --port ${DEFAULT_PORT}. The bind must be 127.0.0.1, localhost or ::1 (verdict's
network permission holds these alone). --token-file ($VERDICT_MCP_TOKEN_FILE, mode 0600 or
stricter) makes every request carry the token. Requests with an Origin header are refused.`,
    options: {
      ...RECORDS,
      bind: { kind: "string", value: "ADDR", description: `address to listen on (default ${DEFAULT_BIND})` },
      port: { kind: "string", value: "N", description: `port to listen on (default ${DEFAULT_PORT})` },
      "token-file": { kind: "string", value: "FILE", description: "bearer token file (mode 0600)" },
      "print-addr": { kind: "boolean", description: "print the address serve listens on, and exit" },
      ...JSON_OUT,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/serve.ts"),
    permissions: "serve",
    listed: true,
  },
  {
    name: "compact build",
    summary: "snapshot a session's unlanded work (summary, state, digest)",
    usage: "verdict compact build (--transcript FILE [--cwd DIR] | --summary FILE|-) [--json]",
    help: `Examples:
  verdict compact build --transcript ~/.claude/projects/-src-app/5c0375b4.jsonl --json > snap.json
  verdict compact build --summary summary.json

Reads the session's unlanded work: open todos (latest TodoWrite, TaskCreate/TaskUpdate),
what "git status" reports in the session's cwd (default: the transcript's), files written
outside any repository, unanswered questions, decisions not written down, announced
next steps not carried out. Prints the state and its digest, or the snapshot
{summary, state, digest} with --json. Heuristics: docs/compaction.md.

Exit status 2 when the state exceeds judge.state_char_budget (default 8000); 3 for bad
input (a forbidden key, an unknown field).`,
    options: {
      transcript: { kind: "string", value: "FILE", description: "a Claude Code transcript" },
      cwd: {
        kind: "string",
        value: "DIR",
        description: "the session's working tree (default: from the transcript)",
      },
      summary: { kind: "string", value: "FILE", description: "a summary as JSON ('-' for stdin)" },
      ...JSON_OUT,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/compact_build.ts"),
    permissions: "compact build",
    listed: true,
  },
  {
    name: "compact judge",
    summary: "one verdict for a snapshot: safe_to_compact, wait or preserve_first",
    usage: "verdict compact judge [--snapshot FILE|-] [--local] [--json]",
    help: `Example:
  verdict compact build --transcript t.jsonl --json | verdict compact judge

Accepts only a snapshot whose digest matches its summary and whose state is the
renderer's output (exit 3 otherwise). Unlanded count <= judge.safe_max (default 0):
safe_to_compact; > judge.wait_min (default 2): preserve_first; in between the optional
loopback service (judge.service_url) is asked, else wait. wait is never permission.`,
    options: {
      snapshot: { kind: "string", value: "FILE", description: "snapshot JSON ('-' or absent: stdin)" },
      local: { kind: "boolean", description: "local rules only: in the band answer wait (ambiguous_band)" },
      ...JSON_OUT,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/compact_judge.ts"),
    permissions: "compact judge",
    listed: true,
  },
  {
    name: "compact verify",
    summary: "run a labelled corpus and report both error rates",
    usage: "verdict compact verify --corpus FILE [--local] [--json]",
    help: `Example:
  verdict compact verify --corpus examples/compaction-corpus.jsonl

Each line: {"id", "label": "lost"|"keep", "summary": {...}} or {"id", "label",
"transcript": "path relative to the corpus file"}. Reports lost cases let through as
safe_to_compact (dangerous), keep cases refused (over-conservative), and SKIP cases that
needed the absent or unreachable service. Exit 1 when a lost case is judged
safe_to_compact; 2 when a case's state is over budget; 3 for a bad or one-label corpus.`,
    options: {
      corpus: { kind: "string", value: "FILE", description: "JSONL of {id, label, summary|transcript}" },
      local: { kind: "boolean", description: "local rules only: band cases are SKIP (ambiguous_band)" },
      ...JSON_OUT,
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/compact_verify.ts"),
    permissions: "compact verify",
    listed: true,
  },
  {
    name: "hook user-prompt",
    summary:
      "prompt hook entry (UserPromptSubmit, BeforeAgent, userPromptSubmitted, OpenCode's plugin): hint, silent on any error",
    usage: "verdict hook user-prompt [--agent ID]",
    help: `Example (what install writes for Gemini CLI):
  verdict hook user-prompt --agent gemini

Reads the hook JSON on stdin (up to the end of its first JSON value: hosts may keep
stdin open) in the shape of the agent --agent names (default claude), and prints the
hint in that agent's output shape, or nothing. Always exits 0, and gives up silently
past its deadline. install writes the --agent of each agent it wires.`,
    options: { ...AGENT_OPTION, ...CONFIG },
    sandbox: "revoke",
    load: () => import("./cmd/hook_user_prompt.ts"),
    permissions: "none",
    exitsZero: true,
    listed: true,
  },
  {
    name: "warm serve",
    summary: "the warm helper the per-prompt hook asks first (a hook starts it; it ends when idle)",
    usage: "verdict warm serve",
    help: `Runs the helper in the foreground (a hook starts it detached when it finds none; you
never need to). It listens on 127.0.0.1, on a port the system picks, and writes that port and
a fresh secret into $VERDICT_STATE/warm/helper.addr (mode 0600; default
~/.local/state/verdict/warm/, a folder it makes 0700 and refuses to use unless it is a real
directory of yours that no one else can reach). A client and the helper each prove they hold
the secret before a prompt is sent. It answers each prompt with the same output the in-process
hook prints, and ends after 10 minutes without a prompt, when its address file or folder is
removed, on a prompt from another verdict build, on "verdict warm stop", SIGINT or SIGTERM.
Off with VERDICT_WARM=off or "warm_helper": false in the config.
VERDICT_WARM_LOG=1 makes it say on stderr why it ended.`,
    // No --config: the helper's config is the one the hook's environment names.
    options: {},
    sandbox: "worker",
    load: () => import("./cmd/warm.ts"),
    permissions: "warm serve",
    // The Worker may write only inside its folder, not create it (a folder that exists, whatever
    // it is, is left as it is: the helper checks it and refuses an unsafe one).
    prepare: async (plan) => {
      await Deno.mkdir(warmFolderOf(plan.paths.stateDir), { recursive: true, mode: 0o700 });
    },
    listed: true,
  },
  {
    name: "warm status",
    summary: "whether the warm helper runs, for which build, since when",
    usage: "verdict warm status",
    help: `Example:
  verdict warm status

Prints whether a helper answers at $VERDICT_STATE/warm/helper.addr, its pid, start time,
prompts answered and whether it is this build's. Exit 0 when one runs, 1 when none does.`,
    // No --config: the helper's config is the one the hook's environment names.
    options: {},
    sandbox: "worker",
    load: () => import("./cmd/warm.ts"),
    permissions: "warm client",
    listed: true,
  },
  {
    name: "warm stop",
    summary: "stop the warm helper (the next prompt starts a new one unless it is off)",
    usage: "verdict warm stop",
    help: `Example:
  verdict warm stop

Asks the helper at $VERDICT_STATE/warm/helper.addr to end. Exit 0 whether or not one ran.
To keep it from starting again: VERDICT_WARM=off in the agent's environment, or
"warm_helper": false in the config.`,
    // No --config: the helper's config is the one the hook's environment names.
    options: {},
    sandbox: "worker",
    load: () => import("./cmd/warm.ts"),
    permissions: "warm client",
    listed: true,
  },
  {
    name: "hook pre-compact",
    summary: "PreCompact hook entry: the compaction verdict",
    usage: "verdict hook pre-compact [--agent ID]",
    help: `Example (what install writes for Codex):
  verdict hook pre-compact --agent codex

Reads the PreCompact hook JSON on stdin (in the shape of the agent --agent names, default
claude; install wires it for Claude Code, Codex and Qwen Code), builds and judges the
session from its transcript and cwd, and writes the handoff (each unlanded item with its
source) to $VERDICT_STATE/handoff/<session>.md unless the verdict is safe_to_compact.
Blocks only a manual compaction, only on preserve_first, only with judge.block_manual,
and only where the agent can (Qwen Code's hook adds the items to its summary instead); a
second manual request within 120 s passes. Always exits 0; silent on any error. See
docs/compaction.md.`,
    options: { ...AGENT_OPTION, ...CONFIG },
    sandbox: "worker",
    load: () => import("./cmd/hook_pre_compact.ts"),
    permissions: "compaction hook",
    stdinInPlan: true,
    exitsZero: true,
    listed: true,
  },
  {
    name: "hook session-start",
    summary: "SessionStart(compact) hook entry: gives the model the handoff",
    usage: "verdict hook session-start [--agent ID]",
    help: `Reads the SessionStart hook JSON on stdin (in the shape of the agent --agent names,
default claude); for source "compact", prints the handoff written by the PreCompact hook
as context for the model, in that agent's output shape (Claude Code:
hookSpecificOutput.additionalContext). Always exits 0; silent on any error or when there
is no handoff. See docs/compaction.md.`,
    options: { ...AGENT_OPTION, ...CONFIG },
    sandbox: "worker",
    load: () => import("./cmd/hook_session_start.ts"),
    permissions: "compaction hook",
    stdinInPlan: true,
    exitsZero: true,
    listed: true,
  },
  {
    name: "install",
    summary: `wire the hooks and the MCP server into ${andList(AGENT_LABELS)}`,
    usage: `verdict install ${AGENT_FLAGS_USAGE} [--dry-run]`,
    help: `Examples:
  verdict install --dry-run        # show the diff of every file, change nothing
  verdict install                  # every agent found here
  verdict install --${AGENTS[AGENTS.length - 1]!.id}

${
      wrap(
        AGENTS.map((a) => `${a.label}: ${a.installHelp}`).join(" ") +
          " With no agent flag, every agent, skipping one whose folder does not exist.",
      )
    }

The entries run this binary by absolute path (else $VERDICT_BIN; from source, a launcher
written to ~/.local/share/verdict/bin/verdict), never a word looked up on PATH, and
carry VERDICT_RECORDS, VERDICT_STATE and VERDICT_CONFIG when they are set.
Other keys and entries stay byte for byte, in the file's own style (a one-line file
stays on one line); a changed file is first copied to <file>.verdict-backup-<time>,
and only the newest ${KEEP_BACKUPS} backups of each file are kept. A second run changes
nothing. uninstall gives back the bytes install found: the containers install created
go, a person's own (even empty) stay, a file install created is deleted, a blank one
comes back blank. A file that does not
parse, or a verdict entry not written by install, is refused (exit 3) and nothing is
written. Every file is checked first, so one run (--dry-run too) lists every refusal,
each with its file, what is wrong and what to do, and says how to wire the other
agents meanwhile. See docs/install.md.`,
    options: {
      ...agentFlags((a) => `${a.label} only (${a.wires})`),
      "dry-run": { kind: "boolean", description: "print a unified diff of each file and write nothing" },
      ...AS_OF,
    },
    // "none": the launcher neither loads the config (a broken one must not stop install or
    // uninstall) nor opens anything; the command pins the clock and resolves the paths, then runs
    // the edits in a Worker that may read and write exactly the host files and their backups
    // (src/cli/cmd/install.ts).
    sandbox: "none",
    load: () => import("./cmd/install.ts"),
    permissions: "install",
    listed: true,
  },
  {
    name: "uninstall",
    summary: "remove exactly what install added",
    usage: `verdict uninstall ${AGENT_FLAGS_USAGE} [--dry-run]`,
    help: `Examples:
  verdict uninstall --dry-run
  verdict uninstall

Removes what install wrote, and nothing else: the hook entries whose command ends in
"# added by verdict install"; verdict's own MCP server entry (mcpServers.verdict,
OpenCode's mcp.verdict) when it runs verdict's "mcp"; Codex's block between the
"# >>> verdict" and "# <<< verdict <<<" lines (its server and hook trust); and
OpenCode's hint plugin file, which is wholly verdict's and is deleted. A file left
empty that install may have created (Codex's hooks.json, Copilot CLI's mcp-config.json)
is deleted too. Hooks wired by hand and other tools' entries are left as they are; a
changed file is backed up first. A file that does not parse, or that cannot be edited
safely, is refused (exit 3, every refusal named in one run) and nothing is written.
With no agent flag, every agent.`,
    options: {
      ...agentFlags((a) => `${a.label} only`),
      "dry-run": { kind: "boolean", description: "print a unified diff of each file and write nothing" },
      ...AS_OF,
    },
    // Like install.
    sandbox: "none",
    load: () => import("./cmd/uninstall.ts"),
    permissions: "install",
    listed: true,
  },
  {
    name: "schedule install",
    summary: "run collect on a schedule (systemd timer, launchd agent, cron, Task Scheduler)",
    usage: "verdict schedule install [--interval MINUTES] [--scheduler NAME] [--dry-run]",
    help: `Examples:
  verdict schedule install
  verdict schedule install --interval 30 --dry-run

Linux: ~/.config/systemd/user/verdict-collect.{service,timer}, then
"systemctl --user daemon-reload" and "systemctl --user enable --now verdict-collect.timer".
macOS: ~/Library/LaunchAgents/dev.verdict.collect.plist (collect --skip-protected), then
"launchctl load -w". Elsewhere (--scheduler cron|schtasks): prints the cron line or
the schtasks command to run by hand. When systemctl or launchctl is missing or fails,
the files stay and the command to run by hand is printed. Interval: --interval, else
the config's schedule_interval_minutes (default 60). Runs the binary by absolute path
(the running compiled binary, $VERDICT_BIN, or from source the launcher install
writes). Exit 4 when the files are written but the timer could not be activated.`,
    options: {
      interval: { kind: "string", value: "MINUTES", description: "minutes between runs (5 to 10080)" },
      scheduler: {
        kind: "string",
        value: "NAME",
        description: "systemd, launchd, cron or schtasks (default: this OS's)",
      },
      "dry-run": { kind: "boolean", description: "print the files and commands, write nothing" },
      ...CONFIG,
    },
    // The launcher loads the config (for the interval); the command then runs in its own Worker
    // that may write only the scheduler's files and run only systemctl or launchctl.
    sandbox: "revoke",
    load: () => import("./cmd/schedule.ts"),
    permissions: "schedule",
    listed: true,
  },
  {
    name: "schedule remove",
    summary: "stop and remove the scheduled collect",
    usage: "verdict schedule remove [--scheduler NAME] [--dry-run]",
    help: `Example:
  verdict schedule remove

Disables the timer (or unloads the agent) and deletes the files schedule install wrote.`,
    options: {
      scheduler: { kind: "string", value: "NAME", description: "systemd, launchd, cron or schtasks" },
      "dry-run": { kind: "boolean", description: "print what would be done, change nothing" },
      ...CONFIG,
    },
    // Needs no config (status reads the interval from the installed files); runs in its own Worker.
    sandbox: "none",
    load: () => import("./cmd/schedule.ts"),
    permissions: "schedule",
    listed: true,
  },
  {
    name: "schedule status",
    summary: "is the scheduled collect installed, when did collect last run, how many records",
    usage: "verdict schedule status [--scheduler NAME] [--records FILE] [--json]",
    help: `Example:
  verdict schedule status

Last collect: when collect last ran over the archive. Counts: the archive's records by
kind.`,
    options: {
      scheduler: { kind: "string", value: "NAME", description: "systemd, launchd, cron or schtasks" },
      ...RECORDS,
      ...JSON_OUT,
      ...AS_OF,
      ...CONFIG,
    },
    // Needs no config (status reads the interval from the installed files); runs in its own Worker.
    sandbox: "none",
    load: () => import("./cmd/schedule.ts"),
    permissions: "schedule",
    listed: true,
  },
  {
    name: "doctor",
    summary: "check the installation, one line per check with its fix",
    usage: "verdict doctor [--json] [--records FILE] [--config FILE]",
    help: `Example:
  verdict doctor

${
      wrap(
        `Checks: the config loads; transcript roots, doc_roots and git_repos exist and are readable; the archive opens and was collected in the last 2 days; its index can serve; each agent's own wiring, for an agent found here (the others are one "skip" line each): ${
          AGENTS.map((a) => `${a.label}: ${a.checksHelp}`).join("; ")
        }; verdict's own MCP server entry is registered with ${
          orList(AGENT_LABELS)
        } (an entry named verdict that runs another program is named); for each agent found here, its host files load as the agent loads them, its installed prompt-hook command run through sh with only HOME and PATH=/usr/bin:/bin (a desktop launcher's) reaches verdict, and its installed MCP command starts and lists its tools; the hook's trouble ledger of the last day (prompts answered late, without an archive or a config, refused by the warm helper); the scheduled collect is installed; and the permission scoping works (this program's "sandbox-probe --as collect" must be refused a read outside the roots). Exit 1 when a check failed, 0 otherwise (warnings included).`,
      )
    }`,
    options: { ...JSON_OUT, ...RECORDS, ...AS_OF, ...CONFIG },
    // Loads the config itself (a bad one is a finding, not exit 3); the checks run in a
    // Worker that may read exactly the paths they look at (src/cli/cmd/doctor.ts).
    sandbox: "none",
    load: () => import("./cmd/doctor.ts"),
    permissions: "doctor",
    listed: true,
  },
  {
    name: "version",
    summary: "print the version",
    usage: "verdict version",
    help: "",
    options: {},
    sandbox: "none",
    load: () => import("./cmd/version.ts"),
    permissions: "none",
    listed: true,
  },
  {
    name: "sandbox-probe",
    summary: "try a read under a command's permissions (used by tests and doctor)",
    usage: "verdict sandbox-probe --as COMMAND --read PATH",
    help: `Example:
  verdict sandbox-probe --as collect --read /etc/passwd

Runs a read of PATH inside COMMAND's sandbox. Exit 0 when Deno refused it, 1 when
the read went through (the sandbox is broken).`,
    options: {
      as: { kind: "string", value: "COMMAND", description: "whose permissions to use (default collect)" },
      read: { kind: "string", value: "PATH", description: "the path to try to read" },
      ...CONFIG,
    },
    sandbox: "worker",
    load: () => import("./cmd/sandbox_probe.ts"),
    runsAs: (args) => stringOption(args, "as") ?? "collect",
    permissions: "sandbox-probe",
    listed: false,
  },
];

const BY_NAME = new Map(COMMANDS.map((c) => [c.name, c]));

export function findCommand(name: string): CommandSpec | undefined {
  return BY_NAME.get(name);
}

/** Group words that take a sub-command ("compact build"). */
export const GROUPS = new Set(
  COMMANDS.filter((c) => c.name.includes(" ")).map((c) => c.name.split(" ")[0]!),
);
