/**
 * `deno task bench:collect [--gib N]`: collect throughput against a raw line-split baseline.
 *
 * Generates synthetic Claude Code and Codex transcripts (default 1 GiB: mostly large tool
 * results, ~2% typed prompts) in a temp HOME, then measures in the same run:
 *   - baseline: reading every file and splitting it into lines (no parsing), in this process;
 *   - full collect: the real CLI (`deno run` with the verdict task's flags), wall time and peak
 *     RSS (GNU time's maximum resident set size);
 *   - re-collect with nothing new.
 * Goals: collect within 3× the baseline, peak RSS under 300 MB, no-op re-collect under 0.5 s.
 */
import { readLines } from "../src/collect/lines.ts";
import { MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";
import { denoDir } from "../tests/cli_helper.ts";
import { taskArgs } from "../scripts/task_args.ts";
import { seededRandom } from "../scripts/seeded_random.ts";

taskArgs("bench:collect", import.meta.url, Deno.args, { values: ["--gib"] });

const GIB = Number(Deno.args[Deno.args.indexOf("--gib") + 1] ?? "1") || 1;
const TARGET_BYTES = GIB * 1024 * 1024 * 1024;
const FILE_BYTES = 8 * 1024 * 1024;

const WORDS = (
  "the a to of and in is for on with that this it be as are was by we use data file test run build " +
  "config error value return function const let import export async await string number type interface " +
  "database backup migration deploy service order payment queue cache redis postgres index query schema"
).split(" ");
const ZH = "数据库备份迁移部署服务订单支付队列缓存索引查询以后统一决定不要必须使用配置测试".split("");

function sentence(r: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]!);
  return out.join(" ");
}

function zhSentence(r: () => number, chars: number): string {
  let s = "";
  for (let i = 0; i < chars; i++) s += ZH[Math.floor(r() * ZH.length)]!;
  return s;
}

/** One Claude session file of about FILE_BYTES. */
function claudeSession(r: () => number, session: string, blob: string): string {
  const lines: string[] = [];
  let bytes = 0;
  let n = 0;
  const base = Date.parse("2026-01-01T00:00:00Z");
  while (bytes < FILE_BYTES) {
    n++;
    const ts = new Date(base + n * 1000).toISOString();
    const common = {
      sessionId: session,
      cwd: "/home/dev/proj",
      version: "2.1.100",
      entrypoint: "cli",
      timestamp: ts,
    };
    let line: string;
    const pick = r();
    if (pick < 0.02) {
      // ~2% of lines typed prompts among the user lines (by count); bytes are dominated by results.
      const text = r() < 0.3 ? zhSentence(r, 30) : `We decided to ${sentence(r, 14)}`;
      line = JSON.stringify({
        ...common,
        type: "user",
        uuid: `${session}-${n}`,
        message: { role: "user", content: text },
      });
    } else if (pick < 0.5) {
      line = JSON.stringify({
        ...common,
        type: "assistant",
        uuid: `${session}-${n}`,
        message: {
          role: "assistant",
          content: [{ type: "tool_use", id: `toolu_${n}`, name: "Bash", input: { command: sentence(r, 6) } }],
        },
      });
    } else {
      const start = Math.floor(r() * (blob.length - 200_000));
      const size = 20_000 + Math.floor(r() * 180_000);
      line = JSON.stringify({
        ...common,
        type: "user",
        uuid: `${session}-${n}`,
        toolUseResult: { stdout: "", stderr: "" },
        message: {
          role: "user",
          content: [{
            type: "tool_result",
            tool_use_id: `toolu_${n - 1}`,
            content: blob.slice(start, start + size),
          }],
        },
      });
    }
    lines.push(line);
    bytes += line.length + 1;
  }
  return lines.join("\n") + "\n";
}

