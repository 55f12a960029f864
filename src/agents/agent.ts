/**
 * The shape of an agent (a coding-agent CLI verdict reads and wires into), as the stages see it.
 * Each agent lives in one folder, `src/agents/<id>/`, whose `mod.ts` exports its `AgentKit`;
 * src/agents/registry.ts lists the agents. collect, install, uninstall, doctor and the
 * permission plan iterate over the registry and know no agent by name.
 *
 * Three parts, so the per-prompt hint path stays small:
 * - `AgentEntry` (the registry row): id, names and help phrases, and loaders. The launcher's
 *   command table and the record checker import it; it holds no code.
 * - `HookDialect` (a small module of the folder, loaded by the hook entries alone): how the
 *   agent's hook input names its fields and what output shape it accepts. Install writes
 *   `--agent <id>` into every hook command it wires, so `verdict hook …` knows which agent
 *   called it (no `--agent`: Claude Code, as every install before this one wrote).
 * - `AgentKit` (the folder's mod.ts): locations, session readers, memory files, host-file edits
 *   and doctor checks. Loaded by src/agents/loaded.ts for the stages that need it.
 *
 * Everything here is pure but the doctor checks and store readers: locations derive from the
 * environment passed in, line readers are line-fed parsers, store readers read one database
 * (records in the store, records and a carry out), edits are text in, text out.
 */
import type { Env } from "../config/paths.ts";
import type { LineParser, ParserOptions } from "../record/line_parser.ts";
import type { VerdictRecord } from "../record/record.ts";
import type { ProblemReporter } from "../record/source.ts";
import type { EditResult, MayPrune } from "../hostfile/errors.ts";
import type { Check } from "../hostfile/checks.ts";
import type { McpState } from "../hostfile/mcp_servers.ts";

/** The registry row: what the command line says about an agent without loading its code. */
export interface AgentEntry {
  /** Lower-case word: the records' `origin`, the `--<id>` flag of install and uninstall. */
  readonly id: string;
  /** The agent's product name, for messages ("Claude Code"). */
  readonly label: string;
  /** What `install --<id>` wires, for its flag's help ("hooks and MCP server"). */
  readonly wires: string;
  /** A sentence fragment for `collect --help`: what is read, and from where. */
  readonly readsHelp: string;
  /** A paragraph for `install --help`: which file gets which entry. */
  readonly installHelp: string;
  /** A sentence fragment for `doctor --help`: what its own check (AgentKit.doctor) looks at. */
  readonly checksHelp: string;
  /**
   * Why verdict registers no MCP server with this agent (it has no MCP support), for messages;
   * absent when one of its host files registers it (HostFile.mcpState).
   */
  readonly noMcp?: string;
  /**
   * Loads the agent's hook dialect, or null when verdict wires no hook into it. One small module
   * importing no code but other dialects, since it is the only part of an agent the per-prompt
   * hook loads (tests/cli/commands_test.ts holds it so).
   */
  readonly hookDialect: (() => Promise<{ readonly dialect: HookDialect }>) | null;
}

/** The hook entries verdict has: `verdict hook <event>`. */
export type HookEvent = "user-prompt" | "pre-compact" | "session-start";

/** The fields of an agent's hook input verdict uses, whatever the agent calls them. */
export interface HookInput {
  /** Which of verdict's events the input says it is, "other" for another one, null when it does not say. */
  readonly event: HookEvent | "other" | null;
  readonly prompt: string | null;
  readonly session: string | null;
  /** The working directory, as the agent sent it, or null. */
  readonly cwd: string | null;
  /** The session's transcript, as the agent sent it, or null. */
  readonly transcript: string | null;
  /** What started a compaction ("manual", "auto"), or null. */
  readonly trigger: string | null;
  /** What started a session ("startup", "resume", "compact"…), or null. */
  readonly source: string | null;
}

/** What a verdict hook has to say, before an agent's output shape is put on it. */
export interface HookReply {
  /** One line for the person, when the agent shows one. */
  readonly notice?: string;
  /** Text added to the model's context. */
  readonly context?: string;
  /** Stop the action (a manual compaction), with this reason; only where the dialect can. */
  readonly block?: string;
}

/** An agent's hook input and output shapes (pure). */
export interface HookDialect {
  /** Can its pre-compaction hook stop a compaction (a reply's `block`)? */
  readonly canBlockCompaction: boolean;
  /** Reads one parsed hook input object. */
  read(input: Readonly<Record<string, unknown>>): HookInput;
  /**
   * The JSON value to print on stdout for `reply` to `event`, or null when there is nothing the
   * agent would use (print nothing then).
   */
  render(event: HookEvent, reply: HookReply): unknown;
}

/** An agent with its folder loaded. */
export type Agent = AgentEntry & AgentKit;

/** What an agent's locations derive from. Nothing is read: the same input gives the same paths. */
export interface AgentEnv {
  readonly env: Env;
  /** The user's home directory, absolute. */
  readonly home: string;
  /** The working directory, for relative values of variables such as CLAUDE_CONFIG_DIR. */
  readonly cwd: string;
}

