/**
 * Test helpers for the compaction judge: a synthetic Claude Code transcript builder (records
 * chained by uuid, shapes from FORMATS.md §1–2), real git repositories, and a real HTTP service
 * on 127.0.0.1.
 */
import { compileCredentialRules } from "../../src/record/secrets.ts";
import { DEFAULT_JUDGE, type JudgeConfig } from "../../src/config/config.ts";

export const CONFIG: JudgeConfig = { ...DEFAULT_JUDGE };

/** The built-in credential rules, which every build is given. */
export const RULES = compileCredentialRules([]);

type Rec = Record<string, unknown>;

export class TranscriptBuilder {
  readonly records: Rec[] = [];
  private last: string | null = null;
  private n = 0;
  constructor(readonly session = "s-test", readonly cwd = "/nonexistent/verdict-test/proj") {}

  push(rec: Rec, opts: { sidechain?: boolean; parent?: string | null } = {}): string {
    const uuid = `u-${++this.n}`;
    this.records.push({
      parentUuid: opts.parent !== undefined ? opts.parent : this.last,
      isSidechain: opts.sidechain ?? false,
      userType: "external",
      cwd: this.cwd,
      sessionId: this.session,
      version: "2.0.26",
      uuid,
      timestamp: `2026-01-01T00:00:${String(this.n % 60).padStart(2, "0")}.000Z`,
      ...rec,
    });
    if (!opts.sidechain) this.last = uuid;
    return uuid;
  }

  /** A prompt the person typed. */
  prompt(text: string): string {
    return this.push({
      type: "user",
      message: { role: "user", content: text },
      thinkingMetadata: { level: "none", disabled: true, triggers: [] },
    });
  }

  /** An assistant text turn. */
  say(text: string): string {
    return this.push({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "text", text }] },
    });
  }

  /** A tool call without a result (yet). Returns the tool_use id. */
  call(name: string, input: Rec): string {
    const id = `toolu_${this.n + 1}`;
    this.push({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
    });
    return id;
  }

  /** The result of a call. */
  result(id: string, opts: { ok?: boolean; structured?: unknown; text?: string } = {}): string {
    const ok = opts.ok ?? true;
    return this.push({
      type: "user",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: id,
          content: opts.text ?? (ok ? "done" : "Error: refused"),
          ...(ok ? {} : { is_error: true }),
        }],
      },
      toolUseResult: opts.structured ?? (ok ? { ok: true } : "Error: refused"),
    });
  }

  /** A call and its result. */
  tool(name: string, input: Rec, opts: { ok?: boolean; structured?: unknown; text?: string } = {}): string {
    const id = this.call(name, input);
    this.result(id, opts);
    return id;
  }

  interrupt(): string {
    return this.push({
      type: "user",
      message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] },
    });
  }

  text(): string {
    return this.records.map((r) => JSON.stringify(r)).join("\n") + "\n";
  }
}

/** Runs git in `dir` (a test's own repository); throws on failure. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, ...args],
    env: {
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.invalid",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.invalid",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (!out.success) throw new Error(`git ${args.join(" ")} failed: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

/** A real repository with one commit; returns its real path. */
export async function makeRepo(parent?: string): Promise<string> {
  const dir = parent ? `${parent}/repo` : await Deno.makeTempDir({ prefix: "verdict-repo-" });
  await Deno.mkdir(dir, { recursive: true });
  await git(dir, "init", "-q", "-b", "main");
  await Deno.writeTextFile(`${dir}/README.md`, "# repo\n");
  await Deno.writeTextFile(`${dir}/app.ts`, "export const a = 1;\n");
  await git(dir, "add", ".");
  await git(dir, "commit", "-q", "-m", "initial");
  return await Deno.realPath(dir);
}

export interface FakeService {
  readonly url: string;
  readonly requests: unknown[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (port 0) answering chat-completions requests with `content`
 * (a string, or a function of the request), or hanging until closed when `hang` is set.
 */
export function fakeService(
  content: string | ((req: unknown) => string),
  opts: { hang?: boolean; status?: number } = {},
): FakeService {
  const requests: unknown[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json();
    requests.push(body);
    if (opts.hang) {
      await held;
      return new Response("late", { status: 503 });
    }
    const text = typeof content === "function" ? content(body) : content;
    return Response.json(
      {
        id: "x",
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: text } }],
      },
      { status: opts.status ?? 200 },
    );
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}/v1/chat/completions`,
    requests,
    close: async () => {
      release();
      await server.shutdown();
    },
  };
}

/** A loopback URL where nothing listens (a port bound then released). */
export function deadUrl(): string {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return `http://127.0.0.1:${port}/v1/chat/completions`;
}