function codexSession(r: () => number, session: string, blob: string): string {
  const lines: string[] = [
    JSON.stringify({
      timestamp: "2026-01-01T00:00:00Z",
      type: "session_meta",
      payload: {
        id: session,
        timestamp: "2026-01-01T00:00:00Z",
        cwd: "/home/dev/proj",
        originator: "codex_cli_rs",
        source: "cli",
      },
    }),
  ];
  let bytes = lines[0]!.length;
  let n = 0;
  while (bytes < FILE_BYTES) {
    n++;
    const ts = new Date(Date.parse("2026-01-01T00:00:00Z") + n * 1000).toISOString();
    let line: string;
    if (r() < 0.05) {
      line = JSON.stringify({
        timestamp: ts,
        type: "event_msg",
        payload: { type: "user_message", message: `From now on ${sentence(r, 12)}` },
      });
    } else {
      const start = Math.floor(r() * (blob.length - 200_000));
      line = JSON.stringify({
        timestamp: ts,
        type: "response_item",
        payload: {
          type: "function_call_output",
          call_id: `c${n}`,
          output: blob.slice(start, start + 50_000 + Math.floor(r() * 100_000)),
        },
      });
    }
    lines.push(line);
    bytes += line.length + 1;
  }
  return lines.join("\n") + "\n";
}

async function generate(home: string): Promise<{ files: string[]; bytes: number }> {
  const r = seededRandom(42);
  let blob = "";
  while (blob.length < 2_000_000) {
    blob += sentence(r, 20) + (r() < 0.1 ? "\n" + zhSentence(r, 20) : "") + "\n";
  }
  const files: string[] = [];
  let total = 0;
  let i = 0;
  while (total < TARGET_BYTES) {
    i++;
    const session = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const isCodex = i % 10 === 0;
    const path = isCodex
      ? `${home}/.codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-${session}.jsonl`
      : `${home}/.claude/projects/-home-dev-proj-${i % 20}/${session}.jsonl`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    const text = isCodex ? codexSession(r, session, blob) : claudeSession(r, session, blob);
    const bytes = new TextEncoder().encode(text);
    await Deno.writeFile(path, bytes);
    files.push(path);
    total += bytes.length;
  }
  return { files, bytes: total };
}

async function timedCollect(
  home: string,
  args: string[],
): Promise<{ seconds: number; rssMb: number; stderr: string }> {
  const t0 = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: [
      "-f",
      "maxrss_kb=%M",
      Deno.execPath(),
      "run",
      "--quiet",
      ...verdictRunFlags(),
      MAIN_TS,
      "collect",
      ...args,
    ],
    // Keep Deno's own cache: a temp HOME would otherwise move it and time a download.
    env: { HOME: home, DENO_DIR: denoDir() },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - t0) / 1000;
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`collect failed: ${stderr}`);
  const rss = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? "0") / 1024;
  return { seconds, rssMb: rss, stderr };
}

const home = await Deno.makeTempDir({ prefix: "verdict-bench-collect-" });
try {
  console.log(`bench:collect: generating ${GIB} GiB of synthetic transcripts in ${home} …`);
  const { files, bytes } = await generate(home);
  const mb = bytes / 1024 / 1024;

  let lines = 0;
  const t0 = performance.now();
  for (const f of files) await readLines(f, 0, 0, () => lines++);
  const baseline = (performance.now() - t0) / 1000;

  const full = await timedCollect(home, []);
  const noop = await timedCollect(home, []);
  const summary = /collect: .*/.exec(full.stderr)?.[0] ?? "";

  console.log(`files: ${files.length}, ${mb.toFixed(0)} MiB, ${lines} lines`);
  console.log(
    `baseline (read + split lines, in-process): ${baseline.toFixed(2)} s, ${
      (mb / baseline).toFixed(0)
    } MiB/s`,
  );
  console.log(
    `full collect (CLI, end to end):            ${full.seconds.toFixed(2)} s, ${
      (mb / full.seconds).toFixed(0)
    } MiB/s`,
  );
  console.log(
    `ratio collect / baseline:                  ${(full.seconds / baseline).toFixed(2)}× (goal ≤ 3×)`,
  );
  console.log(`peak RSS of collect:                       ${full.rssMb.toFixed(0)} MB (goal < 300 MB)`);
  console.log(
    `re-collect, nothing new:                   ${noop.seconds.toFixed(3)} s (goal < 0.5 s), peak RSS ${
      noop.rssMb.toFixed(0)
    } MB`,
  );
  console.log(summary);
} finally {
  await Deno.remove(home, { recursive: true });
}