export interface AgentKit {
  /** The agent's own folder ($CLAUDE_CONFIG_DIR, else ~/.claude). */
  folder(at: AgentEnv): string;
  /** The variable that moves that folder, for hints ("CLAUDE_CONFIG_DIR"). */
  readonly folderVariable: string;
  /** Paths any one of which, existing, says the agent is used here (install and doctor ask). */
  presence(at: AgentEnv): readonly string[];
  /** The agent's session files, one reader per format; the first is its main one. */
  readonly sessions: readonly (SessionReader | StoreReader)[];
  /** Markdown memory files the agent keeps beside its sessions (read as documents), or null. */
  readonly memory: MemoryFiles | null;
  /** Records one of its readers finds again (a prompt history repeating transcripts), or null. */
  readonly repeats: RepeatRule | null;
  /** The session id and project one parsed line of a live session names (query --live-transcript). */
  liveSession(entry: Readonly<Record<string, unknown>>): LiveSession;
  /** The files install edits, in the order they are planned and reported. */
  readonly hostFiles: readonly HostFile[];
  /**
   * Re-frames one of its session files, line for line, as the Claude Code transcript lines the
   * compaction judge reads (src/judge/transcript.ts); null when the judge reads its files as
   * they are (Claude Code) or it has no compaction hook.
   */
  readonly judgeTranscript: ((text: string) => string) | null;
  /**
   * Files its doctor checks read that install never edits (Copilot CLI's folder-trust list), by
   * role: they reach the checks in DoctorAgent.files, and the doctor Worker may read them.
   */
  readonly doctorFiles?: readonly { readonly role: string; path(at: AgentEnv): string }[];
  /**
   * Checks of this agent's own wiring (its hooks), run by doctor after the shared checks. A
   * check's id names only what it checks ("hooks", "plugin"): doctor reports it under the
   * agent's id ("codex hooks", src/install/doctor.ts agentCheckId). Where the agent is not
   * present, each check is one "skip" line saying so. The steps every hook check shares are
   * src/hostfile/checks.ts's (missingHooks, hooksRunElsewhere, hookList).
   */
  doctor(ctx: DoctorContext): Promise<Check[]>;
}

/**
 * One session format of an agent: where its files are, which of them to read, and a resumable
 * line-fed parser (src/record/line_parser.ts). The collector does the rest (containment, per-file
 * incremental state, credential filter). A format that is not lines of text (a database) is the
 * other variant, StoreReader.
 */
export interface SessionReader {
  /**
   * Unique across agents; stored as each file's `kind` in the collect state, so a file is resumed
   * only by the reader that wrote its carry. Renaming one means a full re-read of its files.
   */
  readonly kind: string;
  /**
   * "dir": the files accepted under each root (and quotes may be re-read from them);
   * "file": each root is itself the one file to read.
   */
  readonly layout: "dir" | "file";
  /** Lexical paths of its roots. The first is where the agent writes (doctor looks there). */
  roots(at: AgentEnv): readonly string[];
  /** For "dir": which files under `root` to read (default: every `*.jsonl`, at any depth). */
  accept?(path: string, name: string, root: string): boolean;
  /** For "dir": directories not to descend into (default: none). */
  skipDir?(path: string, root: string): boolean;
  /** A parser for one file, resumed from the carry a parser of this reader left (or null). */
  open(opts: ParserOptions, carry: unknown): LineParser<unknown>;
  /**
   * For "dir": facts kept in files beside the sessions that their parser needs (Gemini CLI keeps
   * a project's path in `.project_root` and the lines typed in its terminal UI in `logs.json`,
   * in the folder above its chats). `key` names the folder whose facts a session file gets;
   * files with one key share one `load` per collect. `load` reads through `read`, which reads
   * only files under the same root. The result reaches the parser as `opts.context`.
   */
  readonly context?: SessionContext;
}

export interface SessionContext {
  key(path: string, root: string): string;
  load(key: string, read: SideFileReader): Promise<unknown>;
}

/**
 * Reads a small file beside the sessions: its text, or null when it is missing, unreadable, too
 * large, or resolves outside the reader's root (the collector reports why).
 */
export type SideFileReader = (path: string) => Promise<string | null>;

/**
 * A session store that is one database file rather than lines of text (OpenCode's SQLite). The
 * collector finds the file (each root is one store), checks containment, refuses companions that
 * are links, and calls `read` with the carry the last read left; the reader reads only what is
 * new since then and hands back records and the next carry. Incremental state, the credential
 * filter and the merge stay the collector's, as for line readers.
 */
