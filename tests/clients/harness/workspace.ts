/**
 * A private world for one client scenario: a temp folder holding a HOME, a git project (the
 * agent's cwd), a bin folder with a `verdict` that runs this checkout, and the environment
 * that confines everything to them. Set VERDICT_TEST_KEEP=1 to keep the folder after a run
 * (its path is printed) and look at what the agent wrote.
 *
 * That `verdict` also notes every `verdict hook …` the agent runs (when, how long, its exit
 * status) in `hooks.log`, so a test whose hint did not arrive can say whether the hook ran and
 * whether it overran its own deadline (it prints nothing past HOOK_DEADLINE_MS, by design).
 */
import { type CliResult, denoDir, exportedRecords, GENEROUS_HOOK_DEADLINE_MS } from "../../cli_helper.ts";
import { verdictWrapper } from "../../install/_world.ts";
import type { Check } from "../../../src/hostfile/checks.ts";

/** Commit identity and time of the project's first commit (fixed: the tree is the same every run). */
const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "Dev",
  GIT_AUTHOR_EMAIL: "dev@example.com",
  GIT_COMMITTER_NAME: "Dev",
  GIT_COMMITTER_EMAIL: "dev@example.com",
  GIT_AUTHOR_DATE: "2026-01-05T10:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-05T10:00:00Z",
};

export class Workspace {
  /** The temp folder holding everything below. */
  readonly root: string;
  /** $HOME of every program run here. */
  readonly home: string;
  /** A git repository with one commit: the agent's working directory. */
  readonly project: string;
  /** Holds `verdict` (this checkout's CLI); first on PATH. */
  readonly bin: string;
  /** `verdict` in `bin`: what install wires into the agent (VERDICT_BIN). */
  readonly verdictBin: string;
  /** One line per `verdict hook …` run: start and end (ms since the epoch), exit status, arguments. */
  readonly hookLog: string;
  /** The hooks may start and ask the warm helper (off unless a test is about it). */
  warm = false;
  /**
   * verdict as a newcomer has it from a clone: no VERDICT_BIN and no `verdict` on the agent's
   * PATH. `verdict install` (still started through `bin/verdict`, a `deno run` of this checkout)
   * then wires the launcher it writes under the data folder, and the agent must reach verdict
   * through that absolute command alone (no hook log is kept then: the launcher is install's).
   */
  fromSource = false;

  private constructor(root: string, verdictBin: string) {
    this.root = root;
    this.home = `${root}/home`;
    this.project = `${root}/project`;
    this.bin = `${root}/bin`;
    this.verdictBin = verdictBin;
    this.hookLog = `${root}/hooks.log`;
  }

