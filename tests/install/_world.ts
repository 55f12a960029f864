/** Temp HOMEs for the install, schedule and doctor CLI tests. */
import { denoDir, tempHome } from "../cli_helper.ts";
import { MAIN_TS, verdictRunFlags } from "../../src/task_flags.ts";
import { fixture } from "./_golden.ts";

/** A HOME whose Claude Code and Codex files already hold other tools' settings. */
export async function homeWithHostFiles(): Promise<string> {
  const home = await tempHome();
  await Deno.mkdir(`${home}/.claude`, { recursive: true });
  await Deno.mkdir(`${home}/.codex`, { recursive: true });
  await Deno.writeTextFile(`${home}/.claude/settings.json`, fixture("claude/settings.before.json"));
  await Deno.writeTextFile(`${home}/.claude.json`, fixture("claude/claude.before.json"));
  await Deno.writeTextFile(`${home}/.codex/config.toml`, fixture("codex/config.before.toml"));
  return home;
}

/** The three host files of a HOME, by name. */
export function hostFiles(home: string): { settings: string; claudeJson: string; codex: string } {
  return {
    settings: `${home}/.claude/settings.json`,
    claudeJson: `${home}/.claude.json`,
    codex: `${home}/.codex/config.toml`,
  };
}

export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(d: string) {
    for await (const e of Deno.readDir(d)) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory && e.name !== ".cache") await walk(p);
      else if (e.isFile) out[p.slice(dir.length)] = await Deno.readTextFile(p);
      else if (e.isSymlink) out[p.slice(dir.length)] = `-> ${await Deno.readLink(p)}`;
    }
  }
  await walk(dir);
  return out;
}

/**
 * An executable that runs this checkout's CLI exactly like the task does: what VERDICT_BIN
 * points at when no compiled binary exists.
 */
export async function verdictWrapper(dir: string, name = "verdict"): Promise<string> {
  const path = `${dir}/${name}`;
  const words = [Deno.execPath(), "run", "--quiet", ...verdictRunFlags(), MAIN_TS];
  const quoted = words.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ");
  await Deno.mkdir(dir, { recursive: true });
  // The warm helper stays off unless the caller's environment turns it on (tests/warm/ does).
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nDENO_DIR='${denoDir()}' VERDICT_WARM="\${VERDICT_WARM:-off}" exec ${quoted} "$@"\n`,
    { mode: 0o755 },
  );
  return path;
}

/** A PATH folder holding only links to the named programs (found on the test's own PATH). */
export async function pathWith(dir: string, programs: readonly string[]): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  for (const name of programs) {
    for (const d of (Deno.env.get("PATH") ?? "").split(":")) {
      try {
        await Deno.stat(`${d}/${name}`);
        await Deno.symlink(`${d}/${name}`, `${dir}/${name}`);
        break;
      } catch {
        // not in this folder
      }
    }
  }
  return dir;
}
