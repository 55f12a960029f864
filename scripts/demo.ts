/**
 * `deno task demo [words…]`: the main job end to end. With any supported agent's sessions on this
 * machine (a session folder or database of one of the registered agents exists) it collects them
 * into the default archive; without any, it collects the bundled examples/ into a temp folder.
 * It says what it reads before it starts and that it is still at it while collect runs, then
 * looks up a recent decision it finds in that archive the way a new prompt about it would (the
 * words given, when any; the bundled examples' question when the archive holds no decision).
 */
import { sessionRoots } from "../src/agents/locate.ts";
import { AGENTS, andList, orList } from "../src/agents/registry.ts";
import { loadAgents } from "../src/agents/loaded.ts";
import type { SessionRoot } from "../src/config/roots.ts";
import { statementDecision } from "../src/rank/markers.ts";
import { MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";
import { taskArgs } from "./task_args.ts";

const EXAMPLES = new URL("../examples/", import.meta.url).pathname;
/** The look-up when the archive holds no decision to find (the bundled examples' own question). */
export const DEFAULT_QUERY = "which database and backups did we decide on";
/** Seconds between "still collecting" lines. */
const HEARTBEAT_S = 3;
/** A decision is looked for among this many of the archive's newest records. */
const RECENT_RECORDS = 2000;

function say(line: string): void {
  console.error(`demo: ${line}`);
}

function commandLine(args: readonly string[]): string {
  return args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ");
}

function spawnVerdict(args: string[], env: Record<string, string>, stdout: "inherit" | "piped") {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, ...args],
    env,
    stdin: "null",
    stdout,
  }).spawn();
}

/** Runs verdict with its output shown; while it runs, a line every HEARTBEAT_S seconds. */
async function verdict(args: string[], env: Record<string, string>, what: string): Promise<number> {
  console.error(`$ verdict ${commandLine(args)}`);
  const start = performance.now();
  const child = spawnVerdict(args, env, "inherit");
  const beat = setInterval(() => {
    say(`still ${what}… ${Math.round((performance.now() - start) / 1000)} s`);
  }, HEARTBEAT_S * 1000);
  try {
    return (await child.status).code;
  } finally {
    clearInterval(beat);
  }
}

/** How many session files a root holds (a folder's `*.jsonl`, at any depth; a file or store is one). */
async function sessionFiles(root: SessionRoot): Promise<number> {
  if (root.layout !== "dir") return 1;
  let n = 0;
  const walk = async (dir: string): Promise<void> => {
    try {
      for await (const e of Deno.readDir(dir)) {
        if (e.isDirectory) await walk(`${dir}/${e.name}`);
        else if (e.isFile && e.name.endsWith(".jsonl")) n++;
      }
    } catch {
      // an unreadable folder: collect says so
    }
  };
  await walk(root.path);
  return n;
}

interface Exported {
  readonly kind?: unknown;
  readonly time?: unknown;
  readonly text?: unknown;
}

/** The first sentence of `text` that states a decision, or null. */
function decisionIn(text: string): string | null {
  for (const raw of text.split(/(?<=[.!。！])\s+|\n+/)) {
    const s = raw.trim();
    if (s.length >= 12 && s.length <= 300 && statementDecision(s) !== null) return s;
  }
  return null;
}

/**
 * A new prompt about `decision`: its longest distinct words (a person asking again names the
 * things, not the whole sentence); CJK text, which has no spaces, is kept whole up to 24 characters.
 */
export function promptAbout(decision: string): string {
  const words = decision.match(/[\p{L}\p{N}][\p{L}\p{N}_.+#-]*/gu) ?? [];
  const latin = words.filter((w) => !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(w));
  if (latin.length < 3) return [...decision].slice(0, 24).join("");
  const distinct = [...new Set(latin.map((w) => w.replace(/[.]+$/, "")))];
  const picked = [...distinct].sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, 5);
  return distinct.filter((w) => picked.includes(w)).join(" ");
}

/** The newest decision among the archive's prompts and notes: its time, kind and sentence. */
async function recentDecision(
  env: Record<string, string>,
): Promise<{ time: string; kind: string; decision: string } | null> {
  const child = spawnVerdict(["export"], env, "piped");
  const text = new TextDecoder().decode((await child.output()).stdout);
  const records: { time: string; kind: string; text: string }[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const r = JSON.parse(line) as Exported;
      if (
        (r.kind === "prompt" || r.kind === "note") && typeof r.text === "string" && typeof r.time === "string"
      ) {
        records.push({ time: r.time, kind: r.kind, text: r.text });
      }
    } catch {
      // not a record
    }
  }
  records.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
  for (const r of records.slice(0, RECENT_RECORDS)) {
    const decision = decisionIn(r.text);
    if (decision) return { time: r.time, kind: r.kind, decision };
  }
  return null;
}

if (import.meta.main) {
  taskArgs("demo", import.meta.url, Deno.args, { freeText: true });
  const home = Deno.env.get("HOME") ?? "";
  const at = { env: Deno.env.toObject(), home, cwd: Deno.cwd() };
  const agents = await loadAgents();
  // The session roots that exist here, in registry order (what collect would read).
  const roots = await sessionRoots(agents, at, () => true);
  const found = new Set(roots.map((r) => r.agent));
  const labels = AGENTS.filter((a) => found.has(a.id)).map((a) => a.label);

  let env: Record<string, string> = {};
  if (labels.length > 0) {
    say(`collecting your ${andList(labels)} history into the default archive`);
    for (const root of roots) {
      const label = AGENTS.find((a) => a.id === root.agent)?.label ?? root.agent;
      const n = await sessionFiles(root);
      say(
        `  ${label}: ${root.path} (${n} ${
          root.layout === "dir" ? `session file${n === 1 ? "" : "s"}` : "file"
        })`,
      );
    }
    say(
      "a first collect reads everything once (a large history takes a while); later ones read only what is new",
    );
  } else {
    const tmp = await Deno.makeTempDir({ prefix: "verdict-demo-" });
    say(
      `no ${orList(AGENTS.map((a) => a.label))} history here; using the bundled examples (archive in ${tmp})`,
    );
    env = {
      CLAUDE_CONFIG_DIR: `${EXAMPLES}claude`,
      CODEX_HOME: `${EXAMPLES}codex`,
      VERDICT_CONFIG: `${EXAMPLES}config.example.jsonc`,
      VERDICT_RECORDS: `${tmp}/records.db`,
    };
  }
  let code = await verdict(["collect"], env, "collecting");
  if (code === 0) {
    let query = Deno.args.join(" ");
    if (query === "") {
      const found = await recentDecision(env);
      if (found) {
        say(
          `a recent decision in the archive (${found.time.slice(0, 10)}, ${found.kind}): "${found.decision}"`,
        );
        query = promptAbout(found.decision);
        say(`looking it up as a new prompt about it would: "${query}"`);
      } else {
        query = DEFAULT_QUERY;
        say(`no decision found in the archive; looking up the examples' question instead`);
      }
    }
    code = await verdict(["recall", "--top", "3", query], env, "looking up");
  }
  Deno.exit(code);
}
