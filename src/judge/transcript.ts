/**
 * Claude Code transcript → the session's unlanded work (pure: text in, facts out; git and the
 * file system are consulted by build.ts). Structural sources first; every heuristic is named,
 * documented here and in docs/compaction.md, and tested.
 *
 * Main chain: the records reachable from the last non-sidechain record by `parentUuid` (and
 * `logicalParentUuid` across a compact_boundary). Sidechain (subagent) records, abandoned
 * branches (rewinds, edits) and records without a uuid are not part of the session's own work.
 * Tool calls are paired with their results by id; a call counts as done only when its result is
 * not an error (`is_error`, or a `toolUseResult` string starting "Error").
 *
 * - todos: items of the LAST successful TodoWrite on the main chain whose status is not
 *   "completed", plus tasks replayed from successful TaskCreate/TaskUpdate calls (2.1.x) whose
 *   status is not "completed" or "deleted".
 * - questions: (structural) AskUserQuestion calls with no successful answer and no typed prompt
 *   after them; (heuristic H1) the final assistant text, when no tool call and no typed prompt
 *   follow it and its last line ends with "?" (or "？").
 * - decisions: typed prompts (typedPromptText, headless included) with a decision marker
 *   (markerStrength), minus those written down (heuristic H2, see `isWrittenDown`).
 * - next_steps (heuristic H3): announcements ("Next, I'll…", "I'll now…", "Now I will…", "Let me
 *   now…", "Then I'll…", 接下来我…, 下一步…) and the items of a "Next steps:" list, found in
 *   assistant text that comes after the last tool call of the main chain: nothing was carried out
 *   after them.
 * - written: files the session wrote (successful Write/Edit/MultiEdit/NotebookEdit).
 */
import { typedPromptText } from "../agents/claude/prompt.ts";
import { markerStrength } from "../rank/markers.ts";

/** An item and where it came from ("TodoWrite, line 321"). */
export interface Sourced {
  readonly text: string;
  readonly source: string;
}

export interface TranscriptFacts {
  /** sessionId of the main chain, or null when no record carries one. */
  readonly session: string | null;
  /** The working directory of the last main-chain record that names one. */
  readonly cwd: string | null;
  readonly todos: readonly Sourced[];
  readonly questions: readonly Sourced[];
  readonly decisions: readonly Sourced[];
  readonly nextSteps: readonly Sourced[];
  /** Absolute paths of files written by successful Write/Edit/MultiEdit/NotebookEdit calls. */
  readonly written: readonly Sourced[];
  /** The last tool call has no result, or the last prompt or tool result has no reply. */
  readonly endedMidTurn: boolean;
  /** The main chain ends with an interrupt marker. */
  readonly interrupted: boolean;
  /** Lines that were not JSON objects. */
  readonly malformedLines: number;
  /** compact_boundary records seen (earlier compactions). */
  readonly compactions: number;
}

/** Longest item text kept (characters); longer text is cut with an ellipsis. */
export const ITEM_MAX_CHARS = 300;

/**
 * H2: share of a decision's content tokens that one later durable write must contain for the
 * decision to count as written down. 0.6 tolerates rewording ("we'll use Postgres for the queue"
 * → "Queue: Postgres") while a write that shares only a word or two does not count.
 */
export const WRITTEN_DOWN_MIN_OVERLAP = 0.6;

type Entry = Record<string, unknown>;

interface Line {
  readonly no: number;
  readonly entry: Entry;
}

interface Call {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly line: number;
  /** Position in the main chain (index of its entry). */
  readonly at: number;
}

interface Result {
  readonly ok: boolean;
  readonly line: number;
  readonly at: number;
  /** The structured result, when the entry held only this one tool_result. */
  readonly structured: unknown;
  readonly text: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function blocks(entry: Entry): Record<string, unknown>[] {
  const content = isObject(entry.message) ? entry.message.content : undefined;
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function contentString(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.filter(isObject).map((b) => (typeof b.text === "string" ? b.text : "")).join("\n");
  }
  return "";
}

/**
 * Makes an item's text: screens the whole text first (a credential cut in half by clipping
 * could escape a rule), then clips it. A `note` (a todo's status) is added after the screen, so
 * it cannot hide the end of a credential from a rule that needs the end of its line.
 */
type ItemText = (text: string, note?: string) => string;

/** Cuts text to ITEM_MAX_CHARS on one line. */
export function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > ITEM_MAX_CHARS ? `${line.slice(0, ITEM_MAX_CHARS - 1).trimEnd()}…` : line;
}

