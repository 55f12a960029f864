/**
 * `deno task demo [words…]`: the main job end to end. With Claude Code or Codex history on this
 * machine it collects it into the default records file; without any, it collects the bundled
 * examples/ into a temp file. Then it runs a look-up and prints it.
 */
import { MAIN_TS, verdictRunFlags } from "./task_flags.ts";

const EXAMPLES = new URL("../examples/", import.meta.url).pathname;
const DEFAULT_QUERY = "which database and backups did we decide on";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function verdict(args: string[], env: Record<string, string>): Promise<number> {
  console.error(`$ verdict ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")}`);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...verdictRunFlags(), MAIN_TS, ...args],
    env,
    stdin: "null",
  }).spawn();
  return (await child.status).code;
}

const home = Deno.env.get("HOME") ?? "";
const claudeDir = Deno.env.get("CLAUDE_CONFIG_DIR") ?? `${home}/.claude`;
const codexDir = Deno.env.get("CODEX_HOME") ?? `${home}/.codex`;
const hasHistory = (await exists(`${claudeDir}/projects`)) || (await exists(`${codexDir}/sessions`));
const query = Deno.args.length > 0 ? Deno.args.join(" ") : DEFAULT_QUERY;

let env: Record<string, string> = {};
if (hasHistory) {
  console.error("demo: collecting your Claude Code / Codex history into the default records file");
} else {
  const tmp = await Deno.makeTempDir({ prefix: "verdict-demo-" });
  console.error(`demo: no Claude Code or Codex history here; using the bundled examples (records in ${tmp})`);
  env = {
    CLAUDE_CONFIG_DIR: `${EXAMPLES}claude`,
    CODEX_HOME: `${EXAMPLES}codex`,
    VERDICT_CONFIG: `${EXAMPLES}config.example.jsonc`,
    VERDICT_RECORDS: `${tmp}/records.jsonl`,
  };
}
let code = await verdict(["collect"], env);
if (code === 0) code = await verdict(["recall", "--top", "3", query], env);
Deno.exit(code);
