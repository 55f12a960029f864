/**
 * doctor's end-to-end checks of each agent's wiring, run as the agent would run it: the installed
 * prompt-hook command through /bin/sh with the environment a desktop launcher gives (HOME and
 * PATH=/usr/bin:/bin, nothing of the shell's), fed a hook input whose prompt is the doctor's
 * probe (src/gate/health.ts), which the hook answers at once; the installed MCP command started
 * the same way and asked for its tools over stdio (initialize, then tools/list, JSON-RPC lines);
 * and each host file read the way its agent reads it (plain JSON for the files Claude Code and
 * Codex parse strictly, TOML tables for Codex's config.toml, which a table defined twice breaks).
 *
 * A hook that is not found, not runnable, or never answers fails: the hooks exit 0 silently by
 * design, so only running them shows that they reach verdict. Runs in doctor's launcher, which may
 * start programs (the Worker that runs the other checks may not).
 */
import type { Agent } from "../agents/agent.ts";
import { parseJsonc } from "../config/jsonc.ts";
import { type Check, check, reason } from "../hostfile/checks.ts";
import { isOurHandler } from "../hostfile/hook_json.ts";
import { HOOK_DEADLINE_ENV, probeAnswer, probePrompt } from "../gate/health.ts";

/** The PATH an agent started from a desktop launcher or an IDE may have. */
export const LAUNCHER_PATH = "/usr/bin:/bin";

/** How long a hook or an MCP server start may take before doctor calls it broken. */
export const WIRING_TIMEOUT_MS = 30_000;

/** One agent as the wiring checks see it: its host files by role, as the launcher resolved them. */
export interface WiringAgent {
  readonly agent: Pick<Agent, "id" | "label" | "hostFiles">;
  readonly present: boolean;
  readonly files: readonly { readonly role: string; readonly path: string }[];
}

export interface WiringEnv {
  readonly home: string;
  /** Variables of doctor's own environment carried into the runs (VERDICT_WARM, the deadline). */
  readonly carried: Readonly<Record<string, string>>;
  /** Makes the probe's nonce (random in use, fixed in tests). */
  readonly nonce: () => string;
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

// ---- host files, parsed as their agents parse them

/** Roles whose files their agent reads with a strict JSON parser (no comments, no trailing commas). */
const STRICT_JSON_ROLES: ReadonlySet<string> = new Set([
  "claude-settings",
  "claude-config",
  "codex-hooks",
]);

/** Tables a TOML text defines twice: "[mcp_servers.verdict] at lines 3 and 9", or null. */
export function tomlDuplicateTable(text: string): { table: string; first: number; again: number } | null {
  const seen = new Map<string, number>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*\[(?!\[)\s*([^\]]+?)\s*\](?!\])\s*(#.*)?\r?$/.exec(lines[i]!);
    if (!m) continue;
    const key = tableKey(m[1]!);
    const first = seen.get(key);
    if (first !== undefined) return { table: key, first, again: i + 1 };
    seen.set(key, i + 1);
  }
  return null;
}

/** A table header's dotted key with quotes and spaces taken out ("mcp_servers.verdict"). */
function tableKey(raw: string): string {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw)) !== null && m[0] !== "") {
    parts.push(m[1] !== undefined ? JSON.parse(`"${m[1]}"`) : m[2] ?? m[3]!);
    if (re.lastIndex >= raw.length) break;
  }
  return parts.join(".");
}

/** The agent's files that exist, each parsed as the agent parses it; a failure for each that does not. */
async function fileChecks(w: WiringAgent): Promise<Check[]> {
  const problems: string[] = [];
  for (const f of w.files) {
    let text: string | null;
    try {
      text = await readOrNull(f.path);
    } catch (err) {
      problems.push(`${f.path} ${reason(err)}`);
      continue;
    }
    if (text === null || text.trim() === "") continue;
    if (f.path.endsWith(".toml")) {
      const dup = tomlDuplicateTable(text);
      if (dup) {
        problems.push(
          `${f.path} defines [${dup.table}] twice (lines ${dup.first} and ${dup.again}): ${w.agent.label} cannot load it`,
        );
      }
    } else if (f.path.endsWith(".json")) {
      try {
        if (STRICT_JSON_ROLES.has(f.role)) JSON.parse(text);
        else parseJsonc(text);
      } catch (err) {
        problems.push(`${f.path} is not JSON ${w.agent.label} can read: ${(err as Error).message}`);
      }
    }
  }
  if (problems.length === 0) return [];
  return [
    check(
      "files",
      "fail",
      problems.join("; "),
      "fix the file by hand (its backup is beside it), then run verdict doctor",
    ),
  ];
}