/** Parses JSONL text into object lines (1-based numbers) and counts the malformed ones. */
function parseLines(text: string): { lines: Line[]; malformed: number } {
  const lines: Line[] = [];
  let malformed = 0;
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    try {
      const v = JSON.parse(raw);
      if (isObject(v)) lines.push({ no: i + 1, entry: v });
      else malformed++;
    } catch {
      malformed++;
    }
  });
  return { lines, malformed };
}

const CHAIN_TYPES = new Set(["user", "assistant", "system"]);

/** The main chain, in file order: see the module comment. */
export function mainChain(lines: readonly Line[]): Line[] {
  const byUuid = new Map<string, Line>();
  let leaf: Line | null = null;
  for (const line of lines) {
    const { entry } = line;
    if (typeof entry.uuid !== "string" || entry.isSidechain === true) continue;
    if (!byUuid.has(entry.uuid)) byUuid.set(entry.uuid, line);
    if (CHAIN_TYPES.has(String(entry.type))) leaf = line;
  }
  const onChain = new Set<Line>();
  let cur: Line | undefined = leaf ?? undefined;
  while (cur && !onChain.has(cur)) {
    onChain.add(cur);
    const e = cur.entry;
    const parent = typeof e.parentUuid === "string"
      ? e.parentUuid
      : e.subtype === "compact_boundary" && typeof e.logicalParentUuid === "string"
      ? e.logicalParentUuid
      : null;
    cur = parent === null ? undefined : byUuid.get(parent);
  }
  return lines.filter((l) => onChain.has(l));
}

function isErrorResult(block: Record<string, unknown>, entry: Entry): boolean {
  if (block.is_error === true) return true;
  const r = entry.toolUseResult;
  return typeof r === "string" && /^\s*Error/i.test(r);
}

/** Pairs tool calls and results along the chain. */
function pairTools(chain: readonly Line[]): { calls: Call[]; results: Map<string, Result> } {
  const calls: Call[] = [];
  const results = new Map<string, Result>();
  chain.forEach(({ no, entry }, at) => {
    const bs = blocks(entry);
    if (entry.type === "assistant") {
      for (const b of bs) {
        if (b.type !== "tool_use" || typeof b.id !== "string" || typeof b.name !== "string") continue;
        calls.push({ id: b.id, name: b.name, input: isObject(b.input) ? b.input : {}, line: no, at });
      }
    } else if (entry.type === "user") {
      const resultBlocks = bs.filter((b) => b.type === "tool_result" && typeof b.tool_use_id === "string");
      for (const b of resultBlocks) {
        results.set(b.tool_use_id as string, {
          ok: !isErrorResult(b, entry),
          line: no,
          at,
          structured: resultBlocks.length === 1 ? entry.toolUseResult : undefined,
          text: contentString(b.content),
        });
      }
    }
  });
  return { calls, results };
}

// ---------------------------------------------------------------------------------------------
// Todos

function openTodos(calls: readonly Call[], results: ReadonlyMap<string, Result>, item: ItemText): Sourced[] {
  let latest: { todos: unknown[]; line: number } | null = null;
  const tasks = new Map<string, { subject: string; status: string; line: number }>();
  for (const call of calls) {
    const res = results.get(call.id);
    if (!res?.ok) continue;
    if (call.name === "TodoWrite" && Array.isArray(call.input.todos)) {
      latest = { todos: call.input.todos, line: call.line };
    } else if (call.name === "TaskCreate" && typeof call.input.subject === "string") {
      const id = taskIdOf(res);
      if (id !== null) tasks.set(id, { subject: call.input.subject, status: "pending", line: call.line });
    } else if (call.name === "TaskUpdate" && call.input.taskId !== undefined) {
      const task = tasks.get(String(call.input.taskId));
      if (!task) continue;
      if (typeof call.input.status === "string") task.status = call.input.status;
      if (typeof call.input.subject === "string") task.subject = call.input.subject;
    }
  }
  const out: Sourced[] = [];
  for (const todo of latest?.todos ?? []) {
    if (!isObject(todo) || typeof todo.content !== "string" || todo.content.trim() === "") continue;
    const status = typeof todo.status === "string" ? todo.status : "pending";
    if (status === "completed") continue;
    out.push({ text: item(todo.content, `(${status})`), source: `TodoWrite, line ${latest!.line}` });
  }
  for (const task of tasks.values()) {
    if (task.status === "completed" || task.status === "deleted") continue;
    out.push({ text: item(task.subject, `(${task.status})`), source: `TaskCreate, line ${task.line}` });
  }
  return out;
}

