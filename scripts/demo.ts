/**
 * `deno task demo [words…]`: the main job end to end. With any supported agent's sessions on this
 * machine (a session folder or database of one of the registered agents exists) it collects them
 * into the default archive; without any, it collects the bundled examples/ into a temp folder.
 * Then it runs a look-up and prints it.
 */
import { sessionRoots } from "../src/agents/locate.ts";
import { AGENTS, andList, orList } from "../src/agents/registry.ts";
import { loadAgents } from "../src/agents/loaded.ts";
import { MAIN_TS, verdictRunFlags } from "../src/task_flags.ts";

const EXAMPLES = new URL("../examples/", import.meta.url).pathname;
const DEFAULT_QUERY = "which database and backups did we decide on";

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
const at = { env: Deno.env.toObject(), home, cwd: Deno.cwd() };
// The agents whose session roots exist here, in registry order (what collect would read).
const found = new Set((await sessionRoots(await loadAgents(), at, () => true)).map((r) => r.agent));
const labels = AGENTS.filter((a) => found.has(a.id)).map((a) => a.label);
const query = Deno.args.length > 0 ? Deno.args.join(" ") : DEFAULT_QUERY;

let env: Record<string, string> = {};
if (labels.length > 0) {
  console.error(`demo: collecting your ${andList(labels)} history into the default archive`);
} else {
  const tmp = await Deno.makeTempDir({ prefix: "verdict-demo-" });
  console.error(
    `demo: no ${
      orList(AGENTS.map((a) => a.label))
    } history here; using the bundled examples (archive in ${tmp})`,
  );
  env = {
    CLAUDE_CONFIG_DIR: `${EXAMPLES}claude`,
    CODEX_HOME: `${EXAMPLES}codex`,
    VERDICT_CONFIG: `${EXAMPLES}config.example.jsonc`,
    VERDICT_RECORDS: `${tmp}/records.db`,
  };
}
let code = await verdict(["collect"], env);
if (code === 0) code = await verdict(["recall", "--top", "3", query], env);
Deno.exit(code);
