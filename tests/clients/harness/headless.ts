/**
 * An agent CLI run once, non-interactively (`claude -p`, `codex exec`, `opencode run`…), in the
 * workspace's project: stdin closed, nothing inherited but the environment given, output
 * captured, and a generous overall timeout (the client tests share loaded machines).
 */
import type { Workspace } from "./workspace.ts";

export interface HeadlessResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The longest one headless run may take. */
export const HEADLESS_MS = 120_000;

/** Runs `argv` (the binary first) in the workspace's project, its own tmp folder made first. */
export async function runHeadless(
  ws: Workspace,
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<HeadlessResult> {
  await Deno.mkdir(`${ws.root}/tmp`, { recursive: true });
  const out = await new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    cwd: ws.project,
    env: { ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(HEADLESS_MS),
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