export interface StoreReader {
  /** Unique across agents; stored as the store's `kind` in the collect state (see SessionReader). */
  readonly kind: string;
  readonly layout: "store";
  /** Lexical paths of the store files. The first is where the agent writes (doctor looks there). */
  roots(at: AgentEnv): readonly string[];
  /**
   * Files read beside a store (a database's write-ahead log), derived from its real path: the
   * permission plan grants them with the store, and the collector refuses any that is a link.
   */
  companions(store: string): readonly string[];
  /** Reads what is new in the store since `input.carry` (null: read it all). Never writes. */
  read(input: StoreInput): Promise<StoreRead>;
}

export interface StoreInput {
  /** Real path of the store (becomes each record's source_file). */
  readonly file: string;
  /** Also count prompts of headless sessions (config "include_headless"). */
  readonly includeHeadless: boolean;
  /** What the last read of this store left (null for a first or a full read). */
  readonly carry: unknown;
  readonly report: ProblemReporter;
}

export interface StoreRead {
  readonly records: readonly VerdictRecord[];
  /** True when the store was read from scratch: these records replace all its earlier ones. */
  readonly whole: boolean;
  /** JSON-safe; handed back as `carry` next time. */
  readonly carry: unknown;
  /** Bytes read, for progress. */
  readonly bytes: number;
  /**
   * False when the store (and its companions) were as the last read left them, so nothing new
   * could be in it: collect's summary counts the store as a file read only when this is true, as
   * it counts a line file only when it changed.
   */
  readonly changed: boolean;
  /** Rows that could not be decoded (counted as skipped). */
  readonly skipped: number;
}

/** A Markdown file found by an agent's memory lister, and the project its records belong to. */
export interface MemoryFile {
  readonly path: string;
  readonly project: string;
}

/**
 * Lists the plain directories or files of a directory, sorted (problems reported, not thrown).
 * Given `only`, looks at that one entry (one lstat, not a listing of a folder that may hold
 * thousands of transcripts): `[only]` when it is a plain directory or file of `type`, else `[]`.
 */
export type DirLister = (dir: string, type: "dir" | "file", only?: string) => Promise<string[]>;

export interface MemoryFiles {
  /** The `kind` of the reader whose roots hold the memory files. */
  readonly under: string;
  /** The memory files under one such root (already real). */
  find(root: string, list: DirLister): Promise<MemoryFile[]>;
}

/**
 * Records one reader finds again after another: the repeat is dropped when an original with the
 * same key exists (Claude's prompt history repeats its transcripts' prompts).
 */
export interface RepeatRule {
  isRepeat(record: VerdictRecord): boolean;
  isOriginal(record: VerdictRecord): boolean;
  key(record: VerdictRecord): string;
}

export interface LiveSession {
  readonly session: string | null;
  readonly project: string | null;
}

/** One host file install edits: pure text edits, planned before anything is written. */
export interface HostFile {
  /** Stable name carried in the install job and in the doctor job ("claude-settings"). */
  readonly role: string;
  /** What the file holds, for messages ("Claude Code hooks"). */
  readonly label: string;
  path(at: AgentEnv): string;
  /**
   * The path the agent itself names this file by, when that can differ from `path`: Codex keys
   * its hook trust by hooks.json under the canonical CODEX_HOME. Given the real path of the
   * file's folder (the launcher resolves it). Without it, `path`.
   */
  agentPath?(at: AgentEnv, realFolder: string): string;
  /**
   * Adds or updates verdict's entries; `text` is "" for a missing file. `planned` holds the files
   * planned before this one in the same job, as they will be written (Codex's config.toml records
   * trust for the hooks its hooks.json, planned first, now holds).
   */
  install(
    text: string,
    path: string,
    bin: string,
    env: Readonly<Record<string, string>>,
    planned: PlannedFiles,
  ): EditResult;
  /**
   * Removes exactly what install added: a container (hooks, an event's list, the server map) it
   * leaves empty goes too only when `mayPrune` says install created it (default: always).
   */
  uninstall(text: string, path: string, mayPrune?: MayPrune): EditResult;
  /** For the file that registers the MCP server: is verdict's server there, and whose is it? */
  mcpState?(text: string, path: string): McpState;
}

/** A file planned earlier in the same install job: its paths and the text it will have. */
export interface PlannedFile {
  readonly path: string;
  readonly agentPath: string;
  readonly text: string;
}

/** Planned files by role. */
export type PlannedFiles = ReadonlyMap<string, PlannedFile>;

/** What an agent's doctor checks get: its files as the launcher resolved them, and a reader. */
export interface DoctorContext {
  readonly agent: DoctorAgent;
  /** The program install would wire now (entries running another one are out of date). */
  readonly bin: string;
  /** The file's text, or null when it does not exist (other errors are thrown). */
  readonly read: (path: string) => Promise<string | null>;
}

/** An agent as the doctor job carries it into the Worker (plain data). */
export interface DoctorAgent {
  readonly id: string;
  /** Does any of its presence paths exist? */
  readonly present: boolean;
  /** Its host files by role, and its doctorFiles (`agentPath`: see HostFile.agentPath). */
  readonly files: readonly { readonly role: string; readonly path: string; readonly agentPath: string }[];
}