// ---- the prompt hook, run as the agent runs it

interface FoundHook {
  readonly event: string;
  readonly command: string;
}

/** verdict's installed prompt-hook command in a host file's JSON, and the event it is under. */
export function installedPromptHook(value: unknown): FoundHook | null {
  if (typeof value !== "object" || value === null) return null;
  const hooks = (value as Record<string, unknown>).hooks;
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return null;
  for (const [event, list] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      // A matcher group ({"hooks": [...]}) or a handler itself (Copilot CLI's flat lists).
      const handlers =
        typeof item === "object" && item !== null && Array.isArray((item as { hooks?: unknown }).hooks)
          ? (item as { hooks: unknown[] }).hooks
          : [item];
      for (const h of handlers) {
        if (typeof h !== "object" || h === null) continue;
        const r = h as Record<string, unknown>;
        const command = typeof r.command === "string"
          ? r.command
          : typeof r.bash === "string"
          ? r.bash
          : null;
        if (command !== null && isOurHandler({ command }, "user-prompt")) return { event, command };
      }
    }
  }
  return null;
}

/** A shell word as shellQuote writes it: bare safe characters, or single-quoted with '\'' inside. */
const WORD = String.raw`(?:[A-Za-z0-9_./:@%+,-]+|'[^']*(?:'\\''[^']*)*')`;
const INSTALL_SHAPED = new RegExp(
  String.raw`^(?:test -x (${WORD})|command -v (${WORD}) >/dev/null) && (?:[A-Z_][A-Z0-9_]*=${WORD} )*` +
    String
      .raw`exec (${WORD}) hook user-prompt(?: --agent [a-z][a-z0-9-]*)?; exit 0 # added by verdict install$`,
);

/**
 * Is `command` exactly of the form install writes (src/hostfile/hook_json.ts hookCommand): a
 * guard, variable assignments, `exec <program> hook user-prompt`, each word quoted as install
 * quotes it? Only such a command is run: an entry edited into running anything else is named,
 * never run by doctor.
 */
export function isInstallShaped(command: string): boolean {
  const m = INSTALL_SHAPED.exec(command);
  return m !== null && (m[1] ?? m[2]) === m[3];
}

/** The hook input an agent sends, in the field names of every dialect verdict reads. */
function probeInput(event: string, prompt: string, cwd: string): string {
  return JSON.stringify({
    session_id: "verdict-doctor",
    sessionId: "verdict-doctor",
    transcript_path: "",
    cwd,
    hook_event_name: event,
    prompt,
  });
}

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly error: string | null;
  readonly timedOut: boolean;
}

/** Runs argv with exactly `env`, feeding `stdin`; killed after WIRING_TIMEOUT_MS. Never throws. */
async function runWith(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd: string,
  stdin: string,
): Promise<Ran> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(argv[0]!, {
      args: argv.slice(1),
      env: { ...env },
      clearEnv: true,
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (err) {
    return { code: null, stdout: "", stderr: "", error: reason(err), timedOut: false };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch { /* ended */ }
  }, WIRING_TIMEOUT_MS);
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin)).catch(() => {});
  await writer.close().catch(() => {});
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    error: null,
    timedOut,
  };
}

/** The environment an agent started from a desktop launcher gives its hooks and servers. */
function launcherEnv(env: WiringEnv, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { HOME: env.home, PATH: LAUNCHER_PATH, ...extra, ...env.carried };
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}