  static async create(name: string): Promise<Workspace> {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: `verdict-client-${name}-` }));
    await Deno.mkdir(`${root}/home`, { recursive: true });
    await Deno.mkdir(`${root}/project`, { recursive: true });
    const verdictBin = await loggingWrapper(
      `${root}/bin`,
      await verdictWrapper(`${root}/libexec`),
      `${root}/hooks.log`,
    );
    const ws = new Workspace(root, verdictBin);
    await Deno.writeTextFile(`${ws.project}/README.md`, "# demo app\n");
    await Deno.writeTextFile(`${ws.project}/package.json`, '{ "name": "demo", "version": "1.0.0" }\n');
    await ws.git(["init", "-q", "-b", "main"]);
    await ws.git(["add", "."]);
    await ws.git(["commit", "-q", "-m", "init"]);
    return ws;
  }

  /**
   * The environment of every program run here: HOME and the XDG folders inside the workspace,
   * a fixed locale and time zone, this checkout's `verdict` first on PATH, plus `extra`.
   */
  env(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
    const path = Deno.env.get("PATH") ?? "/usr/bin:/bin";
    return {
      HOME: this.home,
      PATH: this.fromSource ? withoutVerdict(path) : `${this.bin}:${path}`,
      USER: "dev",
      SHELL: "/bin/bash",
      LANG: "C.UTF-8",
      TZ: "UTC",
      TERM: "xterm-256color",
      TMPDIR: `${this.root}/tmp`,
      XDG_CONFIG_HOME: `${this.home}/.config`,
      XDG_DATA_HOME: `${this.home}/.local/share`,
      XDG_STATE_HOME: `${this.home}/.local/state`,
      XDG_CACHE_HOME: `${this.home}/.cache`,
      DENO_DIR: denoDir(),
      ...(this.fromSource ? {} : { VERDICT_BIN: this.verdictBin }),
      // The hooks the agent CLIs run use no warm helper unless a test turns it on (`warm`).
      VERDICT_WARM: this.warm ? "on" : "off",
      // A loaded machine must not turn the hint into silence (the deadline's own tests inject
      // the clock: tests/hint/hook_trouble_test.ts).
      VERDICT_HOOK_DEADLINE_MS: GENEROUS_HOOK_DEADLINE_MS,
      ...extra,
    };
  }

  /** Runs git in the project with a fixed identity. */
  async git(args: readonly string[]): Promise<string> {
    const out = await new Deno.Command("git", {
      args: ["-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", ...args],
      cwd: this.project,
      env: { ...this.env(), ...GIT_IDENTITY },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    if (!out.success) throw new Error(`Cannot run "git ${args.join(" ")}": ${dec.decode(out.stderr)}`);
    return dec.decode(out.stdout);
  }

  /** Runs this checkout's `verdict` as the person would, in the project, in this workspace's env. */
  async verdict(
    args: readonly string[],
    opts: { env?: Record<string, string>; stdin?: string } = {},
  ): Promise<CliResult> {
    await Deno.mkdir(`${this.root}/tmp`, { recursive: true });
    const child = new Deno.Command(this.verdictBin, {
      args: [...args],
      cwd: this.project,
      env: this.env({ NO_COLOR: "1", ...opts.env }),
      clearEnv: true,
      stdin: opts.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    if (opts.stdin !== undefined) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(opts.stdin));
      await w.close();
    }
    const out = await child.output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  }

  /** Like `verdict` but throws (with both streams) unless it exits 0. */
  async verdictOk(args: readonly string[], opts: { env?: Record<string, string> } = {}): Promise<CliResult> {
    const r = await this.verdict(args, opts);
    if (r.code !== 0) {
      throw new Error(
        `"verdict ${args.join(" ")}" exited ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`,
      );
    }
    return r;
  }

  /** The program install wires: `bin/verdict`, or (fromSource) the launcher install writes. */
  get wiredBin(): string {
    return this.fromSource ? `${this.home}/.local/share/verdict/bin/verdict` : this.verdictBin;
  }

  /** The archive a default collect writes. */
  get records(): string {
    return `${this.home}/.local/share/verdict/records.db`;
  }

  /** The records the last collect wrote (parsed, as `verdict export` prints them), [] when none. */
  async readRecords(): Promise<Record<string, unknown>[]> {
    const text = await exportedRecords(this.records);
    return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  }

  /**
   * A whole collect with `include_headless` on, into a file of its own (the archive a default
   * collect keeps is left as it is); its records.
   */
  async collectIncludingHeadless(): Promise<Record<string, unknown>[]> {
    const config = `${this.root}/headless.json`;
    await Deno.writeTextFile(config, '{ "include_headless": true }\n');
    const out = `${this.root}/headless-records.db`;
    await this.verdictOk(["collect", "--full", "--out", out], { env: { VERDICT_CONFIG: config } });
    return (await exportedRecords(out)).split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  }

  /** `verdict doctor --json`'s checks, by id ("codex hooks", "opencode plugin"…). */
  async doctorChecks(): Promise<Record<string, Check>> {
    const r = await this.verdict(["doctor", "--json"]);
    const checks = JSON.parse(r.stdout).checks as Check[];
    return Object.fromEntries(checks.map((c) => [c.id, c]));
  }

  /** The names of the handoff files the PreCompact hook wrote ([] when it wrote none). */
  async handoffFiles(): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const e of Deno.readDir(`${this.home}/.local/state/verdict/handoff`)) names.push(e.name);
    } catch {
      // none written
    }
    return names;
  }

  /** The `verdict hook …` runs so far, in the order they ended. */
  async hookCalls(): Promise<HookCall[]> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.hookLog);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return [];
      throw err;
    }
    return text.split("\n").filter((l) => l.trim() !== "").map((line) => {
      const [start = "0", end = "0", code = "0", ...args] = line.split(" ");
      return {
        start: Number(start),
        ms: Number(end) - Number(start),
        code: Number(code),
        args: args.join(" "),
      };
    });
  }

  /** The hook runs as text for a failure message: "hook user-prompt --agent x: 812 ms, exit 0". */
  async hookReport(): Promise<string> {
    const calls = await this.hookCalls();
    if (calls.length === 0) return "the agent ran no verdict hook";
    return calls.map((c) => `${c.args}: ${c.ms} ms, exit ${c.code}`).join("\n");
  }

  /** Removes the folder, unless VERDICT_TEST_KEEP is set (then says where it is). */
  async dispose(): Promise<void> {
    if (Deno.env.get("VERDICT_TEST_KEEP")) {
      console.error(`client tests: kept ${this.root}`);
      return;
    }
    await Deno.remove(this.root, { recursive: true }).catch(() => {});
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

/** `path` without any folder holding a `verdict` (the agent must not find one by name). */
function withoutVerdict(path: string): string {
  return path.split(":").filter((dir) => {
    try {
      Deno.statSync(`${dir}/verdict`);
      return false;
    } catch {
      return true;
    }
  }).join(":");
}

/** One `verdict hook …` the agent ran. */
export interface HookCall {
  /** Start, ms since the epoch. */
  readonly start: number;
  /** Wall time of the whole process (the hook's own deadline counts from its start). */
  readonly ms: number;
  readonly code: number;
  /** Its arguments, space-joined ("hook user-prompt --agent gemini"). */
  readonly args: string;
}

/**
 * `dir/verdict`: runs `real` with the same arguments, stdin and stdout, and for `verdict hook …`
 * appends a line to `log`. Other commands are exec'd (the MCP server must be the process the
 * agent stops); a hook is short-lived, so the shell waits for it and then writes the line.
 */
async function loggingWrapper(dir: string, real: string, log: string): Promise<string> {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const path = `${dir}/verdict`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    path,
    [
      "#!/bin/sh",
      `[ "$1" = hook ] || exec ${q(real)} "$@"`,
      "start=$(date +%s%3N)",
      `${q(real)} "$@"`,
      "code=$?",
      `printf '%s %s %s %s\\n' "$start" "$(date +%s%3N)" "$code" "$*" >> ${q(log)}`,
      'exit "$code"',
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return path;
}

/** Every file under `dir` (relative paths, sorted), for "left no trace" comparisons. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string, rel: string) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...(await Array.fromAsync(Deno.readDir(d)))];
    } catch {
      return;
    }
    for (const e of entries) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory) await walk(`${d}/${e.name}`, r);
      else out.push(r);
    }
  }
  await walk(dir, "");
  return out.sort();
}
