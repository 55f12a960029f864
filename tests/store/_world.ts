/**
 * A temp HOME holding the bundled examples (Claude Code, Codex, docs), collected once, for the
 * store's CLI tests; and the hint's answer to a prompt that quotes an earlier decision.
 */
import assert from "node:assert/strict";
import { copyTree, runCli, tempHome } from "../cli_helper.ts";

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
export const AS_OF = "2026-03-05T00:00:00Z";
export const CONTRADICTION = "let us switch the orders db to MySQL and drop the pg_dump backups";

export interface World {
  readonly home: string;
  readonly env: Record<string, string>;
  /** The default records path (the archive's database). */
  readonly records: string;
  readonly dir: string;
}

/** The examples in a fresh HOME; collected unless `collect` is false. */
export async function world(collect = true): Promise<World> {
  const home = await tempHome();
  await copyTree(`${EXAMPLES}claude`, `${home}/.claude`);
  await copyTree(`${EXAMPLES}codex`, `${home}/.codex`);
  await copyTree(`${EXAMPLES}docs`, `${home}/docs`);
  await Deno.mkdir(`${home}/.config/verdict`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.config/verdict/config.json`,
    JSON.stringify({ doc_roots: [`${home}/docs`] }),
  );
  const dir = `${home}/.local/share/verdict`;
  const w = {
    home,
    env: { HOME: home, VERDICT_ASOF: AS_OF, VERDICT_SEEN: "" },
    records: `${dir}/records.db`,
    dir,
  };
  if (collect) {
    const r = await runCli(["collect"], { env: w.env });
    assert.equal(r.code, 0, r.stderr);
  }
  return w;
}

/** The hook's and `hint --explain`'s answers to CONTRADICTION (stdout and stderr of both). */
export async function hintAnswers(w: World): Promise<string> {
  const stdin = JSON.stringify({ session_id: "live-1", cwd: "/home/dev/shop", prompt: CONTRADICTION });
  const hook = await runCli(["hook", "user-prompt"], { env: w.env, stdin });
  const explain = await runCli(["hint", "--explain"], { env: w.env, stdin });
  assert.equal(hook.code, 0, hook.stderr);
  return `hook:\n${hook.stdout}${hook.stderr}\nhint:\n${explain.code}\n${explain.stdout}${explain.stderr}`;
}

export async function sha256File(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