async function hookRunCheck(w: WiringAgent, env: WiringEnv, fix: string): Promise<Check | null> {
  let found: FoundHook | null = null;
  for (const f of w.files) {
    if (!f.path.endsWith(".json")) continue;
    try {
      const text = await readOrNull(f.path);
      if (text !== null && text.trim() !== "") found = installedPromptHook(parseJsonc(text));
    } catch {
      continue; // fileChecks names a file that does not parse
    }
    if (found) break;
  }
  if (found === null) return null;
  if (Deno.build.os === "windows") {
    return check(
      "hook run",
      "skip",
      `${w.agent.label}'s ${found.event} hook is not run here: no /bin/sh on Windows`,
    );
  }
  if (!isInstallShaped(found.command)) {
    return check(
      "hook run",
      "fail",
      `${w.agent.label}'s ${found.event} hook carries verdict's marker but is not a command install writes, so doctor does not run it: ${found.command}`,
      `remove that entry by hand, then ${fix}`,
    );
  }
  const nonce = env.nonce();
  const start = performance.now();
  const run = await runWith(
    ["/bin/sh", "-c", found.command],
    // Whether the command reaches verdict is the question here, not how fast a loaded machine
    // starts it: the hook's own deadline is stretched to doctor's (the deadlines it missed on real
    // prompts are the trouble ledger's, reported beside this check).
    launcherEnv(env, { [HOOK_DEADLINE_ENV]: String(WIRING_TIMEOUT_MS) }),
    env.home,
    probeInput(found.event, probePrompt(nonce), env.home),
  );
  const how =
    `${w.agent.label}'s ${found.event} hook, run as ${w.agent.label} runs it (sh, PATH=${LAUNCHER_PATH})`;
  if (run.error !== null) return check("hook run", "fail", `${how} could not start: ${run.error}`, fix);
  if (run.timedOut) {
    return check("hook run", "fail", `${how} did not end within ${WIRING_TIMEOUT_MS / 1000} s`, fix);
  }
  if (run.code !== 0) {
    return check(
      "hook run",
      "fail",
      `${how} exited ${run.code}: ${firstLine(run.stderr) || "no message"}`,
      fix,
    );
  }
  if (!run.stdout.includes(probeAnswer(nonce))) {
    const said = firstLine(run.stderr);
    return check(
      "hook run",
      "fail",
      `${how} never reached verdict: it printed nothing${
        said ? ` (stderr: ${said})` : ""
      }, so every prompt goes without a hint`,
      fix,
    );
  }
  const ms = Math.round(performance.now() - start);
  return check("hook run", "ok", `${how} reached verdict and answered (${ms} ms)`);
}

// ---- the MCP server, started as the agent starts it

interface McpEntry {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

function stringRecord(v: unknown): Record<string, string> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === "string")) as Record<
    string,
    string
  >;
}

/**
 * verdict's MCP entry in a JSON host file (`mcpServers.verdict`, or OpenCode's `mcp.verdict`); the
 * Cline CLI nests the command in the entry's `transport`.
 */
export function jsonMcpEntry(value: unknown): McpEntry | null {
  if (typeof value !== "object" || value === null) return null;
  const root = value as Record<string, Record<string, unknown> | undefined>;
  const outer = (root.mcpServers?.verdict ?? root.mcp?.verdict) as Record<string, unknown> | undefined;
  if (typeof outer !== "object" || outer === null) return null;
  const inner = outer.transport;
  const entry = typeof inner === "object" && inner !== null && !Array.isArray(inner)
    ? inner as Record<string, unknown>
    : outer;
  const env = { ...stringRecord(entry.env), ...stringRecord(entry.environment) };
  if (Array.isArray(entry.command) && entry.command.every((w) => typeof w === "string")) {
    return entry.command.length > 0 ? { argv: entry.command as string[], env } : null;
  }
  if (typeof entry.command !== "string") return null;
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === "string") : [];
  return { argv: [entry.command, ...args], env };
}

/** verdict's MCP entry in a TOML host file (the `[mcp_servers.verdict]` table install writes). */
export function tomlMcpEntry(text: string): McpEntry | null {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^\s*\[\s*mcp_servers\s*\.\s*("verdict"|verdict)\s*\]/.test(l));
  if (start === -1) return null;
  let command: string | null = null;
  let args: string[] = [];
  let env: Record<string, string> = {};
  for (const raw of lines.slice(start + 1)) {
    const line = raw.replace(/\r$/, "");
    if (/^\s*\[/.test(line)) break;
    const m = /^\s*([A-Za-z_]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (!m) continue;
    try {
      if (m[1] === "command") command = JSON.parse(m[2]!);
      else if (m[1] === "args") args = JSON.parse(m[2]!);
      else if (m[1] === "env") {
        env = Object.fromEntries(
          [...m[2]!.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("(?:[^"\\]|\\.)*")/g)].map((
            e,
          ) => [e[1]!, JSON.parse(e[2]!)]),
        );
      }
    } catch {
      return null;
    }
  }
  return command === null ? null : { argv: [command, ...args], env };
}