/** The task id of a TaskCreate result: `toolUseResult.task.id`, else "Task #N" in the result text. */
function taskIdOf(res: Result): string | null {
  const s = res.structured;
  if (isObject(s) && isObject(s.task) && (typeof s.task.id === "string" || typeof s.task.id === "number")) {
    return String(s.task.id);
  }
  const m = /Task #?(\w+)/.exec(res.text);
  return m ? m[1]! : null;
}

// ---------------------------------------------------------------------------------------------
// Questions

function openQuestions(
  chain: readonly Line[],
  calls: readonly Call[],
  results: ReadonlyMap<string, Result>,
  lastTypedAt: number,
  item: ItemText,
): Sourced[] {
  const out: Sourced[] = [];
  for (const call of calls) {
    if (call.name !== "AskUserQuestion") continue;
    if (results.get(call.id)?.ok) continue; // answered through the tool
    if (lastTypedAt > call.at) continue; // the person typed after it: answered (or moved on) in chat
    const qs = Array.isArray(call.input.questions) ? call.input.questions : [];
    for (const q of qs) {
      if (isObject(q) && typeof q.question === "string" && q.question.trim() !== "") {
        out.push({ text: item(q.question), source: `AskUserQuestion, line ${call.line}` });
      }
    }
  }
  const final = finalAssistantText(chain, calls, lastTypedAt);
  if (final) {
    const lines = final.text.split("\n").map((l) => l.replace(/[*_`#>]+/g, "").trim()).filter((l) =>
      l !== ""
    );
    const last = lines[lines.length - 1];
    if (last && /[?？]\s*$/.test(last)) {
      out.push({ text: item(lastSentence(last)), source: `assistant text, line ${final.line}` });
    }
  }
  return out;
}

/** H1 helper: the last sentence of a line ending with a question mark. */
function lastSentence(line: string): string {
  const parts = line.split(/(?<=[.!。！])\s*/).filter((p) => p.trim() !== "");
  return parts[parts.length - 1] ?? line;
}

/** The last assistant text of the chain, when no tool call and no typed prompt follow it. */
function finalAssistantText(
  chain: readonly Line[],
  calls: readonly Call[],
  lastTypedAt: number,
): { text: string; line: number; at: number } | null {
  for (let at = chain.length - 1; at >= 0; at--) {
    const { entry, no } = chain[at]!;
    if (entry.type !== "assistant") continue;
    const bs = blocks(entry);
    const lastText = [...bs].reverse().find((b) => b.type === "text" && typeof b.text === "string");
    if (!lastText) continue;
    // A tool call in the same message after the text, or anywhere later, means the agent acted.
    const textIndex = bs.indexOf(lastText);
    if (bs.slice(textIndex + 1).some((b) => b.type === "tool_use")) return null;
    if (calls.some((c) => c.at > at)) return null;
    if (lastTypedAt > at) return null;
    return { text: lastText.text as string, line: no, at };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Decisions and the "was it written down" heuristic (H2)

/** Basenames of instruction and memory files. */
const INSTRUCTION_BASENAMES = new Set([
  "claude.md",
  "claude.local.md",
  "agents.md",
  "agents.override.md",
  "memory.md",
  "decisions.md",
  "qwen.md",
  "copilot-instructions.md",
]);

/** Path parts that make any file under them an instruction, memory or decision record. */
const INSTRUCTION_DIRS = [
  "/memory/",
  "/.claude/",
  "/.codex/",
  "/.qwen/",
  "/.github/instructions/",
  "/adr/",
  "/decisions/",
];

/** Is `path` an instruction, memory or decision-record file (CLAUDE.md, AGENTS.md, memory/…)? */
export function isInstructionFile(path: string): boolean {
  const p = path.replace(/\\/g, "/");
  const base = p.slice(p.lastIndexOf("/") + 1).toLowerCase();
  return INSTRUCTION_BASENAMES.has(base) || INSTRUCTION_DIRS.some((d) => `/${p.toLowerCase()}`.includes(d));
}

/** English function words that carry no content for H2. */
const STOPWORDS = new Set(
  ("the and for are but not you your our with this that these those from into onto then than " +
    "have has had was were will would should could can may might must shall its it's let's lets " +
    "use using used also just all any each some more most very too only now here there what when " +
    "where which who why how them they their there's we'll we're i'll i'm don't doesn't won't " +
    "yes okay please make sure want need going about over under again always never").split(" "),
);

/**
 * H2 tokens: lower-cased Latin words of 3+ characters (letters, digits, "_", ".", "-" inside)
 * minus STOPWORDS, and CJK character bigrams (a lone CJK character stands for itself).
 */
export function contentTokens(text: string): Set<string> {
  const out = new Set<string>();
  const lower = text.normalize("NFKC").toLowerCase().replace(/[’]/g, "'");
  for (const m of lower.matchAll(/[a-z0-9][a-z0-9_.'-]*[a-z0-9]|[a-z0-9]/g)) {
    const w = m[0].replace(/'s$/, "");
    if (w.length >= 3 && !STOPWORDS.has(w)) out.add(w);
  }
  for (
    const m of lower.matchAll(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu)
  ) {
    const run = [...m[0]];
    if (run.length === 1) out.add(run[0]!);
    for (let i = 0; i + 1 < run.length; i++) out.add(run[i]! + run[i + 1]!);
  }
  return out;
}

/**
 * H2: a decision is written down when ONE durable write made after it (an instruction or memory
 * file write, or a `git commit` command) contains at least WRITTEN_DOWN_MIN_OVERLAP of the
 * decision's content tokens. A decision without content tokens cannot be matched and stays
 * unlanded (the conservative direction).
 */
export function isWrittenDown(decision: string, laterWrites: readonly string[]): boolean {
  const d = contentTokens(decision);
  if (d.size === 0) return false;
  return laterWrites.some((w) => {
    const wt = contentTokens(w);
    let shared = 0;
    for (const t of d) if (wt.has(t)) shared++;
    return shared / d.size >= WRITTEN_DOWN_MIN_OVERLAP;
  });
}

/** Text a durable write puts down: instruction/memory file content, or a git commit command. */
function durableText(call: Call): string | null {
  const input = call.input;
  if (
    call.name === "Bash" && typeof input.command === "string" &&
    /\bgit\b[^\n;&|]*\bcommit\b/.test(input.command)
  ) {
    return input.command;
  }
  const path = typeof input.file_path === "string" ? input.file_path : null;
  if (path === null || !isInstructionFile(path)) return null;
  if (call.name === "Write" && typeof input.content === "string") return input.content;
  if (call.name === "Edit" && typeof input.new_string === "string") return input.new_string;
  if (call.name === "MultiEdit" && Array.isArray(input.edits)) {
    return input.edits.filter(isObject).map((e) => (typeof e.new_string === "string" ? e.new_string : ""))
      .join(
        "\n",
      );
  }
  return null;
}

function unrecordedDecisions(
  chain: readonly Line[],
  calls: readonly Call[],
  results: ReadonlyMap<string, Result>,
  item: ItemText,
): Sourced[] {
  const writes = calls
    .filter((c) => results.get(c.id)?.ok)
    .map((c) => ({ at: c.at, text: durableText(c) }))
    .filter((w): w is { at: number; text: string } => w.text !== null);
  const out: Sourced[] = [];
  chain.forEach(({ entry, no }, at) => {
    const text = typedPromptText(entry, { includeHeadless: true });
    if (text === null || markerStrength(text) === null) return;
    const later = writes.filter((w) => w.at > at).map((w) => w.text);
    if (!isWrittenDown(text, later)) out.push({ text: item(text), source: `typed prompt, line ${no}` });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Next steps (H3)

/** Sentences announcing work the agent is about to do. */
const ANNOUNCEMENT =
  /(^|[\s(])(next,?\s+i(?:'ll|’ll|\s+will)|i(?:'ll|’ll|\s+will)\s+now|now,?\s+i(?:'ll|’ll|\s+will)|let\s+me\s+now|then,?\s+i(?:'ll|’ll|\s+will)|after\s+that,?\s+i(?:'ll|’ll|\s+will)|接下来我|下一步)/i;

/** A heading that starts a list of planned steps ("Next steps:", "**Remaining steps**", "下一步："). */
const STEPS_HEADING =
  /^\s*(?:#+\s*)?(?:\*\*)?\s*(next steps?|remaining steps|remaining work|still to do|to do next|下一步|后续步骤)\s*(?:\*\*)?\s*[:：]?\s*(?:\*\*)?\s*(.*)$/i;

/** The same heading inside a line, after other text ("Done. Next steps: …"); the colon is required. */
const STEPS_INLINE =
  /(?:^|[\s*#])(next steps?|remaining steps|remaining work|still to do|to do next|下一步|后续步骤)\s*(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*(.*)$/i;

const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+(.+)$/;

/** H3 over one text: announcements and "Next steps:" list items. Pure; exported for tests. */
export function announcedSteps(text: string): string[] {
  const out: string[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = STEPS_HEADING.exec(line) ?? STEPS_INLINE.exec(line);
    if (heading) {
      const inline = heading[2]!.replace(/\*\*/g, "").trim();
      if (inline !== "") out.push(inline);
      let j = i + 1;
      while (j < lines.length && lines[j]!.trim() === "") j++;
      for (; j < lines.length; j++) {
        const item = LIST_ITEM.exec(lines[j]!);
        if (!item) {
          if (lines[j]!.trim() === "") continue;
          break;
        }
        out.push(item[1]!.replace(/\*\*/g, "").trim());
      }
      i = j - 1;
      continue;
    }
    for (const sentence of line.split(/(?<=[.!?。！？])\s+/)) {
      if (ANNOUNCEMENT.test(sentence)) out.push(sentence.replace(/\*\*/g, "").trim());
    }
  }
  return out.filter((s) => s !== "");
}

function pendingSteps(chain: readonly Line[], calls: readonly Call[], item: ItemText): Sourced[] {
  const lastCall = calls.length === 0 ? null : calls[calls.length - 1]!;
  const out: Sourced[] = [];
  const seen = new Set<string>();
  chain.forEach(({ entry, no }, at) => {
    if (entry.type !== "assistant") return;
    const bs = blocks(entry);
    bs.forEach((b, bi) => {
      if (b.type !== "text" || typeof b.text !== "string") return;
      // Only text after the chain's last tool call: nothing was carried out after it.
      if (
        lastCall &&
        (at < lastCall.at || (at === lastCall.at && bs.slice(bi + 1).some((x) => x.type === "tool_use")))
      ) {
        return;
      }
      for (const step of announcedSteps(b.text)) {
        const text = item(step);
        if (seen.has(text)) continue;
        seen.add(text);
        out.push({ text, source: `assistant text, line ${no}` });
      }
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------

const WRITE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const INTERRUPT = "[Request interrupted by user";

/**
 * Extracts the facts of a transcript. Pure. `screen` sees each item's whole text before it is
 * clipped and returns what may be kept (build.ts replaces a credential with a placeholder).
 */
export function extractTranscript(
  text: string,
  screen: (text: string) => string = (t) => t,
): TranscriptFacts {
  const item: ItemText = (t, note) => {
    const kept = screen(t);
    return clip(kept === t && note !== undefined ? `${t} ${note}` : kept);
  };
  const { lines, malformed } = parseLines(text);
  const chain = mainChain(lines);
  const { calls, results } = pairTools(chain);
  let lastTypedAt = -1;
  chain.forEach(({ entry }, at) => {
    if (typedPromptText(entry, { includeHeadless: true }) !== null) lastTypedAt = at;
  });
  const session = chain.map((l) => l.entry.sessionId).find((s): s is string => typeof s === "string") ?? null;
  const cwd =
    [...chain].reverse().map((l) => l.entry.cwd).find((c): c is string =>
      typeof c === "string" && c !== ""
    ) ??
      null;

  const written = new Map<string, Sourced>();
  for (const call of calls) {
    if (!WRITE_TOOLS.has(call.name) || !results.get(call.id)?.ok) continue;
    const path = typeof call.input.file_path === "string"
      ? call.input.file_path
      : typeof call.input.notebook_path === "string"
      ? call.input.notebook_path
      : null;
    if (path === null || path === "") continue;
    written.delete(path);
    written.set(path, { text: path, source: `${call.name}, line ${call.line}` });
  }

  const last = chain[chain.length - 1];
  let endedMidTurn = false;
  let interrupted = false;
  if (last) {
    const bs = blocks(last.entry);
    const text = typeof (last.entry.message as Entry | undefined)?.content === "string"
      ? (last.entry.message as Entry).content as string
      : bs.map((b) => (typeof b.text === "string" ? b.text : contentString(b.content))).join("\n");
    if (last.entry.type === "user") {
      if (text.trimStart().startsWith(INTERRUPT)) interrupted = true;
      else endedMidTurn = true; // a prompt or a tool result nobody replied to
    } else if (last.entry.type === "assistant") {
      endedMidTurn = bs.some((b) => b.type === "tool_use" && typeof b.id === "string" && !results.has(b.id));
    }
  }
  return {
    session,
    cwd,
    todos: openTodos(calls, results, item),
    questions: openQuestions(chain, calls, results, lastTypedAt, item),
    decisions: unrecordedDecisions(chain, calls, results, item),
    nextSteps: pendingSteps(chain, calls, item),
    written: [...written.values()],
    endedMidTurn,
    interrupted,
    malformedLines: malformed,
    compactions:
      lines.filter((l) => l.entry.type === "system" && l.entry.subtype === "compact_boundary").length,
  };
}
