/**
 * Small pieces every client test file uses: one scenario run shared by the file's tests, the
 * requests of one step of it, the prompts of a records file, and reading the JSONL files agents
 * write.
 */
import type { RecordedRequest } from "./model_server.ts";

/**
 * `run` once, the first time the result is asked for; every later call gets the same promise.
 * A client scenario drives the agent through a whole story once (minutes of real CLI time) and
 * each test asserts one claim on what was recorded.
 */
export function once<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | null = null;
  return () => (result ??= run());
}

/** The JSON lines of `path` (lines that do not parse are skipped: a live file may end mid-line). */
export async function readJsonl(path: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const line of (await Deno.readTextFile(path)).split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v = JSON.parse(line);
      if (typeof v === "object" && v !== null && !Array.isArray(v)) out.push(v);
    } catch {
      // a torn last line
    }
  }
  return out;
}

/**
 * The `.jsonl` files in each folder right under `root` (or in its `sub` folder), sorted: where
 * agents keep their session files, one folder per project. [] when `root` is not there.
 */
export async function jsonlFilesIn(root: string, sub?: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const dir of Deno.readDir(root)) {
      if (!dir.isDirectory) continue;
      const folder = sub === undefined ? `${root}/${dir.name}` : `${root}/${dir.name}/${sub}`;
      try {
        for await (const f of Deno.readDir(folder)) {
          if (f.isFile && f.name.endsWith(".jsonl")) out.push(`${folder}/${f.name}`);
        }
      } catch (err) {
        // a project folder without session files
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out.sort();
}

/** Options for a client test: one scenario spans several tests, so its resources outlive none. */
export const CLIENT_TEST = { sanitizeOps: false, sanitizeResources: false } as const;

/** Fails (showing the end of `text`) unless `text` contains `part`. */
export function assertIncludes(text: string, part: string, what = "the text"): void {
  if (!text.includes(part)) {
    throw new Error(`${what} does not contain ${JSON.stringify(part)}; it ends:\n${text.slice(-1500)}`);
  }
}

/** What a story keeps of its requests: all of them, and where each named step began. */
export interface Marked {
  readonly requests: readonly RecordedRequest[];
  /** Index into `requests` where each step began (marked just before the step ran). */
  readonly marks: Readonly<Record<string, number>>;
}

/**
 * The model turns of the step that began at mark `from`, up to the mark set after it (or to
 * mark `to`): by the order the marks were set, so a step that made no request ends where the
 * next one begins, not where the next request was. Side requests (titles, summaries the agent
 * asks for itself) only `withSide`.
 */
export function turnsOf(
  s: Marked,
  from: string,
  opts: { readonly to?: string; readonly withSide?: boolean } = {},
): RecordedRequest[] {
  const start = s.marks[from];
  if (start === undefined) throw new Error(`the story has no step "${from}"`);
  const names = Object.keys(s.marks); // in the order they were set (names are not numbers)
  const next = opts.to ?? names[names.indexOf(from) + 1];
  const end = next === undefined ? s.requests.length : s.marks[next]!;
  return s.requests.slice(start, end).filter((r) => r.turn && (opts.withSide === true || !r.side));
}

/** The texts of the prompt records, in order. */
export function promptTexts(records: readonly Record<string, unknown>[]): string[] {
  return records.filter((r) => r.kind === "prompt").map((r) => String(r.text));
}
