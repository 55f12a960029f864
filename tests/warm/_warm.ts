/**
 * What the warm helper's tests share: a temp HOME with collected records, a real `verdict warm
 * serve` child started and stopped by the test, and raw frames spoken to it once the handshake
 * is done (src/warm/handshake.ts).
 */
import assert from "node:assert/strict";
import { copyTree, denoDir, runCli, tempHome } from "../cli_helper.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { buildIdentity, encodeFrame, readFrame, WARM_PROTOCOL } from "../../src/warm/wire.ts";
import { connectToHelper, WARM_ADDRESS } from "../../src/warm/handshake.ts";
import { writeAll } from "../../src/fsutil/bytes.ts";

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;

/** The example histories collected into a fresh HOME; returns the env every run uses. */
export async function warmWorld(
  config: Record<string, unknown> = {},
  shortPath = false,
): Promise<Record<string, string>> {
  // A short path: a world of its own under /tmp, as the tests that start helpers by hooks had.
  const home = shortPath
    ? await Deno.realPath(await Deno.makeTempDir({ dir: "/tmp", prefix: "vw-" }))
    : await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  await copyTree(`${EXAMPLES}codex`, `${home}/.codex`);
  await Deno.mkdir(`${home}/.config/verdict`, { recursive: true });
  await Deno.writeTextFile(`${home}/.config/verdict/config.json`, JSON.stringify(config));
  const env = { HOME: home };
  const r = await runCli(["collect"], { env });
  assert.equal(r.code, 0, r.stderr);
  return env;
}

/** The helper's address file for a world (port and secret, in its private folder). */
export function addressOf(env: Record<string, string>): string {
  return `${folderOf(env)}/${WARM_ADDRESS}`;
}

export function folderOf(env: Record<string, string>): string {
  return `${env.HOME}/.local/state/verdict/warm`;
}

export const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);

export async function until(
  check: () => Promise<boolean> | boolean,
  ms: number,
  what: string,
): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Is a process with this pid alive (and not a zombie)? */
export async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

export interface Helper {
  readonly child: Deno.ChildProcess;
  readonly output: Promise<Deno.CommandOutput>;
  /** Stops it (warm stop, then SIGKILL if it lingers) and waits for its exit. */
  stop(): Promise<Deno.CommandOutput>;
}

/** Starts `verdict warm serve` in the foreground and waits until it answers. */
export async function startHelper(env: Record<string, string>): Promise<Helper> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, "warm", "serve"],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
      VERDICT_WARM_LOG: "1",
      ...env,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  let ended = false;
  output.then(() => ended = true, () => ended = true);
  await until(
    async () => ended || (await exists(addressOf(env)) && (await frame(env, { op: "status" })) !== null),
    30_000,
    "the helper to listen",
  );
  if (ended) {
    const out = await output;
    throw new Error(`the helper ended at once: ${new TextDecoder().decode(out.stderr)}`);
  }
  return {
    child,
    output,
    async stop() {
      await runCli(["warm", "stop"], { env });
      const guard = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 10_000);
      try {
        return await output;
      } finally {
        clearTimeout(guard);
      }
    },
  };
}

/** The identity this checkout's client sends (the same deno, the same main.ts). */
export const BUILD = buildIdentity(Deno.execPath());

/**
 * Sends one request frame (fields over a well-formed hint request) and returns the answer's
 * header and body, or null when the connection gave no answer.
 */
export async function frame(
  env: Record<string, string>,
  fields: Record<string, unknown> = {},
  body: Uint8Array = new Uint8Array(),
): Promise<{ header: Record<string, unknown>; body: string } | null> {
  return await raw(addressOf(env), hintRequest(env, fields, body));
}

/** The bytes of a hint request as the client sends them, `fields` replacing the client's. */
export function hintRequest(
  env: Record<string, string>,
  fields: Record<string, unknown> = {},
  body: Uint8Array = new Uint8Array(),
): Uint8Array {
  return encodeFrame({
    protocol: WARM_PROTOCOL,
    build: BUILD,
    op: "hint",
    argv: ["hook", "user-prompt"],
    env: { HOME: env.HOME },
    cwd: "/",
    elapsedMs: 0,
    bodyBytes: body.length,
    ...fields,
  }, body);
}

/**
 * Connects to the helper of an address file and proves the secret (as the client does), writes
 * `bytes`, then reads one answer frame (null when none came).
 */