/** Asks a stdio MCP server for its tools: initialize, initialized, tools/list. */
async function listTools(entry: McpEntry, env: WiringEnv): Promise<{ tools: string[] } | { error: string }> {
  const requests = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "verdict-doctor", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
  ];
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(entry.argv[0]!, {
      args: entry.argv.slice(1),
      env: launcherEnv(env, entry.env),
      clearEnv: true,
      cwd: env.home,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (err) {
    return { error: `${entry.argv[0]} could not start: ${reason(err)}` };
  }
  const writer = child.stdin.getWriter();
  const enc = new TextEncoder();
  const stderr = new Response(child.stderr).text();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ error: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ error: `no tools/list answer within ${WIRING_TIMEOUT_MS / 1000} s` }),
      WIRING_TIMEOUT_MS,
    );
  });
  const exchange = (async (): Promise<{ tools: string[] } | { error: string }> => {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    const answer = async (id: number): Promise<Record<string, unknown> | null> => {
      for (;;) {
        const nl = buffered.indexOf("\n");
        if (nl !== -1) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          try {
            const msg = JSON.parse(line) as Record<string, unknown>;
            if (msg.id === id) return msg;
          } catch { /* not a message of ours */ }
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffered += value;
      }
    };
    await writer.write(enc.encode(JSON.stringify(requests[0]) + "\n"));
    const init = await answer(1);
    if (init === null) return { error: "the server ended before it answered initialize" };
    if (init.error) return { error: `initialize failed: ${JSON.stringify(init.error)}` };
    await writer.write(enc.encode(JSON.stringify(requests[1]) + "\n" + JSON.stringify(requests[2]) + "\n"));
    const list = await answer(2);
    reader.cancel().catch(() => {});
    if (list === null) return { error: "the server ended before it answered tools/list" };
    const tools = (list.result as { tools?: { name?: unknown }[] } | undefined)?.tools;
    if (!Array.isArray(tools)) {
      return { error: `tools/list gave no tools: ${JSON.stringify(list.error ?? list.result)}` };
    }
    return { tools: tools.map((t) => String(t.name)) };
  })().catch((err) => ({ error: reason(err) }));
  const result = await Promise.race([exchange, timeout]);
  clearTimeout(timer);
  await writer.close().catch(() => {});
  try {
    child.kill("SIGTERM");
  } catch { /* ended */ }
  await child.status;
  const said = firstLine(await stderr);
  if ("error" in result && said) return { error: `${result.error} (stderr: ${said})` };
  return result;
}

async function mcpRunCheck(w: WiringAgent, env: WiringEnv, fix: string): Promise<Check | null> {
  let entry: McpEntry | null = null;
  let where = "";
  for (const hostFile of w.agent.hostFiles) {
    if (!hostFile.mcpState) continue;
    const path = w.files.find((f) => f.role === hostFile.role)?.path;
    if (!path) continue;
    try {
      const text = await readOrNull(path);
      if (text === null || hostFile.mcpState(text, path) !== "ours") continue;
      entry = path.endsWith(".toml") ? tomlMcpEntry(text) : jsonMcpEntry(parseJsonc(text));
      where = path;
    } catch {
      continue; // fileChecks and the mcp check name a file that does not parse
    }
    if (entry) break;
  }
  if (entry === null) return null;
  const how = `the MCP server in ${where}, started as ${w.agent.label} starts it (PATH=${LAUNCHER_PATH})`;
  const listed = await listTools(entry, env);
  if ("error" in listed) {
    return check("mcp run", "fail", `${how} did not list its tools: ${listed.error}`, fix);
  }
  if (listed.tools.length === 0) return check("mcp run", "fail", `${how} lists no tools`, fix);
  return check("mcp run", "ok", `${how} lists ${listed.tools.length} tools (${listed.tools.join(", ")})`);
}

/**
 * Each present agent's wiring checks, ids without the agent (doctor prefixes them): "files",
 * "hook run", "mcp run". An agent with nothing of verdict's installed gets none: its own hook
 * check and the mcp check already say so.
 */
export async function wiringChecks(
  agents: readonly WiringAgent[],
  env: WiringEnv,
): Promise<{ agent: string; checks: Check[] }[]> {
  const out: { agent: string; checks: Check[] }[] = [];
  for (const w of agents) {
    if (!w.present) continue;
    const fix =
      `run verdict install --${w.agent.id} with the verdict you use (it wires an absolute command), then verdict doctor`;
    const checks = [...await fileChecks(w)];
    const hook = await hookRunCheck(w, env, fix);
    if (hook) checks.push(hook);
    const mcp = await mcpRunCheck(w, env, fix);
    if (mcp) checks.push(mcp);
    out.push({ agent: w.agent.id, checks });
  }
  return out;
}