export async function raw(
  address: string,
  bytes: Uint8Array,
): Promise<{ header: Record<string, unknown>; body: string } | null> {
  const connecting = await connectToHelper(address, Deno.uid());
  if (connecting.kind !== "connected") return null;
  const { conn, proof } = connecting;
  try {
    await writeAll(conn, proof);
    await writeAll(conn, bytes);
    const answer = await readFrame(conn, 8 * 1024 * 1024);
    return { header: answer.header, body: new TextDecoder().decode(answer.body) };
  } catch {
    return null;
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

/** Prompts answered so far, as `verdict warm status` would say. */
export async function answered(env: Record<string, string>): Promise<number> {
  const s = await frame(env, { op: "status" });
  return (s?.header.status as { requests: number } | undefined)?.requests ?? -1;
}

/** Removes the world; a helper still running sees its folder go and ends. */
export async function removeWorld(env: Record<string, string>): Promise<void> {
  await Deno.remove(env.HOME!, { recursive: true }).catch(() => {});
}

/** A prompt the example archive's decisions bear on (it fires). */
export const CONTRADICTION = "let us switch the orders db to MySQL and drop the pg_dump backups";

/** The switch's two settings, as a test's env sets them. */
export const ON = { VERDICT_WARM: "on" };
export const OFF = { VERDICT_WARM: "off" };

/** A Claude Code UserPromptSubmit input. */
export const claudeJson = (prompt: string, session: string, cwd = "/home/dev/shop") =>
  JSON.stringify({
    session_id: session,
    transcript_path: "/nowhere.jsonl",
    cwd,
    hook_event_name: "UserPromptSubmit",
    prompt,
  });

/** Prompts that fire and prompts that stay silent, in the dialects of several agents. */
export const CASES: { name: string; argv: string[]; stdin: (session: string) => string }[] = [
  { name: "claude, fires", argv: [], stdin: (s) => claudeJson(CONTRADICTION, s) },
  { name: "claude, small talk", argv: [], stdin: (s) => claudeJson("thanks, that works now!", s) },
  {
    name: "claude, unrelated",
    argv: [],
    stdin: (s) => claudeJson("rename the button label on the login page", s),
  },
  {
    name: "claude, a credential in the prompt",
    argv: [],
    stdin: (s) => claudeJson(`${CONTRADICTION} with password=hunter2hunter2`, s),
  },
  { name: "claude, not JSON", argv: [], stdin: () => "not json at all" },
  {
    name: "gemini, fires",
    argv: ["--agent", "gemini"],
    stdin: (s) =>
      JSON.stringify({
        session_id: s,
        transcript_path: "/nowhere.jsonl",
        cwd: "/home/dev/shop",
        hook_event_name: "BeforeAgent",
        timestamp: "2026-03-05T00:00:00.000Z",
        prompt: `<hook_context>another tool's SessionStart text</hook_context>\n\n${CONTRADICTION}`,
      }),
  },
  {
    name: "copilot, fires",
    argv: ["--agent=copilot"],
    stdin: (s) =>
      JSON.stringify({
        sessionId: s,
        timestamp: 1796111274164,
        cwd: "/home/dev/shop",
        prompt: CONTRADICTION,
      }),
  },
  { name: "codex, fires", argv: ["--agent", "codex"], stdin: (s) => claudeJson(CONTRADICTION, s) },
  { name: "qwen, silent", argv: ["--agent", "qwen"], stdin: (s) => claudeJson("good morning", s) },
  {
    name: "an agent with no prompt hook",
    argv: ["--agent", "nobody"],
    stdin: (s) => claudeJson(CONTRADICTION, s),
  },
];

/** The port in a world's address file (the helper's), or null when there is none. */
export function portOf(env: Record<string, string>): number | null {
  try {
    const m = /^verdict-warm \d+ (\d+) /.exec(Deno.readTextFileSync(addressOf(env)));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * A connection to a world's helper on which the handshake is done and the client's proof sent,
 * as the client leaves it before it writes its request.
 */
export async function provedConn(env: Record<string, string>): Promise<Deno.TcpConn> {
  const connecting = await connectToHelper(addressOf(env), Deno.uid());
  if (connecting.kind !== "connected") throw new Error(`no helper to connect to: ${connecting.why}`);
  await writeAll(connecting.conn, connecting.proof);
  return connecting.conn;
}
